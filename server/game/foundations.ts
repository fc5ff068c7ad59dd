/**
 * Foundation logic shared by the full table model and the camera referee: a foundation starts with
 * any ace, builds up in suit one rank at a time, is completed (closed) by its king, and a card on it
 * never leaves it (rules F1–F6 in RULES.md).
 */
import { type CardCode, type Suit, rankValue, suitOf } from './cards';
import type { ViolationCode } from './violations';

/** A card in the centre: its code, the deck it came from and that deck's owner (player or team id). */
export interface CentreCard {
  code: CardCode;
  deckId: string;
  owner: string;
}

/** The minimum a foundation check needs: its suit, its cards bottom..top, and whether a king closed it. */
export interface FoundationLike {
  suit: Suit;
  cards: readonly { code: CardCode }[];
  completed: boolean;
}

/** Rank value (1–13) of the foundation's top card, 0 when empty. */
export function foundationTopRank(pile: FoundationLike): number {
  const top = pile.cards[pile.cards.length - 1];
  return top ? rankValue(top.code) : 0;
}

/**
 * Why `code` may not go on `pile` (null = start a new foundation), or null when the play is legal.
 * Order of checks: new pile needs an ace; a completed pile takes nothing; then suit; then rank.
 */
export function foundationPlayProblem(pile: FoundationLike | null, code: CardCode): ViolationCode | null {
  if (pile === null) return rankValue(code) === 1 ? null : 'foundation/must-start-with-ace';
  if (pile.completed) return 'foundation/completed';
  if (suitOf(code) !== pile.suit) return 'foundation/wrong-suit';
  if (rankValue(code) !== foundationTopRank(pile) + 1) return 'foundation/wrong-rank';
  return null;
}

/** True when a card of this rank closes its foundation (the king). */
export function completesFoundation(code: CardCode): boolean {
  return rankValue(code) === 13;
}

/** Human-readable explanation of a foundation problem, for violation messages. */
export function describeFoundationProblem(problem: ViolationCode, code: CardCode, pile: FoundationLike | null): string {
  switch (problem) {
    case 'foundation/must-start-with-ace':
      return `${code} cannot start a foundation: only an ace can`;
    case 'foundation/completed':
      return `${code} played on a foundation already completed by its king`;
    case 'foundation/wrong-suit':
      return `${code} played on a ${pile?.suit ?? '?'} foundation`;
    case 'foundation/wrong-rank':
      return `${code} played on a foundation whose top rank is ${pile ? foundationTopRank(pile) : 0}; it needs rank ${pile ? foundationTopRank(pile) + 1 : 1}`;
    default:
      return `${code}: ${problem}`;
  }
}
