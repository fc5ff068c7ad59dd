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

type ConvCase = [stride: number, pad: 'same' | 'valid', kernel: number, height: number, width: number];

/**
 * The gradient of sum(conv2d(x, filter)^2) with respect to the filter or the input, on the cpu
 * backend and on wasm (with our kernels), as flat arrays with their shape.
 */
async function convGradients([stride, pad, k, h, w]: ConvCase, wrt: 'filter' | 'input') {
  const xData = Array.from({ length: 2 * h * w * 3 }, (_, i) => Math.sin(i * 0.37));
  const wData = Array.from({ length: k * k * 3 * 4 }, (_, i) => Math.cos(i * 0.51));
  const gradient = async (backend: string) => {
    await tf.setBackend(backend);
    const x = tf.tensor4d(xData, [2, h, w, 3]);
    const weights = tf.tensor4d(wData, [k, k, 3, 4]);
    const g =
      wrt === 'filter'
        ? tf.grad((filter: tf.Tensor) => tf.conv2d(x, filter as tf.Tensor4D, stride, pad).square().sum())(weights)
        : tf.grad((input: tf.Tensor) => tf.conv2d(input as tf.Tensor4D, weights, stride, pad).square().sum())(x);
    const data = Array.from(await g.data());
    tf.dispose([x, weights, g]);
    return { data, shape: g.shape };
  };
  const cpu = await gradient('cpu');
  const wasm = await gradient('wasm');
  const scale = Math.max(...cpu.data.map(Math.abs));
  return { cpu, wasm, relativeError: Math.max(...cpu.data.map((v, i) => Math.abs(v - wasm.data[i]))) / scale };
}

// Odd and even image sizes: 'same' with stride 2 pads (1, 1) on odd sizes but (0, 1) on even ones.
const CONV_CASES: ConvCase[] = [
  [1, 'same', 3, 9, 11],
  [2, 'same', 3, 9, 11],
  [2, 'same', 3, 8, 12],
  [1, 'valid', 3, 9, 11],
  [2, 'valid', 3, 9, 11],
  [2, 'same', 5, 9, 11],
  [2, 'same', 5, 10, 8],
];

describe('wasm convolution gradients (our kernels) match the cpu backend', () => {
  beforeAll(async () => {
    registerWasmTrainingKernels();
    await tf.setBackend('wasm');
    await tf.ready();
  });

  for (const testCase of CONV_CASES) {
    const [stride, pad, k, h, w] = testCase;
    const label = `stride ${stride}, ${pad}, ${k}x${k}, ${h}x${w}`;
    it(`Conv2DBackpropFilter (${label})`, async () => {
      const { wasm, relativeError } = await convGradients(testCase, 'filter');
      expect(wasm.shape).toEqual([k, k, 3, 4]);
      expect(relativeError).toBeLessThan(1e-4);
    });
    it(`Conv2DBackpropInput (${label})`, async () => {
      const { wasm, relativeError } = await convGradients(testCase, 'input');
      expect(wasm.shape).toEqual([2, h, w, 3]);
      expect(relativeError).toBeLessThan(1e-4);
    });
  }
});

describe('wasm Tile (broadcast version)', () => {
  beforeAll(async () => {
    registerWasmTrainingKernels();
    await tf.setBackend('wasm');
    await tf.ready();
  });

  it('tiles size-1 axes like the cpu backend, and still tiles other axes', async () => {
    const tiled = async (backend: string, shape: number[], reps: number[]) => {
      await tf.setBackend(backend);
      const x = tf.tensor(Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => i * 0.5 - 1), shape);
      const y = tf.tile(x, reps);
      const result = { shape: y.shape, data: Array.from(await y.data()) };
      tf.dispose([x, y]);
      return result;
    };
    for (const [shape, reps] of [[[1, 1, 1, 4], [2, 3, 5, 1]], [[2, 3], [2, 2]], [[1, 3], [4, 1]]] as Array<[number[], number[]]>) {
      expect(await tiled('wasm', shape, reps)).toEqual(await tiled('cpu', shape, reps));
    }
  });
});
