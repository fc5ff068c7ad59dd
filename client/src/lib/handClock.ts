/**
 * The hand timer. Event times are table time (the camera's capture clock), which need not match
 * this browser's clock, so the timer anchors on the newest event: table time then, plus the
 * local time that has passed since it arrived.
 */
import type { LoggedEvent } from '../../../server/protocol';

/** A table-time reading taken when a message arrived, to extrapolate from. */
export interface ClockAnchor {
  /** Table time of the newest event, ms. */
  tableMs: number;
  /** Local `performance.now()`/`Date.now()` when it arrived, ms. */
  localMs: number;
}

/** Table time of the current hand's start (its last `hand-started` entry), or null if unseen. */
export function handStartMs(events: LoggedEvent[], hand: number): number | null {
  for (let index = events.length - 1; index >= 0; index--) {
    const entry = events[index];
    if (entry.event.type === 'hand-started' && (entry.hand === hand || entry.event.hand === hand)) return entry.timeMs;
  }
  const first = events.find((entry) => entry.hand === hand);
  return first ? first.timeMs : null;
}

/**
 * Milliseconds since the hand started. While `running`, extrapolates from the anchor with the
 * local clock; once play stops (call or score), stays at the anchor's table time.
 */
export function handElapsedMs(startMs: number | null, anchor: ClockAnchor | null, nowLocalMs: number, running: boolean): number | null {
  if (startMs === null || anchor === null) return null;
  const tableNow = anchor.tableMs + (running ? Math.max(0, nowLocalMs - anchor.localMs) : 0);
  return Math.max(0, tableNow - startMs);
}
