import { describe, expect, it } from 'vitest';
import { ALL_CARD_CODES, RANKS, SUITS } from '../../server/game/cards';
import { classNames, INDEX_RANK_CLASSES, INDEX_REGION, INDEX_SUIT_CLASSES, NO_RANK, NO_SUIT } from '../../server/vision/classes';
import { indexCornerQuads, subQuad } from '../../server/vision/crop';
import { decideIdentity, readIndex, type IndexOutputs } from '../../server/vision/identify';
import type { Quad } from '../../server/vision/types';

const names = classNames(['gen-1']);

/** Index outputs for one card from per-corner (rank, suit, sureness) readings. */
function corners(...readings: Array<{ rank: number; suit: number; sure: number }>): IndexOutputs {
  const rank = new Float32Array(2 * INDEX_RANK_CLASSES);
  const suit = new Float32Array(2 * INDEX_SUIT_CLASSES);
  readings.forEach(({ rank: r, suit: s, sure }, corner) => {
    rank[corner * INDEX_RANK_CLASSES + r] = sure;
    rank[corner * INDEX_RANK_CLASSES + NO_RANK] += 1 - sure;
    suit[corner * INDEX_SUIT_CLASSES + s] = sure;
    suit[corner * INDEX_SUIT_CLASSES + NO_SUIT] += 1 - sure;
  });
  return { count: 1, rank, suit };
}

const faceProbs = (values: Record<string, number>) => {
  const p = new Float32Array(names.length);
  for (const [code, v] of Object.entries(values)) p[code === 'other' ? 52 : ALL_CARD_CODES.indexOf(code as (typeof ALL_CARD_CODES)[number])] = v;
  return p;
};

describe('index corner quads', () => {
  const quad: Quad = [[100, 100], [163, 100], [163, 188], [100, 188]]; // 63 x 88 px, upright
  it('maps the index region of a card onto the image', () => {
    const [tl, tr, br] = subQuad(quad, INDEX_REGION);
    expect(tl[0]).toBeCloseTo(100);
    expect(tr[0]).toBeCloseTo(100 + 63 * INDEX_REGION.x1);
    expect(br[1]).toBeCloseTo(100 + 88 * INDEX_REGION.y1);
  });
  it('reads the top-left corner and the bottom-right one turned upright', () => {
    const [topLeft, bottomRight] = indexCornerQuads(quad);
    expect(topLeft[0]).toEqual([100, 100]);
    // The turned corner's first point is the card's bottom-right corner, its third inside the card.
    expect(bottomRight[0][0]).toBeCloseTo(163);
    expect(bottomRight[0][1]).toBeCloseTo(188);
    expect(bottomRight[2][0]).toBeCloseTo(163 - 63 * INDEX_REGION.x1);
    expect(bottomRight[2][1]).toBeCloseTo(188 - 88 * INDEX_REGION.y1);
  });
});

describe('readIndex', () => {
  it('trusts the corner that shows an index over a covered one', () => {
    const reading = readIndex(corners({ rank: RANKS.indexOf('7'), suit: SUITS.indexOf('C'), sure: 0.95 }, { rank: RANKS.indexOf('K'), suit: SUITS.indexOf('H'), sure: 0.05 }), 0);
    expect(reading.indexness).toBeCloseTo(0.95 * 0.95);
    expect(reading.rank[RANKS.indexOf('7')]).toBeGreaterThan(0.99);
    expect(reading.suit[SUITS.indexOf('C')]).toBeGreaterThan(0.99);
  });
  it('says no index when neither corner shows one', () => {
    expect(readIndex(corners({ rank: 0, suit: 0, sure: 0 }, { rank: 0, suit: 0, sure: 0 }), 0).indexness).toBe(0);
  });
});

describe('decideIdentity with the index corner', () => {
  it('lists the runners-up with their shares, best first, for the tracker to weigh', () => {
    const probs = faceProbs({ '7D': 0.5, '7H': 0.3, '7C': 0.1, '2S': 0.01 });
    const alone = decideIdentity(probs, 0, names.length, names);
    expect(alone.kind === 'face' && alone.alternatives?.map((a) => a.code)).toEqual(['7D', '7H', '7C']);
    expect(alone.kind === 'face' && alone.alternatives?.[1].p).toBeCloseTo(0.3 / 0.91, 2);
    // The index corner reads a heart: it leads, the whole card's diamond is the runner-up.
    const index = readIndex(corners({ rank: RANKS.indexOf('7'), suit: SUITS.indexOf('H'), sure: 0.9 }, { rank: RANKS.indexOf('7'), suit: SUITS.indexOf('H'), sure: 0.9 }), 0);
    const fused = decideIdentity(probs, 0, names.length, names, { index });
    expect(fused).toMatchObject({ kind: 'face', code: '7H' });
    expect(fused.kind === 'face' && fused.alternatives?.[0].code).toBe('7H');
    expect(fused.kind === 'face' && fused.alternatives?.map((a) => a.code)).toContain('7D');
  });
  it('fixes a suit the whole card got wrong (clubs read as spades)', () => {
    const probs = faceProbs({ '7S': 0.6, '7C': 0.35 });
    expect(decideIdentity(probs, 0, names.length, names)).toMatchObject({ code: '7S' });
    const index = readIndex(corners({ rank: RANKS.indexOf('7'), suit: SUITS.indexOf('C'), sure: 0.95 }, { rank: RANKS.indexOf('7'), suit: SUITS.indexOf('C'), sure: 0.9 }), 0);
    expect(decideIdentity(probs, 0, names.length, names, { index })).toMatchObject({ kind: 'face', code: '7C' });
  });
  it('calls a covered card with a clear index a face even when the whole crop says other', () => {
    const probs = faceProbs({ other: 0.7, '3D': 0.1 });
    const index = readIndex(corners({ rank: RANKS.indexOf('9'), suit: SUITS.indexOf('H'), sure: 0.97 }, { rank: 0, suit: 0, sure: 0 }), 0);
    expect(decideIdentity(probs, 0, names.length, names)).toMatchObject({ kind: 'other' });
    expect(decideIdentity(probs, 0, names.length, names, { index })).toMatchObject({ kind: 'face', code: '9H' });
  });
  it('a card spread over look-alike faces is still a face, and a clear index makes it a sure one', () => {
    // No single face beats "other", but the faces together do.
    const probs = faceProbs({ '9H': 0.3, '9D': 0.3, other: 0.35 });
    const alone = decideIdentity(probs, 0, names.length, names);
    expect(alone).toMatchObject({ kind: 'face' });
    expect(alone.confidence).toBeCloseTo(0.3);
    const index = readIndex(corners({ rank: RANKS.indexOf('9'), suit: SUITS.indexOf('D'), sure: 0.95 }, { rank: RANKS.indexOf('9'), suit: SUITS.indexOf('D'), sure: 0.95 }), 0);
    const fused = decideIdentity(probs, 0, names.length, names, { index });
    expect(fused).toMatchObject({ kind: 'face', code: '9D' });
    // P(a face) 0.6 x P(9D | a face) near 1.
    expect(fused.confidence).toBeGreaterThan(0.55);
  });
  it('ignores a corner that shows no index (a deck without indices)', () => {
    const probs = faceProbs({ QH: 0.8, KH: 0.1 });
    const index = readIndex(corners({ rank: RANKS.indexOf('2'), suit: 0, sure: 0.02 }, { rank: RANKS.indexOf('2'), suit: 0, sure: 0.02 }), 0);
    expect(decideIdentity(probs, 0, names.length, names, { index })).toMatchObject({ kind: 'face', code: 'QH' });
  });
  it('keeps the whole crop\'s back where the corner looks like an index but names no one face (a lattice\'s grid corner)', () => {
    // The whole crop: a back, the faces' little evidence spread evenly.
    const probs = faceProbs({});
    probs.fill(0.002, 0, 52);
    probs[names.indexOf('back:gen-1')] = 0.88;
    // Rank 4 sure, no suit standing out: the corner's index-ness is high, its face share low.
    const rank = new Float32Array(2 * INDEX_RANK_CLASSES);
    const suit = new Float32Array(2 * INDEX_SUIT_CLASSES);
    rank[RANKS.indexOf('4')] = 0.97;
    rank[NO_RANK] = 0.03;
    suit.set([0.22, 0.37, 0.2, 0.18, 0.03]);
    rank[INDEX_RANK_CLASSES + NO_RANK] = 1;
    suit[INDEX_SUIT_CLASSES + NO_SUIT] = 1;
    const index = readIndex({ count: 1, rank, suit }, 0);
    expect(index.indexness).toBeGreaterThan(0.9);
    expect(decideIdentity(probs, 0, names.length, names, { index })).toMatchObject({ kind: 'back' });
    // The same corner naming a suit clearly makes it a face.
    suit.set([0.02, 0.9, 0.03, 0.02, 0.03]);
    expect(decideIdentity(probs, 0, names.length, names, { index: readIndex({ count: 1, rank, suit }, 0) })).toMatchObject({ kind: 'face', code: '4H' });
  });
  it('keeps a confident reject when the corner is unsure', () => {
    const probs = faceProbs({ other: 0.9, '5S': 0.05 });
    const index = readIndex(corners({ rank: RANKS.indexOf('5'), suit: 0, sure: 0.5 }, { rank: 0, suit: 0, sure: 0 }), 0);
    expect(decideIdentity(probs, 0, names.length, names, { index })).toMatchObject({ kind: 'other' });
  });
});
