/**
 * npm run record:observations -- --out FILE [--players N] [--hands K] [--seed S]
 *   [--every E | --pace live] [--workers W [--prerender]] [--camera top|oblique] [--art DIR]
 *
 * Plays simulated hands through the real recogniser (in this process, the server's settings:
 * classical localiser, live confidence floor, backs enrolled from the first frame, tracking on;
 * with `--workers W`, the server's own worker pool of W threads with peer help instead, so a
 * paced recording keeps as many frames as a live table would; add `--prerender` to render every
 * frame first, so the renderer does not take the workers' cores, as a real camera would not)
 * and writes what it saw on every E-th frame (default 2: about what one worker keeps up with at
 * 30 fps) to a recording, each hand's truth after its last frame (server/tables/recording.ts).
 * With `--pace live` it keeps the frames a live server would instead: the 30 fps camera runs on
 * while a frame is recognised, and the first frame after the recogniser is free is the next one
 * read (the rest are dropped), so busy moments (several hands over the table) lose frames as
 * they do live. Which frames survive then depends on this machine's speed at the time.
 * After each hand's call, a frame a second is read whole, as a live table reads the score sort.
 * Then `npm run bench:referee -- --observations FILE` referees it again in seconds, so the
 * tracker can be tuned on real recogniser output. About 10 minutes for 2 hands of 3 players on
 * this machine.
 */
import { parseArgs } from 'node:util';
import { positiveInt as positiveIntArg } from './args';
import { createSimTable, type SimFrame } from '../sim/live';
import { configFromEnv, liveRecognizerConfig } from '../plugins/config';
import { createRecognizer } from '../vision/index';
import type { FrameObservations, TableCalibration } from '../vision/types';
import { RecognitionPool } from '../workers/pool';
import { LivePacer, RecordingWriter } from '../tables/recording';
import { simCalibration } from '../tables/sim-calibration';
import { BackShowings, ShownBacks } from '../tables/sim-feed';
import { SortWholeReads } from '../tables/sort-reads';

function usage(message: string): never {
  console.error(`record:observations: ${message}\nusage: npm run record:observations -- --out FILE [--players N] [--hands K] [--seed S] [--every E | --pace live] [--workers W [--prerender]] [--camera top|oblique] [--art DIR]`);
  process.exit(2);
}

const positiveInt = (value: string | undefined, name: string, fallback: number): number => positiveIntArg(value, name, fallback, usage);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      players: { type: 'string' },
      hands: { type: 'string' },
      seed: { type: 'string' },
      every: { type: 'string' },
      pace: { type: 'string' },
      workers: { type: 'string' },
      prerender: { type: 'boolean' },
      camera: { type: 'string' },
      art: { type: 'string' },
    },
    strict: true,
  });
  if (!values.out) usage('--out FILE is required');
  const players = positiveInt(values.players, 'players', 3);
  if (players > 6 || players < 2) usage('--players must be 2 to 6');
  const hands = positiveInt(values.hands, 'hands', 2);
  const every = positiveInt(values.every, 'every', 2);
  if (values.pace !== undefined && values.pace !== 'live') usage('--pace must be live');
  if (values.pace !== undefined && values.every !== undefined) usage('--every and --pace live exclude each other');
  const paced = values.pace === 'live';
  const seed = Number(values.seed ?? 1);
  if (!Number.isFinite(seed)) usage('--seed must be a number');
  const workers = values.workers === undefined ? 0 : positiveInt(values.workers, 'workers', 2);
  const camera = values.camera ?? 'top';
  if (camera !== 'top' && camera !== 'oblique') usage('--camera must be top or oblique');

  const sim = await createSimTable({ players, seed, fps: 30, camera, hands, ...(values.art ? { art: values.art } : {}) });
  const config = liveRecognizerConfig(configFromEnv());
  const recognizer = workers > 0 ? await poolRecognizer(workers, config) : await inProcessRecognizer(config);
  const calibration = sim.camera ? simCalibration(sim.layout, sim.camera) : null;
  recognizer.setCalibration(calibration);
  const writer = new RecordingWriter(values.out, { seed, players: sim.players, variant: sim.variant, calibration });
  const log = (message: string) => console.error(`[record:observations] ${message}`);
  log(`${players} players, ${hands} hand(s), seed ${seed}, camera ${camera}, ${paced ? 'paced like a live server' : `every ${every} frame(s)`}, recogniser ${recognizer.backend}${workers > 0 ? ` on ${workers} worker(s) with peer help` : ' in this process'} → ${values.out}`);
  const started = performance.now();
  let count = 0;
  let kept = 0;
  const pacer = new LivePacer();
  const shownBacks = new ShownBacks();
  const sortReads = new SortWholeReads();
  let sortHand = -1;
  if (values.prerender) log('rendering every frame first…');
  const frames = values.prerender ? await renderAll(sim) : sim;
  for await (const frame of frames) {
    // The players show their backs: each deck's stock is in view.
    for (const [deckId, views] of await shownBacks.take(frame)) await recognizer.enrollBack(deckId, views);
    const due = paced ? pacer.takes(frame.timeMs) : count % every === 0;
    count++;
    if (due || frame.lastOfHand) {
      // After the call a live table reads score-sort frames whole (the first, then one a second
      // while the table is still: sort-reads.ts); so does the recorder, from the truth's call.
      const called = frame.handTruth.callMs !== null && frame.handTimeMs >= frame.handTruth.callMs;
      if (called && sortHand !== frame.handIndex) {
        sortHand = frame.handIndex;
        sortReads.reset();
      }
      const everyCard = called && sortReads.take(frame.timeMs);
      const readStarted = performance.now();
      const observations = await recognizer.recognize(frame.jpeg, frame.timeMs, { everyCard, scoreSort: called });
      const workMs = performance.now() - readStarted;
      if (called && observations.motion) sortReads.observed(frame.timeMs, observations.motion.length > 0);
      // On the camera's clock a whole read comes back when the next frame may be read (paced), or at once.
      if (everyCard) sortReads.finished(paced ? frame.timeMs + workMs : frame.timeMs);
      writer.frame(frame.handIndex, frame.frameIndex, frame.timeMs, observations, everyCard);
      pacer.read(frame.timeMs, workMs);
      kept++;
    }
    if (frame.lastOfHand) {
      writer.truth(frame.handIndex, frame.handTruth);
      log(`hand ${frame.handIndex} recorded (${kept} of ${count} frames, ${Math.round((performance.now() - started) / 1000)} s)`);
    }
  }
  await writer.close();
  await recognizer.close();
  console.log(JSON.stringify({ recorded: values.out, players, hands, seed, ...(paced ? { pace: 'live' } : { every }), ...(workers > 0 ? { workers } : {}), frames: count, kept, wallS: Math.round((performance.now() - started) / 100) / 10 }));
}

/** What the recorder uses of a simulated frame. */
type RecordedFrame = Pick<SimFrame, 'handIndex' | 'frameIndex' | 'timeMs' | 'handTimeMs' | 'lastOfHand' | 'jpeg' | 'truth' | 'handTruth'>;

/** Every frame of the simulated hands, rendered now (each frame's card truth dropped but where the backs are shown: they are enrolled from it). */
async function renderAll(sim: AsyncIterable<SimFrame>): Promise<RecordedFrame[]> {
  const frames: RecordedFrame[] = [];
  const showings = new BackShowings();
  for await (const frame of sim) {
    const { handIndex, frameIndex, timeMs, handTimeMs, lastOfHand, handTruth } = frame;
    frames.push({ handIndex, frameIndex, timeMs, handTimeMs, lastOfHand, handTruth, jpeg: Buffer.from(frame.jpeg), truth: showings.take(frame) ? frame.truth : [] });
  }
  return frames;
}

/** The server's live recogniser settings (see liveRecognizerConfig). */
type RecognizerConfig = ReturnType<typeof liveRecognizerConfig>;

/** What the recorder needs of a recogniser: one table's calibration, its backs, its frames in order. */
interface Reader {
  backend: string;
  setCalibration(calibration: TableCalibration | null): void;
  /** Enrols a deck's back from all its views (at most 5). */
  enrollBack(deckId: string, views: Uint8Array[]): Promise<void>;
  /** As a live table reads its frames: the score sort's after the call, some of them whole (RecognizeOptions). */
  recognize(jpeg: Uint8Array, timeMs: number, options: { everyCard: boolean; scoreSort: boolean }): Promise<FrameObservations>;
  close(): Promise<void>;
}

/** The recogniser in this process (one thread). */
async function inProcessRecognizer(config: RecognizerConfig): Promise<Reader> {
  const recognizer = await createRecognizer({ ...config, log: () => {} });
  return {
    backend: recognizer.backend,
    setCalibration: (calibration) => recognizer.setCalibration(calibration),
    enrollBack: (deckId, views) => recognizer.enrollBack(deckId, views.map((data) => ({ kind: 'encoded', data }))),
    recognize: (jpeg, timeMs, options) => recognizer.recognize({ kind: 'encoded', data: jpeg }, timeMs, options),
    close: async () => recognizer.dispose(),
  };
}

/** The server's worker pool (peer help on), one table's frames offered one at a time as a live table's are read. */
async function poolRecognizer(workers: number, config: RecognizerConfig): Promise<Reader> {
  const keepAlive = setInterval(() => {}, 1000); // the pool's threads do not hold the process open
  const pool = new RecognitionPool({ kind: 'real', workers, peerHelp: true, realConfig: config });
  const backend = await pool.backend;
  let waiting: { resolve: (observations: FrameObservations) => void; reject: (error: Error) => void } | null = null;
  pool.attach(TABLE, {
    onObservations: (_frame, observations) => waiting?.resolve(observations),
    onDropped: () => waiting?.reject(new Error('the pool dropped a frame (only one is offered at a time)')),
    onFailed: (_frame, error) => waiting?.reject(new Error(error)),
  });
  let seq = 0;
  return {
    backend,
    setCalibration: (calibration) => pool.setCalibration(TABLE, calibration),
    enrollBack: (deckId, views) => pool.enrollBack(TABLE, deckId, views),
    recognize: (jpeg, timeMs, { everyCard, scoreSort }) =>
      new Promise<FrameObservations>((resolve, reject) => {
        waiting = { resolve, reject };
        pool.offer(TABLE, { seq: seq++, image: jpeg, captureTimeMs: timeMs, receivedAtMs: performance.now(), ...(everyCard ? { everyCard } : {}), ...(scoreSort ? { afterCall: true } : {}) });
      }),
    close: async () => {
      clearInterval(keepAlive);
      await pool.close();
    },
  };
}

const TABLE = 'recording';

main().catch((error: Error) => {
  console.error(`record:observations failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
