/**
 * Human names and glyphs for card codes, for display and screen readers.
 * Imports only the pure card module shared with the server.
 */
import { parseCard, colourOf, isCardCode, SUIT_NAMES, type CardCode, type Rank, type Suit } from '../../../server/game/cards';

export { SUIT_NAMES };

/** Unicode suit symbols (text presentation). */
export const SUIT_SYMBOLS: Record<Suit, string> = { S: '♠', H: '♥', D: '♦', C: '♣' };

const RANK_NAMES: Record<Rank, string> = {
  A: 'ace', '2': 'two', '3': 'three', '4': 'four', '5': 'five', '6': 'six', '7': 'seven',
  '8': 'eight', '9': 'nine', '10': 'ten', J: 'jack', Q: 'queen', K: 'king',
};

/** "queen of hearts" for `QH`. */
export function cardName(code: CardCode): string {
  const { rank, suit } = parseCard(code);
  return `${RANK_NAMES[rank]} of ${SUIT_NAMES[suit]}`;
}

/** "Q♥" for `QH`: compact text for feeds and tickers. */
export function cardShort(code: CardCode): string {
  const { rank, suit } = parseCard(code);
  return `${rank}${SUIT_SYMBOLS[suit]}`;
}

/** Rank, suit symbol and colour for drawing; null for anything that is not a card code. */
export function cardFace(code: string): { rank: Rank; suit: Suit; symbol: string; colour: 'red' | 'black' } | null {
  if (!isCardCode(code)) return null;
  const { rank, suit } = parseCard(code);
  return { rank, suit, symbol: SUIT_SYMBOLS[suit], colour: colourOf(code) };
}
