import { describe, expect, it } from 'vitest';
import { INDEX_HEIGHT, INDEX_WIDTH, NO_RANK, NO_SUIT } from '../../server/vision/classes';
import { indexLabels, makeIndexBatch } from '../../datasets/lib/index-batches';
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
  it('turns some faces into interior "no index" examples when augmenting', () => {
    const { ranks } = makeIndexBatch(tinySet(), new Array(200).fill(0), makeRng(2), 1, 0.5);
    const none = ranks.filter((r) => r === NO_RANK).length;
    expect(none).toBeGreaterThan(60);
    expect(none).toBeLessThan(140);
  });
});
