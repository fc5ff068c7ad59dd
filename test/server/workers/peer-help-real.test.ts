/**
 * Peer help with the committed models in real worker threads: a table's live frames read through
 * a pool of two helping workers give the same observations as one recogniser alone on this
 * thread, and the idle worker did read part of the batches.
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
  let pool: RecognitionPool | null = null;
  afterAll(async () => pool?.close());

  it('reads a table through two helping workers exactly as one recogniser alone', { timeout: 60_000 }, async () => {
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

    pool = new RecognitionPool({ kind: 'real', workers: 2, realConfig: config });
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
    const [home, helper] = await pool.helpStats();
    expect(home.offered).toBeGreaterThan(0);
    expect(home.answered + home.reclaimed).toBe(home.offered);
    expect(helper.servedImages).toBeGreaterThan(0);
  });
});
