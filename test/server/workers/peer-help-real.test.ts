/**
 * Peer help and the two-stage pipeline with the committed models in real worker threads: a
 * table's live frames read through a pool of two workers (one worker reading, the other helping;
 * or one localising and the other reading, each helping the other) give the same observations as
 * one recogniser alone on this thread, and the idle worker did read part of the batches.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSimTable } from '../../../server/sim/live';
import { simCalibration } from '../../../server/tables/sim-calibration';
import { createRecognizer, DEFAULT_MODEL_DIR } from '../../../server/vision/index';
import type { FrameObservations } from '../../../server/vision/types';
import { RecognitionPool } from '../../../server/workers/pool';

const hasModel = existsSync(path.join(DEFAULT_MODEL_DIR, 'model.json'));
const config = { locatorModelDir: null, minConfidence: 0.35 };

/** What a frame's observations say, rounded so the two threads' float sums compare. */
function summary(observations: FrameObservations): string[] {
  return observations.cards.map((card) => `${card.zone} ${card.kind} ${card.kind === 'face' ? card.code : card.backId} ${card.confidence.toFixed(3)}`).sort();
}

describe.skipIf(!hasModel)('peer help with the committed models', () => {
  const pools: RecognitionPool[] = [];
  afterAll(async () => Promise.all(pools.map((pool) => pool.close())));

  it.each([
    ['one worker reading, the other helping', false],
    ['one worker localising, the other reading (the pipeline)', true],
  ])('reads a table through two workers, %s, exactly as one recogniser alone', { timeout: 60_000 }, async (_name, pipeline) => {
    // Five frames of a live hand, 5 s in, a frame a second: every frame changes a lot.
    const sim = await createSimTable({ players: 3, seed: 1, fps: 1, camera: 'top' });
    const frames = [];
    for (let i = 0; i < 10; i++) {
      const frame = await sim.next();
      if (i >= 5) frames.push(frame!);
    }
    const calibration = simCalibration(sim.layout, sim.camera!);

    const alone = await createRecognizer({ ...config, log: () => {} });
    alone.setCalibration(calibration);
    const expected: string[][] = [];
    for (const frame of frames) expected.push(summary(await alone.recognize({ kind: 'encoded', data: frame.jpeg }, frame.timeMs)));
    alone.dispose();

    const pool = new RecognitionPool({ kind: 'real', workers: 2, realConfig: config, pipeline });
    pools.push(pool);
    await pool.backend;
    const results: FrameObservations[] = [];
    let next: () => void = () => {};
    pool.attach('t', {
      onObservations: (_frame, observations) => {
        results.push(observations);
        next();
      },
      onDropped: () => {},
      onFailed: (_frame, error) => {
        throw new Error(error);
      },
    });
    pool.setCalibration('t', calibration);
    for (const [seq, frame] of frames.entries()) {
      const done = new Promise<void>((resolve) => (next = resolve));
      pool.offer('t', { seq, image: frame.jpeg, captureTimeMs: frame.timeMs, receivedAtMs: performance.now() });
      await done;
    }
    expect(results.map(summary)).toEqual(expected);
    // The worker reading the frames offered half its CNN batches to the other, idle by then.
    const reader = pool.readerOf('t')!;
    expect(reader).toBe(pipeline ? 1 - pool.homeOf('t')! : pool.homeOf('t'));
    const stats = await pool.helpStats();
    const [reading, other] = [stats[reader], stats[1 - reader]];
    expect(reading.offered).toBeGreaterThan(0);
    expect(reading.answered + reading.reclaimed).toBe(reading.offered);
    expect(other.servedImages).toBeGreaterThan(0);
  });
});
