import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { forwardPadding, registerWasmTrainingKernels } from '../../server/vision/wasm-kernels';

describe('forwardPadding', () => {
  it('matches TF same padding (extra pixel bottom/right)', () => {
    expect(forwardPadding(9, 11, 3, 3, 2, 2, 'same')).toEqual({ top: 1, bottom: 1, left: 1, right: 1, outH: 5, outW: 6 });
    expect(forwardPadding(8, 8, 3, 3, 2, 2, 'same')).toEqual({ top: 0, bottom: 1, left: 0, right: 1, outH: 4, outW: 4 });
    expect(forwardPadding(8, 8, 3, 3, 1, 1, 'valid')).toMatchObject({ outH: 6, outW: 6 });
  });
});

describe('wasm Conv2DBackpropFilter', () => {
  beforeAll(async () => {
    registerWasmTrainingKernels();
    await tf.setBackend('wasm');
    await tf.ready();
  });

  const cases: Array<[number, 'same' | 'valid', number]> = [
    [1, 'same', 3],
    [2, 'same', 3],
    [1, 'valid', 3],
    [2, 'valid', 3],
    [2, 'same', 5],
  ];
  for (const [stride, pad, k] of cases) {
    it(`matches the cpu backend's filter gradient (stride ${stride}, ${pad}, ${k}x${k})`, async () => {
      const xData = Array.from({ length: 2 * 9 * 11 * 3 }, (_, i) => Math.sin(i * 0.37));
      const wData = Array.from({ length: k * k * 3 * 4 }, (_, i) => Math.cos(i * 0.51));
      const gradient = async (backend: string) => {
        await tf.setBackend(backend);
        const x = tf.tensor4d(xData, [2, 9, 11, 3]);
        const w = tf.tensor4d(wData, [k, k, 3, 4]);
        const g = tf.grad((filter: tf.Tensor) => tf.conv2d(x, filter as tf.Tensor4D, stride, pad).square().sum())(w);
        const data = Array.from(await g.data());
        tf.dispose([x, w, g]);
        return { data, shape: g.shape };
      };
      const cpu = await gradient('cpu');
      const wasm = await gradient('wasm');
      expect(wasm.shape).toEqual([k, k, 3, 4]);
      const scale = Math.max(...cpu.data.map(Math.abs));
      const maxDiff = Math.max(...cpu.data.map((v, i) => Math.abs(v - wasm.data[i])));
      expect(maxDiff / scale).toBeLessThan(1e-4);
    });
  }
});
