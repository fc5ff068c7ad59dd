/**
 * Turning the cached sources into model batches: the class index of each entry, the weighted
 * training pool, and float batches (augmented for training, plain for evaluation).
 */
import * as tf from '@tensorflow/tfjs';
import { CROP_HEIGHT, CROP_WIDTH, OTHER_CLASS } from '../../server/vision/classes';
import { ALL_CARD_CODES, type CardCode } from '../../server/game/cards';
import { augmentInto } from './augment';
import { type Rng } from './rng';
import { RENDERED_STRIP_GROUP, SOURCE_HEIGHT, SOURCE_WIDTH, sourceView, type SourceSet } from './sources';

/** Class index for an entry label, given the model's class names; -1 when the model lacks it. */
export function classIndexOf(label: string, names: readonly string[]): number {
  const face = ALL_CARD_CODES.indexOf(label as CardCode);
  if (face >= 0) return face;
  if (label === 'other') return OTHER_CLASS;
  return names.indexOf(label);
}

/** Back designs of the training split's back art, sorted: they become the back classes (rendered backs only show them). */
export function trainingBackDesigns(set: SourceSet): string[] {
  const designs = new Set<string>();
  for (const e of set.entries) if (e.split === 'train' && e.group === 'back' && e.label.startsWith('back:')) designs.add(e.label.slice(5));
  return [...designs].sort();
}

/** How many times each group's training entries go into a pool (small groups must weigh enough). */
export interface PoolWeights {
  art: number;
  back: number;
  other: number;
  rendered: number;
  /** Rendered strip crops (RENDERED_STRIP_GROUP; default 0: only the index model learns from them). */
  strip?: number;
  /** Groups left out altogether. */
  skip?: readonly string[];
}

/** Indices of training entries, each repeated by its group's weight (cards53 once). */
export function weightedPool(set: SourceSet, weights: PoolWeights): number[] {
  const pool: number[] = [];
  set.entries.forEach((e, i) => {
    if (e.split !== 'train' || weights.skip?.includes(e.group)) return;
    const repeats = e.group.startsWith(RENDERED_STRIP_GROUP) ? (weights.strip ?? 0) : e.group.startsWith('art:') ? weights.art : e.group === 'back' ? weights.back : e.group === 'other' ? weights.other : e.group.startsWith('rendered:') ? weights.rendered : 1;
    for (let r = 0; r < repeats; r++) pool.push(i);
  });
  return pool;
}

/**
 * The identity model's training pool: clean art x5, backs x16 (one class each), rejects x2,
 * rendered crops once (since session 5 there are about 9,700 of them, mostly webcam-size cards,
 * close to half the pool; the first 1,376 were weighted x2).
 */
export function trainingPool(set: SourceSet): number[] {
  return weightedPool(set, { art: 5, back: 16, other: 2, rendered: 1 });
}

/** A float batch [n, CROP_HEIGHT, CROP_WIDTH, 3] of entries `indices`, augmented with `strength`. */
export function makeBatch(set: SourceSet, indices: readonly number[], rng: Rng, strength: number): Float32Array {
  const size = CROP_WIDTH * CROP_HEIGHT * 3;
  const out = new Float32Array(indices.length * size);
  indices.forEach((index, k) => {
    augmentInto({ data: sourceView(set, index), width: SOURCE_WIDTH, height: SOURCE_HEIGHT }, rng, out, k * size, { strength });
  });
  return out;
}

/** Smoothed one-hot labels [n, numClasses]. */
export function labelBatch(classes: readonly number[], numClasses: number, smoothing: number): tf.Tensor2D {
  const data = new Float32Array(classes.length * numClasses).fill(smoothing / numClasses);
  classes.forEach((c, i) => {
    data[i * numClasses + c] += 1 - smoothing;
  });
  return tf.tensor2d(data, [classes.length, numClasses]);
}
