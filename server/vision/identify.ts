/**
 * Identity stage: a batch of upright card crops → class probabilities and L2-normalised
 * embeddings from the CNN, then a decision (face code, back, or reject) per crop.
 * Tensor shapes: input [N, CROP_HEIGHT, CROP_WIDTH, 3] float 0..1 → probs [N, C], embedding [N, E].
 */
import * as tf from '@tensorflow/tfjs';
import type { CardCode } from '../game/cards';
import { CROP_HEIGHT, CROP_WIDTH, FIRST_BACK_CLASS, OTHER_CLASS, classMeaning } from './classes';

/** Raw model outputs for a batch, as plain arrays (no tensors escape this stage). */
export interface IdentityOutputs {
  count: number;
  numClasses: number;
  embeddingSize: number;
  probs: Float32Array;
  /** L2-normalised embeddings, row-major. */
  embeddings: Float32Array;
}

/**
 * Runs the model on `count` crops packed in `crops`. With `bothWays`, each crop is also read
 * turned 180 degrees (cards lie either way up) and the two readings are averaged.
 * Frees every tensor it makes.
 */
export async function runIdentityModel(model: tf.LayersModel, crops: Float32Array, count: number, bothWays = false): Promise<IdentityOutputs> {
  if (count === 0) return { count, numClasses: 0, embeddingSize: 0, probs: new Float32Array(0), embeddings: new Float32Array(0) };
  if (crops.length < count * CROP_WIDTH * CROP_HEIGHT * 3) throw new Error('crop buffer too small for the batch');
  const [probsT, embT] = tf.tidy(() => {
    const input = tf.tensor4d(crops.subarray(0, count * CROP_WIDTH * CROP_HEIGHT * 3), [count, CROP_HEIGHT, CROP_WIDTH, 3]);
    let [probs, embedding] = model.predict(input) as tf.Tensor[];
    if (bothWays) {
      const [turnedProbs, turnedEmbedding] = model.predict(tf.reverse(input, [1, 2])) as tf.Tensor[];
      probs = tf.div(tf.add(probs, turnedProbs), 2);
      embedding = tf.add(embedding, turnedEmbedding);
    }
    const normalised = tf.div(embedding, tf.add(tf.norm(embedding, 'euclidean', -1, true), 1e-6));
    return [probs, normalised];
  });
  try {
    const [probs, embeddings] = await Promise.all([probsT.data() as Promise<Float32Array>, embT.data() as Promise<Float32Array>]);
    return { count, numClasses: probsT.shape[1] as number, embeddingSize: embT.shape[1] as number, probs, embeddings };
  } finally {
    probsT.dispose();
    embT.dispose();
  }
}

/** What one crop is, before enrolment refines backs and faces. */
export type Identity =
  | { kind: 'face'; code: CardCode; confidence: number }
  | { kind: 'back'; confidence: number; design: string }
  | { kind: 'other'; confidence: number };

/**
 * Decides between the 52 faces, "a back" (all back-design classes summed) and reject.
 * `faceBoost` adds enrolled-face evidence per class index (0 when nothing is enrolled).
 */
export function decideIdentity(probs: Float32Array, offset: number, numClasses: number, names: readonly string[], faceBoost?: Float32Array): Identity {
  let bestFace = 0;
  let bestFaceScore = -1;
  for (let c = 0; c < OTHER_CLASS; c++) {
    const score = probs[offset + c] + (faceBoost ? faceBoost[c] : 0);
    if (score > bestFaceScore) {
      bestFaceScore = score;
      bestFace = c;
    }
  }
  let backSum = 0;
  let bestBack = FIRST_BACK_CLASS;
  for (let c = FIRST_BACK_CLASS; c < numClasses; c++) {
    backSum += probs[offset + c];
    if (probs[offset + c] > probs[offset + bestBack]) bestBack = c;
  }
  const other = probs[offset + OTHER_CLASS];
  if (other >= bestFaceScore && other >= backSum) return { kind: 'other', confidence: other };
  if (backSum > bestFaceScore) {
    const meaning = classMeaning(bestBack, names);
    return { kind: 'back', confidence: Math.min(1, backSum), design: meaning.kind === 'back' ? meaning.design : 'unknown' };
  }
  const meaning = classMeaning(bestFace, names);
  if (meaning.kind !== 'face') throw new Error('face class index out of range');
  return { kind: 'face', code: meaning.code, confidence: Math.min(1, bestFaceScore) };
}
