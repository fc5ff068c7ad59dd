/**
 * Violations: illegal plays and inconsistencies are values recorded in state, never exceptions
 * (boardgame.io's INVALID_MOVE idea). Codes are namespaced `area/what`.
 */

/** Every violation code the rules engine can produce. */
export const VIOLATION_CODES = [
  'foundation/wrong-suit',
  'foundation/wrong-rank',
  'foundation/must-start-with-ace',
  'foundation/completed',
  'foundation/unknown-pile',
  'foundation/duplicate-id',
  'deck/duplicate-card',
  'deck/unknown-deck',
  'hand/play-after-call',
  'hand/not-started',
  'hand/ended',
  'hand/already-called',
  'hand/unscored',
  'hand/rotation-limit',
  'hand/not-stuck',
  'call/nerts-pile-not-empty',
  'player/unknown',
  'source/empty',
  'source/not-exposed',
  'source/bad-index',
  'work/wrong-rank',
  'work/wrong-colour',
  'work/bad-pile',
  'work/same-pile',
  'work/empty-space-rule',
  'work/no-op',
  'nerts/only-to-empty-or-foundation',
  'nerts/count-increased',
  'nerts/bad-count',
  'slide-under/not-allowed',
  'slide-under/no-empty-pile',
  'slide-under/wrong-card',
  'stock/empty',
  'dispute/unknown',
  'dispute/bad-ruling',
  'correction/bad-target',
  'event/malformed',
  'match/over',
] as const;

/** A namespaced violation code such as `foundation/wrong-suit`. */
export type ViolationCode = (typeof VIOLATION_CODES)[number];

/** One recorded violation. `eventIndex` is the 0-based position of the causing event/move in its log. */
export interface Violation {
  code: ViolationCode;
  message: string;
  eventIndex?: number;
  player?: string;
  card?: string;
}

/** Builds a violation value. */
export function violation(code: ViolationCode, message: string, extra: Omit<Violation, 'code' | 'message'> = {}): Violation {
  return { code, message, ...extra };
}
