/**
 * How well an index-corner model reads the strips of cascades and fans (`npm run eval -- --strips`):
 * rendered scenes of deck art it never trained on, each strip (a face-up card of a work pile or
 * waste, mostly covered, its rank and suit showing at one corner) cropped at its true outline with
 * that corner at the top left (the dataset's strip crops), read there and read turned (its covered
 * corner, which must say "no index", or the recogniser's merge of the two corners is diluted; see
 * readIndex). The localiser's own error is left out: this measures the model alone.
 */
import type * as tf from '@tensorflow/tfjs';
import { INDEX_HEIGHT, INDEX_WIDTH, NO_RANK } from '../../server/vision/classes';
import { cropCard, indexCornerQuads, rectQuad } from '../../server/vision/crop';
import { synthSamples } from '../synth/generate';
import { indexLabels } from './index-batches';
import { STRIP_MARKS_VISIBLE } from './rendered';
import { RENDERED_STRIP_GROUP, SOURCE_HEIGHT, SOURCE_WIDTH, sourceView, type SourceSet } from './sources';
import { argMaxes } from './train-tasks';

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

/** The index model's argmax rank and suit per image. */
export interface IndexArgmax {
  ranks: ArrayLike<number>;
  suits: ArrayLike<number>;
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

/**
 * Both index corners of entries `indices` of `set`, cut as the recogniser cuts a card's
 * (indexCornerQuads, cropCard): per entry its top-left corner (a strip's showing one), then its
 * bottom-right turned upright (the covered one), packed for the index model.
 */
export function stripCornerCrops(set: SourceSet, indices: readonly number[]): Float32Array {
  const size = INDEX_WIDTH * INDEX_HEIGHT * 3;
  const out = new Float32Array(indices.length * 2 * size);
  const [topLeft, bottomRight] = indexCornerQuads(rectQuad(SOURCE_WIDTH, SOURCE_HEIGHT));
  indices.forEach((index, k) => {
    const src = { data: sourceView(set, index), width: SOURCE_WIDTH, height: SOURCE_HEIGHT };
    cropCard(src, topLeft, INDEX_WIDTH, INDEX_HEIGHT, out, 2 * k * size);
    cropCard(src, bottomRight, INDEX_WIDTH, INDEX_HEIGHT, out, (2 * k + 1) * size);
  });
  return out;
}

/** Reads both index corners of every strip of `set` with `model` (argmax rank and suit): the showing one and the covered one. */
export async function readStripCorners(model: tf.LayersModel, set: SourceSet): Promise<{ shown: IndexArgmax; covered: IndexArgmax }> {
  const shown = { ranks: [] as number[], suits: [] as number[] };
  const covered = { ranks: [] as number[], suits: [] as number[] };
  const all = set.entries.map((_, i) => i);
  for (let start = 0; start < all.length; start += 64) {
    const chunk = all.slice(start, start + 64);
    const [ranks, suits] = await argMaxes(model, stripCornerCrops(set, chunk), [2 * chunk.length, INDEX_HEIGHT, INDEX_WIDTH, 3]);
    chunk.forEach((_, k) => {
      shown.ranks.push(ranks[2 * k]);
      shown.suits.push(suits[2 * k]);
      covered.ranks.push(ranks[2 * k + 1]);
      covered.suits.push(suits[2 * k + 1]);
    });
  }
  return { shown, covered };
}
