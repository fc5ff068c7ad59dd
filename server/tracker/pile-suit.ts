/**
 * Which of two look-alike suits a foundation pile really is, from everything read on it. Pure.
 *
 * At webcam size a spade passes for a club (and a heart for a diamond) card after card. A pile
 * whose ace was misread then takes each next card in the wrong suit (the pile's prior, see
 * readings.ts, favours the next card in its suit), until a card that reads surely in the other
 * suit is reported as an illegal play and the pile stalls there for the rest of the hand (a
 * recorded 5-player pile: AC–7C credited, 8S–KS never). One reading settles little; the pile's
 * readings together do: each card on it is of the same suit, and they come from several players'
 * decks. So each raw reading (the recogniser's own, before the pile's prior) of a card on the
 * pile adds the log ratio of its shares for the two suits at that rank; readings of one card are
 * averaged (many frames of one card are one piece of evidence), and the cards' averages summed.
 */
import { parseCard, type CardCode, type Suit } from '../game/cards';
import type { CardObservation } from '../vision/types';

/** Suits that look alike at webcam size: spades and clubs, hearts and diamonds. */
export const TWIN_SUIT: Readonly<Record<Suit, Suit>> = { S: 'C', C: 'S', H: 'D', D: 'H' };

/** Per rank on the pile: the sum and number of log(share of S or H / share of C or D) readings. */
export type SuitLean = Record<string, { sum: number; n: number }>;

/** A share below this counts as this (an alternative not listed had at most this much). */
const SHARE_FLOOR = 0.02;
/** One card's average lean counts at most this much (one deck that reads badly stays one card). */
const CARD_LEAN_CAP = 2;

/** The first suit of each look-alike pair: leans are log(first / second). */
function firstOfPair(suit: Suit): boolean {
  return suit === 'S' || suit === 'H';
}

/**
 * Adds a raw reading of a card lying on a pile of suit `pileSuit` whose top has rank value
 * `topValue`: only face readings of the pile's colour, of a rank the pile holds or may get next
 * (up to three ahead), count. Returns the lean unchanged when the reading says nothing.
 */
export function addSuitLean(lean: SuitLean, reading: CardObservation, pileSuit: Suit, topValue: number): SuitLean {
  if (reading.kind !== 'face' || !reading.code) return lean;
  const { rank, suit, value } = parseCard(reading.code);
  const twin = TWIN_SUIT[pileSuit];
  if (suit !== pileSuit && suit !== twin) return lean;
  if (value > topValue + 3) return lean;
  const alternatives = reading.alternatives ?? [{ code: reading.code, p: reading.confidence }];
  const shareOf = (s: Suit) => alternatives.filter((a) => a.code === (`${rank}${s}` as CardCode)).reduce((sum, a) => sum + a.p, 0);
  const [first, second] = firstOfPair(pileSuit) ? [pileSuit, twin] : [twin, pileSuit];
  const ratio = Math.log(Math.max(shareOf(first), SHARE_FLOOR) / Math.max(shareOf(second), SHARE_FLOOR));
  const was = lean[rank] ?? { sum: 0, n: 0 };
  return { ...lean, [rank]: { sum: was.sum + ratio, n: was.n + 1 } };
}

/**
 * How strongly the pile's readings say it is of `pileSuit`'s look-alike rather than `pileSuit`
 * (positive: the twin; natural log odds summed over cards), and over how many cards.
 */
export function twinLean(lean: SuitLean, pileSuit: Suit): { lean: number; cards: number } {
  let total = 0;
  let cards = 0;
  for (const { sum, n } of Object.values(lean)) {
    if (n === 0) continue;
    total += Math.max(-CARD_LEAN_CAP, Math.min(CARD_LEAN_CAP, sum / n));
    cards += 1;
  }
  return { lean: firstOfPair(pileSuit) ? -total : total, cards };
}
