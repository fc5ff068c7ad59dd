import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { configFromEnv, liveModelsFromEnv } from '../../server/plugins/config';

describe('server configuration from the environment', () => {
  it('defaults: a worker per core (at most 4) helping each other, classical localiser, the tracker floor for the recogniser', () => {
    const config = configFromEnv({});
    expect(config.workers).toBe(Math.min(4, availableParallelism()));
    expect(config.peerHelp).toBe(true);
    expect(config.decodeAhead).toBe(true);
    expect(config.pipeline).toBe(false);
    expect(config.heapGrowingPercent).toBe(100);
    expect(config.learnedLocator).toBe(false);
    expect(config.liveModels).toBe('off');
    expect(config.recognizerMinConfidence).toBe(0.35);
    expect(config.publicOrigin).toBe('http://localhost:3000');
  });
  it('reads the learned locator switch and the recogniser floor', () => {
    const config = configFromEnv({ NERTS_LOCATOR: '1', NERTS_MIN_CONFIDENCE: '0.5', NERTS_WORKERS: '2', NERTS_PEER_HELP: '0' });
    expect(config.learnedLocator).toBe(true);
    expect(config.peerHelp).toBe(false);
    expect(config.recognizerMinConfidence).toBe(0.5);
    expect(config.workers).toBe(2);
  });
  it('reads decode-ahead, the two-stage pipeline and the heap growing factor, ignoring a factor that is no number or out of range', () => {
    const config = configFromEnv({ NERTS_DECODE_AHEAD: '0', NERTS_HEAP_GROWING_PERCENT: '0', NERTS_PIPELINE: '1' });
    expect(config.decodeAhead).toBe(false);
    expect(config.pipeline).toBe(true);
    expect(config.heapGrowingPercent).toBe(0);
    expect(configFromEnv({ NERTS_HEAP_GROWING_PERCENT: '50.4' }).heapGrowingPercent).toBe(50);
    for (const value of ['-5', '5000', 'lots']) expect(configFromEnv({ NERTS_HEAP_GROWING_PERCENT: value }).heapGrowingPercent).toBe(100);
  });
  it('ignores a floor outside 0..1 or not a number, keeping the default', () => {
    for (const value of ['1.5', '-0.1', 'high', ' ']) expect(configFromEnv({ NERTS_MIN_CONFIDENCE: value }).recognizerMinConfidence).toBe(0.35);
  });
  it('uses the live-size models only as NERTS_LIVE_MODELS says', () => {
    expect(liveModelsFromEnv({})).toEqual({ liveModels: 'off' });
    expect(liveModelsFromEnv({ NERTS_LIVE_MODELS: 'seats' })).toEqual({ liveModels: 'seats' });
    for (const off of ['0', 'off']) expect(liveModelsFromEnv({ NERTS_LIVE_MODELS: off })).toEqual({ liveModels: 'off' });
    for (const all of ['1', 'all']) expect(liveModelsFromEnv({ NERTS_LIVE_MODELS: all })).toEqual({ liveModels: 'all' });
    expect(configFromEnv({ NERTS_LIVE_MODELS: '1' }).liveModels).toBe('all');
  });
});
