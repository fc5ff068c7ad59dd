/**
 * Frame-to-frame reuse: a card whose quad has not moved and whose small grey thumbnail has not
 * changed keeps last frame's identity, so a steady table costs no CNN time.
 */
import { homographyFromPoints, rectQuad, warpInto, type RgbImage } from './crop';
import type { Quad } from './types';

/** Thumbnail used to detect change, pixels. */
export const THUMB_WIDTH = 12;
export const THUMB_HEIGHT = 18;
/** Corner movement (fraction of the card's short side) still counted as "not moved". */
export const MAX_CORNER_SHIFT = 0.06;
/** Mean absolute thumbnail difference (0..1) still counted as "unchanged". */
export const MAX_THUMB_DIFF = 0.04;

/** A small RGB thumbnail of the card under `quad` (float 0..1). */
export function cardThumbnail(image: RgbImage, quad: Quad): Float32Array {
  const out = new Float32Array(THUMB_WIDTH * THUMB_HEIGHT * 3);
  warpInto(image, homographyFromPoints(rectQuad(THUMB_WIDTH, THUMB_HEIGHT), quad), THUMB_WIDTH, THUMB_HEIGHT, out);
  return out;
}

/** A remembered card: where it was, what it looked like, and what we decided it is. */
export interface Track<T> {
  corners: Quad;
  thumbnail: Float32Array;
  value: T;
}

function shortSide(q: Quad): number {
  return Math.min(Math.hypot(q[1][0] - q[0][0], q[1][1] - q[0][1]), Math.hypot(q[2][0] - q[1][0], q[2][1] - q[1][1]));
}

/** The previous track this card continues, if it neither moved nor changed. */
export function findUnchanged<T>(tracks: readonly Track<T>[], corners: Quad, thumbnail: Float32Array): Track<T> | undefined {
  const tolerance = MAX_CORNER_SHIFT * shortSide(corners) + 1;
  for (const track of tracks) {
    // Compare as point sets: the localiser may start the quad at the opposite corner.
    const moved = corners.some((p) => !track.corners.some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) <= tolerance));
    if (moved) continue;
    let diff = 0;
    for (let i = 0; i < thumbnail.length; i++) diff += Math.abs(thumbnail[i] - track.thumbnail[i]);
    if (diff / thumbnail.length <= MAX_THUMB_DIFF) return track;
  }
  return undefined;
}
