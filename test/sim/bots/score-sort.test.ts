import { describe, expect, it } from 'vitest';
import { simulateHand } from '../../../server/sim/bots/engine';
import { cardCorners, computeLayout, pileAnchor, polygonsOverlap, type PlanePose } from '../../../server/sim/layout';
import { CARD_HEIGHT_MM, CARD_WIDTH_MM, type CardPose } from '../../../server/sim/scene';
import { DEFAULT_SCORE_SORT, sortPlaces, withScoreSort } from '../../../server/sim/score-sort';
import { HandTimeline } from '../../../server/sim/timeline';

const rect = (pose: PlanePose) => ({ corners: cardCorners(pose) });
/** Two cards overlap (touching edges aside). */
const overlap = (a: PlanePose, b: PlanePose) => polygonsOverlap(rect({ ...a, xMm: a.xMm + 0.01 }), rect(b)) && Math.abs(a.xMm - b.xMm) < CARD_WIDTH_MM - 0.5 && Math.abs(a.yMm - b.yMm) < CARD_HEIGHT_MM - 0.5;

describe('score sort: where the dealt cards go', () => {
  const layout = computeLayout(['p1', 'p2', 'p3', 'p4'].map((playerId) => ({ playerId, deckId: `deck-${playerId}` })));

  it('gives each seat its count of places, none overlapping another, a tableau card, a stock or a Nerts pile, all on the table', () => {
    const tableauCard: PlanePose = { xMm: 0, yMm: 300, rotationRad: 0 };
    const places = sortPlaces(layout, [10, 0, 7, 13], [tableauCard])!;
    expect(places.map((p) => p.length)).toEqual([10, 0, 7, 13]);
    const all = places.flat();
    for (let i = 0; i < all.length; i++) for (let j = i + 1; j < all.length; j++) expect(overlap(all[i], all[j])).toBe(false);
    const piles = layout.seats.flatMap((seat) => [pileAnchor(seat, 'stock'), pileAnchor(seat, 'nerts')]);
    for (const place of all) {
      expect(overlap(place, tableauCard)).toBe(false);
      for (const pile of piles) expect(polygonsOverlap(rect(place), rect(pile))).toBe(false);
      for (const corner of cardCorners(place)) {
        expect(Math.abs(corner.x)).toBeLessThan(layout.table.widthMm / 2);
        expect(Math.abs(corner.y)).toBeLessThan(layout.table.heightMm / 2);
      }
    }
  });

  it("puts each player's cards on their own side of the table", () => {
    const places = sortPlaces(layout, [8, 8, 8, 8])!;
    places.forEach((mine, seat) => {
      const nearest = (pose: PlanePose) => layout.seats.map((s) => Math.hypot(s.xMm - pose.xMm, s.yMm - pose.yMm)).reduce((best, d, k, all) => (d < all[best] ? k : best), 0);
      const own = mine.filter((pose) => nearest(pose) === seat).length;
      expect(own / mine.length).toBeGreaterThanOrEqual(0.75);
    });
  });

  it('says so when the table has too little room', () => {
    expect(sortPlaces(layout, [200, 200, 200, 200])).toBeNull();
  });
});

describe('score sort on the timeline', () => {
  const hand = simulateHand({ players: 3, seed: 11 });
  const plain = new HandTimeline(hand.timeline);
  const sorted = new HandTimeline(withScoreSort(hand.timeline));
  const end = plain.sceneAt(plain.durationMs);
  const centre = end.cards.filter((c) => c.zone.kind === 'centre' || c.zone.kind === 'aside');
  const byId = (cards: CardPose[]) => new Map(cards.map((c) => [c.id, c]));

  it('plays the hand exactly as before, then takes long enough to deal every card', () => {
    expect(centre.length).toBeGreaterThan(10);
    for (const t of [0, plain.durationMs / 2, plain.durationMs - 1]) expect(sorted.sceneAt(t)).toEqual(plain.sceneAt(t));
    const perSeat = Math.max(...[0, 1, 2].map((seat) => centre.filter((c) => c.owner === end.seats[seat].playerId).length));
    expect(sorted.durationMs).toBeGreaterThan(plain.durationMs + DEFAULT_SCORE_SORT.gatherMs + perSeat * DEFAULT_SCORE_SORT.dealStepMs);
  });

  it("ends with every centre card face down, apart, in front of its owner's seat; the tableaus untouched", () => {
    const last = sorted.sceneAt(sorted.durationMs);
    const cards = byId(last.cards);
    const dealt = centre.map((c) => cards.get(c.id)!);
    for (const card of dealt) {
      expect(card.faceUp).toBe(false);
      expect(card.zone).toEqual({ kind: 'sorted', seat: last.seats.findIndex((s) => s.playerId === card.owner) });
    }
    for (let i = 0; i < dealt.length; i++) for (let j = i + 1; j < dealt.length; j++) expect(overlap(dealt[i], dealt[j])).toBe(false);
    const before = byId(end.cards);
    for (const card of last.cards.filter((c) => c.zone.kind !== 'sorted')) expect(card).toEqual(before.get(card.id));
    // The hands are drawn back off the dealt cards.
    for (const handPose of last.hands) for (const card of dealt) expect(Math.hypot(handPose.xMm - card.xMm, handPose.yMm - card.yMm)).toBeGreaterThan(60);
  });

  it('gathers the centre into one face-down stack first, then deals it out', () => {
    const gathered = sorted.sceneAt(plain.durationMs + DEFAULT_SCORE_SORT.pauseMs + DEFAULT_SCORE_SORT.gatherMs + 100);
    const stack = gathered.cards.filter((c) => c.zone.kind === 'sorted' && c.zone.seat === null);
    expect(stack).toHaveLength(centre.length);
    expect(stack.every((c) => !c.faceUp && Math.hypot(c.xMm, c.yMm) < 5)).toBe(true);
    // Midway through the deal some cards lie dealt, some are still in the stack; every card is somewhere.
    const midway = sorted.sceneAt((plain.durationMs + sorted.durationMs) / 2 + 1000);
    const zones = midway.cards.filter((c) => c.zone.kind === 'sorted').map((c) => (c.zone as { seat: number | null }).seat);
    expect(zones.some((seat) => seat === null) && zones.some((seat) => seat !== null)).toBe(true);
    expect(new Set(midway.cards.map((c) => c.id)).size).toBe(3 * 52);
  });

  it('is deterministic, and leaves a hand with no centre cards as it was', () => {
    expect(withScoreSort(hand.timeline)).toEqual(withScoreSort(hand.timeline));
    const empty = { ...hand.timeline, snapshots: hand.timeline.snapshots.slice(0, 1) };
    expect(withScoreSort(empty)).toBe(empty);
  });
});
