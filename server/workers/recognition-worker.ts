/**
 * Worker-thread entry: runs a recogniser per table off the main event loop. Started by
 * RecognitionPool; never imported by the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { FromWorker, ToWorker, WorkerSetup } from './messages';
import { isStaged, type FrameInput, type Recognizer, type StagedRecognizer } from '../vision/types';
import type { RgbImage } from '../vision/crop';
import { createFakeRecognizer } from '../vision/fake-recognizer';
import { emptyHelpStats, PeerHelpers, serveHelp, whileBusy, type HelpDesk } from './peer-help';

const setup = workerData as WorkerSetup;
const port = parentPort;
if (!port) throw new Error('recognition-worker must run in a worker thread');

type Factory = (tableId: string) => Promise<Recognizer>;

/** This worker's place in the pool (its busy counter) and what its peer help did. */
const self = setup.index ?? 0;
const helpStats = emptyHelpStats();
/** Peers that may do part of this worker's frames (added by the pool's 'helper' messages). */
const helpers = new PeerHelpers(setup.busy, helpStats);

/** Decodes a frame's bytes to pixels; the fake recogniser reads its bytes, so it has none. */
type Decode = ((data: Uint8Array) => Promise<RgbImage>) | null;

async function loadFactory(): Promise<{ factory: Factory; backend: string; desk: HelpDesk; decode: Decode }> {
  const none = () => Promise.reject(new Error('the fake recogniser does no work for peers'));
  if (setup.kind === 'fake') return { factory: async () => createFakeRecognizer(setup.fake), backend: 'fake', desk: { cnn: none, locate: none }, decode: null };
  // The real recogniser is the vision engineer's module; imported lazily so tests never load TF.js.
  // A URL rather than a literal specifier: that module may not exist yet while the vision work lands.
  const visionEntry = new URL('../vision/index.ts', import.meta.url).href;
  const vision = (await import(visionEntry)) as typeof import('../vision/index');
  const { decodeFrame } = await import('../vision/decode');
  // What this worker does for its peers, loaded on the first such job.
  let cnn: ReturnType<HelpDesk['cnn']> | null = null;
  let locate: ReturnType<HelpDesk['locate']> | null = null;
  return {
    factory: () => vision.createRecognizer({ ...(setup.realConfig ?? {}), helper: helpers }),
    backend: 'real',
    desk: { cnn: () => (cnn ??= vision.loadCnn({ ...(setup.realConfig ?? {}) })), locate: () => (locate ??= vision.loadLocate()) },
    decode: (data) => decodeFrame({ kind: 'encoded', data }),
  };
}

const recognizers = new Map<string, Promise<Recognizer>>();
const calibrations = new Map<string, Parameters<Recognizer['setCalibration']>[0]>();
/** Per table, the newest live frame decoded ahead of its turn ('decode-ahead'). */
const decodedAhead = new Map<string, { seq: number; image: Promise<RgbImage> }>();

/**
 * The frame to recognise: its pixels when they were decoded ahead (a failed decode falls back
 * to the bytes, so the recogniser reports the error as it would have), else its bytes.
 */
async function frameToRead(tableId: string, seq: number | undefined, data: Uint8Array): Promise<FrameInput> {
  const ahead = decodedAhead.get(tableId);
  if (!ahead || seq === undefined || ahead.seq > seq) return { kind: 'encoded', data };
  decodedAhead.delete(tableId);
  if (ahead.seq !== seq) return { kind: 'encoded', data };
  try {
    return { kind: 'rgb', ...(await ahead.image) };
  } catch {
    return { kind: 'encoded', data };
  }
}

/** The recogniser as two stages (the pool pipelines only recognisers that are). */
function staged(recognizer: Recognizer): StagedRecognizer {
  if (!isStaged(recognizer)) throw new Error('this recogniser cannot run as two stages');
  return recognizer;
}

function post(message: FromWorker): void {
  port!.postMessage(message);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function main(): Promise<void> {
  let factory: Factory;
  let desk: HelpDesk;
  let decode: Decode;
  try {
    const loaded = await loadFactory();
    factory = loaded.factory;
    desk = loaded.desk;
    decode = loaded.decode;
    post({ type: 'ready', backend: loaded.backend });
  } catch (error) {
    post({ type: 'init-failed', error: errorText(error) });
    return;
  }
  const recognizerFor = (tableId: string): Promise<Recognizer> => {
    let recognizer = recognizers.get(tableId);
    if (!recognizer) {
      recognizer = factory(tableId).then((created) => {
        created.setCalibration(calibrations.get(tableId) ?? null);
        return created;
      });
      recognizers.set(tableId, recognizer);
      // A recogniser that failed to load (no model yet) is retried after a while, not on every frame.
      const failed = recognizer;
      failed.catch(() => setTimeout(() => recognizers.get(tableId) === failed && recognizers.delete(tableId), 10_000));
    }
    return recognizer;
  };

  port!.on('message', async (message: ToWorker) => {
    switch (message.type) {
      case 'recognize': {
        const started = performance.now();
        try {
          const recognizer = await recognizerFor(message.tableId);
          const observations = await whileBusy(setup.busy, self, async () =>
            recognizer.recognize(await frameToRead(message.tableId, message.seq, message.image), message.timestampMs, { everyCard: message.everyCard, scoreSort: message.scoreSort }),
          );
          post({ type: 'result', jobId: message.jobId, observations, workMs: performance.now() - started });
        } catch (error) {
          post({ type: 'failed', jobId: message.jobId, error: errorText(error) });
        }
        return;
      }
      case 'locate': {
        try {
          const recognizer = staged(await recognizerFor(message.tableId));
          const frame = await frameToRead(message.tableId, message.seq, message.image);
          const located = await whileBusy(setup.busy, self, () => recognizer.locateFrame(frame, message.timestampMs, { everyCard: message.everyCard, scoreSort: message.scoreSort }));
          port!.postMessage({ type: 'located', jobId: message.jobId, located } satisfies FromWorker, located.buffers);
        } catch (error) {
          post({ type: 'failed', jobId: message.jobId, error: errorText(error) });
        }
        return;
      }
      case 'read': {
        const started = performance.now();
        try {
          const recognizer = staged(await recognizerFor(message.tableId));
          const observations = await whileBusy(setup.busy, self, () => recognizer.readFrame(message.located, { everyCard: message.everyCard, scoreSort: message.scoreSort }));
          post({ type: 'result', jobId: message.jobId, observations, workMs: performance.now() - started });
        } catch (error) {
          post({ type: 'failed', jobId: message.jobId, error: errorText(error) });
        }
        return;
      }
      case 'decode-ahead': {
        if (!decode) return;
        const image = decode(message.image);
        image.catch(() => {}); // reported when (if) the frame is read
        decodedAhead.set(message.tableId, { seq: message.seq, image });
        return;
      }
      case 'calibrate':
        calibrations.set(message.tableId, message.calibration);
        if (recognizers.has(message.tableId)) (await recognizerFor(message.tableId)).setCalibration(message.calibration);
        return;
      case 'enroll-back':
      case 'enroll-face': {
        try {
          const recognizer = await recognizerFor(message.tableId);
          const views = message.views.map((data) => ({ kind: 'encoded' as const, data }));
          await whileBusy(setup.busy, self, () =>
            message.type === 'enroll-back' ? recognizer.enrollBack(message.backId, views) : recognizer.enrollFace(message.code, views),
          );
          post({ type: 'done', jobId: message.jobId });
        } catch (error) {
          post({ type: 'failed', jobId: message.jobId, error: errorText(error) });
        }
        return;
      }
      case 'inspect': {
        const recognizer = (await recognizerFor(message.tableId)) as Recognizer & { state?: unknown };
        post({ type: 'done', jobId: message.jobId, value: recognizer.state ?? null });
        return;
      }
      case 'helper':
        helpers.addPeer(message.peer, message.port);
        return;
      case 'help-desk':
        serveHelp(message.port, desk, { busy: setup.busy, self, stats: helpStats });
        return;
      case 'help-stats':
        post({ type: 'done', jobId: message.jobId, value: { ...helpStats } });
        return;
      case 'drop-table': {
        const recognizer = recognizers.get(message.tableId);
        recognizers.delete(message.tableId);
        decodedAhead.delete(message.tableId);
        if (recognizer) (await recognizer).dispose();
        return;
      }
    }
  });
}

void main();
