/**
 * Matches (rules M1–M4, T1–T3 in RULES.md): hands accumulate per the variant's scoring; the winner
 * and the end are detected per the variant's win rule and hand cap; the pagat tournament table
 * records and movement between tables. Points are game points. Pure.
 */
import { type CardCode, rankValue } from './cards';
import { type HandScore, type HandTally, scoreHand, scoringEntities, type Teams } from './scoring';
import type { ScoringRules } from './variants';

/** Why a match ended. */
export type MatchEndReason = 'target' | 'hand-cap';

/** A match so far: scored hands, running totals per entity (player or team), and the outcome. */
export interface MatchState {
  entities: string[];
  hands: HandScore[];
  totals: Record<string, number>;
  /** Totals before the latest hand (the tournament table records these for non-winners, T1). */
  totalsBeforeLastHand: Record<string, number>;
  ended: boolean;
  /** The winner once decided, else null (also null when the match ended tied at the hand cap). */
  winner: string | null;
  endReason: MatchEndReason | null;
  /** Entities tied for the lead when a tie stops the match being decided. */
  tiedLeaders: string[];
}

/** A fresh match for these players (teams replace their members as entities). */
export function newMatch(players: readonly string[], teams?: Teams): MatchState {
  const entities = scoringEntities(players, teams);
  const zero = Object.fromEntries(entities.map((e) => [e, 0]));
  return { entities, hands: [], totals: { ...zero }, totalsBeforeLastHand: { ...zero }, ended: false, winner: null, endReason: null, tiedLeaders: [] };
}

function leaders(totals: Record<string, number>, among: readonly string[]): string[] {
  const best = Math.max(...among.map((e) => totals[e]));
  return among.filter((e) => totals[e] === best);
}

/**
 * M2: the outcome after a hand. caller-at-target (000): once someone reaches the target, the caller
 * wins if they reached it, else the highest total. highest-at-target (001–003): the highest total
 * once anyone reaches the target. highest-past-target (004): the highest once anyone exceeds it.
 * A tie for the lead plays on. M4: at the hand cap the highest wins (a tie ends undecided).
 */
export function matchOutcome(rules: ScoringRules, totals: Record<string, number>, entities: readonly string[], handsPlayed: number, lastCallerEntity: string | null): Pick<MatchState, 'ended' | 'winner' | 'endReason' | 'tiedLeaders'> {
  const reached = entities.filter((e) => (rules.winRule === 'highest-past-target' ? totals[e] > rules.target : totals[e] >= rules.target));
  if (reached.length > 0) {
    if (rules.winRule === 'caller-at-target' && lastCallerEntity !== null && reached.includes(lastCallerEntity)) {
      return { ended: true, winner: lastCallerEntity, endReason: 'target', tiedLeaders: [] };
    }
    const top = leaders(totals, entities);
    if (top.length === 1) return { ended: true, winner: top[0], endReason: 'target', tiedLeaders: [] };
    if (rules.handCap === null || handsPlayed < rules.handCap) return { ended: false, winner: null, endReason: null, tiedLeaders: top };
  }
  if (rules.handCap !== null && handsPlayed >= rules.handCap) {
    const top = leaders(totals, entities);
    return top.length === 1
      ? { ended: true, winner: top[0], endReason: 'hand-cap', tiedLeaders: [] }
      : { ended: true, winner: null, endReason: 'hand-cap', tiedLeaders: top };
  }
  return { ended: false, winner: null, endReason: null, tiedLeaders: [] };
}

/** M1: adds a scored hand to the match and re-decides the outcome. A hand after the end is a programmer error: check `ended` first. */
export function addHand(rules: ScoringRules, match: MatchState, hand: HandScore): MatchState {
  if (match.ended) throw new Error('the match is over: no more hands');
  const totals = { ...match.totals };
  for (const entity of match.entities) totals[entity] = (totals[entity] ?? 0) + (hand.scores[entity] ?? 0);
  const hands = [...match.hands, hand];
  return { ...match, hands, totals, totalsBeforeLastHand: { ...match.totals }, ...matchOutcome(rules, totals, match.entities, hands.length, hand.callerEntity) };
}

/** M1 with R5: replaces the latest hand (re-scored after a correction) and re-decides the outcome from all hands. */
export function replaceLastHand(rules: ScoringRules, match: MatchState, hand: HandScore): MatchState {
  if (match.hands.length === 0) throw new Error('the match has no hand to replace');
  const zero = Object.fromEntries(match.entities.map((e) => [e, 0]));
  let rebuilt: MatchState = { ...match, hands: [], totals: { ...zero }, totalsBeforeLastHand: { ...zero }, ended: false, winner: null, endReason: null, tiedLeaders: [] };
  for (const scored of [...match.hands.slice(0, -1), hand]) rebuilt = addHand(rules, rebuilt, scored);
  return rebuilt;
}

/** Scores a whole list of hand tallies as a match; hands after the end are reported, not scored. */
export function scoreMatch(rules: ScoringRules, players: readonly string[], tallies: readonly HandTally[], teams?: Teams): { match: MatchState; handsAfterEnd: number } {
  let match = newMatch(players, teams);
  let handsAfterEnd = 0;
  for (const tally of tallies) {
    if (match.ended) {
      handsAfterEnd++;
      continue;
    }
    match = addHand(rules, match, scoreHand(rules, players, tally, teams));
  }
  return { match, handsAfterEnd };
}

/**
 * T1 (000 tournament): what each player records for a finished table: the winner records the
 * target (100), everyone else their total before the hand that produced the winner.
 * Returns null while the table's match is undecided.
 */
export function tournamentTableRecord(rules: ScoringRules, match: MatchState): Record<string, number> | null {
  if (!match.ended || match.winner === null) return null;
  const record: Record<string, number> = {};
  for (const entity of match.entities) record[entity] = entity === match.winner ? rules.target : match.totalsBeforeLastHand[entity];
  return record;
}

/** One finished tournament table: its number (1 = top table) and each player's recorded score. */
export interface TournamentTable {
  table: number;
  records: Record<string, number>;
}

/** Who moves where after a round of tables, and which ties still need a cut. */
export interface TournamentMovement {
  moves: { player: string; from: number; to: number }[];
  /** Players who must cut cards (or cut again) to settle who moves from `table`. */
  needsCut: { table: number; players: string[] }[];
}

/**
 * T2 (000): the top two scores from each table move to the next lower-numbered table (table 1's
 * stay). A tie across the moving line is settled by cut cards: the high card moves, ace low;
 * `cuts` gives each tied player's cut card. Unsettled ties are listed in `needsCut`.
 */
export function tournamentMovement(tables: readonly TournamentTable[], cuts: Record<string, CardCode> = {}): TournamentMovement {
  const movement: TournamentMovement = { moves: [], needsCut: [] };
  for (const { table, records } of tables) {
    if (table <= 1) continue;
    const players = Object.keys(records).sort((a, b) => records[b] - records[a]);
    const moving = 2;
    if (players.length <= moving) {
      for (const player of players) movement.moves.push({ player, from: table, to: table - 1 });
      continue;
    }
    const lineScore = records[players[moving - 1]];
    const sure = players.filter((p) => records[p] > lineScore);
    const tied = players.filter((p) => records[p] === lineScore);
    const slots = moving - sure.length;
    for (const player of sure) movement.moves.push({ player, from: table, to: table - 1 });
    if (tied.length <= slots) {
      for (const player of tied) movement.moves.push({ player, from: table, to: table - 1 });
      continue;
    }
    if (!tied.every((p) => cuts[p] !== undefined)) {
      movement.needsCut.push({ table, players: tied });
      continue;
    }
    const byCut = tied.slice().sort((a, b) => rankValue(cuts[b]) - rankValue(cuts[a]));
    const cutLine = rankValue(cuts[byCut[slots - 1]]);
    const cutSure = byCut.filter((p) => rankValue(cuts[p]) > cutLine);
    const cutTied = byCut.filter((p) => rankValue(cuts[p]) === cutLine);
    for (const player of cutSure) movement.moves.push({ player, from: table, to: table - 1 });
    if (cutSure.length + cutTied.length <= slots) {
      for (const player of cutTied) movement.moves.push({ player, from: table, to: table - 1 });
    } else {
      movement.needsCut.push({ table, players: cutTied });
    }
  }
  return movement;
}

/**
 * T3 (000): each player plays four tables; the highest summed record wins; a tie for first needs a
 * tie-breaker game to 100 (listed in `tieBreaker`).
 */
export function tournamentStandings(rounds: readonly Record<string, number>[]): { totals: Record<string, number>; order: string[]; winner: string | null; tieBreaker: string[] } {
  const totals: Record<string, number> = {};
  for (const round of rounds) for (const [player, score] of Object.entries(round)) totals[player] = (totals[player] ?? 0) + score;
  const order = Object.keys(totals).sort((a, b) => totals[b] - totals[a] || a.localeCompare(b));
  if (order.length === 0) return { totals, order, winner: null, tieBreaker: [] };
  const top = order.filter((p) => totals[p] === totals[order[0]]);
  return { totals, order, winner: top.length === 1 ? top[0] : null, tieBreaker: top.length === 1 ? [] : top };
}
