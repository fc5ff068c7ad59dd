/**
 * Decode-ahead with the committed models in a real worker thread: a live frame that waits while
 * its worker reads the one before is decoded meanwhile, and read from those pixels exactly as
 * from its bytes; a waiting frame that cannot be decoded still fails with the decoder's message.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimTable } from '../../../server/sim/live';
import { simCalibration } from '../../../server/tables/sim-calibration';
import { createRecognizer, DEFAULT_MODEL_DIR } from '../../../server/vision/index';
import type { FrameObservations } from '../../../server/vision/types';
import { RecognitionPool, type PendingFrame } from '../../../server/workers/pool';

const hasModel = existsSync(path.join(DEFAULT_MODEL_DIR, 'model.json'));
const config = { locatorModelDir: null, minConfidence: 0.35 };

function summary(observations: FrameObservations): string[] {
  return observations.cards.map((card) => `${card.zone} ${card.kind} ${card.kind === 'face' ? card.code : card.backId} ${card.confidence.toFixed(3)}`).sort();
}

describe.skipIf(!hasModel)('decode-ahead in the recognition pool', () => {
  let pool: RecognitionPool | null = null;
  afterEach(async () => {
    await pool?.close();
    pool = null;
  });

  async function twoFrames() {
    const sim = await createSimTable({ players: 3, seed: 1, fps: 1, camera: 'top' });
    const frames = [];
    for (let i = 0; i < 7; i++) frames.push((await sim.next())!);
    return { frames: [frames[5], frames[6]], calibration: simCalibration(sim.layout, sim.camera!) };
  }

  /** A one-worker pool; resolves each delivered or failed frame by its seq. */
  async function startPool(decodeAhead: boolean, calibration: ReturnType<typeof simCalibration>) {
    pool = new RecognitionPool({ kind: 'real', workers: 1, decodeAhead, realConfig: config });
    await pool.backend;
    const outcomes = new Map<number, (outcome: FrameObservations | Error) => void>();
    pool.attach('t', {
      onObservations: (frame, observations) => outcomes.get(frame.seq)?.(observations),
      onDropped: () => {},
      onFailed: (frame, error) => outcomes.get(frame.seq)?.(new Error(error)),
    });
    pool.setCalibration('t', calibration);
    const offer = (frame: Omit<PendingFrame, 'receivedAtMs'>) => {
      const outcome = new Promise<FrameObservations | Error>((resolve) => outcomes.set(frame.seq, resolve));
      pool!.offer('t', { ...frame, receivedAtMs: performance.now() });
      return outcome;
    };
    return offer;
  }

  it('reads a frame decoded while it waited exactly as one read from its bytes', { timeout: 60_000 }, async () => {
    const { frames, calibration } = await twoFrames();
    const alone = await createRecognizer({ ...config, log: () => {} });
    alone.setCalibration(calibration);
    const expected = [];
    for (const frame of frames) expected.push(summary(await alone.recognize({ kind: 'encoded', data: frame.jpeg }, frame.timeMs)));
    alone.dispose();

    const offer = await startPool(true, calibration);
    // The second frame arrives while the worker reads the first: it waits, and is decoded meanwhile.
    const first = offer({ seq: 0, image: frames[0].jpeg, captureTimeMs: frames[0].timeMs });
    const second = offer({ seq: 1, image: frames[1].jpeg, captureTimeMs: frames[1].timeMs });
    const results = (await Promise.all([first, second])) as FrameObservations[];
    expect(results.map(summary)).toEqual(expected);
    // Its turn started from pixels: the decode stage only checked their size.
    expect(results[0].timingsMs?.decode).toBeGreaterThan(1);
    expect(results[1].timingsMs?.decode).toBeLessThan(1);
  });

  it('fails a waiting frame that cannot be decoded with the decoder’s message, and reads the next', { timeout: 60_000 }, async () => {
    const { frames, calibration } = await twoFrames();
    const offer = await startPool(true, calibration);
    const first = offer({ seq: 0, image: frames[0].jpeg, captureTimeMs: frames[0].timeMs });
    const broken = offer({ seq: 1, image: new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]), captureTimeMs: frames[1].timeMs });
    expect(await first).not.toBeInstanceOf(Error);
    const failure = await broken;
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/cannot decode frame/);
    const next = await offer({ seq: 2, image: frames[1].jpeg, captureTimeMs: frames[1].timeMs });
    expect(next).not.toBeInstanceOf(Error);
    expect((next as FrameObservations).cards.length).toBeGreaterThan(0);
  });

  it('decodes ahead only the first frame to wait in a turn: one that replaces it is decoded in its turn', { timeout: 60_000 }, async () => {
    const { frames, calibration } = await twoFrames();
    const offer = await startPool(true, calibration);
    const first = offer({ seq: 0, image: frames[0].jpeg, captureTimeMs: frames[0].timeMs });
    void offer({ seq: 1, image: frames[1].jpeg, captureTimeMs: frames[1].timeMs }); // waits, decoded ahead, then replaced
    const third = offer({ seq: 2, image: frames[1].jpeg, captureTimeMs: frames[1].timeMs + 33 });
    await first;
    const result = (await third) as FrameObservations;
    expect(result.timingsMs?.decode).toBeGreaterThan(1);
  });

  it('reads every frame from its bytes when turned off', { timeout: 60_000 }, async () => {
    const { frames, calibration } = await twoFrames();
    const offer = await startPool(false, calibration);
    const results = (await Promise.all([
      offer({ seq: 0, image: frames[0].jpeg, captureTimeMs: frames[0].timeMs }),
      offer({ seq: 1, image: frames[1].jpeg, captureTimeMs: frames[1].timeMs }),
    ])) as FrameObservations[];
    expect(results[1].timingsMs?.decode).toBeGreaterThan(1);
  });
});
