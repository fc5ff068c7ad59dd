/** The bench's prerendered-frame cache (server/cli/prerender-cache.ts). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prerenderKey, readPrerendered, writePrerendered } from '../../server/cli/prerender-cache';
import type { SimFrame } from '../../server/sim/live';

describe('prerendered frames on disk', () => {
  const roots: string[] = [];
  afterEach(() => roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })));

  it('reads back every frame written, across several files, jpeg bytes and truth alike', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'prerender-'));
    roots.push(root);
    const frames = Array.from({ length: 1203 }, (_, i) => ({ timeMs: i * 33, handIndex: 0, handTimeMs: i * 33, frameIndex: i, lastOfHand: i === 1202, jpeg: Buffer.from([i % 256, 1, 2]), truth: [], handTruth: { endMs: 40_000 }, scene: { timeMs: i * 33 } }) as unknown as SimFrame);
    expect(readPrerendered('k', root)).toBeNull();
    writePrerendered('k', frames, root);
    const back = readPrerendered('k', root)!;
    expect(back).toHaveLength(1203);
    expect(back[1202].frameIndex).toBe(1202);
    expect([...back[257].jpeg]).toEqual([1, 1, 2]);
    expect(back[3].handTruth).toEqual({ endMs: 40_000 });
  });

  // Outside a clean git checkout of the drawing code nothing is cached (the key is null), as documented.
  const key = prerenderKey({ players: 3, seed: 1 });
  it.skipIf(key === null)('keys a table by its options and the drawing code', () => {
    expect(key).toMatch(/^[0-9a-f]{24}$/);
    expect(prerenderKey({ players: 3, seed: 1 })).toBe(key);
    expect(prerenderKey({ players: 3, seed: 2 })).not.toBe(key);
  });
});
