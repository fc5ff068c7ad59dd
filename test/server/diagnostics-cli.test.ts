/**
 * The tracker's diagnostic commands on the simulator's ground truth: `npm run owners -- --sim`
 * (who was credited each centre card, by cue) and `npm run card-trace` (one card, frame by frame).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const tsx = (script: string, args: string[]) => execFileSync('npx', ['tsx', script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('diagnostic commands on ground truth', () => {
  it('owners --sim reports every centre card of the hand, by the cue that named its player', () => {
    const out = tsx('server/cli/owner-report.ts', ['--sim', '--players', '2', '--seed', '3', '--hands', '1']);
    const lines = out.trim().split('\n');
    const summary = JSON.parse(lines.at(-1)!);
    expect(lines[0]).toMatch(/^hand 0: \d+ of \d+ centre cards credited right/);
    expect(summary.plays).toBeGreaterThan(10);
    expect(summary.right).toBeLessThanOrEqual(summary.plays);
    const byCue = Object.values(summary.byCue as Record<string, { right: number; wrong: number }>);
    expect(byCue.reduce((sum, { right, wrong }) => sum + right + wrong, 0)).toBe(summary.plays);
    // One listed line per card (without --wrong).
    expect(lines.filter((line) => line.includes(' → ')).length).toBe(summary.plays);
    expect(() => tsx('server/cli/owner-report.ts', ['--sim', 'some.jsonl'])).toThrow(/--sim takes no FILE/);
  }, 120_000);

  it('card-trace prints each frame around the time asked: where the copies are, what was seen, the tracks', () => {
    const out = tsx('server/cli/card-trace.ts', ['--players', '2', '--seed', '3', '--hands', '1', '--card', 'AS', '--at', '3', '--before', '0.2', '--after', '0.2']);
    const frames = out.split('\n').filter((line) => /^\d+\.\d{3}$/.test(line));
    // 30 fps over 0.4 s.
    expect(frames.length).toBeGreaterThanOrEqual(11);
    expect(frames.length).toBeLessThanOrEqual(14);
    expect(Number(frames[0])).toBeGreaterThanOrEqual(2.8);
    expect(out).toMatch(/truth: (p1|p2) .*\| (p1|p2) /);
    expect(out).toMatch(/\n {2}seen: /);
    expect(() => tsx('server/cli/card-trace.ts', ['--card', 'ZZ', '--at', '3'])).toThrow(/--card must be a card code/);
  }, 120_000);
});
