/**
 * The Nerts timeline (server/tables/nerts-timeline.ts): a recording's Nerts piles as the tracker
 * followed them, beside the truth's departures, and its command-line tool.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HandTruth } from '../../server/sim/bots/engine';
import { createSimTable } from '../../server/sim/live';
import { presetCamera } from '../../server/sim/render/camera';
import { openRecording, RecordingWriter } from '../../server/tables/recording';
import { nertsTimeline } from '../../server/tables/nerts-timeline';
import { simCalibration } from '../../server/tables/sim-calibration';
import { sceneObservations, seededRandom } from '../../server/tracker/sim-observations';

describe('Nerts timeline of a recording', () => {
  it("lines up each player's departures in the truth with the tracker's tops and counts", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'nerts-timeline-')), 'hand.jsonl');
    const sim = await createSimTable({ players: 2, seed: 3, fps: 10, render: false, hands: 1 });
    const camera = presetCamera('top', 1280, 720, sim.layout.table);
    const calibration = simCalibration(sim.layout, camera);
    const writer = new RecordingWriter(file, { seed: 3, players: sim.players, variant: sim.variant, calibration });
    const random = seededRandom(2);
    let truth: HandTruth | null = null;
    for await (const frame of sim) {
      writer.frame(frame.handIndex, frame.frameIndex, frame.timeMs, sceneObservations(frame.scene, camera, calibration, { drop: 0, misread: 0 }, random));
      if (frame.lastOfHand) {
        writer.truth(frame.handIndex, frame.handTruth);
        truth = frame.handTruth;
      }
    }
    await writer.close();
    const { meta, frames } = await openRecording(file);
    const [hand] = await nertsTimeline(meta, frames);
    expect(hand.players.map((p) => p.id)).toEqual(['p1', 'p2']);
    for (const player of hand.players) {
      const departures = truth!.plays.filter((play) => play.tableau === player.id && 'from' in play.move && play.move.from.kind === 'nerts');
      expect(player.rows.filter((row) => row.kind === 'truth')).toHaveLength(departures.length);
      expect(player.truthLeft).toBe(truth!.nertsLeft[player.id]);
      // Clean observations: the tracker's count is the truth's, and every departure shows as a new top by name.
      expect(player.trackerLeft).toBe(player.truthLeft);
      expect(player.rows.filter((row) => row.kind === 'name').length).toBeGreaterThanOrEqual(departures.length);
      const times = player.rows.map((row) => row.timeMs);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
    // The command prints it, and refuses a file that is no recording with a clear message.
    const printed = execFileSync('npx', ['tsx', 'server/cli/nerts-timeline.ts', file, '--player', 'p1'], { encoding: 'utf8' });
    expect(printed).toMatch(/^hand 0 p1: \d+ left counted, \d+ true/);
    expect(printed).toMatch(/truth .* picked up/);
    const bad = join(mkdtempSync(join(tmpdir(), 'nerts-timeline-')), 'bad.jsonl');
    writeFileSync(bad, 'not json\n');
    expect(() => execFileSync('npx', ['tsx', 'server/cli/nerts-timeline.ts', bad], { encoding: 'utf8', stdio: 'pipe' })).toThrow(/not a nerts-observations\/1 recording/);
  }, 60_000);
});
