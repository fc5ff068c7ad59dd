/**
 * The learned locator's frames packed for an accelerator machine
 * (`npm run dataset -- --gpu-locator-pack DIR`): every cached frame (datasets/lib/locator-data.ts)
 * as a WebP in one file, and a manifest with each frame's cards and every number the PyTorch
 * trainer (datasets/gpu/train_locator.py) needs to cut windows and encode targets as
 * `npm run train -- --model locator` does. A lent machine takes 64 MiB with the repo: 2,160 frames
 * at WebP 75 are about 45 MB, their 130,000 cards 5 MB as float32 (as JSON they were 20 MB); 2,860
 * frames fit at WebP 50 (about 15 KB a frame against 20).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { LOCATOR_ALIGN, LOCATOR_CHANNELS, LOCATOR_STRIDE } from '../../server/vision/locator';
import {
  MIN_FIND_VISIBLE,
  MIN_IGNORE_VISIBLE,
  MIN_PEAK_SIGMA,
  PEAK_SIGMA_SHARE,
  STORED_HEIGHT,
  STORED_WIDTH,
  WINDOW_AUGMENT,
  type LocatorFrames,
} from './locator-data';
import { GEOMETRY_FLOOR } from './locator-model';

export const LOCATOR_PACK_FORMAT = 'nerts-locator-pack/1';

/** Training frames are rendered scenes already; WebP 75 keeps them at about 20 KB each. */
export const TRAIN_QUALITY = 75;
/** Validation frames pick the checkpoint: near lossless. */
const VALID_QUALITY = 95;

/** One packed frame: its WebP in frames.bin, its cards in cards.bin (from card `firstCard`, `cards` of them). */
export interface PackedFrame {
  split: 'train' | 'valid';
  offset: number;
  length: number;
  firstCard: number;
  cards: number;
}

/** float32 values per card in cards.bin: the four corners' x and y (TL TR BR BL), then the visible share. */
export const PACKED_CARD_VALUES = 9;

export interface LocatorPackManifest {
  format: string;
  width: number;
  height: number;
  channels: string[];
  stride: number;
  align: number;
  targets: { minFindVisible: number; minIgnoreVisible: number; peakSigmaShare: number; minPeakSigma: number; geometryFloor: number };
  window: typeof WINDOW_AUGMENT;
  cardValues: number;
  frames: PackedFrame[];
}

/**
 * Writes `train` and `valid` frames to DIR/frames.bin, their cards to DIR/cards.bin and the
 * manifest to DIR/frames.json. `trainQuality` is the training frames' WebP quality (validation
 * frames stay near lossless).
 */
export async function writeLocatorPack(dir: string, train: LocatorFrames, valid: LocatorFrames, trainQuality = TRAIN_QUALITY): Promise<LocatorPackManifest> {
  await fs.mkdir(dir, { recursive: true });
  const bytes = STORED_WIDTH * STORED_HEIGHT * 3;
  const chunks: Buffer[] = [];
  const frames: PackedFrame[] = [];
  const cards: number[] = [];
  let offset = 0;
  for (const [split, set, quality] of [['train', train, trainQuality], ['valid', valid, VALID_QUALITY]] as const) {
    for (let i = 0; i < set.count; i++) {
      const raw = set.pixels.subarray(i * bytes, (i + 1) * bytes);
      const webp = await sharp(raw, { raw: { width: STORED_WIDTH, height: STORED_HEIGHT, channels: 3 } }).webp({ quality }).toBuffer();
      chunks.push(webp);
      frames.push({ split, offset, length: webp.length, firstCard: cards.length / PACKED_CARD_VALUES, cards: set.cards[i].length });
      offset += webp.length;
      for (const card of set.cards[i]) cards.push(...card.corners.flat(), card.visible);
    }
  }
  const manifest: LocatorPackManifest = {
    format: LOCATOR_PACK_FORMAT,
    width: STORED_WIDTH,
    height: STORED_HEIGHT,
    channels: [...LOCATOR_CHANNELS],
    stride: LOCATOR_STRIDE,
    align: LOCATOR_ALIGN,
    targets: {
      minFindVisible: MIN_FIND_VISIBLE,
      minIgnoreVisible: MIN_IGNORE_VISIBLE,
      peakSigmaShare: PEAK_SIGMA_SHARE,
      minPeakSigma: MIN_PEAK_SIGMA,
      geometryFloor: GEOMETRY_FLOOR,
    },
    window: WINDOW_AUGMENT,
    cardValues: PACKED_CARD_VALUES,
    frames,
  };
  await fs.writeFile(path.join(dir, 'frames.bin'), Buffer.concat(chunks));
  await fs.writeFile(path.join(dir, 'cards.bin'), new Uint8Array(new Float32Array(cards).buffer));
  await fs.writeFile(path.join(dir, 'frames.json'), JSON.stringify(manifest));
  return manifest;
}
