/**
 * `npm run bench:vision -- [--frames 60] [--seed 3] [--moving 1]`
 * Times the whole recogniser pipeline on 1280x720 rendered table frames (server/sim/render): a
 * cluttered random table where `--moving` cards move a little every frame, as in play. Reports
 * steady-state speed with tracking (only changed cards go through the CNN), without tracking,
 * and from JPEG bytes (decode included). Ends with one JSON line.
 *
 * `npm run bench:vision -- --live [--frames 300] [--seed 1] [--players 3] [--every 2] [--workers 2]`
 * Times the recogniser as the server runs it: every `--every`th frame of a simulated hand (hands
 * moving everywhere), calibrated and with the decks' backs enrolled, sent back to back through
 * the worker pool, with peer help and without (server/workers/peer-help.ts). Ends with one JSON
 * line: ms a frame (mean, p50, p95), frames a second and the mean stage times, for each.
 *
 * A third run, `pipelined`, feeds the pool as a camera faster than the recogniser does: while a
 * frame is read the next one already waits in the table's slot (decoded meanwhile, the pool's
 * decode-ahead), so its `fps` is the throughput a live table gets, and its p50/p95 are each
 * frame's time from offer to observations, the wait in the slot included. Peer help on. These
 * three runs read each frame on one worker (the pool's two-stage pipeline off).
 *
 * Two more runs feed the pool as a 30 fps camera would (a frame every 33 ms, whether or not the
 * one before is done; the newest waiting frame wins): `camera` with each frame on one worker, and
 * `cameraTwoStage` with the pool's pipeline (a frame localised on one worker while the one before
 * is read on the other; the server's `NERTS_PIPELINE=1`). Their `fps` counts the frames read, `dropped` the
 * frames replaced unread, and p50/p95 each frame's time from offer to observations.
 */
import sharp from 'sharp';
import { randomScene } from '../../server/sim/render/random-scene';
import { createRenderer } from '../../server/sim/render/index';
import { configFromEnv, liveModelsFromEnv, liveRecognizerConfig } from '../../server/plugins/config';
import { createRecognizer, type CardRecognizer } from '../../server/vision/index';
import type { FrameInput, FrameObservations } from '../../server/vision/types';
import { createSimTable } from '../../server/sim/live';
import { cropQuad } from '../../server/tables/crop';
import { simCalibration } from '../../server/tables/sim-calibration';
import { backViews } from '../../server/tables/sim-feed';
import { RecognitionPool, type TableSink } from '../../server/workers/pool';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} needs a number`);
  return n;
}

async function timeRun(recognizer: CardRecognizer, frames: FrameInput[]): Promise<{ msPerFrame: number; cards: number; stages: Record<string, number> }> {
  // One untimed warm-up frame (first predict compiles kernels).
  await recognizer.recognize(frames[0], 0);
  const stages: Record<string, number> = {};
  let cards = 0;
  const started = performance.now();
  for (let i = 0; i < frames.length; i++) {
    const result = await recognizer.recognize(frames[i], i * 33);
    cards += result.cards.length;
    for (const [k, v] of Object.entries(result.timingsMs ?? {})) stages[k] = (stages[k] ?? 0) + v / frames.length;
  }
  const msPerFrame = (performance.now() - started) / frames.length;
  for (const k of Object.keys(stages)) stages[k] = Number(stages[k].toFixed(2));
  return { msPerFrame, cards: cards / frames.length, stages };
}

/** Mean, median and 95th percentile of `values`, to 0.1. */
function spread(values: number[]): { mean: number; p50: number; p95: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => Number(sorted[Math.floor(q * (sorted.length - 1))].toFixed(1));
  return { mean: Number((values.reduce((a, b) => a + b, 0) / values.length).toFixed(1)), p50: at(0.5), p95: at(0.95) };
}

/** A live hand's frames through the worker pool, one after another (see the header). */
async function live(): Promise<void> {
  const count = arg('frames', 300);
  const every = Math.max(1, arg('every', 2));
  const workers = Math.max(1, arg('workers', 2));
  const sim = await createSimTable({ players: arg('players', 3), seed: arg('seed', 1), fps: 30, camera: 'top', hands: 1 });
  console.error(`[bench] rendering ${count} frames of a live hand (every ${every}th at 30 fps)…`);
  const frames: Array<{ jpeg: Uint8Array; timeMs: number }> = [];
  const backs: Array<[string, Uint8Array]> = [];
  let seen = 0;
  for await (const frame of sim) {
    if (backs.length === 0) for (const [deckId, corners] of backViews(frame.truth)) backs.push([deckId, await cropQuad(frame.jpeg, corners)]);
    if (seen++ % every === 0) frames.push({ jpeg: new Uint8Array(frame.jpeg), timeMs: frame.timeMs });
    if (frames.length >= count) break;
  }
  const calibration = simCalibration(sim.layout, sim.camera!);
  const keepAlive = setInterval(() => {}, 1000); // the pool's threads do not hold the process open
  /** A pool of `workers` with the hand's table attached as 'bench' to `sink`, calibrated, its decks' backs enrolled. */
  const openPool = async (options: { peerHelp: boolean; pipeline: boolean }, sink: TableSink): Promise<RecognitionPool> => {
    const pool = new RecognitionPool({ kind: 'real', workers, ...options, realConfig: liveRecognizerConfig(configFromEnv()) });
    try {
      await pool.backend;
      pool.attach('bench', sink);
      pool.setCalibration('bench', calibration);
      for (const [backId, view] of backs) await pool.enrollBack('bench', backId, [view]);
      return pool;
    } catch (error) {
      await pool.close();
      throw error;
    }
  };
  const run = async (peerHelp: boolean, pipelined = false) => {
    type Delivered = { observations: FrameObservations; latencyMs: number };
    const waiting = new Map<number, (result: Delivered) => void>();
    const resultOf = (seq: number) => new Promise<Delivered>((resolve) => waiting.set(seq, resolve));
    const pool = await openPool({ peerHelp, pipeline: false }, {
      onObservations: (frame, observations, latencyMs) => waiting.get(frame.seq)?.({ observations, latencyMs }),
      onDropped: () => {},
      onFailed: (_frame, error) => console.error(`[bench] frame failed: ${error}`),
    });
    try {
      const backend = await pool.backend;
      const latencies: number[] = [];
      const stages: Record<string, number> = {};
      const started = performance.now();
      const results = new Map<number, Promise<Delivered>>();
      const offer = (seq: number) => {
        results.set(seq, resultOf(seq));
        pool.offer('bench', { seq, image: frames[seq].jpeg, captureTimeMs: frames[seq].timeMs, receivedAtMs: performance.now() });
      };
      for (let seq = 0; seq < frames.length; seq++) {
        if (!results.has(seq)) offer(seq);
        // Pipelined: the next frame waits in the slot while this one is read (never replacing one).
        if (pipelined && seq + 1 < frames.length) offer(seq + 1);
        const { observations, latencyMs } = await results.get(seq)!;
        latencies.push(latencyMs);
        for (const [stage, ms] of Object.entries(observations.timingsMs ?? {})) stages[stage] = (stages[stage] ?? 0) + ms / frames.length;
      }
      const seconds = (performance.now() - started) / 1000;
      const ms = spread(latencies.slice(5)); // the first frames read every card
      for (const stage of Object.keys(stages)) stages[stage] = Number(stages[stage].toFixed(1));
      const help = await pool.helpStats();
      const fps = Number((frames.length / seconds).toFixed(1));
      console.error(`[bench] peer help ${peerHelp ? 'on' : 'off'}${pipelined ? ', pipelined' : ''}: ${ms.mean} ms a frame (p95 ${ms.p95}), ${fps} frames/s; helper counters ${JSON.stringify(help)}`);
      // Pipelined, a frame's latency includes its wait in the slot: ms a frame is the wall time's share.
      const msPerFrame = pipelined ? Number(((seconds * 1000) / frames.length).toFixed(1)) : ms.mean;
      return { recognizer: backend, msPerFrame, p50Ms: ms.p50, p95Ms: ms.p95, fps, stagesMs: stages };
    } finally {
      await pool.close();
    }
  };
  /** The frames offered at 30 fps, as a camera: what a live table reads (pool's pipeline on or off), peer help on. */
  const camera = async (pipeline: boolean) => {
    const latencies: number[] = [];
    let [read, dropped] = [0, 0];
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => (done = resolve));
    const settle = (seq: number) => seq === frames.length - 1 && done();
    const pool = await openPool({ peerHelp: true, pipeline }, {
      onObservations: (frame, _observations, latencyMs) => {
        read += 1;
        if (frame.seq >= 5) latencies.push(latencyMs); // the first frames read every card
        settle(frame.seq);
      },
      onDropped: (count) => (dropped += count), // never the last frame offered: nothing replaces it
      onFailed: (frame, error) => {
        console.error(`[bench] frame failed: ${error}`);
        settle(frame.seq);
      },
    });
    try {
      const periodMs = 1000 / 30;
      const started = performance.now();
      for (let seq = 0; seq < frames.length; seq++) {
        const due = started + seq * periodMs;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        pool.offer('bench', { seq, image: frames[seq].jpeg, captureTimeMs: seq * periodMs, receivedAtMs: performance.now() });
      }
      await finished;
      const seconds = (performance.now() - started) / 1000;
      const ms = spread(latencies);
      const fps = Number((read / seconds).toFixed(1));
      console.error(`[bench] camera at 30 fps, ${pipeline ? 'two stages on two workers' : 'a frame on one worker'}: ${fps} frames/s read, ${dropped} dropped, p50 ${ms.p50}, p95 ${ms.p95} ms from offer to observations`);
      return { fps, dropped, p50Ms: ms.p50, p95Ms: ms.p95 };
    } finally {
      await pool.close();
    }
  };
  const withHelp = await run(true);
  const withoutHelp = await run(false);
  const pipelined = await run(true, true);
  const cameraOneWorker = await camera(false);
  const cameraTwoStage = await camera(true);
  clearInterval(keepAlive);
  console.log(JSON.stringify({ bench: 'vision-live', frames: frames.length, every, workers, peerHelp: withHelp, noPeerHelp: withoutHelp, pipelined, camera: cameraOneWorker, cameraTwoStage }));
}

async function main(): Promise<void> {
  if (process.argv.includes('--live')) return live();
  const count = arg('frames', 60);
  const seed = arg('seed', 3);
  const moving = arg('moving', 1);
  const width = 1280;
  const height = 720;
  const renderer = await createRenderer({ seed, width, height, camera: 'top' });
  const scene = randomScene({ seed, maxHands: 0 });
  const rgbFrames: FrameInput[] = [];
  const jpegFrames: FrameInput[] = [];
  console.error(`[bench] rendering ${count} frames (${scene.cards.length} cards on the table, ${moving} moving)…`);
  for (let i = 0; i < count; i++) {
    // Move the top-most `moving` cards a few millimetres per frame.
    for (let m = 0; m < moving; m++) {
      const card = scene.cards[scene.cards.length - 1 - m];
      card.xMm += 4 * Math.cos(i / 5 + m);
      card.yMm += 4 * Math.sin(i / 5 + m);
    }
    const frame = await renderer.render(scene);
    const raw = await sharp(frame.jpeg).removeAlpha().raw().toBuffer();
    rgbFrames.push({ kind: 'rgb', data: new Uint8Array(raw.buffer, raw.byteOffset, raw.length), width, height });
    jpegFrames.push({ kind: 'encoded', data: new Uint8Array(frame.jpeg) });
  }
  const tracked = await createRecognizer({ tracking: true, ...liveModelsFromEnv() });
  const withTracking = await timeRun(tracked, rgbFrames);
  const fromJpeg = await timeRun(tracked, jpegFrames);
  tracked.dispose();
  const untracked = await createRecognizer({ tracking: false, ...liveModelsFromEnv() });
  const withoutTracking = await timeRun(untracked, rgbFrames.slice(0, Math.min(count, 15)));
  untracked.dispose();
  const summary = {
    frames: count,
    width,
    height,
    backend: tracked.backend,
    cardsPerFrame: Number(withTracking.cards.toFixed(1)),
    msPerFrame: Number(withTracking.msPerFrame.toFixed(1)),
    fps: Number((1000 / withTracking.msPerFrame).toFixed(1)),
    stagesMs: withTracking.stages,
    msPerFrameJpeg: Number(fromJpeg.msPerFrame.toFixed(1)),
    fpsJpeg: Number((1000 / fromJpeg.msPerFrame).toFixed(1)),
    msPerFrameNoTracking: Number(withoutTracking.msPerFrame.toFixed(1)),
    fpsNoTracking: Number((1000 / withoutTracking.msPerFrame).toFixed(1)),
    stagesNoTrackingMs: withoutTracking.stages,
  };
  console.log(JSON.stringify(summary));
}

main().catch((error: unknown) => {
  console.error(`[bench] failed: ${(error as Error).message}`);
  process.exit(1);
});
