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

/** Table times further than this from the server's clock are not wall-clock times (a simulated table's session time), ms. */
export const WALL_CLOCK_TOLERANCE_MS = 24 * 3600 * 1000;

/**
 * The best anchor for the hand timer: the server's clock at welcome when table time is wall time
 * (a real camera's capture clock), so a page opened mid-hand shows the full elapsed time;
 * otherwise the newest event's table time when it arrived.
 */
export function chooseAnchor(newestEventMs: number | null, newestArrivedLocalMs: number, server: ClockAnchor | null): ClockAnchor | null {
  if (server && newestEventMs !== null && Math.abs(server.tableMs - newestEventMs) < WALL_CLOCK_TOLERANCE_MS && server.tableMs >= newestEventMs) return server;
  return newestEventMs === null ? null : { tableMs: newestEventMs, localMs: newestArrivedLocalMs };
}
