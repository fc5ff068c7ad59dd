/** Pure helpers for the score sort: penalties from score rows and the correction history from the log. */
import type { LoggedEvent, ScoreRow } from '../../../server/protocol';

/**
 * The Nerts penalty a row paid, in points (positive): what is left after centre cards and bonus.
 * Derived so the table never disagrees with the server's hand score, whatever the variant.
 */
export function penaltyOf(row: ScoreRow): number {
  return Math.max(0, row.centreCards + row.bonus - row.handScore);
}

/** A correction as listed on the score sort. */
export interface CorrectionEntry {
  seq: number;
  hand: number;
  timeMs: number;
  player: string;
  centreCards?: number;
  nertsLeft?: number;
  reason: string;
}

/** Every correction in the given logs (merged by seq), newest first. */
export function correctionsOf(...logs: LoggedEvent[][]): CorrectionEntry[] {
  const bySeq = new Map<number, CorrectionEntry>();
  for (const log of logs) {
    for (const entry of log) {
      if (entry.event.type !== 'correction') continue;
      const { player, centreCards, nertsLeft, reason } = entry.event;
      bySeq.set(entry.seq, { seq: entry.seq, hand: entry.hand, timeMs: entry.timeMs, player, centreCards, nertsLeft, reason });
    }
  }
  return [...bySeq.values()].sort((a, b) => b.seq - a.seq);
}
