/**
 * The back-look model: a small CNN that maps a card-back crop to an embedding in which views of
 * one design lie together and other designs apart, so a player's deck is told from the others by
 * its nearest enrolled views (server/vision/enrollment.ts) without retraining.
 *
 * The identity model's own embedding was trained to name classes, not to compare designs it never
 * saw: among six unseen designs it picked the right one 90 % of the time (a fine grey-dot design
 * taken for a near-black one). This model is trained for the comparison itself, on thousands of
 * generated designs (generated-art.ts, a seed per design), with a supervised contrastive loss:
 * every batch holds several augmented views of each of a few designs.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { BACK_EMBED_SIZE, CROP_HEIGHT, CROP_WIDTH } from '../../server/vision/classes';
import { augmentInto } from './augment';
import { generatedBackSvg } from './generated-art';
import { convBlock } from './identity-model';
import type { Rng } from './rng';
import { cacheDir } from './shared-data';
import { decodeSource, SOURCE_BYTES, SOURCE_HEIGHT, SOURCE_WIDTH } from './sources';

/** Generated designs the model trains on (seeds), and the unseen ones that pick its best epoch. */
export const BACK_TRAIN_SEEDS = { first: 100, count: 2000 } as const;
export const BACK_VALID_SEEDS = { first: 20000, count: 100 } as const;

/** Views of each design in one training batch (the rest of the batch is other designs). */
export const VIEWS_PER_DESIGN = 4;

/** Temperature of the contrastive loss (cosine similarities are divided by it). */
const TEMPERATURE = 0.1;

/** Designs as source-sized RGB images (SOURCE_WIDTH x SOURCE_HEIGHT), one after another. */
export interface DesignImages {
  count: number;
  pixels: Uint8Array;
}

/** Design `k`'s pixels. */
export function designView(designs: DesignImages, k: number): Uint8Array {
  return designs.pixels.subarray(k * SOURCE_BYTES, (k + 1) * SOURCE_BYTES);
}

/** Renders generated back designs `first`..`first + count - 1` (cached under .cache/vision). */
export async function generatedDesigns({ first, count }: { first: number; count: number }, log: (m: string) => void = console.error): Promise<DesignImages> {
  const file = path.join(cacheDir(), `back-designs-${first}-${count}.bin`);
  if (existsSync(file)) {
    const pixels = new Uint8Array(await fs.readFile(file));
    if (pixels.length === count * SOURCE_BYTES) return { count, pixels };
  }
  log(`[back-embed] rendering ${count} generated back designs (once)`);
  const pixels = new Uint8Array(count * SOURCE_BYTES);
  for (let k = 0; k < count; k++) {
    pixels.set(await decodeSource(Buffer.from(generatedBackSvg(first + k))), k * SOURCE_BYTES);
  }
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, pixels);
  return { count, pixels };
}

/** Augmented whole-card crops (float RGB 0..1, CROP_WIDTH x CROP_HEIGHT) of `sources`, one per entry. */
export function designCrops(sources: readonly Uint8Array[], rng: Rng, strength: number): Float32Array {
  const size = CROP_WIDTH * CROP_HEIGHT * 3;
  const out = new Float32Array(sources.length * size);
  sources.forEach((data, k) => augmentInto({ data, width: SOURCE_WIDTH, height: SOURCE_HEIGHT }, rng, out, k * size, { strength }));
  return out;
}

/**
 * The untrained back-look model: input [N, 96, 64, 3] (the recogniser's whole-card crop, 0..1),
 * output the embedding [N, BACK_EMBED_SIZE] (not normalised; compare after L2 normalisation).
 * Both average and max pooling at the end: a design is its repeated texture (average) and its
 * emblem or strongest marks (max).
 */
export function buildBackEmbedModel(): tf.LayersModel {
  const input = tf.input({ shape: [CROP_HEIGHT, CROP_WIDTH, 3], name: 'crop' });
  let x = convBlock(input, 24, 1, 'k1'); // 96x64: fine dots and lines survive the first layer
  x = convBlock(x, 32, 2, 'k2'); // 48x32
  x = convBlock(x, 48, 2, 'k3'); // 24x16
  x = convBlock(x, 64, 2, 'k4'); // 12x8
  x = convBlock(x, 96, 2, 'k5'); // 6x4
  const mean = tf.layers.globalAveragePooling2d({ name: 'gap' }).apply(x) as tf.SymbolicTensor;
  const peak = tf.layers.globalMaxPooling2d({ name: 'gmp' }).apply(x) as tf.SymbolicTensor;
  const both = tf.layers.concatenate({ name: 'pools' }).apply([mean, peak]) as tf.SymbolicTensor;
  const embedding = tf.layers.dense({ units: BACK_EMBED_SIZE, name: 'back_embedding' }).apply(both) as tf.SymbolicTensor;
  return tf.model({ inputs: input, outputs: embedding, name: 'back_looks' });
}

/**
 * Supervised contrastive loss (Khosla et al. 2020) over a batch: `labels` [N, 1] the design of
 * each view, `embeddings` [N, D]. For every view, the other views of its design should be the
 * most similar of the batch: -log(sum over them of exp(cos/τ) / sum over all others).
 */
export function contrastiveLoss(labels: tf.Tensor, embeddings: tf.Tensor): tf.Scalar {
  return tf.tidy(() => {
    const n = embeddings.shape[0]!;
    // Keras checks targets against the output's shape: the design id rides in column 0 of an [N, D] target.
    if (labels.rank === 2 && labels.shape[1] !== 1) labels = tf.slice(labels, [0, 0], [n, 1]);
    const e = tf.div(embeddings, tf.add(tf.norm(embeddings, 'euclidean', 1, true), 1e-8));
    const logits = tf.div(tf.matMul(e, e, false, true), TEMPERATURE);
    const self = tf.eye(n);
    const ids = tf.reshape(labels, [n, 1]);
    const same = tf.sub(tf.cast(tf.equal(ids, tf.transpose(ids)), 'float32'), self);
    const masked = (keep: tf.Tensor) => tf.add(logits, tf.mul(tf.sub(1, keep), -1e9));
    const all = tf.logSumExp(masked(tf.sub(1, self)), 1);
    const positives = tf.logSumExp(masked(same), 1);
    return tf.mean(tf.sub(all, positives)) as tf.Scalar;
  });
}

/**
 * How often the right design is nearest, among `designs` each enrolled from `enrolViews`
 * augmented views and read back from `testViews` fresh ones (nearest enrolled view by cosine),
 * as the recogniser decides. `embed` maps packed crops to L2-normalised embeddings.
 */
export async function enrolmentAccuracy(
  designs: readonly Uint8Array[],
  embed: (crops: Float32Array, count: number) => Promise<Float32Array>,
  rng: Rng,
  { enrolViews = 5, testViews = 10, strength = 0.7 } = {},
): Promise<number> {
  const d = BACK_EMBED_SIZE;
  const enrolled = await embedAll(designs.flatMap((view) => Array<Uint8Array>(enrolViews).fill(view)), embed, rng, strength);
  const tests = await embedAll(designs.flatMap((view) => Array<Uint8Array>(testViews).fill(view)), embed, rng, strength);
  let right = 0;
  for (let t = 0; t < designs.length * testViews; t++) {
    let best = -Infinity;
    let bestDesign = -1;
    for (let v = 0; v < designs.length * enrolViews; v++) {
      let dot = 0;
      for (let k = 0; k < d; k++) dot += tests[t * d + k] * enrolled[v * d + k];
      if (dot > best) {
        best = dot;
        bestDesign = Math.floor(v / enrolViews);
      }
    }
    if (bestDesign === Math.floor(t / testViews)) right++;
  }
  return right / (designs.length * testViews);
}

async function embedAll(views: Uint8Array[], embed: (crops: Float32Array, count: number) => Promise<Float32Array>, rng: Rng, strength: number): Promise<Float32Array> {
  const out = new Float32Array(views.length * BACK_EMBED_SIZE);
  for (let start = 0; start < views.length; start += 64) {
    const chunk = views.slice(start, start + 64);
    out.set(await embed(designCrops(chunk, rng, strength), chunk.length), start * BACK_EMBED_SIZE);
  }
  return out;
}
