import { describe, expect, it } from 'vitest';
import { addSuitLean, twinLean, type SuitLean } from '../../server/tracker/pile-suit';
import type { CardCode } from '../../server/game/cards';
import type { CardObservation } from '../../server/vision/types';

/** A face reading whose shares are `alternatives`, first choice first. */
function reading(alternatives: Array<[CardCode, number]>): CardObservation {
  const [code, p] = alternatives[0];
  return { kind: 'face', code, confidence: p, corners: [[0, 0], [1, 0], [1, 1], [0, 1]], zone: 'centre', alternatives: alternatives.map(([c, share]) => ({ code: c, p: share })) };
}

describe('pile suit: how a pile’s readings lean between look-alike suits', () => {
  it('sums the log odds of the two suits per card, averaging the readings of one card', () => {
    let lean: SuitLean = {};
    lean = addSuitLean(lean, reading([['2S', 0.6], ['2C', 0.3]]), 'C', 1);
    lean = addSuitLean(lean, reading([['2C', 0.6], ['2S', 0.3]]), 'C', 1);
    lean = addSuitLean(lean, reading([['3S', 0.8], ['3C', 0.2]]), 'C', 2);
    // Card 2 averages to even; card 3 leans spades by log 4.
    expect(twinLean(lean, 'C')).toEqual({ lean: expect.closeTo(Math.log(4), 6), cards: 2 });
    // Seen from a spade pile the same evidence says it is not clubs.
    expect(twinLean(lean, 'S').lean).toBeCloseTo(-Math.log(4), 6);
  });

  it('ignores readings that say nothing of this pile: other colours, far ahead, backs', () => {
    const empty: SuitLean = {};
    expect(addSuitLean(empty, reading([['4H', 0.6], ['4D', 0.3]]), 'C', 3)).toBe(empty);
    expect(addSuitLean(empty, reading([['9S', 0.6], ['9C', 0.3]]), 'C', 3)).toBe(empty);
    expect(addSuitLean(empty, { kind: 'back', confidence: 0.9, corners: [[0, 0], [1, 0], [1, 1], [0, 1]], zone: 'centre' }, 'C', 3)).toBe(empty);
  });

  it('caps one card’s lean (a deck that reads badly stays one card) and floors a missing suit’s share', () => {
    let lean: SuitLean = {};
    // The clubs share is not listed: it counts as the floor, and the card's lean is capped at 2.
    lean = addSuitLean(lean, reading([['5S', 0.98]]), 'C', 4);
    expect(twinLean(lean, 'C')).toEqual({ lean: 2, cards: 1 });
  });
});
