/**
 * Server configuration: defaults, environment, and options passed to buildApp (tests).
 * Decorated on the app as `app.config`.
 */
import fp from 'fastify-plugin';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { dataDirFromEnv } from '../tables/store';
import { DEFAULT_FRAME_LIMITS, type FrameLimits } from '../workers/frame-format';
import type { RecognizerKind } from '../workers/messages';
import type { FakeRecognizerOptions } from '../vision/fake-recognizer';
import type { LiveModelUse } from '../vision/index';
import { DEFAULT_TRACKER_TUNING } from '../tracker/tracker';

/** Everything the server reads at start-up. */
export interface ServerConfig {
  /** SQLite database and evidence frames live here. */
  dataDir: string;
  recognizer: RecognizerKind;
  fakeRecognizer?: FakeRecognizerOptions;
  /** Recognition worker threads (default: one per core, at most 4). */
  workers: number;
  /**
   * Idle recognition workers read half of a busy one's CNN batches (server/workers/peer-help.ts),
   * so one table uses every worker. On by default; NERTS_PEER_HELP=0 turns it off.
   */
  peerHelp: boolean;
  /**
   * A live frame waiting for its table's worker is decoded there while the frame before is read
   * (RecognitionPool's decodeAhead). On by default; NERTS_DECODE_AHEAD=0 turns it off.
   */
  decodeAhead: boolean;
  /**
   * A table's live frames run as two stages on two workers, localised on one while the frame
   * before is read on the other (RecognitionPool's pipeline; needs 2+ workers).
   * NERTS_PIPELINE=1 turns it on. Off by default: on this 2-core machine it reads more frames of
   * heavy tables (6 players, the blue gingham) but always costs tail latency, and gained nothing on
   * the 3-player table or the live-rendered demo on a faster hour (docs/BENCHMARKS.md, session 43).
   */
  pipeline: boolean;
  /**
   * V8's heap growing factor for the process, percent (RecognitionPool's heapGrowingPercent;
   * NERTS_HEAP_GROWING_PERCENT, default 100; 0 leaves V8's own).
   */
  heapGrowingPercent: number;
  /**
   * Live frames also go through the learned locator (models/card-locator). Off by default: on
   * this 2-core machine's wasm backend it adds about 130 ms to every frame that changed a lot;
   * on the full-pipeline bench (3 players, 2 hands) it read the Nerts piles better (error 1.0
   * against 1.8–2.3 cards) but recognised 4.9 instead of about 15 frames/s, too few to follow the
   * plays (centre error 7.3 against 4.0–5.8). Off, it still searches frames read whole (the
   * score sort's, single POSTed frames; RecognizerConfig.learnedLocatorOn 'whole-reads').
   */
  learnedLocator: boolean;
  /** Which cards seen small the live-size models read (`NERTS_LIVE_MODELS`; see liveModelsFromEnv). */
  liveModels: LiveModelUse;
  /**
   * Confidence below which the recogniser drops a card before the tracker sees it. Default: the
   * tracker's own floor (0.35), lower than the 0.6 a single-image evaluation keeps, since the
   * tracker votes over frames. On the full-pipeline bench (3 players, 2 hands) 0.35 instead of
   * 0.6 took the Nerts-count error from 5.0 to 3.8 cards per player at the same speed.
   */
  recognizerMinConfidence: number;
  /** When set, creating and listing tables needs it as a Bearer token. */
  adminToken: string | null;
  /** Extra origins allowed by CORS (besides same-origin requests). */
  corsOrigins: string[];
  frameLimits: FrameLimits;
  /** JSON body limit, bytes. */
  bodyLimitBytes: number;
  /** REST requests per minute per IP. */
  rateLimitPerMinute: number;
  /** Frames per second a camera socket may send before frames are refused. */
  maxCameraFps: number;
  /** Built web app to serve; null = no static files. */
  clientDist: string | null;
  /** Origin the printed URLs use, e.g. http://localhost:3000 (no trailing slash). */
  publicOrigin: string;
}

/** A number from the environment within [min, max], or undefined when unset or invalid. */
function numberInRange(value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed >= min && parsed <= max ? parsed : undefined;
}

/**
 * Recognition workers by default: one per core, at most 4. With peer help one table's frames use
 * every worker's core; more tables spread over them.
 */
export function defaultWorkers(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * `NERTS_LIVE_MODELS`: which cards seen small the live-size models (`models/*-live`) read (see
 * LiveModelUse): `seats` the players' own cards, `all` (or `1`) every one, `off` (or `0`, the
 * default) none; the recogniser's setting.
 */
export function liveModelsFromEnv(env: NodeJS.ProcessEnv = process.env): { liveModels: LiveModelUse } {
  const value = env.NERTS_LIVE_MODELS?.trim();
  if (value === 'seats') return { liveModels: 'seats' };
  if (value === '1' || value === 'all') return { liveModels: 'all' };
  return { liveModels: 'off' };
}

/**
 * The recogniser settings live tables run with (plain data for the recognition workers): the
 * learned locator, when its model exists, on every frame with `learnedLocator`, else on frames
 * read whole only; the confidence floor and the live-size models. Benchmarks and recordings use
 * the same, so they measure what the server does.
 */
export function liveRecognizerConfig(config: Pick<ServerConfig, 'learnedLocator' | 'recognizerMinConfidence' | 'liveModels'>): { locatorModelDir: undefined; learnedLocatorOn: 'every-frame' | 'whole-reads'; minConfidence: number; liveModels: LiveModelUse } {
  return { locatorModelDir: undefined, learnedLocatorOn: config.learnedLocator ? 'every-frame' : 'whole-reads', minConfidence: config.recognizerMinConfidence, liveModels: config.liveModels };
}

/** Defaults, overridden by the environment (see docs/SERVER.md). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 3000);
  return {
    dataDir: dataDirFromEnv(env),
    recognizer: env.NERTS_RECOGNIZER === 'fake' ? 'fake' : 'real',
    workers: Math.max(1, Number(env.NERTS_WORKERS ?? defaultWorkers()) || 1),
    peerHelp: env.NERTS_PEER_HELP !== '0',
    decodeAhead: env.NERTS_DECODE_AHEAD !== '0',
    pipeline: env.NERTS_PIPELINE === '1',
    heapGrowingPercent: Math.round(numberInRange(env.NERTS_HEAP_GROWING_PERCENT, 0, 1000) ?? 100),
    learnedLocator: env.NERTS_LOCATOR === '1',
    ...liveModelsFromEnv(env),
    recognizerMinConfidence: numberInRange(env.NERTS_MIN_CONFIDENCE, 0, 1) ?? DEFAULT_TRACKER_TUNING.minConfidence,
    adminToken: env.NERTS_ADMIN_TOKEN && env.NERTS_ADMIN_TOKEN.length > 0 ? env.NERTS_ADMIN_TOKEN : null,
    corsOrigins: (env.NERTS_CORS_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
    frameLimits: DEFAULT_FRAME_LIMITS,
    bodyLimitBytes: 256 * 1024,
    rateLimitPerMinute: 300,
    maxCameraFps: 120,
    clientDist: join(process.cwd(), 'client', 'dist'),
    publicOrigin: env.NERTS_PUBLIC_ORIGIN ?? `http://localhost:${port}`,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    config: ServerConfig;
  }
}

/** Decorates `app.config`. */
export default fp<{ config: ServerConfig }>(
  async (app, options) => {
    app.decorate('config', options.config);
  },
  { name: 'config' },
);
