/**
 * The identity CNN: a plain convolutional net (no depthwise convs, so it trains on wasm) over an
 * upright card crop. Two outputs: class probabilities and the penultimate embedding (not yet
 * normalised; the recogniser L2-normalises it for back enrolment and face prototypes).
 */
import * as tf from '@tensorflow/tfjs';
import { CROP_HEIGHT, CROP_WIDTH } from '../../server/vision/classes';

/** Size of the embedding vector. */
export const EMBEDDING_SIZE = 96;

/** conv (no bias) → BatchNorm → ReLU, the block both recogniser CNNs are built from. */
export function convBlock(x: tf.SymbolicTensor, filters: number, strides: number, name: string, kernelSize = 3): tf.SymbolicTensor {
  let y = tf.layers
    .conv2d({ filters, kernelSize, strides, padding: 'same', useBias: false, name: `${name}_conv`, kernelInitializer: 'heNormal' })
    .apply(x) as tf.SymbolicTensor;
  y = tf.layers.batchNormalization({ name: `${name}_bn` }).apply(y) as tf.SymbolicTensor;
  return tf.layers.reLU({ name: `${name}_relu` }).apply(y) as tf.SymbolicTensor;
}

/**
 * The first layer of a live-size model: the crop averaged down 2x2. A card seen by a whole-table
 * webcam is about 36x50 pixels, so its 64x96 crop is blown up and half its resolution is blur; read
 * at 32x48 it costs a quarter of the convolutions. Same input as the full model, so crops,
 * batches and evaluation are shared.
 */
export function livePool(input: tf.SymbolicTensor): tf.SymbolicTensor {
  return tf.layers.averagePooling2d({ poolSize: 2, strides: 2, name: 'live_pool' }).apply(input) as tf.SymbolicTensor;
}

/**
 * Builds the untrained model for `numClasses` outputs. Input [N, 96, 64, 3] in 0..1. `live`: the
 * live-size variant (see livePool): the same layers after a 2x2 average, so the full model's
 * weights fit it as they are.
 */
export function buildIdentityModel(numClasses: number, live = false): tf.LayersModel {
  const input = tf.input({ shape: [CROP_HEIGHT, CROP_WIDTH, 3], name: 'crop' });
  // Every conv strides: on this 2-core machine training time is the budget, and at 64x96 the
  // stride-1 layers tripled it for little gain. Receptive field still covers the whole card.
  let x = convBlock(live ? livePool(input) : input, 24, 2, 'b1', 5); // 48x32 (live: 24x16)
  x = convBlock(x, 48, 2, 'b2'); // 24x16
  x = convBlock(x, 96, 2, 'b3'); // 12x8
  x = convBlock(x, 128, 1, 'b4a');
  x = convBlock(x, 192, 2, 'b4b'); // 6x4
  const pooled = tf.layers.globalAveragePooling2d({ name: 'gap' }).apply(x) as tf.SymbolicTensor;
  const embedding = tf.layers.dense({ units: EMBEDDING_SIZE, name: 'embedding' }).apply(pooled) as tf.SymbolicTensor;
  let h = tf.layers.reLU({ name: 'emb_relu' }).apply(embedding) as tf.SymbolicTensor;
  h = tf.layers.dropout({ rate: 0.3, name: 'drop' }).apply(h) as tf.SymbolicTensor;
  const probs = tf.layers.dense({ units: numClasses, activation: 'softmax', name: 'probs' }).apply(h) as tf.SymbolicTensor;
  return tf.model({ inputs: input, outputs: [probs, embedding], name: live ? 'card_identity_live' : 'card_identity' });
}
