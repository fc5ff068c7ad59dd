/**
 * Turning the cached sources into model batches: the class index of each entry, the weighted
 * training pool, and float batches (augmented for training, plain for evaluation).
 */
import * as tf from '@tensorflow/tfjs';
import { CROP_HEIGHT, CROP_WIDTH, OTHER_CLASS } from '../../server/vision/classes';
import { ALL_CARD_CODES, type CardCode } from '../../server/game/cards';
import { augmentInto } from './augment';
import { type Rng } from './rng';
import { SOURCE_HEIGHT, SOURCE_WIDTH, sourceView, type SourceSet } from './sources';

/** Class index for an entry label, given the model's class names; -1 when the model lacks it. */
export function classIndexOf(label: string, names: readonly string[]): number {
  const face = ALL_CARD_CODES.indexOf(label as CardCode);
  if (face >= 0) return face;
  if (label === 'other') return OTHER_CLASS;
  return names.indexOf(label);
}

/** Back designs in the training split, sorted: they become the back classes. */
export function trainingBackDesigns(set: SourceSet): string[] {
  const designs = new Set<string>();
  for (const e of set.entries) if (e.split === 'train' && e.label.startsWith('back:')) designs.add(e.label.slice(5));
  return [...designs].sort();
}

/** Indices of training entries, repeated so that small groups (clean art, backs) weigh enough. */
export function trainingPool(set: SourceSet): number[] {
  const pool: number[] = [];
  set.entries.forEach((e, i) => {
    if (e.split !== 'train') return;
    const repeats = e.group.startsWith('art:') ? 5 : e.group === 'back' ? 16 : e.group === 'other' ? 2 : e.group.startsWith('rendered:') ? 2 : 1;
    for (let r = 0; r < repeats; r++) pool.push(i);
  });
  return pool;
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
