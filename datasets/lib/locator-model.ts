/**
 * The card locator net: a small encoder–decoder (plain convolutions, so it trains on wasm) from
 * an RGB image of any size divisible by LOCATOR_ALIGN to a grid of LOCATOR_OUTPUTS channels at
 * LOCATOR_STRIDE. The encoder goes down to 1/32 so a cell "sees" a card that fills a phone photo;
 * the decoder brings the centre map back to 1/4 so the cards of a cascade get separate peaks.
 * Also the training loss (CenterNet-style focal loss on the centre map, L1 on the geometry).
 */
import * as tf from '@tensorflow/tfjs';
import { LOCATOR_CHANNELS, LOCATOR_OUTPUTS } from '../../server/vision/locator';
import { convBlock } from './identity-model';

/** Builds the untrained locator. Input [N, H, W, 3] RGB in 0..1, output [N, H/4, W/4, LOCATOR_OUTPUTS]. */
export function buildLocatorModel(): tf.LayersModel {
  const input = tf.input({ shape: [null, null, 3], name: 'image' }) as tf.SymbolicTensor;
  const up = (x: tf.SymbolicTensor, skip: tf.SymbolicTensor, filters: number, name: string) => {
    const upsampled = tf.layers.upSampling2d({ size: [2, 2], name: `${name}_up` }).apply(x) as tf.SymbolicTensor;
    const lateral = convBlock(skip, filters, 1, `${name}_lat`, 1);
    const merged = tf.layers.add({ name: `${name}_add` }).apply([convBlock(upsampled, filters, 1, `${name}_in`, 1), lateral]) as tf.SymbolicTensor;
    return convBlock(merged, filters, 1, `${name}_out`);
  };
  const s2 = convBlock(input, 16, 2, 'e1'); // 1/2
  const s4 = convBlock(s2, 32, 2, 'e2'); // 1/4
  let s8 = convBlock(s4, 48, 2, 'e3a'); // 1/8
  s8 = convBlock(s8, 48, 1, 'e3b');
  let s16 = convBlock(s8, 64, 2, 'e4a'); // 1/16
  s16 = convBlock(s16, 64, 1, 'e4b');
  let s32 = convBlock(s16, 96, 2, 'e5a'); // 1/32
  s32 = convBlock(s32, 96, 1, 'e5b');
  let x = up(s32, s16, 64, 'd4');
  x = up(x, s8, 48, 'd3');
  x = up(x, s4, 32, 'd2');
  const out = tf.layers
    .conv2d({ filters: LOCATOR_OUTPUTS, kernelSize: 1, name: 'head', biasInitializer: tf.initializers.constant({ value: 0 }) })
    .apply(x) as tf.SymbolicTensor;
  return tf.model({ inputs: input, outputs: out, name: 'card_locator' });
}

/** Cells whose heat target is at least this learn the geometry of the card whose peak it is. */
export const GEOMETRY_FLOOR = 0.3;

const at = (name: (typeof LOCATOR_CHANNELS)[number]) => LOCATOR_CHANNELS.indexOf(name);

/**
 * Loss for a batch: `yTrue` and `yPred` [N, g, g, LOCATOR_OUTPUTS] (targets as encodeLocatorTargets). Focal loss on the centre map (penalty-reduced near a centre, as CenterNet),
 * plus heat-weighted L1 on offset, size, aspect and angle around each centre.
 */
export function locatorLoss(yTrue: tf.Tensor, yPred: tf.Tensor): tf.Scalar {
  // No tf.tidy here: the training step already runs in one, and the gradient needs the intermediates.
  const channel = (t: tf.Tensor, k: number) => t.slice([0, 0, 0, k], [-1, -1, -1, 1]);
    const target = channel(yTrue, at('heat'));
    // Heat −1 marks cells that are not scored.
    const weight = target.greaterEqual(0).toFloat();
    const heat = target.maximum(0);
    const logit = channel(yPred, at('heat'));
    const pos = heat.greaterEqual(0.999).toFloat();
    const neg = tf.scalar(1).sub(pos);
    const p = tf.sigmoid(logit);
    // −log p = softplus(−z) and −log(1 − p) = softplus(z); tf.logSigmoid's gradient fails on wasm.
    const posLoss = tf.softplus(logit.neg()).mul(tf.scalar(1).sub(p).square()).mul(pos);
    const negLoss = tf.softplus(logit).mul(p.square()).mul(tf.scalar(1).sub(heat).pow(4)).mul(neg).mul(weight);
    const cards = pos.sum().maximum(1);
    const focal = posLoss.add(negLoss).sum().div(cards);
    // Geometry wherever a card's peak dominates (heat ≥ GEOMETRY_FLOOR), weighted by the heat.
    const near = heat.mul(heat.greaterEqual(GEOMETRY_FLOOR).toFloat());
    const geometry = yTrue.slice([0, 0, 0, at('dx')], [-1, -1, -1, LOCATOR_OUTPUTS - 1]);
    const predicted = yPred.slice([0, 0, 0, at('dx')], [-1, -1, -1, LOCATOR_OUTPUTS - 1]);
    const l1 = geometry.sub(predicted).abs().mul(near).sum().div(near.sum().maximum(1));
    return focal.add(l1) as tf.Scalar;
}
