/**
 * The identity model's class layout and crop size, shared by training and inference.
 * Classes: the 52 faces in ALL_CARD_CODES order, then `other` (not a card we know: jokers,
 * table texture, hands), then one class per back design seen in training (all mean "a back").
 */
import { ALL_CARD_CODES, type CardCode } from '../game/cards';

/** A playing card's long side over its short side (63 x 88 mm). */
export const CARD_ASPECT = 88 / 63;

/** Upright card crop fed to the identity model, pixels (portrait, 63:88 card ≈ 64:96 incl. margin). */
export const CROP_WIDTH = 64;
export const CROP_HEIGHT = 96;

/** Index of the reject class. */
export const OTHER_CLASS = 52;
/** Index of the first back-design class. */
export const FIRST_BACK_CLASS = 53;

/** What a class index means. */
export type ClassMeaning = { kind: 'face'; code: CardCode } | { kind: 'other' } | { kind: 'back'; design: string };

/** Class names in model output order, given the training back designs. */
export function classNames(backDesigns: readonly string[]): string[] {
  return [...ALL_CARD_CODES, 'other', ...backDesigns.map((d) => `back:${d}`)];
}

/** Interprets a class index of the model's output. */
export function classMeaning(index: number, names: readonly string[]): ClassMeaning {
  if (index < OTHER_CLASS) return { kind: 'face', code: ALL_CARD_CODES[index] };
  if (index === OTHER_CLASS) return { kind: 'other' };
  const name = names[index] ?? `back:${index}`;
  return { kind: 'back', design: name.replace(/^back:/, '') };
}

// ------------------------------------------------------------------ the index-corner reader

/** Index-corner crop fed to the index model, pixels (portrait). */
export const INDEX_WIDTH = 32;
export const INDEX_HEIGHT = 48;

/** A rectangle in card units (0..1 across, 0..1 down the upright card). */
export interface CardRegion {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Where the rank and suit index sits on an upright card: its top-left corner (the same index,
 * turned, sits at the bottom right). Generous enough for jumbo indices and localiser error.
 */
/** Size of the back-look model's embedding (models/back-looks; see datasets/lib/back-embed.ts). */
export const BACK_EMBED_SIZE = 64;

export const INDEX_REGION: CardRegion = { x0: 0, y0: 0, x1: 0.26, y1: 0.3 };

/** Index model rank classes: the 13 ranks, then "no index here". */
export const INDEX_RANK_CLASSES = 14;
/** Index model suit classes: the 4 suits, then "no index here". */
export const INDEX_SUIT_CLASSES = 5;
/** The "no index" class of both heads. */
export const NO_RANK = 13;
export const NO_SUIT = 4;
