/**
 * Hand scoring (rules P1–P7 in RULES.md): points for own cards in the centre, a penalty per card
 * left in the Nerts pile (the caller possibly exempt), a call bonus, and partnerships pooling into
 * one team score. Points are game points. Pure.
 */
import type { ScoringRules } from './variants';

/** What a hand leaves behind: own cards in the centre and Nerts cards left, per player (or tableau), and who called (null: the hand ended stuck). */
export interface HandTally {
  centre: Record<string, number>;
  nertsLeft: Record<string, number>;
  caller: string | null;
}

/** One scoring entity's breakdown (a player, or a team pooling its members). */
export interface ScoreLine {
  centre: number;
  nertsLeft: number;
  /** Points lost to Nerts cards (a non-negative number that was subtracted). */
  penalty: number;
  bonus: number;
  total: number;
}

/** A scored hand: totals per entity (player or team id) and the breakdown. */
export interface HandScore {
  scores: Record<string, number>;
  lines: Record<string, ScoreLine>;
  /** The entity (player or team) that called, or null. */
  callerEntity: string | null;
}

/** Team id → member player ids. Players not in any team score alone. */
export type Teams = Record<string, string[]>;

/** Maps each player to the entity that scores for them (their team, or themselves). */
export function entityOf(teams: Teams | undefined, player: string): string {
  if (teams) for (const [team, members] of Object.entries(teams)) if (members.includes(player)) return team;
  return player;
}

/** The scoring entities for these players in first-seen order: teams replace their members. */
export function scoringEntities(players: readonly string[], teams?: Teams): string[] {
  const entities: string[] = [];
  for (const player of players) {
    const entity = entityOf(teams, player);
    if (!entities.includes(entity)) entities.push(entity);
  }
  return entities;
}

/**
 * Scores one hand. P1: +perCentreCard per own card in the centre. P2/P3: −nertsPenalty per Nerts
 * card left, except the caller when callerExemptFromPenalty (with no caller everyone pays).
 * P4/P5: +callBonus to the caller. P7: teams pool their members' cards and penalties.
 * Missing counts are 0.
 */
export function scoreHand(rules: ScoringRules, players: readonly string[], tally: HandTally, teams?: Teams): HandScore {
  const lines: Record<string, ScoreLine> = {};
  for (const entity of scoringEntities(players, teams)) lines[entity] = { centre: 0, nertsLeft: 0, penalty: 0, bonus: 0, total: 0 };
  for (const player of players) {
    const line = lines[entityOf(teams, player)];
    const centre = tally.centre[player] ?? 0;
    const nertsLeft = tally.nertsLeft[player] ?? 0;
    const isCaller = tally.caller === player;
    line.centre += centre;
    line.nertsLeft += nertsLeft;
    if (!(isCaller && rules.callerExemptFromPenalty)) line.penalty += nertsLeft * rules.nertsPenalty;
    if (isCaller) line.bonus += rules.callBonus;
  }
  const scores: Record<string, number> = {};
  for (const [entity, line] of Object.entries(lines)) {
    line.total = line.centre * rules.perCentreCard - line.penalty + line.bonus;
    scores[entity] = line.total;
  }
  return { scores, lines, callerEntity: tally.caller === null ? null : entityOf(teams, tally.caller) };
}
