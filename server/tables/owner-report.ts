/**
 * Who the tracker credited each centre card to over a recorded hand, against the truth: every
 * card played to a foundation beside the player the tracker named and the cue that named them
 * (`ownerBy`: track, left-seat, hand, …), with the truth's race when the card was raced for. For
 * finding why the centre counts went wrong and which cue to work on (`npm run owners -- FILE`);
 * pure apart from reading the recording.
 */
import type { CardCode } from '../game/cards';
import type { OwnerEvidence } from '../protocol';
import type { HandTruth } from '../sim/bots/engine';
import { refereeObservations, type ObservedFrame, type RefereedTable, type TruthRefereedHand } from './truth-referee';

/** A truth play is matched to the tracker's play of its card landing at most this far from it, ms. */
export const OWNER_MATCH_MS = 4000;

/** One card the truth has played to a foundation; times are hand time (from the hand's first frame), ms. */
export interface OwnerRow {
  card: CardCode;
  /** The player whose tableau the card came from. */
  truthOwner: string;
  landMs: number;
  /** The player the tracker credited, and the cue that named them; null when it reported no such play. */
  seenOwner: string | null;
  cue: OwnerEvidence | 'unseen' | 'reversed';
  /** The truth's race for this card's slot, when there was one. */
  race?: { winner: string | null; loser: string; marginMs: number | null };
}

/** One hand: every centre card, and per cue how often it named the right player. */
export interface OwnerHand {
  handIndex: number;
  rows: OwnerRow[];
  byCue: Record<string, { right: number; wrong: number }>;
}

/**
 * Lines up the truth's centre plays with the tracker's, one to one: each truth play takes the
 * tracker's play of the same card nearest in time, within OWNER_MATCH_MS, one crediting the same
 * player first (two decks' copies of a card landing together on two piles, say two aces starting
 * piles at once, are each matched to their own). The tracker's plays for a race's second lander
 * (`race`) are left out: the rules send them back.
 */
export function matchOwners(truth: HandTruth, played: Readonly<TruthRefereedHand['played']>): OwnerRow[] {
  const candidates = played.filter(({ event }) => event.ownerBy !== 'race');
  const plays = truth.plays.filter((play) => play.move.type === 'to-foundation');
  const used = new Set<number>();
  const matched = new Map<number, number>();
  const nearest = (play: (typeof plays)[number], sameOwner: boolean): number => {
    let best = -1;
    candidates.forEach(({ timeMs, event }, i) => {
      if (used.has(i) || event.card !== play.cards[0].code || Math.abs(timeMs - play.landMs) > OWNER_MATCH_MS) return;
      if (sameOwner && event.player !== play.tableau) return;
      if (best < 0 || Math.abs(timeMs - play.landMs) < Math.abs(candidates[best].timeMs - play.landMs)) best = i;
    });
    return best;
  };
  for (const sameOwner of [true, false]) {
    plays.forEach((play, k) => {
      if (matched.has(k)) return;
      const best = nearest(play, sameOwner);
      if (best < 0) return;
      used.add(best);
      matched.set(k, best);
    });
  }
  return plays.map((play, k) => {
    const card = play.cards[0].code;
    const best = matched.get(k);
    const seen = best === undefined ? null : candidates[best].event;
    const reversed = best !== undefined && candidates[best].reversed === true;
    const race = truth.disputes.find((d) => d.code === card && d.winner?.playIndex === play.index);
    return {
      card,
      truthOwner: play.tableau,
      landMs: play.landMs,
      seenOwner: seen?.player ?? null,
      cue: reversed ? 'reversed' : seen ? (seen.ownerBy ?? 'guess') : 'unseen',
      ...(race ? { race: { winner: race.winner?.player ?? null, loser: race.loser.player, marginMs: race.marginMs } } : {}),
    };
  });
}

/** Per cue, how often it named the right player (`unseen`: plays the tracker never reported). */
export function tallyByCue(rows: readonly OwnerRow[]): Record<string, { right: number; wrong: number }> {
  const tally: Record<string, { right: number; wrong: number }> = {};
  for (const row of rows) {
    const entry = (tally[row.cue] ??= { right: 0, wrong: 0 });
    if (row.seenOwner === row.truthOwner) entry.right += 1;
    else entry.wrong += 1;
  }
  return tally;
}

/** Referees the frames as truth-referee.ts does and reports each hand's centre cards by owner. */
export async function ownerReport(table: RefereedTable, frames: AsyncIterable<ObservedFrame> | Iterable<ObservedFrame>): Promise<OwnerHand[]> {
  return (await refereeObservations(table, frames)).map(({ handIndex, truth, played }) => {
    const rows = matchOwners(truth, played);
    return { handIndex, rows, byCue: tallyByCue(rows) };
  });
}
