/**
 * Reconnect timing for sockets: exponential backoff with a cap and deterministic jitter
 * (the jitter source is passed in so tests are exact).
 */

/** First retry delay, milliseconds. */
export const RECONNECT_BASE_MS = 500;
/** Longest wait between retries, milliseconds. */
export const RECONNECT_MAX_MS = 10_000;

/**
 * Delay before retry number `attempt` (0 = first retry), milliseconds: base * 2^attempt capped
 * at the maximum, then scaled by 0.75..1.25 from `random01` so many viewers don't reconnect in step.
 */
export function reconnectDelayMs(attempt: number, random01: number = 0.5): number {
  const safeAttempt = Math.max(0, Math.min(30, Math.floor(attempt)));
  const raw = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** safeAttempt);
  const jitter = 0.75 + 0.5 * Math.min(1, Math.max(0, random01));
  return Math.round(raw * jitter);
}

/** Turns a same-origin path like `/api/tables/x/view` into a ws:// or wss:// URL for this page. */
export function socketUrl(path: string, location: { protocol: string; host: string }): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${path.startsWith('/') ? path : `/${path}`}`;
}
