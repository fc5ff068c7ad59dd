/**
 * Cards and card codes, shared by every layer (rules, simulator, vision, client).
 *
 * A card code is rank + suit, as in ../shared/data/README.md: `AS`, `10H`, `QD`.
 * Ranks run A (1, low) to K (13, high).
 */

/** Suits in a fixed order: spades, hearts, diamonds, clubs. */
export const SUITS = ['S', 'H', 'D', 'C'] as const;
export type Suit = (typeof SUITS)[number];

/** Each suit's name in words (display, log messages). */
export const SUIT_NAMES: Readonly<Record<Suit, string>> = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };

/** Rank symbols in ascending order; index + 1 is the rank value (A = 1 … K = 13). */
export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'] as const;
export type Rank = (typeof RANKS)[number];

/** A card code such as `AS` or `10H`. */
export type CardCode = `${Rank}${Suit}`;

/** Red or black: work piles alternate colour. */
export type Colour = 'red' | 'black';

/** All 52 codes, suit-major (AS, 2S, … KS, AH, … KC). A stable class order for models. */
export const ALL_CARD_CODES: readonly CardCode[] = SUITS.flatMap((suit) =>
  RANKS.map((rank) => `${rank}${suit}` as CardCode),
);

const CODE_PATTERN = /^(A|[2-9]|10|J|Q|K)([SHDC])$/;

/** True when `value` is one of the 52 card codes. */
export function isCardCode(value: unknown): value is CardCode {
  return typeof value === 'string' && CODE_PATTERN.test(value);
}

/** Splits a code into rank and suit; throws on a malformed code (a programmer error). */
export function parseCard(code: CardCode): { rank: Rank; suit: Suit; value: number } {
  const match = CODE_PATTERN.exec(code);
  if (!match) throw new Error(`not a card code: ${String(code)}`);
  const rank = match[1] as Rank;
  return { rank, suit: match[2] as Suit, value: RANKS.indexOf(rank) + 1 };
}

/** Rank value 1 (ace) … 13 (king). */
export function rankValue(code: CardCode): number {
  return parseCard(code).value;
}

/** The card's suit. */
export function suitOf(code: CardCode): Suit {
  return parseCard(code).suit;
}

/** Hearts and diamonds are red, spades and clubs black. */
export function colourOf(code: CardCode): Colour {
  const suit = suitOf(code);
  return suit === 'H' || suit === 'D' ? 'red' : 'black';
}

/** Builds a code from a rank value (1–13) and a suit. */
export function cardFrom(value: number, suit: Suit): CardCode {
  const rank = RANKS[value - 1];
  if (!rank) throw new Error(`rank value out of range: ${value}`);
  return `${rank}${suit}` as CardCode;
}
