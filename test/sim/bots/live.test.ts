import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSimTable, handSeed } from '../../../server/sim/live';

const tmp = mkdtempSync(join(tmpdir(), 'sim-bots-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function runSim(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/sim/cli/sim.ts', ...args], { encoding: 'utf8', timeout: 240_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('live simulated table', () => {
  it('steps frames at 1/fps and, with loop, plays hand after hand', async () => {
    const table = await createSimTable({ players: 3, seed: 4, fps: 2, loop: true, render: false });
    expect(table.players.map((p) => p.seat)).toEqual([0, 1, 2]);
    expect(table.seats).toHaveLength(3);
    const first = await table.next();
    const second = await table.next();
    expect(first?.timeMs).toBe(0);
    expect(second?.timeMs).toBe(500);
    expect(first?.scene.cards).toHaveLength(3 * 52);
    table.skipRestOfHand();
    const nextHand = await table.next();
    expect(nextHand?.handIndex).toBe(1);
    expect(nextHand?.handTimeMs).toBe(0);
    expect(nextHand!.timeMs).toBeGreaterThan(second!.timeMs);
    expect(table.currentHand()?.seed).toBe(handSeed(4, 1));
    expect(nextHand?.handTruth.seed).toBe(handSeed(4, 1));
    // Skipping ahead within a hand: the next frame is the first at or after that time, never past
    // the hand's last frame, and never back.
    table.skipToHandTime(2250);
    expect((await table.next())?.handTimeMs).toBe(2500);
    table.skipToHandTime(1000);
    expect((await table.next())?.handTimeMs).toBe(3000);
    table.skipToHandTime(1e9);
    const last = await table.next();
    expect(last?.lastOfHand).toBe(true);
    expect(last?.handIndex).toBe(1);
  });

  it('without loop, stops after the requested hands', async () => {
    const table = await createSimTable({ players: 2, seed: 1, fps: 1, hands: 1, render: false });
    let frames = 0;
    let last = null;
    for await (const frame of table) {
      frames++;
      last = frame;
    }
    expect(last?.lastOfHand).toBe(true);
    // The hand's frames run to the end of its timeline, the score sort included.
    expect(frames).toBe(Math.floor(table.currentHand()!.durationMs / 1000) + 1);
    expect(await table.next()).toBeNull();
  });

  it('renders webcam JPEG frames with per-card ground truth', async () => {
    const table = await createSimTable({ players: 2, seed: 3, fps: 4, width: 320, height: 180 });
    expect(Object.keys(table.decks)).toHaveLength(2);
    expect(table.players[0].backDesign).toBe(table.decks[table.players[0].deckId].back);
    const frame = (await table.next())!;
    expect(frame.jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(frame.truth.length).toBeGreaterThan(10);
    const owners = new Set(frame.truth.map((c) => c.owner));
    expect(owners).toEqual(new Set(table.players.map((p) => p.id)));
    for (const card of frame.truth) {
      expect(card.corners).toHaveLength(4);
      expect(card.visibleFraction).toBeGreaterThan(0);
      expect(card.visibleFraction).toBeLessThanOrEqual(1);
    }
  });

  it('rejects bad options clearly', async () => {
    await expect(createSimTable({ players: 9, seed: 1, fps: 15 })).rejects.toThrow(/players must be 2 to 6/);
    await expect(createSimTable({ players: 3, seed: 1, fps: 0 })).rejects.toThrow(/fps/);
  });
});

describe('npm run sim', () => {
  it('writes frames and a ground-truth file per hand, deterministically', () => {
    const outA = join(tmp, 'a');
    const outB = join(tmp, 'b');
    const args = ['--players', '2', '--seed', '5', '--fps', '2', '--width', '320', '--height', '180', '--max-seconds', '3'];
    const a = runSim([...args, '--out', outA]);
    expect(a.status, a.stderr).toBe(0);
    const summary = JSON.parse(a.stdout.trim().split('\n').pop()!);
    expect(summary.frames).toBe(7);
    const files = readdirSync(join(outA, 'hand-000'));
    expect(files.filter((f) => f.endsWith('.jpg'))).toHaveLength(7);
    const truth = JSON.parse(readFileSync(join(outA, 'hand-000', 'truth.json'), 'utf8'));
    expect(truth.header.format).toBe('nerts-sim-frames/1');
    expect(truth.frames).toHaveLength(7);
    expect(truth.frames[0].cards[0]).toMatchObject({ code: expect.any(String), corners: expect.any(Array), zone: expect.any(Object) });
    expect(truth.hand.format).toBe('nerts-sim-hand/1');
    expect(truth.hand.plays.length).toBeGreaterThan(10);
    const b = runSim([...args, '--out', outB]);
    expect(b.status, b.stderr).toBe(0);
    expect(readFileSync(join(outB, 'hand-000', 'truth.json'), 'utf8')).toBe(readFileSync(join(outA, 'hand-000', 'truth.json'), 'utf8'));
    expect(readFileSync(join(outB, 'hand-000', 'frame-000006.jpg'))).toEqual(readFileSync(join(outA, 'hand-000', 'frame-000006.jpg')));
  });

  it('writes scenes without rendering when asked', () => {
    const out = join(tmp, 'scenes');
    const r = runSim(['--players', '3', '--seed', '2', '--fps', '1', '--max-seconds', '2', '--no-render', '--partners', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const truth = JSON.parse(readFileSync(join(out, 'hand-000', 'truth.json'), 'utf8'));
    expect(truth.frames[0].scene.cards).toHaveLength(3 * 52);
    // --partners: two people (two hands) at each of the three tableaus.
    expect(truth.frames[0].scene.hands).toHaveLength(6);
    expect(truth.header.players.map((p: { partner?: { id: string } }) => p.partner?.id)).toEqual(['p1b', 'p2b', 'p3b']);
  });

  it('exits 2 with a message on bad arguments', () => {
    const r = runSim(['--players', '9', '--out', join(tmp, 'bad')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/players must be 2 to 6/);
    const missing = runSim(['--players', '3']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/--out/);
  });
});
