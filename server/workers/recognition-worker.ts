/**
 * Worker-thread entry: runs a recogniser per table off the main event loop. Started by
 * RecognitionPool; never imported by the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { FromWorker, ToWorker, WorkerSetup } from './messages';
import type { Recognizer } from '../vision/types';
import { createFakeRecognizer } from '../vision/fake-recognizer';

const setup = workerData as WorkerSetup;
const port = parentPort;
if (!port) throw new Error('recognition-worker must run in a worker thread');

type Factory = (tableId: string) => Promise<Recognizer>;

async function loadFactory(): Promise<{ factory: Factory; backend: string }> {
  if (setup.kind === 'fake') return { factory: async () => createFakeRecognizer(setup.fake), backend: 'fake' };
  // The real recogniser is the vision engineer's module; imported lazily so tests never load TF.js.
  // A URL rather than a literal specifier: that module may not exist yet while the vision work lands.
  const visionEntry = new URL('../vision/index.ts', import.meta.url).href;
  const vision = (await import(visionEntry)) as {
    createRecognizer: (config: Record<string, unknown>) => Promise<Recognizer>;
  };
  return { factory: () => vision.createRecognizer({ ...(setup.realConfig ?? {}) }), backend: 'real' };
}

const recognizers = new Map<string, Promise<Recognizer>>();
const calibrations = new Map<string, Parameters<Recognizer['setCalibration']>[0]>();

function post(message: FromWorker): void {
  port!.postMessage(message);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function main(): Promise<void> {
  let factory: Factory;
  try {
    const loaded = await loadFactory();
    factory = loaded.factory;
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
          const observations = await recognizer.recognize({ kind: 'encoded', data: message.image }, message.timestampMs, { everyCard: message.everyCard });
          post({ type: 'result', jobId: message.jobId, observations, workMs: performance.now() - started });
        } catch (error) {
          post({ type: 'failed', jobId: message.jobId, error: errorText(error) });
        }
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
          if (message.type === 'enroll-back') await recognizer.enrollBack(message.backId, views);
          else await recognizer.enrollFace(message.code, views);
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
      case 'drop-table': {
        const recognizer = recognizers.get(message.tableId);
        recognizers.delete(message.tableId);
        if (recognizer) (await recognizer).dispose();
        return;
      }
    }
  });
}

void main();
