/**
 * Training augmentation in plain JS on one source image → one float crop (by default the whole
 * card at CROP_WIDTH x CROP_HEIGHT; or a region of it, such as the index corner, at any size):
 * the conditions real webcam crops show (perspective and corner error of the localiser,
 * rotation ±8°, upside-down cards, low resolution and blur, noise, white balance and exposure,
 * glare, partial occlusion by hands or other cards).
 */
import { CROP_HEIGHT, CROP_WIDTH } from '../../server/vision/classes';
import type { CardRegion } from '../../server/vision/classes';
import { homographyFromPoints, rectQuad, subQuad, warpInto, type RgbImage } from '../../server/vision/crop';
import type { Quad } from '../../server/vision/types';
import { normal, randInt, uniform, type Rng } from './rng';

/** How strong the augmentation is: 0 = none (evaluation), 1 = training default. */
export interface AugmentOptions {
  strength: number;
  /** Output size, pixels (default the identity crop, CROP_WIDTH x CROP_HEIGHT). */
  width?: number;
  height?: number;
  /** Part of the (jittered) card to crop, card units (default the whole card). */
  region?: CardRegion;
  /** Chance of covering part of one side (default 0.3 at strength 1). */
  occlusion?: number;
}

/** Output pixel grid of one crop. */
export interface Grid {
  w: number;
  h: number;
}

const GAMMA_LUT_SIZE = 1024;

/**
 * Writes one augmented crop of `src` into `out` at `offset` (float RGB 0..1); says whether the
 * card was turned upside down (so `region` came from its opposite corner).
 */
export function augmentInto(src: RgbImage, rng: Rng, out: Float32Array, offset: number, options: AugmentOptions): { upsideDown: boolean } {
  const s = options.strength;
  const w = src.width;
  const h = src.height;
  // Where the crop's corners land on the source: the card outline, moved by localiser error.
  const angle = (uniform(rng, -8, 8) * Math.PI) / 180 * s;
  const scale = 1 + uniform(rng, -0.06, 0.05) * s;
  const cx = w / 2 + uniform(rng, -0.04, 0.04) * w * s;
  const cy = h / 2 + uniform(rng, -0.04, 0.04) * h * s;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const base: Quad = rectQuad(w, h);
  const quad = base.map(([x, y]) => {
    const dx = (x - w / 2) * scale + normal(rng) * 0.025 * w * s;
    const dy = (y - h / 2) * scale + normal(rng) * 0.025 * h * s;
    return [cx + dx * cos - dy * sin, cy + dx * sin + dy * cos] as [number, number];
  }) as Quad;
  // Cards lie either way up; the crop must read both.
  const upsideDown = s > 0 && rng() < 0.5;
  const turned: Quad = upsideDown ? [quad[2], quad[3], quad[0], quad[1]] : quad;
  const target = options.region ? subQuad(turned, options.region) : turned;
  const fill: [number, number, number] = [rng(), rng(), rng()];
  const grid: Grid = { w: options.width ?? CROP_WIDTH, h: options.height ?? CROP_HEIGHT };
  const pixels = grid.w * grid.h;
  const outToSrc = homographyFromPoints(rectQuad(grid.w, grid.h), target);
  warpInto(src, outToSrc, grid.w, grid.h, out, offset, fill);
  if (s === 0) return { upsideDown };
  const view = out.subarray(offset, offset + pixels * 3);

  // Low resolution (webcam cards far away): average down by k, then blow back up (blocky blur).
  const lowRes = rng();
  if (lowRes < 0.35 * s) downUp(view, grid, lowRes < 0.12 * s ? 3 : 2);
  else if (rng() < 0.3 * s) boxBlur(view, grid);

  // Partial occlusion: a hand or another card over one side, keeping at least one index corner.
  if (rng() < (options.occlusion ?? 0.3) * s) occlude(view, grid, rng);

  // Glare: a bright soft blob.
  if (rng() < 0.15 * s) glare(view, grid, rng);

  photometric(view, pixels, rng, s);
  return { upsideDown };
}

/**
 * Exposure, contrast, white balance, gamma, noise and occasional greyscale, in place over
 * `pixels` RGB pixels of `view` (float 0..1), at augmentation strength `s`.
 */
export function photometric(view: Float32Array, pixels: number, rng: Rng, s: number): void {
  const gain = [uniform(rng, 0.75, 1.2), uniform(rng, 0.75, 1.2), uniform(rng, 0.75, 1.2)];
  const brightness = uniform(rng, -0.15, 0.12) * s;
  const contrast = 1 + uniform(rng, -0.35, 0.25) * s;
  const gamma = Math.exp(uniform(rng, -0.3, 0.3) * s);
  const noise = rng() < 0.5 ? uniform(rng, 0, 0.05) * s : 0;
  const grey = rng() < 0.05;
  // Gamma through a lookup table: Math.pow per channel per pixel was the costliest step.
  const gammaLut = new Float32Array(GAMMA_LUT_SIZE + 1);
  for (let k = 0; k <= GAMMA_LUT_SIZE; k++) gammaLut[k] = Math.pow(k / GAMMA_LUT_SIZE, gamma);
  for (let p = 0; p < pixels; p++) {
    const i = p * 3;
    let r = view[i];
    let g = view[i + 1];
    let b = view[i + 2];
    if (grey) r = g = b = 0.299 * r + 0.587 * g + 0.114 * b;
    const vals = [r, g, b];
    for (let c = 0; c < 3; c++) {
      let v = vals[c] * (1 + (gain[c] - 1) * s);
      v = (v - 0.5) * contrast + 0.5 + brightness;
      v = Math.max(0, Math.min(1, v));
      v = gammaLut[Math.round(v * GAMMA_LUT_SIZE)];
      if (noise > 0) v += normal(rng) * noise;
      view[i + c] = v < 0 ? 0 : v > 1 ? 1 : v;
    }
  }
}

function downUp(view: Float32Array, { w, h }: Grid, k: number): void {
  for (let by = 0; by < h; by += k) {
    for (let bx = 0; bx < w; bx += k) {
      const sum = [0, 0, 0];
      let n = 0;
      for (let y = by; y < Math.min(h, by + k); y++)
        for (let x = bx; x < Math.min(w, bx + k); x++) {
          const i = (y * w + x) * 3;
          sum[0] += view[i];
          sum[1] += view[i + 1];
          sum[2] += view[i + 2];
          n++;
        }
      for (let y = by; y < Math.min(h, by + k); y++)
        for (let x = bx; x < Math.min(w, bx + k); x++) {
          const i = (y * w + x) * 3;
          view[i] = sum[0] / n;
          view[i + 1] = sum[1] / n;
          view[i + 2] = sum[2] / n;
        }
    }
  }
  boxBlur(view, { w, h });
}

/** In-place box blur of radius `r` (a (2r+1)² mean, clipped at the borders) of a w x h RGB view. */
export function boxBlur(view: Float32Array, { w, h }: Grid, r = 1): void {
  const copy = view.slice();
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        let n = 0;
        for (let dy = -r; dy <= r; dy++) {
          const yy = y + dy;
          if (yy < 0 || yy >= h) continue;
          for (let dx = -r; dx <= r; dx++) {
            const xx = x + dx;
            if (xx < 0 || xx >= w) continue;
            sum += copy[(yy * w + xx) * 3 + c];
            n++;
          }
        }
        view[(y * w + x) * 3 + c] = sum / n;
      }
    }
  }
}

function occlude(view: Float32Array, { w, h }: Grid, rng: Rng): void {
  // Cover part of one edge, up to ~45% deep: the opposite index corner stays readable.
  const side = randInt(rng, 4);
  const depth = uniform(rng, 0.15, 0.45);
  const along0 = uniform(rng, 0, 0.5);
  const along1 = along0 + uniform(rng, 0.3, 1);
  const skin = rng() < 0.5;
  const colour: [number, number, number] = skin
    ? [uniform(rng, 0.45, 0.95), uniform(rng, 0.3, 0.75), uniform(rng, 0.2, 0.6)]
    : [rng(), rng(), rng()];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const u = x / w;
      const v = y / h;
      let inside = false;
      if (side === 0) inside = v < depth && u >= along0 && u <= along1;
      else if (side === 1) inside = v > 1 - depth && u >= along0 && u <= along1;
      else if (side === 2) inside = u < depth && v >= along0 && v <= along1;
      else inside = u > 1 - depth && v >= along0 && v <= along1;
      if (!inside) continue;
      const i = (y * w + x) * 3;
      view[i] = colour[0];
      view[i + 1] = colour[1];
      view[i + 2] = colour[2];
    }
  }
}

function glare(view: Float32Array, { w, h }: Grid, rng: Rng): void {
  const gx = uniform(rng, 0, w);
  const gy = uniform(rng, 0, h);
  const radius = uniform(rng, 8, 30) * (w / CROP_WIDTH);
  const strength = uniform(rng, 0.3, 0.8);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const d2 = ((x - gx) ** 2 + (y - gy) ** 2) / (radius * radius);
      const a = strength * Math.exp(-d2);
      if (a < 0.01) continue;
      const i = (y * w + x) * 3;
      for (let c = 0; c < 3; c++) view[i + c] = view[i + c] + (1 - view[i + c]) * a;
    }
  }
}
