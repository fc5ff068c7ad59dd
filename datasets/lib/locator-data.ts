/**
 * Training data for the learned card locator: rendered table frames (datasets/synth) stored
 * downscaled with every card's true quad, cut into randomly zoomed and rotated windows with
 * the crop augmentation's colour changes, and encoded as the locator's dense targets
 * (server/vision/locator.ts).
 *
 * Frames are cached in shards under .cache/vision/locator/ (`buildLocatorShard`) so several
 * processes can render in parallel; the loader concatenates every shard it finds.
 */
import { promises as fs, existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { LOCATOR_CHANNELS, LOCATOR_STRIDE, cardGeometry, type CardGeometry } from '../../server/vision/locator';
import type { Point, Quad } from '../../server/vision/types';
import { synthSamples } from '../synth/generate';
import { HELD_OUT_STYLES } from './rendered';
import { warpInto } from '../../server/vision/crop';
import { boxBlur, photometric } from './augment';
import { uniform, type Rng } from './rng';
import { cacheDir } from './shared-data';

/** Stored frame size: rendered 1280x720 frames halved (cards about 30–60 px wide). */
export const STORED_WIDTH = 640;
export const STORED_HEIGHT = 360;
/** A card counts as "should be found" when at least this much of it is visible. */
export const MIN_FIND_VISIBLE = 0.2;
/** Cards less visible than MIN_FIND_VISIBLE but more than this are neither positives nor negatives. */
export const MIN_IGNORE_VISIBLE = 0.04;
/** A card's centre peak: a Gaussian of this share of its short side (at least MIN_PEAK_SIGMA cells). */
export const PEAK_SIGMA_SHARE = 0.12;
export const MIN_PEAK_SIGMA = 0.7;

/** One card in a stored frame (stored-frame pixels). */
export interface StoredCard {
  corners: Quad;
  visible: number;
}

/** A set of stored frames: RGB pixels back to back plus each frame's cards. */
export interface LocatorFrames {
  count: number;
  pixels: Uint8Array;
  cards: StoredCard[][];
}

function shardPaths(name: string): { json: string; bin: string } {
  const dir = path.join(cacheDir(), 'locator');
  return { json: path.join(dir, `${name}.json`), bin: path.join(dir, `${name}.bin`) };
}

/**
 * Renders `frames` frames (seed `seed`) and stores them as shard `name`. `heldOut` picks the deck
 * styles: false = training styles only, true = only the held-out styles (validation).
 */
export async function buildLocatorShard(name: string, frames: number, seed: number, heldOut: boolean, log: (m: string) => void = console.error): Promise<void> {
  const cards: StoredCard[][] = [];
  const chunks: Uint8Array[] = [];
  const started = Date.now();
  const styles = heldOut ? { decks: HELD_OUT_STYLES } : { excludeDecks: HELD_OUT_STYLES };
  // No crops wanted: visibility floors above 1 skip them.
  for await (const sample of synthSamples({ seed, frames, framesPerSession: 4, minCropVisible: 2, minCornerVisible: 2, minLabelVisible: MIN_IGNORE_VISIBLE, ...styles })) {
    const sx = STORED_WIDTH / sample.width;
    const sy = STORED_HEIGHT / sample.height;
    const raw = await sharp(sample.jpeg).removeAlpha().resize(STORED_WIDTH, STORED_HEIGHT, { fit: 'fill' }).raw().toBuffer();
    chunks.push(new Uint8Array(raw.buffer, raw.byteOffset, raw.length));
    cards.push(
      sample.labels.map((label) => ({
        corners: label.truth.corners.map(([x, y]) => [x * sx, y * sy] as Point) as Quad,
        visible: label.truth.visibleFraction,
      })),
    );
    if (sample.index % 20 === 19) log(`[locator-data] ${name}: ${sample.index + 1}/${frames} frames, ${((Date.now() - started) / (sample.index + 1)).toFixed(0)} ms/frame`);
  }
  const pixels = new Uint8Array(chunks.length * STORED_WIDTH * STORED_HEIGHT * 3);
  chunks.forEach((c, i) => pixels.set(c, i * STORED_WIDTH * STORED_HEIGHT * 3));
  const paths = shardPaths(name);
  await fs.mkdir(path.dirname(paths.json), { recursive: true });
  await fs.writeFile(paths.bin, pixels);
  await fs.writeFile(paths.json, JSON.stringify({ format: 'nerts-locator-frames/1', seed, heldOut, count: chunks.length, cards }));
}

/** Loads every shard whose name starts with `prefix` ('train' or 'valid'), or null when none exist. */
export async function loadLocatorFrames(prefix: string): Promise<LocatorFrames | null> {
  const dir = path.join(cacheDir(), 'locator');
  if (!existsSync(dir)) return null;
  const names = (await fs.readdir(dir)).filter((f) => f.startsWith(prefix) && f.endsWith('.json')).sort();
  const frameBytes = STORED_WIDTH * STORED_HEIGHT * 3;
  const parts: Array<{ pixels: Uint8Array; cards: StoredCard[][] }> = [];
  for (const file of names) {
    const meta = JSON.parse(await fs.readFile(path.join(dir, file), 'utf8')) as { count: number; cards: StoredCard[][] };
    const pixels = new Uint8Array(await fs.readFile(path.join(dir, file.replace(/\.json$/, '.bin'))));
    if (pixels.length !== meta.count * frameBytes) throw new Error(`locator shard ${file}: pixel size does not match its ${meta.count} frames`);
    parts.push({ pixels, cards: meta.cards });
  }
  if (parts.length === 0) return null;
  const count = parts.reduce((s, p) => s + p.cards.length, 0);
  const pixels = new Uint8Array(count * frameBytes);
  let offset = 0;
  for (const p of parts) {
    pixels.set(p.pixels, offset);
    offset += p.pixels.length;
  }
  return { count, pixels, cards: parts.flatMap((p) => p.cards) };
}

/** A 2x3 affine map from window pixels to stored-frame pixels: [a, b, c, d, e, f] → (a·u + b·v + c, d·u + e·v + f). */
export type Affine = [number, number, number, number, number, number];

function invertAffine([a, b, c, d, e, f]: Affine): Affine {
  const det = a * e - b * d;
  return [e / det, -b / det, (b * f - c * e) / det, -d / det, a / det, (c * d - a * f) / det];
}

function applyAffine([a, b, c, d, e, f]: Affine, [x, y]: Point): Point {
  return [a * x + b * y + c, d * x + e * y + f];
}

/** Heat target of a cell that is not scored (beside a barely visible card). */
export const IGNORED = -1;

/**
 * Dense targets for one window of `size` pixels (see LOCATOR_CHANNELS): a Gaussian peak at each
 * findable card's centre, and in every cell around it that the card's peak dominates, the card's
 * geometry as seen from that cell (offset to the centre, size, aspect, angle). Regressing near
 * the centre rather than at one cell gives the net far more examples per card (as TTFNet). Cells
 * at a barely visible card's centre are IGNORED (a peak there is neither right nor wrong).
 * `cards` are in window pixels.
 */
export function encodeLocatorTargets(cards: StoredCard[], size: number): Float32Array {
  const grid = size / LOCATOR_STRIDE;
  const ch = LOCATOR_CHANNELS.length;
  const out = new Float32Array(grid * grid * ch);
  const ignored: number[] = [];
  for (const card of cards) {
    const g: CardGeometry = cardGeometry(card.corners);
    const gx = g.cx / LOCATOR_STRIDE - 0.5;
    const gy = g.cy / LOCATOR_STRIDE - 0.5;
    const sigma = Math.max(MIN_PEAK_SIGMA, (PEAK_SIGMA_SHARE * g.short) / LOCATOR_STRIDE);
    const reach = Math.ceil(3 * sigma);
    const ix = Math.round(gx);
    const iy = Math.round(gy);
    const findable = card.visible >= MIN_FIND_VISIBLE;
    const geometry = [Math.log(g.short / LOCATOR_STRIDE), Math.log(g.long / g.short), Math.cos(2 * g.angle), Math.sin(2 * g.angle)];
    for (let y = Math.max(0, iy - reach); y <= Math.min(grid - 1, iy + reach); y++) {
      for (let x = Math.max(0, ix - reach); x <= Math.min(grid - 1, ix + reach); x++) {
        const o = (y * grid + x) * ch;
        if (!findable) {
          // Ambiguous: a sliver of a card. Neither punish nor reward a peak near it.
          if (Math.abs(x - ix) <= 1 && Math.abs(y - iy) <= 1) ignored.push(o);
          continue;
        }
        const value = x === ix && y === iy ? 1 : Math.exp(-((x - gx) ** 2 + (y - gy) ** 2) / (2 * sigma * sigma));
        if (value <= out[o]) continue;
        out[o] = value;
        out[o + 1] = gx - x;
        out[o + 2] = gy - y;
        out.set(geometry, o + 3);
      }
    }
  }
  // Ignore only cells no findable card claims.
  for (const o of ignored) if (out[o] === 0) out[o] = IGNORED;
  return out;
}

/**
 * How training windows are cut (`sampleWindow`; the accelerator trainer reads these from its
 * pack): zoom range (cards about 14–130 px wide), window centre as a share of the frame, the
 * colour beyond the frame (each channel 0..outsideMax) and the share of windows box-blurred
 * (radius 1 or 2).
 */
export const WINDOW_AUGMENT = { zoom: [0.45, 2.2], centre: [0.15, 0.85], outsideMax: 0.6, blurShare: 0.3 } as const;

/**
 * Cuts a `size`-pixel window from frame `index`: random centre, zoom (cards about 14–130 px wide)
 * and rotation, then blur and the crop augmentation's colour, light and noise (augment.ts).
 * Writes RGB 0..1 into `x` at `offset` and returns the cards in window pixels.
 */
export function sampleWindow(frames: LocatorFrames, index: number, size: number, rng: Rng, x: Float32Array, offset: number): StoredCard[] {
  const { zoom: zooms, centre, outsideMax, blurShare } = WINDOW_AUGMENT;
  const zoom = Math.exp(uniform(rng, Math.log(zooms[0]), Math.log(zooms[1])));
  const angle = uniform(rng, 0, 2 * Math.PI);
  const cos = Math.cos(angle) / zoom;
  const sin = Math.sin(angle) / zoom;
  const half = size / 2;
  const cx = uniform(rng, centre[0], centre[1]) * STORED_WIDTH;
  const cy = uniform(rng, centre[0], centre[1]) * STORED_HEIGHT;
  // window (u, v) → stored (x, y)
  const toStored: Affine = [cos, -sin, cx - cos * half + sin * half, sin, cos, cy - sin * half - cos * half];
  const bytes = STORED_WIDTH * STORED_HEIGHT * 3;
  const frame = { width: STORED_WIDTH, height: STORED_HEIGHT, data: frames.pixels.subarray(index * bytes, (index + 1) * bytes) };
  const outside: [number, number, number] = [rng() * outsideMax, rng() * outsideMax, rng() * outsideMax];
  warpInto(frame, [...toStored, 0, 0, 1], size, size, x, offset, outside);
  const view = x.subarray(offset, offset + size * size * 3);
  if (rng() < blurShare) boxBlur(view, { w: size, h: size }, rng() < 0.5 ? 1 : 2);
  photometric(view, size * size, rng, 1);
  const toWindow = invertAffine(toStored);
  return frames.cards[index].map((card) => ({ visible: card.visible, corners: card.corners.map((p) => applyAffine(toWindow, p)) as Quad }));
}
