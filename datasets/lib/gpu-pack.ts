/**
 * The training sources packed for an accelerator machine (`npm run dataset -- --gpu-pack DIR`):
 * every cached source image as a WebP in one file (a lent machine takes 64 MiB with the repo,
 * so the ~25,000 sources must fit in about 45 MB), and a manifest that carries everything the
 * trainer needs to know (each entry's class, rank and suit; the weighted training pools; the
 * validation and held-out entries; crop sizes and the index region). The PyTorch trainer
 * (datasets/gpu/train_cards.py) holds no data logic of its own: pools and labels are the ones
 * `npm run train` uses, computed here.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { CROP_HEIGHT, CROP_WIDTH, INDEX_HEIGHT, INDEX_REGION, INDEX_WIDTH, classNames } from '../../server/vision/classes';
import { classIndexOf, trainingBackDesigns, trainingPool } from './batches';
import { indexLabels, indexTrainingPool, NO_INDEX_GROUPS } from './index-batches';
import { RENDERED_STRIP_GROUP, SOURCE_HEIGHT, SOURCE_WIDTH, sourceView, type SourceSet } from './sources';

export const GPU_PACK_FORMAT = 'nerts-gpu-pack/1';

/** One packed image: where its WebP lies in cards.bin and what it is. */
export interface PackedEntry {
  group: string;
  label: string;
  split: string;
  offset: number;
  length: number;
  /** Identity class index (-1: not a class of the identity model, e.g. a held-out back). */
  cls: number;
  rank: number;
  suit: number;
}

export interface GpuPackManifest {
  format: string;
  sourceWidth: number;
  sourceHeight: number;
  crop: { width: number; height: number };
  index: { width: number; height: number; region: typeof INDEX_REGION };
  classNames: string[];
  entries: PackedEntry[];
  /** Training pools: entry indices, repeated by their group's weight (batches.ts, index-batches.ts). */
  identityPool: number[];
  indexPool: number[];
  /** cards53 valid (model selection) and the held-out art deck's faces. */
  valid: number[];
  heldout: number[];
  /** Entries whose corners print no index (not index examples). */
  noIndex: number[];
  /** Rendered strip crops: turned, their covered corner is a "no index" example (isStripCrop). */
  strip: number[];
}

/**
 * WebP quality by entry: validation and held-out images near lossless (their scores must match
 * the TypeScript trainer's: at quality 76 three of 264 cards53 corners read differently), real
 * and drawn training cards 80, rendered crops (mostly webcam-size cards, already blurred) and
 * generated backs and textures 72.
 */
function packQuality(group: string, split: string): number {
  if (split !== 'train') return 100;
  return group === 'cards53' || group.startsWith('art:') ? 80 : 72;
}

/** Writes `set` as DIR/cards.bin + DIR/cards.json; returns the manifest. */
export async function writeGpuPack(dir: string, set: SourceSet): Promise<GpuPackManifest> {
  const names = classNames(trainingBackDesigns(set));
  const chunks: Buffer[] = [];
  const entries: PackedEntry[] = [];
  let offset = 0;
  for (let i = 0; i < set.entries.length; i++) {
    const e = set.entries[i];
    const image = await sharp(Buffer.from(sourceView(set, i)), { raw: { width: SOURCE_WIDTH, height: SOURCE_HEIGHT, channels: 3 } })
      .webp({ quality: packQuality(e.group, e.split) })
      .toBuffer();
    chunks.push(image);
    const { rank, suit } = indexLabels(e.label);
    entries.push({ group: e.group, label: e.label, split: e.split, offset, length: image.length, cls: classIndexOf(e.label, names), rank, suit });
    offset += image.length;
  }
  const indexOf = (test: (e: PackedEntry) => boolean) => entries.flatMap((e, i) => (test(e) ? [i] : []));
  const manifest: GpuPackManifest = {
    format: GPU_PACK_FORMAT,
    sourceWidth: SOURCE_WIDTH,
    sourceHeight: SOURCE_HEIGHT,
    crop: { width: CROP_WIDTH, height: CROP_HEIGHT },
    index: { width: INDEX_WIDTH, height: INDEX_HEIGHT, region: INDEX_REGION },
    classNames: names,
    entries,
    identityPool: trainingPool(set),
    indexPool: indexTrainingPool(set),
    valid: indexOf((e) => e.group === 'cards53' && e.split === 'valid'),
    heldout: indexOf((e) => e.group.startsWith('art:') && e.split === 'heldout'),
    noIndex: indexOf((e) => NO_INDEX_GROUPS.includes(e.group)),
    strip: indexOf((e) => e.group.startsWith(RENDERED_STRIP_GROUP)),
  };
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'cards.bin'), Buffer.concat(chunks));
  await fs.writeFile(path.join(dir, 'cards.json'), JSON.stringify(manifest));
  return manifest;
}
