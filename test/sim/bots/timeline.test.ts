import { describe, expect, it } from 'vitest';
import { simulateHand, type SimulatedHand } from '../../../server/sim/bots/engine';
import { INDEX_STRIP_MM, cardCorners, tableToSeat } from '../../../server/sim/layout';
import type { TableScene } from '../../../server/sim/scene';
import { HandTimeline } from '../../../server/sim/timeline';

function sampleScenes(h: SimulatedHand, stepMs: number): TableScene[] {
  const timeline = new HandTimeline(h.timeline);
  const scenes: TableScene[] = [];
  for (let t = 0; t <= timeline.durationMs; t += stepMs) scenes.push(timeline.sceneAt(t));
  // Also every instant in the middle of a dispute and of a few flights.
  for (const d of h.truth.disputes) scenes.push(timeline.sceneAt(d.loser.landMs + 1));
  for (const f of h.timeline.flights.slice(0, 200)) scenes.push(timeline.sceneAt((f.startMs + f.endMs) / 2));
  return scenes;
}

describe('timeline scenes', () => {
  for (const players of [2, 4, 6]) {
    const h = simulateHand({ players, seed: 11 });
    const scenes = sampleScenes(h, 1500);

    it(`${players} players: every deck's 52 cards are on the table exactly once at every instant`, () => {
      const counts = scenes.map((scene) => new Set(scene.cards.map((c) => c.id)).size + (scene.cards.length - players * 52) * 1000);
      expect(new Set(counts)).toEqual(new Set([players * 52]));
    });

    it(`${players} players: no card and no fingertip outside the table`, () => {
      const problems: string[] = [];
      for (const scene of scenes) {
        const { widthMm, heightMm } = scene.table;
        for (const card of scene.cards) {
          const out = cardCorners(card).some((c) => Math.abs(c.x) > widthMm / 2 || Math.abs(c.y) > heightMm / 2);
          if (out || !(card.zMm > 0)) problems.push(`${card.id} at ${scene.timeMs} ms`);
        }
        for (const hand of scene.hands) {
          const ok =
            Math.abs(hand.xMm) <= widthMm / 2 &&
            Math.abs(hand.yMm) <= heightMm / 2 &&
            Math.abs(hand.elbowXMm) <= widthMm / 2 + 1e-6 &&
            Math.abs(hand.elbowYMm) <= heightMm / 2 + 1e-6 &&
            hand.zMm > 0;
          if (!ok) problems.push(`hand ${hand.seat} at ${scene.timeMs} ms`);
        }
        // Draw order: bottom-most first.
        for (let i = 1; i < scene.cards.length; i++) if (scene.cards[i].zMm < scene.cards[i - 1].zMm) problems.push(`draw order at ${scene.timeMs} ms`);
      }
      expect(problems).toEqual([]);
    });

    it(`${players} players: work pile cascades show each covered card's index strip; faces as the rules say`, () => {
      const problems: string[] = [];
      for (const scene of scenes) {
        const byPile = new Map<string, typeof scene.cards>();
        for (const card of scene.cards) {
          const z = card.zone;
          if (z.kind === 'work') {
            const key = `${z.seat}/${z.pile}`;
            byPile.set(key, [...(byPile.get(key) ?? []), card]);
            if (!card.faceUp) problems.push(`${card.id} face down in a work pile at ${scene.timeMs} ms`);
          }
          if ((z.kind === 'stock' || z.kind === 'aside') && card.faceUp) problems.push(`${card.id} face up in ${z.kind} at ${scene.timeMs} ms`);
          if ((z.kind === 'centre' || z.kind === 'waste') && !card.faceUp) problems.push(`${card.id} face down in ${z.kind} at ${scene.timeMs} ms`);
        }
        for (const [key, cards] of byPile) {
          const seat = scene.seats[Number(key.split('/')[0])];
          const sorted = [...cards].sort((a, b) => a.zMm - b.zMm);
          for (let i = 1; i < sorted.length; i++) {
            const lower = tableToSeat(seat, sorted[i - 1].xMm, sorted[i - 1].yMm);
            const upper = tableToSeat(seat, sorted[i].xMm, sorted[i].yMm);
            if (upper.v - lower.v < INDEX_STRIP_MM) problems.push(`pile ${key} index strip covered at ${scene.timeMs} ms`);
          }
        }
        // Each Nerts pile shows exactly its top card face up (when no card of it is in flight).
        for (let seat = 0; seat < players; seat++) {
          const nerts = scene.cards.filter((c) => c.zone.kind === 'nerts' && c.zone.seat === seat);
          if (nerts.filter((c) => c.faceUp).length > 1) problems.push(`nerts pile ${seat} shows two faces at ${scene.timeMs} ms`);
        }
      }
      expect(problems).toEqual([]);
    });
  }

  it('a disputed card lies on top of the winning card, then is carried back to its place', () => {
    let checked = 0;
    for (const seed of [2, 3, 4]) {
      const h = simulateHand({ players: 6, seed });
      const timeline = new HandTimeline(h.timeline);
      for (const d of h.truth.disputes) {
        const id = `${d.loser.deckId}/${d.code}`;
        const winnerId = `${d.winner!.deckId}/${d.code}`;
        const lying = timeline.sceneAt(d.loser.landMs + 1);
        const loserPose = lying.cards.find((c) => c.id === id)!;
        const winnerPose = lying.cards.find((c) => c.id === winnerId)!;
        expect(loserPose.zone).toEqual({ kind: 'centre', foundationId: d.foundationId });
        expect(loserPose.zMm).toBeGreaterThan(winnerPose.zMm);
        const after = timeline.sceneAt(d.loser.returnedMs + 1);
        const home = after.cards.find((c) => c.id === id)!;
        expect(home.zone.kind).toBe(d.loser.from.kind);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('hands hover over their own side and carry cards in flight', () => {
    const h = simulateHand({ players: 4, seed: 5 });
    const timeline = new HandTimeline(h.timeline);
    const flight = h.timeline.flights.find((f) => f.liftMm > 0 && f.cardIds.length === 1)!;
    const mid = (flight.startMs + flight.endMs) / 2;
    const scene = timeline.sceneAt(mid);
    const card = scene.cards.find((c) => c.id === flight.cardIds[0])!;
    const hand = scene.hands[flight.seat];
    expect(card.zone).toEqual({ kind: 'hand', seat: flight.seat });
    expect(card.zMm).toBeGreaterThan(3);
    expect(Math.hypot(hand.xMm - card.xMm, hand.yMm - card.yMm)).toBeLessThan(80);
    // The card is drawn above every resting card.
    expect(scene.cards[scene.cards.length - 1].zMm).toBeGreaterThanOrEqual(card.zMm);
  });
});
