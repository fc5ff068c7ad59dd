/**
 * The pure half of `npm run score`: validates a scoresheet (one hand, or a match of hands) given as
 * parsed JSON and returns the JSON to print, or a readable error. No I/O here (cli/score.ts does it).
 */
import { scoreMatch, tournamentTableRecord } from './match';
import { type HandTally, scoreHand, type Teams } from './scoring';
import { tryResolveVariant } from './variants';

/** What the scorer prints: `{ scores }` for one hand; per-hand scores, totals and winner for a match. */
export type ScoreOutput =
  | { scores: Record<string, number> }
  | {
      hands: { scores: Record<string, number> }[];
      totals: Record<string, number>;
      winner: string | null;
      ended: boolean;
      endReason: string | null;
      tiedLeaders: string[];
      /** Tournament variant only: what each player records for the table (T1), once decided. */
      tableRecord?: Record<string, number> | null;
    };

/** Scoring result: output to print, or an error message for stderr. */
export type ScoreResult = { ok: true; output: ScoreOutput } | { ok: false; error: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function countMap(value: unknown, field: string, players: readonly string[], where: string): Record<string, number> | string {
  if (!isRecord(value)) return `${where}${field} must be an object of counts per player, e.g. {"${players[0]}": 3}`;
  for (const key of Object.keys(value)) if (!players.includes(key)) return `${where}${field} names "${key}", who is not in players`;
  const counts: Record<string, number> = {};
  for (const player of players) {
    const count = value[player];
    if (count === undefined) return `${where}${field}.${player} is missing`;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) return `${where}${field}.${player} must be a whole number ≥ 0 (got ${JSON.stringify(count)})`;
    counts[player] = count;
  }
  return counts;
}

function parseHand(value: unknown, players: readonly string[], where: string): HandTally | string {
  if (!isRecord(value)) return `${where}a hand must be an object with centre, nertsLeft and caller`;
  const centre = countMap(value.centre, 'centre', players, where);
  if (typeof centre === 'string') return centre;
  const nertsLeft = countMap(value.nertsLeft, 'nertsLeft', players, where);
  if (typeof nertsLeft === 'string') return nertsLeft;
  for (const player of players) {
    if (centre[player] > 52) return `${where}centre.${player} is ${centre[player]}: a deck has only 52 cards`;
    if (nertsLeft[player] > 52) return `${where}nertsLeft.${player} is ${nertsLeft[player]}: a deck has only 52 cards`;
  }
  const caller = value.caller ?? null;
  if (caller !== null && (typeof caller !== 'string' || !players.includes(caller))) return `${where}caller must be one of the players or null (got ${JSON.stringify(caller)})`;
  return { centre, nertsLeft, caller };
}

function parseTeams(value: unknown, players: readonly string[]): Teams | undefined | string {
  if (value === undefined) return undefined;
  if (!isRecord(value)) return 'teams must be an object like {"t1": ["ann", "bob"]}';
  const seen = new Set<string>();
  const teams: Teams = {};
  for (const [team, members] of Object.entries(value)) {
    if (!Array.isArray(members) || members.length === 0 || !members.every((m) => typeof m === 'string')) return `teams.${team} must be a list of player names`;
    for (const member of members as string[]) {
      if (!players.includes(member)) return `teams.${team} names "${member}", who is not in players`;
      if (seen.has(member)) return `"${member}" is in two teams`;
      seen.add(member);
    }
    if (players.includes(team) && !(members as string[]).includes(team)) return `team name "${team}" is also a player's name`;
    teams[team] = members as string[];
  }
  return teams;
}

/** Scores a parsed scoresheet. Never throws. */
export function scoreSheet(input: unknown): ScoreResult {
  if (!isRecord(input)) return { ok: false, error: 'input must be a JSON object with variant, players and either a hand (centre, nertsLeft, caller) or hands' };
  if (input.variant === undefined) return { ok: false, error: 'variant is required: a preset name (snerts, nertz, house-150, gnerts, nuts, tournament) or an object of knobs' };
  const resolved = tryResolveVariant(input.variant);
  if (!resolved.ok) return { ok: false, error: resolved.error };
  const rules = resolved.rules;
  const players = input.players;
  if (!Array.isArray(players) || players.length === 0 || !players.every((p) => typeof p === 'string' && p.length > 0)) {
    return { ok: false, error: 'players must be a non-empty list of player names' };
  }
  if (new Set(players).size !== players.length) return { ok: false, error: 'players has a name twice' };
  const names = players as string[];
  const teams = parseTeams(input.teams, names);
  if (typeof teams === 'string') return { ok: false, error: teams };

  if (input.hands !== undefined) {
    if (!Array.isArray(input.hands)) return { ok: false, error: 'hands must be a list of hands' };
    for (const key of ['centre', 'nertsLeft', 'caller']) if (input[key] !== undefined) return { ok: false, error: `give either one hand (${key}) or hands, not both` };
    const tallies: HandTally[] = [];
    for (const [index, hand] of input.hands.entries()) {
      const tally = parseHand(hand, names, `hands[${index}].`);
      if (typeof tally === 'string') return { ok: false, error: tally };
      tallies.push(tally);
    }
    const { match, handsAfterEnd } = scoreMatch(rules.scoring, names, tallies, teams);
    if (handsAfterEnd > 0) {
      return { ok: false, error: `the match ended after hand ${match.hands.length} (${match.winner ?? 'tied'} ${match.endReason === 'hand-cap' ? 'at the hand cap' : 'at the target'}), but ${handsAfterEnd} more hand(s) follow` };
    }
    return {
      ok: true,
      output: {
        hands: match.hands.map((h) => ({ scores: h.scores })),
        totals: match.totals,
        winner: match.winner,
        ended: match.ended,
        endReason: match.endReason,
        tiedLeaders: match.tiedLeaders,
        ...(rules.tournament ? { tableRecord: tournamentTableRecord(rules.scoring, match) } : {}),
      },
    };
  }
  const tally = parseHand(input, names, '');
  if (typeof tally === 'string') return { ok: false, error: tally };
  return { ok: true, output: { scores: scoreHand(rules.scoring, names, tally, teams).scores } };
}
