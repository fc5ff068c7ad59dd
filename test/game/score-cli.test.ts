// Spawns the real `npm run score` entry (tsx server/game/cli/score.ts) on files and stdin.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreSheet } from '../../server/game/score-input';

const root = resolve(__dirname, '../..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const cli = join(root, 'server', 'game', 'cli', 'score.ts');
const dir = mkdtempSync(join(tmpdir(), 'nerts-score-'));

function score(args: string[], stdin?: string) {
  const result = spawnSync(tsx, [cli, ...args], { cwd: root, input: stdin, encoding: 'utf8' });
  const lines = result.stdout.trim().split('\n');
  return { code: result.status, last: lines[lines.length - 1], stderr: result.stderr };
}

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const oneHand = { variant: 'nertz', players: ['ann', 'bob', 'cy'], centre: { ann: 17, bob: 9, cy: 12 }, nertsLeft: { ann: 0, bob: 4, cy: 7 }, caller: 'ann' };

describe('npm run score', () => {
  it('[P4] scores one hand from a file, printing JSON on the last line', () => {
    const out = score([file('hand.json', oneHand)]);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.last)).toEqual({ scores: { ann: 17, bob: 1, cy: -2 } });
  });

  it('[M1] scores a match from stdin: per-hand scores, totals, winner (null while undecided)', () => {
    const match = { variant: 'house-150', players: ['ann', 'bob'], hands: [{ centre: { ann: 20, bob: 10 }, nertsLeft: { ann: 0, bob: 5 }, caller: 'ann' }, { centre: { ann: 5, bob: 25 }, nertsLeft: { ann: 3, bob: 0 }, caller: 'bob' }] };
    const out = score(['-'], JSON.stringify(match));
    expect(out.code).toBe(0);
    expect(JSON.parse(out.last)).toEqual({ hands: [{ scores: { ann: 30, bob: 0 } }, { scores: { ann: -1, bob: 35 } }], totals: { ann: 29, bob: 35 }, winner: null, ended: false, endReason: null, tiedLeaders: [] });
  });

  it('[P8] accepts a variant object of knobs and [P7] teams', () => {
    const out = score([file('teams.json', { ...oneHand, players: ['ann', 'bob', 'cy', 'dee'], variant: { preset: 'nertz', callBonus: 10 }, centre: { ...oneHand.centre, dee: 1 }, nertsLeft: { ...oneHand.nertsLeft, dee: 2 }, teams: { t1: ['ann', 'bob'], t2: ['cy', 'dee'] } })]);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.last)).toEqual({ scores: { t1: 17 + 10 + 1, t2: -2 + 1 - 4 } });
  });

  it('[T1] the tournament variant prints what each player records for the table', () => {
    const sheet = { variant: 'tournament', players: ['A', 'B', 'C', 'D'], hands: [{ centre: { A: 85, B: 93, C: 67, D: 80 }, nertsLeft: { A: 0, B: 0, C: 0, D: 0 }, caller: null }, { centre: { A: 3, B: 2, C: 35, D: 1 }, nertsLeft: { A: 0, B: 0, C: 0, D: 0 }, caller: 'C' }] };
    // Counts above 52 are refused, so feed the first hand's totals through several hands instead.
    expect(scoreSheet(sheet)).toEqual({ ok: false, error: 'hands[0].centre.A is 85: a deck has only 52 cards' });
    const fair = { ...sheet, hands: [{ centre: { A: 45, B: 50, C: 40, D: 40 }, nertsLeft: { A: 0, B: 0, C: 0, D: 0 }, caller: 'B' }, { centre: { A: 40, B: 43, C: 27, D: 40 }, nertsLeft: { A: 0, B: 0, C: 0, D: 0 }, caller: 'A' }, sheet.hands[1]] };
    const out = score([file('tournament.json', fair)]);
    expect(JSON.parse(out.last)).toMatchObject({ winner: 'C', tableRecord: { A: 85, B: 93, C: 100, D: 80 } });
  });

  it('[R7] bad input: a clear message on stderr and exit code 2', () => {
    const cases: [string[], string | undefined, RegExp][] = [
      [[], undefined, /no input file/],
      [[join(dir, 'missing.json')], undefined, /cannot read/],
      [[file('bad.json', '{nope')], undefined, /not valid JSON/],
      [[file('novariant.json', { players: ['a'] })], undefined, /variant is required/],
      [[file('badvariant.json', { ...oneHand, variant: 'poker' })], undefined, /unknown variant "poker"/],
      [[file('missing-count.json', { ...oneHand, centre: { ann: 1 } })], undefined, /centre.bob is missing/],
      [[file('neg.json', { ...oneHand, nertsLeft: { ann: 0, bob: -1, cy: 0 } })], undefined, /whole number/],
      [[file('caller.json', { ...oneHand, caller: 'zed' })], undefined, /caller must be one of the players/],
      [['-'], '[1,2]', /JSON object/],
    ];
    for (const [args, stdin, message] of cases) {
      const out = score(args, stdin);
      expect(out.code, args.join(' ')).toBe(2);
      expect(out.stderr).toMatch(message);
    }
  });

  it('[M3] hands after the match ended are refused', () => {
    const hands = Array.from({ length: 21 }, () => ({ centre: { ann: 1, bob: 0 }, nertsLeft: { ann: 0, bob: 0 }, caller: null }));
    const result = scoreSheet({ variant: 'nertz', players: ['ann', 'bob'], hands });
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/ended after hand 20/) });
  });
});
