/**
 * What a simulated player does next: a priority list a quick human follows (Nerts card to the
 * centre first, then anything else to the centre, then freeing the Nerts pile, then building),
 * with a chance of overlooking a play that shrinks with skill. Pure given the random source.
 */
import { colourOf, rankValue, suitOf, type CardCode } from '../../game/cards';
import { productiveMoves, tableauOf, type Move, type TableModel } from '../../game/table';
import type { BotProfile } from './profile';
import type { SimRng } from './rng';

/** A move and why it was chosen, for the ground truth and for tests. */
export interface Choice {
  move: Move;
  /** Lower = more urgent; see `movePriority`. */
  priority: number;
}

/**
 * Urgency of a productive move (lower first), or null when the bot will not make it (a shuffle
 * that only helps some buried stock card: it can ping-pong between two piles for ever).
 */
export function movePriority(table: TableModel, move: Move): number | null {
  if (move.type === 'to-foundation') return move.from.kind === 'nerts' ? 0 : move.from.kind === 'work' ? 1 : 2;
  if (move.type === 'call' || move.type === 'turn-stock' || move.type === 'stuck-rotation') return null;
  const tableau = tableauOf(table, move.player);
  if (!tableau) return null;
  const from = move.from;
  if (from.kind === 'nerts') return move.type === 'slide-under' ? 3 : tableau.workPiles[move.pile].length === 0 ? 3 : 4;
  if (from.kind === 'work') {
    const pile = tableau.workPiles[from.pile];
    const nertsTop = tableau.nertsPile[tableau.nertsPile.length - 1];
    // Emptying a pile only helps when a Nerts card is waiting for the space.
    if (from.index === 0) return nertsTop ? 5 : null;
    const exposed = pile[from.index - 1];
    const exposedRank = rankValue(exposed.code);
    const exposesFoundationPlay =
      exposedRank === 1 ||
      table.foundations.some((f) => !f.completed && f.suit === suitOf(exposed.code) && rankValue(f.cards[f.cards.length - 1].code) === exposedRank - 1);
    if (exposesFoundationPlay) return 5;
    const fitsOn = (code: CardCode | undefined): boolean => code !== undefined && rankValue(code) === exposedRank - 1 && colourOf(code) !== colourOf(exposed.code);
    if (nertsTop && !table.variant.nertsOnlyToEmptyOrFoundation && fitsOn(nertsTop.code)) return 6;
    if (fitsOn(tableau.waste[tableau.waste.length - 1]?.code)) return 7;
    return null;
  }
  // From the waste: onto a pile, or into a space when the Nerts pile has nothing to put there.
  if (tableau.workPiles[move.pile].length === 0 && tableau.nertsPile.length > 0 && table.variant.emptySpaceFill === 'any') return 9;
  return 8;
}

/**
 * The bot's next productive move, or null when it sees none (it then turns the stock). `recentRunBase`
 * (a card id) is a run moved between piles since the last other move: it is not moved back at once.
 * `blocked` moves touch piles a partner's hand is busy with.
 */
export function chooseMove(
  table: TableModel,
  player: string,
  profile: BotProfile,
  rng: SimRng,
  recentRunBase: string | null,
  blocked: (move: Move) => boolean = () => false,
): { choice: Choice | null; productiveExists: boolean } {
  const tableau = tableauOf(table, player);
  if (!tableau) return { choice: null, productiveExists: false };
  const candidates: Choice[] = [];
  for (const move of productiveMoves(table, player)) {
    const priority = movePriority(table, move);
    if (priority === null || blocked(move)) continue;
    if (recentRunBase !== null && move.type === 'to-work' && move.from.kind === 'work') {
      const base = tableau.workPiles[move.from.pile][move.from.index];
      if (`${base.deckId}/${base.code}` === recentRunBase) continue;
    }
    candidates.push({ move, priority });
  }
  if (candidates.length === 0) return { choice: null, productiveExists: false };
  // Stable order by priority; ties keep the engine's order (Nerts, waste, then piles left to right).
  candidates.sort((a, b) => a.priority - b.priority);
  for (const candidate of candidates) {
    const notice = candidate.priority === 0 ? profile.noticeNerts : profile.noticeOther;
    if (rng.chance(notice)) return { choice: candidate, productiveExists: true };
  }
  return { choice: null, productiveExists: true };
}
