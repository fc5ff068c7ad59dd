/**
 * Pure pieces of the camera page: the frame packet layout the server expects and the pacing
 * that keeps the camera from flooding a slow link (the server also drops stale frames).
 */
import { FRAME_HEADER_BYTES } from '../../../server/protocol';

/** The 8-byte little-endian float64 capture-time header that precedes a frame's bytes. */
export function frameHeader(captureTimeMs: number): ArrayBuffer {
  const header = new ArrayBuffer(FRAME_HEADER_BYTES);
  new DataView(header).setFloat64(0, captureTimeMs, true);
  return header;
}

/** Socket bytes still queued above which the camera skips a frame instead of queueing more, bytes. */
export const MAX_BUFFERED_BYTES = 1_000_000;

/** True when a frame should be captured now: the interval has passed and the link is not backed up. */
export function shouldSendFrame(nowMs: number, lastSentMs: number, fps: number, bufferedBytes: number): boolean {
  if (fps <= 0) return false;
  if (bufferedBytes > MAX_BUFFERED_BYTES) return false;
  return nowMs - lastSentMs >= 1000 / fps - 2; // 2 ms slack so timer jitter does not halve the rate
}

/** Frames per second over a sliding window of send times (ms); 0 with fewer than two. */
export function ratePerSecond(timesMs: number[], nowMs: number, windowMs = 3000): number {
  const recent = timesMs.filter((t) => nowMs - t <= windowMs);
  if (recent.length < 2) return 0;
  const span = recent[recent.length - 1] - recent[0];
  return span > 0 ? ((recent.length - 1) * 1000) / span : 0;
}

/** Resolution choices offered, pixels. */
export const RESOLUTIONS = [
  { label: '640 × 480', width: 640, height: 480 },
  { label: '1280 × 720', width: 1280, height: 720 },
  { label: '1920 × 1080', width: 1920, height: 1080 },
] as const;

/** Frame-rate choices offered, frames per second. */
export const FRAME_RATES = [5, 10, 15, 30] as const;
