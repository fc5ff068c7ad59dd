/**
 * The tracker sweep (server/cli/bench-tracker.ts): its option lists, its sums, and one small
 * real sweep through bench:referee's truth mode.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseList, sumRuns } from '../../server/cli/bench-tracker';

describe('bench:tracker', () => {
  it('reads lists and ranges of numbers, and refuses anything else', () => {
    expect(parseList('1-6', 'seeds')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(parseList('3,5-6', 'players')).toEqual([3, 5, 6]);
    expect(() => parseList('2-x', 'seeds')).toThrow(/--seeds takes numbers and ranges/);
    expect(() => parseList('4-2', 'seeds')).toThrow(/not a range/);
  });

  it('sums the runs: hands exact per player count, centre cards, races and false alarms', () => {
    const run = (players: number, handsExact: number, right: number) => ({ players, seed: 1, handsScored: 3, handsExact, centreCards: { truth: 100, seen: 100, right, named: 100 }, disputes: { right: 4, truth: 5, seen: 6 }, nertsErrorPerPlayer: { mean: 0, max: players === 4 ? 1 : 0 } });
    const alarmed = { ...run(4, 0.333, 97), falseAlarms: { total: 3, byCode: { 'foundation/wrong-rank': 2, 'foundation/must-start-with-ace': 1 } } };
    expect(sumRuns([run(3, 1, 100), run(3, 0.667, 99), alarmed])).toEqual({
      runs: 3,
      hands: 9,
      handsExact: 6,
      byPlayers: { '3': { exact: 5, hands: 6 }, '4': { exact: 1, hands: 3 } },
      centreCards: { truth: 300, right: 296 },
      races: { truth: 15, right: 12, seen: 18 },
      nertsErrorMax: 1,
      falseAlarms: { total: 3, byCode: { 'foundation/wrong-rank': 2, 'foundation/must-start-with-ace': 1 } },
    });
  });

  it('runs bench:referee on truth for each players × seed and prints the sums as its last line', () => {
    const out = execFileSync('npx', ['tsx', 'server/cli/bench-tracker.ts', '--players', '2', '--seeds', '3', '--hands', '1'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const line = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(line).toMatchObject({ bench: 'tracker', runs: 1, hands: 1, byPlayers: { '2': { hands: 1 } } });
    expect(line.centreCards.truth).toBeGreaterThan(10);
    expect(line.centreCards.right).toBeLessThanOrEqual(line.centreCards.truth);
    expect(line.falseAlarms.total).toBeGreaterThanOrEqual(0);
    expect(() => execFileSync('npx', ['tsx', 'server/cli/bench-tracker.ts', '--players', '9'], { encoding: 'utf8', stdio: 'pipe' })).toThrow(/--players must lie in 2–6/);
  }, 120_000);
});
