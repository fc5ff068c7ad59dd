/**
 * How well an index-corner model reads the strips of cascades and fans (`npm run eval -- --strips`):
 * rendered scenes of deck art it never trained on, each strip (a face-up card of a work pile or
 * waste, mostly covered, its rank and suit showing at one corner) cropped at its true outline with
 * that corner at the top left (the dataset's strip crops), read there and read turned (its covered
 * corner, which must say "no index", or the recogniser's merge of the two corners is diluted; see
 * readIndex). The localiser's own error is left out: this measures the model alone.
 */
import * as tf from '@tensorflow/tfjs';
import { INDEX_HEIGHT, INDEX_RANK_CLASSES, INDEX_SUIT_CLASSES, INDEX_WIDTH, NO_RANK } from '../../server/vision/classes';
import { synthSamples } from '../synth/generate';
import { indexLabels, makeIndexBatch } from './index-batches';
import { STRIP_MARKS_VISIBLE } from './rendered';
import { makeRng } from './rng';
import { RENDERED_STRIP_GROUP, SOURCE_HEIGHT, SOURCE_WIDTH, type SourceSet } from './sources';

/** What `--strips` renders. */
export interface StripSetOptions {
  frames: number;
  seed: number;
  /** Face styles (default: the held-out ones, kennard and its npm twin). */
  decks?: string[];
}

/** The strip crops of `frames` rendered scenes, as a source set (group `strip:<style>`, label the card). */
export async function renderedStripSet({ frames, seed, decks = ['kennard', 'letele'] }: StripSetOptions): Promise<SourceSet> {
  const entries: SourceSet['entries'] = [];
  const chunks: Uint8Array[] = [];
  for await (const sample of synthSamples({ seed, frames, decks, framesPerSession: 2, cropWidth: SOURCE_WIDTH, cropHeight: SOURCE_HEIGHT, minStripMarksVisible: STRIP_MARKS_VISIBLE })) {
    for (const crop of sample.crops) {
      if (crop.kind !== 'strip' || !crop.code) continue;
      entries.push({ group: `${RENDERED_STRIP_GROUP}${crop.faceStyle}`, label: crop.code, split: 'heldout', file: `strips:${seed}/${sample.index}` });
      chunks.push(crop.rgb);
    }
  }
  const pixels = new Uint8Array(chunks.length * SOURCE_WIDTH * SOURCE_HEIGHT * 3);
  chunks.forEach((chunk, k) => pixels.set(chunk, k * chunk.length));
  return { format: 'strips', entries, pixels };
}

/** A source set with every image turned 180 degrees (its bottom-right corner read as the top-left). */
export function turnedSet(set: SourceSet): SourceSet {
  const size = SOURCE_WIDTH * SOURCE_HEIGHT;
  const pixels = new Uint8Array(set.pixels.length);
  for (let k = 0; k < set.entries.length; k++) {
    const base = k * size * 3;
    for (let p = 0; p < size; p++) {
      const q = base + (size - 1 - p) * 3;
      pixels[base + p * 3] = set.pixels[q];
      pixels[base + p * 3 + 1] = set.pixels[q + 1];
      pixels[base + p * 3 + 2] = set.pixels[q + 2];
    }
  }
  return { ...set, pixels };
}

/** The index model's argmax rank and suit per image: rows of INDEX_RANK_CLASSES and INDEX_SUIT_CLASSES probabilities. */
export interface IndexArgmax {
  ranks: number[];
  suits: number[];
}

/** Argmax of each row of `probs` (`width` columns). */
export function rowArgmax(probs: ArrayLike<number>, width: number): number[] {
  const out: number[] = [];
  for (let row = 0; row * width < probs.length; row++) {
    let best = 0;
    for (let c = 1; c < width; c++) if (probs[row * width + c] > probs[row * width + best]) best = c;
    out.push(best);
  }
  return out;
}

/** What `--strips` prints: strips read right at their showing corner, and turned read as no index. Pure. */
export function scoreStripReadings(labels: readonly string[], shown: IndexArgmax, covered: IndexArgmax): { strips: number; namedRight: number; readNoIndex: number; coveredNoIndex: number } {
  let namedRight = 0;
  let readNoIndex = 0;
  let coveredNoIndex = 0;
  labels.forEach((label, k) => {
    const truth = indexLabels(label);
    if (shown.ranks[k] === truth.rank && shown.suits[k] === truth.suit) namedRight++;
    if (shown.ranks[k] === NO_RANK) readNoIndex++;
    if (covered.ranks[k] === NO_RANK) coveredNoIndex++;
  });
  return { strips: labels.length, namedRight, readNoIndex, coveredNoIndex };
}

/** Reads `set`'s top-left index corners (no augmentation) with `model`: argmax rank and suit per image. */
export async function readIndexCorners(model: tf.LayersModel, set: SourceSet): Promise<IndexArgmax> {
  const ranks: number[] = [];
  const suits: number[] = [];
  const all = set.entries.map((_, i) => i);
  for (let start = 0; start < all.length; start += 128) {
    const chunk = all.slice(start, start + 128);
    const { x } = makeIndexBatch(set, chunk, makeRng(1), 0, { interiorShare: 0 });
    const [rankT, suitT] = tf.tidy(() => model.predict(tf.tensor4d(x, [chunk.length, INDEX_HEIGHT, INDEX_WIDTH, 3])) as tf.Tensor[]);
    const [r, s] = await Promise.all([rankT.data(), suitT.data()]);
    rankT.dispose();
    suitT.dispose();
    ranks.push(...rowArgmax(r, INDEX_RANK_CLASSES));
    suits.push(...rowArgmax(s, INDEX_SUIT_CLASSES));
  }
  return { ranks, suits };
}
