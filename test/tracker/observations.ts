/**
 * Builders for hand-made observation sequences: cards at image positions in named zones.
 */
import { expect } from 'vitest';
import type { CardCode } from '../../server/game/cards';
import type { OwnerEvidence } from '../../server/protocol';
import type { CardObservation, FrameObservations, Quad } from '../../server/vision/types';

/** A face-up card centred at (x, y) pixels, 60x84 px, in `zone`. */
export function face(code: CardCode, x: number, y: number, zone: string, confidence = 0.9): CardObservation {
  const corners: Quad = [[x - 30, y - 42], [x + 30, y - 42], [x + 30, y + 42], [x - 30, y + 42]];
  return { kind: 'face', code, confidence, corners, zone };
}

/** A frame at `timestampMs` with these cards (1280x720). */
export function frame(timestampMs: number, cards: CardObservation[]): FrameObservations {
  return { timestampMs, width: 1280, height: 720, cards };
}

/** `count` frames `stepMs` apart starting at `startMs`, each with the cards `cardsAt(i)` gives. */
export function frames(startMs: number, count: number, stepMs: number, cardsAt: (i: number) => CardObservation[]): FrameObservations[] {
  return Array.from({ length: count }, (_, i) => frame(startMs + i * stepMs, cardsAt(i)));
}

/**
 * The `card-played` event the tracker reports for `card`: with `ownerBy`, exactly that event;
 * without, whatever evidence named the player.
 */
export function played(player: string, card: CardCode, foundationId: string, newPile: boolean, ownerBy?: OwnerEvidence): unknown {
  const event = { type: 'card-played', player, card, foundationId, newPile };
  return ownerBy ? { ...event, ownerBy } : expect.objectContaining(event);
}
