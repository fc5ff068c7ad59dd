/**
 * Messages between the recognition pool (main thread) and its worker threads.
 */
import type { MessagePort } from 'node:worker_threads';
import type { CardCode } from '../game/cards';
import type { FrameObservations, LocatedFrame, TableCalibration } from '../vision/types';
import type { FakeRecognizerOptions } from '../vision/fake-recognizer';

/** Which recogniser a worker runs: the real TF.js one, or the fake (tests). */
export type RecognizerKind = 'real' | 'fake';

/** Data every worker starts with. */
export interface WorkerSetup {
  kind: RecognizerKind;
  fake?: FakeRecognizerOptions;
  /** Passed to createRecognizer() of server/vision when kind = 'real'. */
  realConfig?: Record<string, unknown>;
  /** This worker's place in the pool, and every worker's busy counter (see peer-help.ts). */
  index?: number;
  busy?: Int32Array;
}

/** Main → worker. */
export type ToWorker =
  /** `seq`: the live frame's number, matching an earlier 'decode-ahead' of the same frame. */
  | { type: 'recognize'; jobId: number; tableId: string; image: Uint8Array; timestampMs: number; everyCard?: boolean; scoreSort?: boolean; seq?: number }
  /**
   * A live frame that waits while its worker reads the one before: the worker may decode it now
   * (sharp decodes on libuv's thread pool, beside the worker's own thread), so the 'recognize'
   * that follows for the same `seq` starts from pixels. No answer; a frame replaced before its
   * turn just wasted its decode.
   */
  | { type: 'decode-ahead'; tableId: string; seq: number; image: Uint8Array }
  /**
   * The two stages of a live frame on two workers (PoolOptions.pipeline): 'locate' decodes and
   * localises it here (answered 'located'), 'read' reads what another worker's copy located
   * (answered 'result'). See StagedRecognizer.
   */
  | { type: 'locate'; jobId: number; tableId: string; image: Uint8Array; timestampMs: number; everyCard?: boolean; scoreSort?: boolean; seq?: number }
  | { type: 'read'; jobId: number; tableId: string; located: LocatedFrame; everyCard?: boolean; scoreSort?: boolean }
  | { type: 'calibrate'; tableId: string; calibration: TableCalibration | null }
  | { type: 'enroll-back'; jobId: number; tableId: string; backId: string; views: Uint8Array[] }
  | { type: 'enroll-face'; jobId: number; tableId: string; code: CardCode; views: Uint8Array[] }
  | { type: 'inspect'; jobId: number; tableId: string }
  | { type: 'drop-table'; tableId: string }
  /** A port to worker `peer`, which may do part of this worker's frames (peer-help.ts). */
  | { type: 'helper'; peer: number; port: MessagePort }
  /** A port on which a peer offers work to this worker. */
  | { type: 'help-desk'; port: MessagePort }
  /** This worker's peer-help counters (answered with 'done', value HelpStats). */
  | { type: 'help-stats'; jobId: number };

/** Worker → main. */
export type FromWorker =
  | { type: 'ready'; backend: string }
  | { type: 'init-failed'; error: string }
  | { type: 'result'; jobId: number; observations: FrameObservations; workMs: number }
  | { type: 'located'; jobId: number; located: LocatedFrame }
  | { type: 'done'; jobId: number; value?: unknown }
  | { type: 'failed'; jobId: number; error: string };
