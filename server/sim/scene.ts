/**
 * The physical table at one instant: the contract between the simulated players (who decide
 * where every card lies) and the renderer (who draws it as a webcam sees it).
 *
 * Units: table millimetres on the table plane. Origin at the centre of the table, x to the
 * right and y towards the bottom of a straight-down camera image, z up from the cloth.
 * Angles in radians, counter-clockwise as seen from above.
 */
import type { CardCode } from '../game/cards';

/** Size of a standard poker card, millimetres. */
export const CARD_WIDTH_MM = 63;
export const CARD_HEIGHT_MM = 88;
/** Corner radius of a standard card, millimetres. */
export const CARD_CORNER_RADIUS_MM = 3;
/** Thickness of one card, millimetres (a 52-card deck is about 16 mm tall). */
export const CARD_THICKNESS_MM = 0.3;

/** Where a card lies, as ground truth and as the tracker's zones. */
export type Zone =
  | { kind: 'centre'; foundationId: string }
  | { kind: 'aside'; foundationId: string } // a completed foundation turned over and pushed aside
  | { kind: 'nerts'; seat: number }
  | { kind: 'work'; seat: number; pile: number } // pile 0..3
  | { kind: 'waste'; seat: number }
  | { kind: 'stock'; seat: number }
  | { kind: 'hand'; seat: number } // held in a player's hand, in flight
  // After the call: a centre card turned face down at the score sort, gathered (seat null) or dealt out in front of its owner's seat.
  | { kind: 'sorted'; seat: number | null };

/** One physical card on (or above) the table. */
export interface CardPose {
  /** Unique physical card: `${deckId}/${code}`. Two decks may both hold a `QH`. */
  id: string;
  code: CardCode;
  /** The deck the card belongs to (one per player or team); its back design follows from it. */
  deckId: string;
  /** Player (or team) id owning the deck. */
  owner: string;
  faceUp: boolean;
  /** Centre of the card on the table plane, millimetres. */
  xMm: number;
  yMm: number;
  /** Rotation about the table normal, radians; 0 = card upright in a top-down image. */
  rotationRad: number;
  /** Height of the card's face above the cloth, millimetres (stack height, or lift in flight). */
  zMm: number;
  zone: Zone;
  /** Velocity on the table plane while in flight, millimetres per second (for motion blur). */
  velocityMmPerS?: { x: number; y: number };
}

/** A hand and forearm reaching over the table; occludes whatever lies below it. */
export interface HandPose {
  seat: number;
  /** Where the fingertips (or held card) are, table millimetres. */
  xMm: number;
  yMm: number;
  /** Where the forearm leaves the table edge (the player's side), table millimetres. */
  elbowXMm: number;
  elbowYMm: number;
  /** Height above the table, millimetres. */
  zMm: number;
  /** Index into the renderer's skin and sleeve palettes, chosen per player. */
  appearance: number;
  velocityMmPerS?: { x: number; y: number };
}

/** Static layout of one seat: where the player sits and faces. */
export interface SeatLayout {
  seat: number;
  playerId: string;
  deckId: string;
  /** Centre of the player's tableau, table millimetres. */
  xMm: number;
  yMm: number;
  /** Direction the player faces (towards the centre), radians. */
  facingRad: number;
}

/** The whole table at `timeMs`: cards are listed bottom-most first (draw order). */
export interface TableScene {
  timeMs: number;
  table: { widthMm: number; heightMm: number };
  seats: SeatLayout[];
  cards: CardPose[];
  hands: HandPose[];
}
