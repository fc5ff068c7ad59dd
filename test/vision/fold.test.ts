import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../server/vision/backend';
import { foldableChains, foldBatchNorms } from '../../server/vision/fold';
import { DEFAULT_INDEX_MODEL_DIR, DEFAULT_MODEL_DIR } from '../../server/vision/index';
import { loadInferenceModelFromDir, loadLayersModelFromDir } from '../../server/vision/model-io';

beforeAll(async () => {
  await initBackend({ log: () => {} });
});

/** Gives every batch norm of `model` moving statistics and an affine part far from the identity. */
function randomiseBatchNorms(model: tf.LayersModel, seed: number): void {
  for (const layer of model.layers) {
    if (layer.getClassName() !== 'BatchNormalization') continue;
    tf.tidy(() => {
      const count = layer.getWeights().length;
      // gamma, beta, mean free in sign; the variance (last) must be positive.
      layer.setWeights(layer.getWeights().map((w, i) => {
        const values = tf.randomUniform(w.shape, -1, 1, 'float32', seed + i);
        return i === count - 1 ? values.abs().add(0.2) : values;
      }));
    });
  }
}

/** conv (no bias) → BN → ReLU, as the recogniser's models are built. */
function block(x: tf.SymbolicTensor, filters: number, strides: number, name: string, relu = true): tf.SymbolicTensor {
  let y = tf.layers.conv2d({ filters, kernelSize: 3, strides, padding: 'same', useBias: false, name: `${name}_conv` }).apply(x) as tf.SymbolicTensor;
  y = tf.layers.batchNormalization({ name: `${name}_bn` }).apply(y) as tf.SymbolicTensor;
  return relu ? (tf.layers.reLU({ name: `${name}_relu` }).apply(y) as tf.SymbolicTensor) : y;
}

/**
 * A small net with every shape the folding meets: plain chains, a batch norm with no ReLU after
 * it, a conv with a bias, a skip connection (Add, as the locator's decoder), a conv whose output
 * two layers read (must stay unfolded), two outputs, pooling, dense and dropout.
 */
function tricky(): tf.LayersModel {
  const input = tf.input({ shape: [24, 16, 3], name: 'img' });
  const a = block(input, 8, 2, 'a'); // 12x8
  const b = block(a, 8, 1, 'b', false); // BN, no ReLU
  const biased = tf.layers.conv2d({ filters: 8, kernelSize: 3, padding: 'same', useBias: true, name: 'c_conv' }).apply(b) as tf.SymbolicTensor;
  const cbn = tf.layers.batchNormalization({ name: 'c_bn', center: false }).apply(biased) as tf.SymbolicTensor;
  const sum = tf.layers.add({ name: 'skip' }).apply([cbn, a]) as tf.SymbolicTensor;
  const shared = tf.layers.conv2d({ filters: 6, kernelSize: 1, name: 'shared_conv' }).apply(sum) as tf.SymbolicTensor;
  const sbn = tf.layers.batchNormalization({ name: 'shared_bn' }).apply(shared) as tf.SymbolicTensor;
  const also = tf.layers.globalMaxPooling2d({ name: 'also' }).apply(shared) as tf.SymbolicTensor; // a second reader
  const pooled = tf.layers.globalAveragePooling2d({ name: 'gap' }).apply(sbn) as tf.SymbolicTensor;
  const joined = tf.layers.concatenate({ name: 'join' }).apply([pooled, also]) as tf.SymbolicTensor;
  const embedding = tf.layers.dense({ units: 5, name: 'embedding' }).apply(joined) as tf.SymbolicTensor;
  const dropped = tf.layers.dropout({ rate: 0.3, name: 'drop' }).apply(embedding) as tf.SymbolicTensor;
  const probs = tf.layers.dense({ units: 4, activation: 'softmax', name: 'probs' }).apply(dropped) as tf.SymbolicTensor;
  return tf.model({ inputs: input, outputs: [probs, embedding] });
}

function maxRelativeDifference(a: tf.Tensor, b: tf.Tensor): number {
  return tf.tidy(() => a.sub(b).abs().max().dataSync()[0] / Math.max(1e-6, a.abs().max().dataSync()[0]));
}

describe('foldBatchNorms', () => {
  it('computes what the model computes, with the batch norms gone', () => {
    const model = tricky();
    randomiseBatchNorms(model, 7);
    const folded = foldBatchNorms(model);
    const x = tf.randomUniform([5, 24, 16, 3], 0, 1, 'float32', 3);
    const before = model.predict(x) as tf.Tensor[];
    const after = folded.predict(x) as tf.Tensor[];
    expect(after.map((t) => t.shape)).toEqual(before.map((t) => t.shape));
    before.forEach((t, i) => expect(maxRelativeDifference(t, after[i])).toBeLessThan(1e-5));
    const classes = (m: tf.LayersModel) => m.layers.map((l) => l.getClassName());
    // Three chains folded (a, b, c); the shared conv's batch norm stays, since its conv feeds two layers.
    expect(foldableChains(model)).toBe(3);
    expect(classes(folded).filter((c) => c === 'BatchNormalization')).toHaveLength(1);
    expect(classes(folded).filter((c) => c === 'ReLU')).toHaveLength(0);
    expect(folded.outputNames).toEqual(model.outputNames);
    tf.dispose([x, ...before, ...after]);
    model.dispose();
    folded.dispose();
  });

  it('leaves a model that outlives the original, and leaks no tensors', () => {
    const start = tf.memory().numTensors;
    const model = tricky();
    randomiseBatchNorms(model, 11);
    const x = tf.randomUniform([2, 24, 16, 3], 0, 1, 'float32', 5);
    const expected = model.predict(x) as tf.Tensor[];
    const folded = foldBatchNorms(model);
    model.dispose();
    const got = folded.predict(x) as tf.Tensor[];
    expected.forEach((t, i) => expect(maxRelativeDifference(t, got[i])).toBeLessThan(1e-5));
    tf.dispose([x, ...expected, ...got]);
    folded.dispose();
    expect(tf.memory().numTensors).toBe(start);
  });

  it('copies a model with nothing to fold as it is', () => {
    const input = tf.input({ shape: [4] });
    const model = tf.model({ inputs: input, outputs: tf.layers.dense({ units: 2 }).apply(input) as tf.SymbolicTensor });
    const folded = foldBatchNorms(model);
    expect(foldableChains(model)).toBe(0);
    expect(folded.layers.map((l) => l.getClassName())).toEqual(['InputLayer', 'Dense']);
    const x = tf.tensor2d([[1, -2, 3, 0.5]]);
    const [a, b] = [model.predict(x) as tf.Tensor, folded.predict(x) as tf.Tensor];
    expect(Array.from(b.dataSync())).toEqual(Array.from(a.dataSync()));
    tf.dispose([x, a, b]);
    model.dispose();
    folded.dispose();
  });
});

describe('the committed models, folded for inference', () => {
  for (const [name, dir] of [
    ['card-identity', DEFAULT_MODEL_DIR],
    ['card-index', DEFAULT_INDEX_MODEL_DIR],
  ] as const) {
    it(`${name}: same outputs as the trained model, every batch norm folded`, async () => {
      const trained = await loadLayersModelFromDir(dir);
      const folded = await loadInferenceModelFromDir(dir);
      const shape = [6, ...(trained.inputs[0].shape.slice(1) as number[])];
      const x = tf.randomUniform(shape, 0, 1, 'float32', 1);
      const a = [trained.predict(x)].flat() as tf.Tensor[];
      const b = [folded.predict(x)].flat() as tf.Tensor[];
      a.forEach((t, i) => expect(maxRelativeDifference(t, b[i])).toBeLessThan(1e-4));
      expect(folded.layers.some((l) => l.getClassName() === 'BatchNormalization')).toBe(false);
      expect(folded.layers.length).toBeLessThan(trained.layers.length);
      tf.dispose([x, ...a, ...b]);
      trained.dispose();
      folded.dispose();
    });
  }
});
