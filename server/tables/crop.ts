/**
 * Crops a card's quad out of an encoded frame (axis-aligned bounding box, clamped to the image)
 * as PNG: the view handed to the recogniser's back enrolment.
 */
import sharp from 'sharp';
import type { Quad } from '../vision/types';

/** Crop of the quad's bounding box (pixels), PNG-encoded. Throws on an empty crop. */
export async function cropQuad(image: Uint8Array, corners: Quad): Promise<Uint8Array> {
  const decoder = sharp(image, { limitInputPixels: 4096 * 4096 });
  const meta = await decoder.metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const xs = corners.map((p) => p[0]);
  const ys = corners.map((p) => p[1]);
  const left = Math.max(0, Math.floor(Math.min(...xs)));
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  const right = Math.min(width, Math.ceil(Math.max(...xs)));
  const bottom = Math.min(height, Math.ceil(Math.max(...ys)));
  if (right - left < 4 || bottom - top < 4) throw new Error('the outline lies outside the frame');
  return decoder.extract({ left, top, width: right - left, height: bottom - top }).png().toBuffer();
}
