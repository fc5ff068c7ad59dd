/**
 * Change detection between frames, for tracking: a small grey copy of each frame, compared cell
 * by cell, tells which part of the table changed, so only that part is re-localised and only
 * the cards there are re-identified.
 */
import type { RgbImage } from './crop';

/** Grey thumbnail size used for change detection, pixels. */
export const CHANGE_WIDTH = 160;
export const CHANGE_HEIGHT = 90;
/** Side of a comparison cell, thumbnail pixels. */
const CELL = 8;
/** Mean absolute grey difference (0..255) above which a cell counts as changed. */
export const CELL_CHANGE_THRESHOLD = 6;

/** A grey thumbnail of a frame. */
export interface GreyThumb {
  data: Float32Array;
  sourceWidth: number;
  sourceHeight: number;
}

/** Box-averaged grey thumbnail (CHANGE_WIDTH x CHANGE_HEIGHT) of an RGB image. */
export function greyThumb(image: RgbImage): GreyThumb {
  const out = new Float32Array(CHANGE_WIDTH * CHANGE_HEIGHT);
  const counts = new Float32Array(CHANGE_WIDTH * CHANGE_HEIGHT);
  const { data, width, height } = image;
  // Subsample source pixels on a stride: plenty for change detection and ~1 ms at 1280x720.
  const step = Math.max(1, Math.floor(Math.min(width / CHANGE_WIDTH, height / CHANGE_HEIGHT) / 2));
  for (let y = 0; y < height; y += step) {
    const ty = Math.min(CHANGE_HEIGHT - 1, Math.floor((y * CHANGE_HEIGHT) / height));
    for (let x = 0; x < width; x += step) {
      const tx = Math.min(CHANGE_WIDTH - 1, Math.floor((x * CHANGE_WIDTH) / width));
      const i = (y * width + x) * 3;
      out[ty * CHANGE_WIDTH + tx] += 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
      counts[ty * CHANGE_WIDTH + tx]++;
    }
  }
  for (let i = 0; i < out.length; i++) out[i] /= counts[i] || 1;
  return { data: out, sourceWidth: width, sourceHeight: height };
}

/** A rectangle in frame pixels. */
export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Bounding rectangle (frame pixels) of the cells that changed between two thumbnails, grown by
 * `margin` pixels; null when nothing changed; the whole frame when the frame size changed.
 */
export function changedRegion(previous: GreyThumb, current: GreyThumb, margin: number): PixelRect | null {
  const { sourceWidth: w, sourceHeight: h } = current;
  if (previous.sourceWidth !== w || previous.sourceHeight !== h) return { x: 0, y: 0, width: w, height: h };
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let cy = 0; cy < CHANGE_HEIGHT; cy += CELL) {
    for (let cx = 0; cx < CHANGE_WIDTH; cx += CELL) {
      let diff = 0;
      let n = 0;
      for (let y = cy; y < Math.min(CHANGE_HEIGHT, cy + CELL); y++)
        for (let x = cx; x < Math.min(CHANGE_WIDTH, cx + CELL); x++) {
          diff += Math.abs(current.data[y * CHANGE_WIDTH + x] - previous.data[y * CHANGE_WIDTH + x]);
          n++;
        }
      if (diff / n <= CELL_CHANGE_THRESHOLD) continue;
      minX = Math.min(minX, cx);
      minY = Math.min(minY, cy);
      maxX = Math.max(maxX, cx + CELL);
      maxY = Math.max(maxY, cy + CELL);
    }
  }
  if (minX === Infinity) return null;
  const sx = w / CHANGE_WIDTH;
  const sy = h / CHANGE_HEIGHT;
  const x0 = Math.max(0, Math.floor(minX * sx - margin));
  const y0 = Math.max(0, Math.floor(minY * sy - margin));
  const x1 = Math.min(w, Math.ceil(maxX * sx + margin));
  const y1 = Math.min(h, Math.ceil(maxY * sy + margin));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Copies a rectangle out of an RGB image. */
export function cropRegion(image: RgbImage, rect: PixelRect): RgbImage {
  const data = new Uint8Array(rect.width * rect.height * 3);
  for (let y = 0; y < rect.height; y++) {
    const from = ((rect.y + y) * image.width + rect.x) * 3;
    data.set(image.data.subarray(from, from + rect.width * 3), y * rect.width * 3);
  }
  return { data, width: rect.width, height: rect.height };
}
