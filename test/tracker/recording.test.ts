/**
 * Recorded observations (server/tables/recording.ts): a recording refereed again gives what
 * refereeing the same observations live gave, and a file that is not a recording is refused.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSimTable } from '../../server/sim/live';
import { presetCamera } from '../../server/sim/render/camera';
import { LivePacer, openRecording, RecordingWriter } from '../../server/tables/recording';
import { simCalibration } from '../../server/tables/sim-calibration';
import { refereeObservations } from '../../server/tables/truth-referee';
import { sceneObservations, seededRandom } from '../../server/tracker/sim-observations';

describe('recorded observations', () => {
  it('referee the same as the observations they were recorded from', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nerts-recording-'));
    const file = join(dir, 'hand.jsonl');
    const noise = { drop: 0.1, misread: 0.03 };
    // Record every other frame of a 2-player hand, observations from the truth with noise.
    const sim = await createSimTable({ players: 2, seed: 3, fps: 10, render: false, hands: 1 });
    const camera = presetCamera('top', 1280, 720, sim.layout.table);
    const calibration = simCalibration(sim.layout, camera);
    const writer = new RecordingWriter(file, { seed: 3, players: sim.players, variant: sim.variant, calibration });
    const random = seededRandom(11);
    const recorded: Array<{ handIndex: number; timeMs: number; observations: ReturnType<typeof sceneObservations>; handTruth?: unknown }> = [];
    for await (const frame of sim) {
      const observations = sceneObservations(frame.scene, camera, calibration, noise, random);
      if (frame.frameIndex % 2 === 0 || frame.lastOfHand) {
        writer.frame(frame.handIndex, frame.frameIndex, frame.timeMs, observations);
        recorded.push({ handIndex: frame.handIndex, timeMs: frame.timeMs, observations, ...(frame.lastOfHand ? { handTruth: frame.handTruth } : {}) });
      }
      if (frame.lastOfHand) writer.truth(frame.handIndex, frame.handTruth);
    }
    await writer.close();

    const { meta, frames } = await openRecording(file);
    expect(meta.players.map((p) => p.id)).toEqual(sim.players.map((p) => p.id));
    const replayed = await refereeObservations(meta, frames);
    const direct = await refereeObservations(sim, recorded as never);
    expect(replayed).toHaveLength(1);
    expect(replayed[0].truth).toEqual(direct[0].truth);
    expect(replayed[0].view.players).toEqual(direct[0].view.players);
    expect(replayed[0].view.scores).toEqual(direct[0].view.scores);
    // And it referees the hand as well as the truth-mode tests expect (Nerts counts exact).
    for (const player of replayed[0].view.players) expect(player.nertsLeft).toBe(replayed[0].truth.nertsLeft[player.id]);
  });

  it("replays a referee's call (the camera missed it) before the next frame, as LiveTable.manualCall", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nerts-recording-'));
    const file = join(dir, 'called.jsonl');
    const sim = await createSimTable({ players: 2, seed: 3, fps: 10, render: false, hands: 1 });
    const camera = presetCamera('top', 1280, 720, sim.layout.table);
    const calibration = simCalibration(sim.layout, camera);
    const writer = new RecordingWriter(file, { seed: 3, players: sim.players, variant: sim.variant, calibration });
    const random = seededRandom(5);
    // Only the first 10 s are seen; then the referee calls for p2 and one more frame comes.
    let calledAt = -1;
    for await (const frame of sim) {
      if (frame.handTimeMs > 10_000 && calledAt < 0) {
        writer.call(frame.handIndex, frame.timeMs, 'p2');
        calledAt = frame.timeMs;
      }
      if (calledAt < 0 || frame.lastOfHand) writer.frame(frame.handIndex, frame.frameIndex, frame.timeMs, sceneObservations(frame.scene, camera, calibration, { drop: 0, misread: 0 }, random));
      if (frame.lastOfHand) writer.truth(frame.handIndex, frame.handTruth);
    }
    await writer.close();
    const { meta, frames } = await openRecording(file);
    const seen: Array<string | undefined> = [];
    const tagged = (async function* () {
      for await (const frame of frames) {
        seen.push(frame.calledBy);
        yield frame;
      }
    })();
    const [hand] = await refereeObservations(meta, tagged);
    // The call rides on the first frame after it, the hand's last.
    expect(seen.filter((c) => c !== undefined)).toEqual(['p2']);
    expect(seen.at(-1)).toBe('p2');
    expect(hand.view.calledBy).toBe('p2');
  });

  it('refuses a file that is not a recording', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'nerts-recording-')), 'not.jsonl');
    writeFileSync(file, '{"hello":1}\n');
    await expect(openRecording(file)).rejects.toThrow(/not a nerts-observations\/1 recording/);
  });
});

describe('pacing a recording like a live server (record:observations --pace live)', () => {
  it('reads the first frame after the recogniser is free and drops the ones it was busy for', () => {
    const pacer = new LivePacer();
    const work = [50, 50, 120, 10, 10];
    const read: number[] = [];
    for (let frame = 0; frame < 14; frame++) {
      const timeMs = Math.round(frame * (1000 / 30));
      if (!pacer.takes(timeMs)) continue;
      pacer.read(timeMs, work[read.length] ?? 10);
      read.push(frame);
    }
    // 50 ms reads take every 2nd frame; a 120 ms read (hands over the table) loses 3 frames.
    expect(read).toEqual([0, 2, 4, 8, 9, 10, 11, 12, 13]);
  });
});
