/**
 * Per-card crops: warps a card's quad in the frame to an upright CROP_WIDTH x CROP_HEIGHT image
 * with a homography and bilinear sampling. Pure JS on raw RGB: a 64x96 crop is ~6k samples,
 * cheaper than a round trip through OpenCV Mats.
 */
import { applyHomography, homographyFromPoints, type Homography } from '../geometry';
import { INDEX_REGION, type CardRegion } from './classes';
import type { Quad } from './types';

/** A raw RGB image, 3 bytes per pixel, row-major. Units: pixels. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export { applyHomography, homographyFromPoints, type Homography } from '../geometry';

/** The corners of an outW x outH crop as a quad (pixel edges, TL TR BR BL). */
export function rectQuad(outW: number, outH: number): Quad {
  return [
    [0, 0],
    [outW, 0],
    [outW, outH],
    [0, outH],
  ];
}

/** The part `region` (card units, upright) of the card whose corners are `quad`, as a quad. */
export function subQuad(quad: Quad, region: CardRegion): Quad {
  const cardToImage = homographyFromPoints(rectQuad(1, 1), quad);
  const { x0, y0, x1, y1 } = region;
  return [applyHomography(cardToImage, x0, y0), applyHomography(cardToImage, x1, y0), applyHomography(cardToImage, x1, y1), applyHomography(cardToImage, x0, y1)];
}

/**
 * The card's two index corners as upright quads: top-left, and bottom-right turned 180 degrees
 * (printed the other way up on every standard deck). A card lying either way up shows its index
 * in both, and a card covered at one end (a cascade) still shows it in one.
 */
export function indexCornerQuads(quad: Quad): [Quad, Quad] {
  const turned: Quad = [quad[2], quad[3], quad[0], quad[1]];
  return [subQuad(quad, INDEX_REGION), subQuad(turned, INDEX_REGION)];
}

/**
 * Samples `src` through homography `outToSrc` (crop pixel → source pixel) into `out` (float
 * 0..1, RGB, outW x outH) at `offset`. Pixels outside the source take `fill` (0..1 RGB).
 */
export function warpInto(
  src: RgbImage,
  outToSrc: Homography,
  outW: number,
  outH: number,
  out: Float32Array,
  offset = 0,
  fill: [number, number, number] = [0.5, 0.5, 0.5],
): void {
  const { data, width, height } = src;
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = outToSrc;
  let o = offset;
  for (let y = 0; y < outH; y++) {
    const cy = y + 0.5;
    for (let x = 0; x < outW; x++) {
      const cx = x + 0.5;
      const w = h6 * cx + h7 * cy + h8;
      // Source pixel centres sit at integer + 0.5.
      const sx = (h0 * cx + h1 * cy + h2) / w - 0.5;
      const sy = (h3 * cx + h4 * cy + h5) / w - 0.5;
      if (!(sx >= -0.5 && sy >= -0.5 && sx <= width - 0.5 && sy <= height - 0.5)) {
        out[o++] = fill[0];
        out[o++] = fill[1];
        out[o++] = fill[2];
        continue;
      }
      const x0 = Math.max(0, Math.floor(sx));
      const y0 = Math.max(0, Math.floor(sy));
      const x1 = Math.min(width - 1, x0 + 1);
      const y1 = Math.min(height - 1, y0 + 1);
      const fx = Math.min(1, Math.max(0, sx - x0));
      const fy = Math.min(1, Math.max(0, sy - y0));
      const i00 = (y0 * width + x0) * 3;
      const i01 = (y0 * width + x1) * 3;
      const i10 = (y1 * width + x0) * 3;
      const i11 = (y1 * width + x1) * 3;
      const w00 = (1 - fx) * (1 - fy);
      const w01 = fx * (1 - fy);
      const w10 = (1 - fx) * fy;
      const w11 = fx * fy;
      for (let c = 0; c < 3; c++) {
        out[o++] = (data[i00 + c] * w00 + data[i01 + c] * w01 + data[i10 + c] * w10 + data[i11 + c] * w11) / 255;
      }
    }
  }
}

/**
 * Crops the card whose corners are `quad` (TL TR BR BL, image pixels) to an upright outW x outH
 * float crop (0..1 RGB), writing into `out` at `offset`. When the source is much larger than
 * the crop, it is sampled at several points per crop pixel to avoid aliasing.
 */
export function cropCard(
  src: RgbImage,
  quad: Quad,
  outW: number,
  outH: number,
  out: Float32Array,
  offset = 0,
): void {
  const outToSrc = homographyFromPoints(rectQuad(outW, outH), quad);
  const edge = Math.hypot(quad[1][0] - quad[0][0], quad[1][1] - quad[0][1]);
  const factor = edge / outW;
  if (factor <= 1.6) {
    warpInto(src, outToSrc, outW, outH, out, offset);
    return;
  }
  // Supersample: warp at k x resolution, then box-average down.
  const k = Math.min(4, Math.round(factor));
  const big = new Float32Array(outW * k * outH * k * 3);
  const scale: Homography = [1 / k, 0, 0, 0, 1 / k, 0, 0, 0, 1];
  warpInto(src, multiplyHomography(outToSrc, scale), outW * k, outH * k, big, 0);
  const bw = outW * k;
  const inv = 1 / (k * k);
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let dy = 0; dy < k; dy++) {
        let i = ((y * k + dy) * bw + x * k) * 3;
        for (let dx = 0; dx < k; dx++) {
          r += big[i];
          g += big[i + 1];
          b += big[i + 2];
          i += 3;
        }
      }
      const o = offset + (y * outW + x) * 3;
      out[o] = r * inv;
      out[o + 1] = g * inv;
      out[o + 2] = b * inv;
    }
  }
}

/** a · b for homographies (apply b first). */
export function multiplyHomography(a: Homography, b: Homography): Homography {
  const r = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) r[i * 3 + j] += a[i * 3 + k] * b[k * 3 + j];
  return r as Homography;
}
