/**
 * What a seen card most likely is, given where it lies. Pure.
 *
 * The recogniser names the face it finds likeliest and lists the runners-up with their shares
 * (`CardObservation.alternatives`). At webcam size its first choice is often a near miss: a 7H
 * read as 7D, a 5S as 5C. The game knows much more about a card lying on a foundation than the
 * pixels do: it is almost always the pile's top (still there) or the next card in suit. So each
 * alternative's share is weighed by how likely the game makes that card there (Bayes: share x
 * prior), and the best of those is the reading. A card the game does not expect keeps a small
 * prior, so an illegal play that reads clearly is still reported.
 */
import { parseCard, rankValue, suitOf, type CardCode } from '../game/cards';
import type { CardObservation } from '../vision/types';

/** How much a reading's place counts against the recogniser's first choice. */
export interface ReadingTuning {
  /** Prior of a card the game does not expect on a pile (the next in suit and the top itself are 1). */
  unexpectedCardPrior: number;
  /** Runners-up with a smaller share than this are never chosen. */
  alternativeMinShare: number;
  /**
   * Priors of a card two and three ahead of a pile's top in suit (plays missed between frames are
   * rare; a stack's crop that takes in the card below reads a few pips too many).
   */
  jumpPriors: [number, number];
}

/**
 * The cards that take a pile from `top` to `reading` by legal single steps (several when frames
 * were missed); null when `reading` cannot follow `top` in suit, or lies more than `maxCards`
 * ahead (by default three: more unseen plays than that is taken for a misread).
 */
export function cardsBetween(top: CardCode | undefined, reading: CardCode, maxCards = 3): CardCode[] | null {
  if (!top && rankValue(reading) > 3) return null; // a new pile missing more than its ace and a two is a misread
  if (top && suitOf(top) !== suitOf(reading)) return null;
  const from = top ? rankValue(top) : 0;
  const to = rankValue(reading);
  if (to <= from || to - from > maxCards) return null;
  const suit = parseCard(reading).suit;
  const codes: CardCode[] = [];
  for (let value = from + 1; value <= to; value += 1) codes.push(`${['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'][value - 1]}${suit}` as CardCode);
  return codes;
}

/**
 * How likely the game makes `code` lying on a pile whose top is `top` (undefined: where no pile
 * lies, so a new pile): the top itself or the next in suit 1, a card two or three ahead less,
 * anything else `unexpectedCardPrior`.
 */
export function pilePrior(top: CardCode | undefined, code: CardCode, tuning: ReadingTuning): number {
  if (code === top) return 1;
  const ahead = cardsBetween(top, code);
  if (!ahead) return tuning.unexpectedCardPrior;
  return ahead.length === 1 ? 1 : tuning.jumpPriors[ahead.length - 2];
}

/**
 * The card's most likely reading under `prior`: among its alternatives (or its code alone), the
 * one with the largest share x prior. A runner-up chosen this way keeps the confidence scaled by
 * its share of the first choice's, so a faint alternative votes faintly.
 */
export function readWithPrior(card: CardObservation, prior: (code: CardCode) => number, tuning: ReadingTuning): CardObservation {
  const alternatives = card.alternatives;
  if (card.kind !== 'face' || !card.code || !alternatives || alternatives.length < 2) return card;
  const first = alternatives[0];
  let best = first;
  let bestScore = first.p * prior(first.code);
  for (const alternative of alternatives.slice(1)) {
    if (alternative.p < tuning.alternativeMinShare) continue;
    const score = alternative.p * prior(alternative.code);
    if (score > bestScore) {
      best = alternative;
      bestScore = score;
    }
  }
  if (best.code === card.code) return card;
  return { ...card, code: best.code, confidence: card.confidence * (best.p / Math.max(first.p, 1e-6)) };
}
