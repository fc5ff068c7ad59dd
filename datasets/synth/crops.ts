/**
 * Rectified crops from rendered frames: a card (or a region of it, such as its corner index)
 * warped upright to a fixed size with bilinear sampling. Pure functions over RGB buffers.
 */
import { applyHomography, homographyFromPoints } from '../../server/sim/render/camera';
import { INDEX_CORNER_MM } from '../../server/sim/render/index';
import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../../server/sim/scene';
import type { Quad } from '../../server/vision/types';

/** Region of a card in card-relative units (0..1 across, 0..1 down, upright card). */
export interface CardRegion {
  u0: number;
  v0: number;
  u1: number;
  v1: number;
}

/** The whole card. */
export const WHOLE_CARD: CardRegion = { u0: 0, v0: 0, u1: 1, v1: 1 };
/** The top-left corner index (rank and suit) of a standard card. */
export const TOP_LEFT_INDEX: CardRegion = { u0: 0, v0: 0, u1: 0.24, v1: 0.3 };
/** The bottom-right corner index, read upside down so it looks like the top-left one. */
export const BOTTOM_RIGHT_INDEX: CardRegion = { u0: 0.76, v0: 0.7, u1: 1, v1: 1 };
/**
 * The rank and suit marks alone at the top left (the renderer's INDEX_CORNER_MM on a 63 x 88 mm
 * card), and their half-turn twin: where they show whole, the card can be read by its corner.
 */
export const TOP_LEFT_MARKS: CardRegion = {
  u0: INDEX_CORNER_MM.u0 / CARD_WIDTH_MM,
  v0: INDEX_CORNER_MM.v0 / CARD_HEIGHT_MM,
  u1: INDEX_CORNER_MM.u1 / CARD_WIDTH_MM,
  v1: INDEX_CORNER_MM.v1 / CARD_HEIGHT_MM,
};
export const BOTTOM_RIGHT_MARKS: CardRegion = { u0: 1 - TOP_LEFT_MARKS.u1, v0: 1 - TOP_LEFT_MARKS.v1, u1: 1 - TOP_LEFT_MARKS.u0, v1: 1 - TOP_LEFT_MARKS.v0 };

/** A packed RGB image. */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Image point at card-relative (u, v), through the card's corner quad (TL TR BR BL). */
export function cardPoint(corners: Quad, u: number, v: number): [number, number] {
  const h = homographyFromPoints([[0, 0], [1, 0], [1, 1], [0, 1]], corners);
  return applyHomography(h, u, v);
}

/**
 * Warps `region` of the card with image corners `corners` to `outWidth` x `outHeight` pixels.
 * `rotate180` turns it upside down (for the bottom-right index). Outside the image reads black.
 */
export function rectifyCard(image: RgbImage, corners: Quad, outWidth: number, outHeight: number, region: CardRegion = WHOLE_CARD, rotate180 = false): Uint8Array {
  const h = homographyFromPoints([[0, 0], [1, 0], [1, 1], [0, 1]], corners);
  const out = new Uint8Array(outWidth * outHeight * 3);
  const { width, height, data } = image;
  for (let y = 0; y < outHeight; y++) {
    for (let x = 0; x < outWidth; x++) {
      let fx = (x + 0.5) / outWidth;
      let fy = (y + 0.5) / outHeight;
      if (rotate180) {
        fx = 1 - fx;
        fy = 1 - fy;
      }
      const u = region.u0 + (region.u1 - region.u0) * fx;
      const v = region.v0 + (region.v1 - region.v0) * fy;
      const w = h[6] * u + h[7] * v + h[8];
      const px = (h[0] * u + h[1] * v + h[2]) / w - 0.5;
      const py = (h[3] * u + h[4] * v + h[5]) / w - 0.5;
      const o = (y * outWidth + x) * 3;
      if (px < 0 || py < 0 || px > width - 1.001 || py > height - 1.001) continue;
      const ix = px | 0;
      const iy = py | 0;
      const ax = px - ix;
      const ay = py - iy;
      const p = (iy * width + ix) * 3;
      const q = p + width * 3;
      for (let c = 0; c < 3; c++) {
        const top = data[p + c] + (data[p + 3 + c] - data[p + c]) * ax;
        const bottom = data[q + c] + (data[q + 3 + c] - data[q + c]) * ax;
        out[o + c] = top + (bottom - top) * ay + 0.5;
      }
    }
  }
  return out;
}

/**
 * Fraction (0..1) of a card region whose pixels belong to the card, sampled on a grid through the
 * owner map (-1 table, -2 hand, else card index). Points outside the image count as hidden.
 */
export function regionVisibility(owner: Int32Array, width: number, height: number, corners: Quad, ownerId: number, region: CardRegion, grid = 6): number {
  const h = homographyFromPoints([[0, 0], [1, 0], [1, 1], [0, 1]], corners);
  let seen = 0;
  for (let j = 0; j < grid; j++) {
    for (let i = 0; i < grid; i++) {
      const u = region.u0 + ((region.u1 - region.u0) * (i + 0.5)) / grid;
      const v = region.v0 + ((region.v1 - region.v0) * (j + 0.5)) / grid;
      const [x, y] = applyHomography(h, u, v);
      const xi = Math.floor(x);
      const yi = Math.floor(y);
      if (xi < 0 || yi < 0 || xi >= width || yi >= height) continue;
      if (owner[yi * width + xi] === ownerId) seen++;
    }
  }
  return seen / (grid * grid);
}

/** Axis-aligned box of a quad clipped to the image, pixels; null when it lies outside. */
export function clippedQuadBox(corners: Quad, width: number, height: number): { x: number; y: number; w: number; h: number } | null {
  const xs = corners.map((p) => p[0]);
  const ys = corners.map((p) => p[1]);
  const x0 = Math.max(0, Math.min(...xs));
  const y0 = Math.max(0, Math.min(...ys));
  const x1 = Math.min(width, Math.max(...xs));
  const y1 = Math.min(height, Math.max(...ys));
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } : null;
}

/** True when all four corners lie inside the image, allowing `slackPx` pixels of overhang. */
export function quadInsideImage(corners: Quad, width: number, height: number, slackPx = 1): boolean {
  return corners.every(([x, y]) => x >= -slackPx && y >= -slackPx && x <= width + slackPx && y <= height + slackPx);
}
