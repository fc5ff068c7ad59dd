/**
 * Plane-to-plane homographies for calibration (the table rectangle seen by the camera). The
 * solver is the one the server's recogniser and renderer use (server/geometry.ts, pure numbers:
 * no DOM, no OpenCV in the bundle); this file adapts it to the client's null-on-failure style.
 */
import { applyHomography as apply, tryHomographyFromPoints, type Homography } from '../../../server/geometry';

export type { Homography };

/** A point [x, y]. */
export type Pt = [number, number];

/** The homography taking each `from[i]` to `to[i]` (four pairs); null for degenerate input (three points in a line). */
export function homographyFrom(from: [Pt, Pt, Pt, Pt], to: [Pt, Pt, Pt, Pt]): Homography | null {
  return tryHomographyFromPoints(from, to);
}

/** Applies a homography to a point; null when the point maps to infinity. */
export function applyHomography(h: Homography, [x, y]: Pt): Pt | null {
  const w = h[6] * x + h[7] * y + h[8];
  if (Math.abs(w) < 1e-12) return null;
  return apply(h, x, y);
}
