/**
 * Cuts a card out of an encoded frame as the view handed to back or face enrolment: the card's
 * quad warped upright (its own corners become the view's corners), as PNG. The recogniser reads
 * cards on the table from such rectified crops, so an enrolled view must be one too: a bounding
 * box of a card lying at an angle holds the table in its corners, and the back-look model
 * compares what it sees literally (session 25: enrolled that way, one deck in six of a live
 * table had its backs named as another's).
 */
import sharp from 'sharp';
import { cropCard } from '../vision/crop';
import { decodeFrame } from '../vision/decode';
import type { Quad } from '../vision/types';

/** The longest side of a view, pixels (a card held close to the camera is scaled down to it). */
const MAX_VIEW_SIDE = 400;

/**
 * The card whose corners are `corners` (TL TR BR BL, image pixels; a card lying sideways gives a
 * landscape view, which the recogniser turns upright) warped upright at about its size in the
 * frame, PNG-encoded. Throws when the outline lies outside the frame or is degenerate.
 */
export async function cropQuad(image: Uint8Array, corners: Quad): Promise<Uint8Array> {
  // Decoded as the recogniser decodes frames (EXIF turned, grey made RGB), so the corners it reported fit.
  const frame = await decodeFrame({ kind: 'encoded', data: image });
  const xs = corners.map((p) => p[0]);
  const ys = corners.map((p) => p[1]);
  const insideX = Math.min(frame.width, Math.max(...xs)) - Math.max(0, Math.min(...xs));
  const insideY = Math.min(frame.height, Math.max(...ys)) - Math.max(0, Math.min(...ys));
  if (!(insideX >= 4 && insideY >= 4)) throw new Error('the outline lies outside the frame');
  const side = (a: number, b: number) => Math.hypot(corners[b][0] - corners[a][0], corners[b][1] - corners[a][1]);
  const across = (side(0, 1) + side(3, 2)) / 2;
  const along = (side(0, 3) + side(1, 2)) / 2;
  const scale = Math.min(1, MAX_VIEW_SIDE / Math.max(across, along));
  const width = Math.round(across * scale);
  const height = Math.round(along * scale);
  if (width < 4 || height < 4) throw new Error('the outline is too small to crop');
  const floats = new Float32Array(width * height * 3);
  cropCard(frame, corners, width, height, floats);
  const pixels = Buffer.alloc(floats.length);
  for (let i = 0; i < floats.length; i++) pixels[i] = Math.round(Math.min(1, Math.max(0, floats[i])) * 255);
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
}
