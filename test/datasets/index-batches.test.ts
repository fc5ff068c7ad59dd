import { describe, expect, it } from 'vitest';
import { INDEX_HEIGHT, INDEX_WIDTH, NO_RANK, NO_SUIT } from '../../server/vision/classes';
import { coverAsCascade, indexLabels, indexTrainingPool, makeIndexBatch } from '../../datasets/lib/index-batches';
import { trainingPool } from '../../datasets/lib/batches';
import { makeRng } from '../../datasets/lib/rng';
import { SOURCE_HEIGHT, SOURCE_WIDTH, type SourceSet } from '../../datasets/lib/sources';

/** Two synthetic sources: a "card" with a dark mark in its top-left index corner, and a back. */
function tinySet(): SourceSet {
  const bytes = SOURCE_WIDTH * SOURCE_HEIGHT * 3;
  const pixels = new Uint8Array(bytes * 2).fill(255);
  for (let y = 2; y < 40; y++) for (let x = 2; x < 22; x++) pixels.fill(0, (y * SOURCE_WIDTH + x) * 3, (y * SOURCE_WIDTH + x) * 3 + 3);
  pixels.fill(40, bytes, bytes * 2);
  return {
    format: 'test',
    entries: [
      { group: 'art:test', label: '10C', split: 'train', file: 'a' },
      { group: 'back', label: 'back:gen-1', split: 'train', file: 'b' },
    ],
    pixels,
  };
}

describe('index batches', () => {
  it('labels faces by rank and suit, anything else as no index', () => {
    expect(indexLabels('10C')).toEqual({ rank: 9, suit: 3 });
    expect(indexLabels('AS')).toEqual({ rank: 0, suit: 0 });
    expect(indexLabels('back:gen-1')).toEqual({ rank: NO_RANK, suit: NO_SUIT });
    expect(indexLabels('other')).toEqual({ rank: NO_RANK, suit: NO_SUIT });
  });
  it('crops the index corner at the index size (plain crops show the mark)', () => {
    const { x, ranks, suits } = makeIndexBatch(tinySet(), [0, 1], makeRng(1), 0);
    expect(x.length).toBe(2 * INDEX_WIDTH * INDEX_HEIGHT * 3);
    expect(ranks).toEqual([9, NO_RANK]);
    expect(suits).toEqual([3, NO_SUIT]);
    // The corner crop of the card is mostly the dark mark; a whole-card crop would be mostly white.
    const mean = x.subarray(0, INDEX_WIDTH * INDEX_HEIGHT * 3).reduce((a, b) => a + b, 0) / (INDEX_WIDTH * INDEX_HEIGHT * 3);
    expect(mean).toBeLessThan(0.6);
  });
  it('reads a rendered strip crop by its top-left corner only: turned, it shows no index', () => {
    const set = tinySet();
    set.entries[0] = { ...set.entries[0], group: 'strip:test' };
    const { ranks, suits } = makeIndexBatch(set, new Array(200).fill(0), makeRng(3), 1, { interiorShare: 0, stripShare: 1 });
    const named = ranks.filter((r) => r === 9).length;
    // Half are turned (no index), the rest keep their label (never covered again as a cascade).
    expect(named).toBeGreaterThan(70);
    expect(named).toBeLessThan(130);
    expect(ranks.every((r, k) => (r === 9 ? suits[k] === 3 : r === NO_RANK && suits[k] === NO_SUIT))).toBe(true);
    // Unturned, the crop is the source's own corner: mostly the dark mark.
    expect(makeIndexBatch(set, [0], makeRng(3), 0).ranks).toEqual([9]);
  });
  it('trains only the index model on strip crops', () => {
    const set = tinySet();
    set.entries.push({ group: 'strip:test', label: '10C', split: 'train', file: 'c' });
    expect(trainingPool(set)).not.toContain(2);
    expect(indexTrainingPool(set).filter((i) => i === 2)).toHaveLength(1);
    expect(indexTrainingPool(set, 3).filter((i) => i === 2)).toHaveLength(3);
  });
  it('turns some faces into interior "no index" examples when augmenting', () => {
    const { ranks } = makeIndexBatch(tinySet(), new Array(200).fill(0), makeRng(2), 1, { interiorShare: 0.5 });
    const none = ranks.filter((r) => r === NO_RANK).length;
    expect(none).toBeGreaterThan(60);
    expect(none).toBeLessThan(140);
  });
});

describe('coverAsCascade (index corners of cards under a cascade)', () => {
  it('lays the card above over the crop from a cut below or beside the index, its own corner past its edge', () => {
    const size = INDEX_WIDTH * INDEX_HEIGHT * 3;
    const seen = (down: boolean) => {
      const x = new Float32Array(size).fill(1);
      const over = new Float32Array(size);
      for (let i = 0; i < size; i++) over[i] = (i % 97) / 97; // a pattern to find again
      // rng: the first draw picks the direction, the next the cut, then the edge and the shadow.
      const draws = [down ? 0.1 : 0.9, 0.5, 0.5, 0.5];
      coverAsCascade(x, 0, over, () => draws.shift() ?? 0.5);
      return { x, over };
    };
    const px = (a: Float32Array, x: number, y: number) => a[(y * INDEX_WIDTH + x) * 3];
    {
      const { x, over } = seen(true);
      const cut = Math.round((0.66 + 0.5 * (0.95 - 0.66)) * INDEX_HEIGHT);
      expect(px(x, 5, 3)).toBe(1); // the strip's own index untouched
      expect(px(x, 5, cut)).toBeLessThan(1); // the edge line
      expect(px(x, 5, cut - 1)).toBeLessThan(1); // its shadow
      expect(px(x, 7, cut + 3)).toBeCloseTo(px(over, 7, 3), 6); // the card above's own corner
    }
    {
      const { x, over } = seen(false);
      const cut = Math.round((0.55 + 0.5 * (0.95 - 0.55)) * INDEX_WIDTH);
      expect(px(x, 3, 20)).toBe(1);
      expect(px(x, cut + 2, 9)).toBeCloseTo(px(over, 2, 9), 6);
    }
  });
});
