import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { buildIdentityModel } from '../../datasets/lib/identity-model';
import { buildIndexModel } from '../../datasets/lib/index-model';
import { poolDenseRows, transferWeights } from '../../datasets/lib/transfer';
import { CROP_HEIGHT, CROP_WIDTH, INDEX_HEIGHT, INDEX_WIDTH } from '../../server/vision/classes';

describe('poolDenseRows', () => {
  it('gives a dense layer over the half-size map the output of the full one where each 2x2 block of cells holds one value', () => {
    const [h, w, c, units] = [3, 2, 2, 3];
    const kernel = Float32Array.from({ length: 4 * h * w * c * units }, (_, i) => Math.sin(i * 1.7));
    const small = Float32Array.from({ length: h * w * c }, (_, i) => Math.cos(i * 0.9));
    // The full map: every cell (y, x) holds the small map's cell (y/2, x/2).
    const full = new Float32Array(4 * h * w * c);
    for (let y = 0; y < 2 * h; y++) for (let x = 0; x < 2 * w; x++) for (let k = 0; k < c; k++) full[(y * 2 * w + x) * c + k] = small[((y >> 1) * w + (x >> 1)) * c + k];
    const dense = (input: Float32Array, weights: Float32Array) => Array.from({ length: units }, (_, u) => input.reduce((sum, v, r) => sum + v * weights[r * units + u], 0));
    const pooled = poolDenseRows(kernel, units, [h, w, c]);
    dense(small, pooled).forEach((v, u) => expect(v).toBeCloseTo(dense(full, kernel)[u], 5));
  });
  it('refuses a kernel of the wrong size', () => {
    expect(() => poolDenseRows(new Float32Array(10), 3, [3, 2, 2])).toThrow(/not one over/);
  });
});

describe('transferWeights', () => {
  it('starts a live-size index model from the full one: convolutions copied, the flattened features pooled', () => {
    const full = buildIndexModel();
    const live = buildIndexModel(true);
    try {
      const report = transferWeights(full, live);
      expect(report.pooled).toEqual(['features']);
      expect(report.fresh).toEqual([]);
      expect(report.copied).toContain('c1_conv');
      expect(report.copied).toContain('rank');
      expect(Array.from(live.getLayer('c3_conv').getWeights()[0].dataSync())).toEqual(Array.from(full.getLayer('c3_conv').getWeights()[0].dataSync()));
      // Same input, a quarter of the cells: a plain colour reads about the same through both.
      const corner = tf.fill([1, INDEX_HEIGHT, INDEX_WIDTH, 3], 0.6);
      const [a, b] = [full.predict(corner) as tf.Tensor[], live.predict(corner) as tf.Tensor[]];
      expect(b[0].shape).toEqual(a[0].shape);
      tf.dispose([corner, ...a, ...b]);
    } finally {
      full.dispose();
      live.dispose();
    }
  });
  it('copies every layer of the identity model (global pooling: no layer depends on the map size)', () => {
    const full = buildIdentityModel(10);
    const live = buildIdentityModel(10, true);
    try {
      const report = transferWeights(full, live);
      expect(report.pooled).toEqual([]);
      expect(report.fresh).toEqual([]);
      const crop = tf.zeros([2, CROP_HEIGHT, CROP_WIDTH, 3]);
      const out = live.predict(crop) as tf.Tensor[];
      expect(out[0].shape).toEqual([2, 10]);
      tf.dispose([crop, ...out]);
    } finally {
      full.dispose();
      live.dispose();
    }
  });
});
