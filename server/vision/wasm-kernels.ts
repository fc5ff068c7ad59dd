/**
 * Gradient kernels the wasm backend lacks (Conv2DBackpropFilter) or runs slowly
 * (Conv2DBackpropInput: a plain loop, about 5x slower than the same work as a forward conv; Tile),
 * built from forward ops it runs fast, so CNNs train on wasm (about 140x faster than the pure-JS
 * cpu backend on this machine).
 */
import * as tf from '@tensorflow/tfjs';

interface Conv2DBackpropInputAttrs {
  strides: [number, number] | number;
  pad: 'valid' | 'same' | number;
  dataFormat: 'NHWC' | 'NCHW';
  dimRoundingMode?: 'floor' | 'round' | 'ceil';
  inputShape: [number, number, number, number];
}

interface Conv2DBackpropFilterAttrs {
  strides: [number, number] | number;
  pad: 'valid' | 'same' | number;
  dataFormat: 'NHWC' | 'NCHW';
  dimRoundingMode?: 'floor' | 'round' | 'ceil';
  filterShape: [number, number, number, number];
}

function pair(value: [number, number] | number): [number, number] {
  return typeof value === 'number' ? [value, value] : value;
}

/**
 * Padding (top, bottom, left, right) the forward conv applied, in pixels. Matches TF's 'same'
 * rule: total = max((out - 1) * stride + k - in, 0), the extra pixel going to the bottom/right.
 */
export function forwardPadding(
  inH: number,
  inW: number,
  kH: number,
  kW: number,
  strideH: number,
  strideW: number,
  pad: 'valid' | 'same' | number,
): { top: number; bottom: number; left: number; right: number; outH: number; outW: number } {
  if (pad === 'valid') {
    return {
      top: 0,
      bottom: 0,
      left: 0,
      right: 0,
      outH: Math.floor((inH - kH) / strideH) + 1,
      outW: Math.floor((inW - kW) / strideW) + 1,
    };
  }
  if (typeof pad === 'number') {
    return {
      top: pad,
      bottom: pad,
      left: pad,
      right: pad,
      outH: Math.floor((inH + 2 * pad - kH) / strideH) + 1,
      outW: Math.floor((inW + 2 * pad - kW) / strideW) + 1,
    };
  }
  const outH = Math.ceil(inH / strideH);
  const outW = Math.ceil(inW / strideW);
  const padH = Math.max((outH - 1) * strideH + kH - inH, 0);
  const padW = Math.max((outW - 1) * strideW + kW - inW, 0);
  const top = Math.floor(padH / 2);
  const left = Math.floor(padW / 2);
  return { top, bottom: padH - top, left, right: padW - left, outH, outW };
}

/**
 * dL/dFilter of a 2-D convolution (NHWC, no dilation): a 'valid' conv of the padded input
 * (batch moved to channels) with the output gradient (batch as input channels), dilated by the
 * forward stride. Shapes: x [N,H,W,inC], dy [N,outH,outW,outC] → [kH,kW,inC,outC].
 */
export function conv2dBackpropFilterViaForward(
  x: tf.Tensor4D,
  dy: tf.Tensor4D,
  filterShape: [number, number, number, number],
  strides: [number, number] | number,
  pad: 'valid' | 'same' | number,
): tf.Tensor4D {
  return tf.tidy(() => {
    const [kH, kW] = filterShape;
    const [strideH, strideW] = pair(strides);
    const [, inH, inW] = x.shape;
    const padding = forwardPadding(inH, inW, kH, kW, strideH, strideW, pad);
    const padded = tf.pad(x, [
      [0, 0],
      [padding.top, padding.bottom],
      [padding.left, padding.right],
      [0, 0],
    ]);
    // [inC, H, W, N]: each input channel becomes one "image", the batch becomes its channels.
    const xT = tf.transpose(padded, [3, 1, 2, 0]) as tf.Tensor4D;
    // [outH, outW, N, outC]: the output gradient acts as the filter.
    const dyT = tf.transpose(dy, [1, 2, 0, 3]) as tf.Tensor4D;
    const full = tf.conv2d(xT, dyT, 1, 'valid', 'NHWC', [strideH, strideW]);
    // Stride leftovers can make the valid result larger than the kernel: keep the first kH x kW.
    const cropped = tf.slice(full, [0, 0, 0, 0], [full.shape[0], kH, kW, full.shape[3]]);
    // [inC, kH, kW, outC] → [kH, kW, inC, outC]
    return tf.transpose(cropped, [1, 2, 0, 3]) as tf.Tensor4D;
  });
}

/** Inserts stride-1 zeros between the rows and columns of `dy` ([N,h,w,C] → [N,(h-1)sH+1,(w-1)sW+1,C]). */
function dilate(dy: tf.Tensor4D, strideH: number, strideW: number): tf.Tensor4D {
  const [n, h, w, c] = dy.shape;
  let out: tf.Tensor4D = dy;
  if (strideW > 1) {
    // [N,h,w,1,C] next to zeros [N,h,w,sW-1,C] → [N,h,w*sW,C]
    const zeros = tf.zeros([n, h, w, strideW - 1, c]);
    out = tf.reshape(tf.concat([tf.reshape(out, [n, h, w, 1, c]), zeros], 3), [n, h, w * strideW, c]);
  }
  if (strideH > 1) {
    const width = out.shape[2];
    const zeros = tf.zeros([n, h, strideH - 1, width, c]);
    out = tf.reshape(tf.concat([tf.reshape(out, [n, h, 1, width, c]), zeros], 2), [n, h * strideH, width, c]);
  }
  return tf.slice(out, [0, 0, 0, 0], [n, (h - 1) * strideH + 1, (w - 1) * strideW + 1, c]);
}

/**
 * dL/dInput of a 2-D convolution (NHWC, no dilation): the output gradient, dilated by the
 * stride and padded, convolved ('valid', stride 1) with the filter turned 180 degrees and its
 * in/out channels swapped. Shapes: dy [N,outH,outW,outC], filter [kH,kW,inC,outC] → [N,H,W,inC].
 */
export function conv2dBackpropInputViaForward(
  dy: tf.Tensor4D,
  filter: tf.Tensor4D,
  inputShape: [number, number, number, number],
  strides: [number, number] | number,
  pad: 'valid' | 'same' | number,
): tf.Tensor4D {
  return tf.tidy(() => {
    const [kH, kW] = filter.shape;
    const [strideH, strideW] = pair(strides);
    const [n, inH, inW, inC] = inputShape;
    const padding = forwardPadding(inH, inW, kH, kW, strideH, strideW, pad);
    const dilated = dilate(dy, strideH, strideW);
    const [, dh, dw] = dilated.shape;
    // dx[j] = sum over k of dilated[j + padTop - (kH - 1) + k] * flipped[k]: pad so every j in
    // 0..inH-1 reads inside, cropping where the forward conv never reached (negative padding).
    const before = [kH - 1 - padding.top, kW - 1 - padding.left];
    const after = [inH + padding.top - dh, inW + padding.left - dw];
    let padded = tf.pad(dilated, [
      [0, 0],
      [Math.max(0, before[0]), Math.max(0, after[0])],
      [Math.max(0, before[1]), Math.max(0, after[1])],
      [0, 0],
    ]);
    const cropTop = Math.max(0, -before[0]);
    const cropLeft = Math.max(0, -before[1]);
    padded = tf.slice(padded, [0, cropTop, cropLeft, 0], [n, inH + kH - 1, inW + kW - 1, padded.shape[3]]);
    const flipped = tf.transpose(tf.reverse(filter, [0, 1]), [0, 1, 3, 2]) as tf.Tensor4D;
    const dx = tf.conv2d(padded, flipped, 1, 'valid');
    if (dx.shape[3] !== inC) throw new Error('Conv2DBackpropInput: channel mismatch');
    return dx;
  });
}

let registered = false;

/** Swaps the wasm backend's kernel `name` for `make(original)`; nothing when the backend lacks it. */
function replaceKernel(name: string, make: (original: tf.KernelFunc) => tf.KernelFunc): void {
  const original = tf.getKernel(name, 'wasm');
  if (!original) return;
  tf.unregisterKernel(name, 'wasm');
  tf.registerKernel({ ...original, kernelFunc: make(original.kernelFunc as tf.KernelFunc) });
}

/** Registers the training kernels above on the wasm backend (idempotent). */
export function registerWasmTrainingKernels(): void {
  if (registered) return;
  registered = true;
  // Replace the backend's own slow loop with forward convs (XNNPACK).
  replaceKernel('Conv2DBackpropInput', (original) => ({ inputs, attrs }) => {
    const { dy, filter } = inputs as { dy: tf.Tensor4D; filter: tf.Tensor4D };
    const a = attrs as unknown as Conv2DBackpropInputAttrs;
    if (a.dataFormat === 'NCHW') return original({ inputs, attrs } as Parameters<tf.KernelFunc>[0]);
    return conv2dBackpropInputViaForward(dy, filter, a.inputShape, a.strides, a.pad) as unknown as tf.TensorInfo;
  });
  // Tile of a tensor whose tiled axes have size 1 (BatchNorm's gradient broadcasts per-channel
  // values over the batch and image) is a broadcasting multiply by ones, which runs several
  // times faster than the backend's Tile loop. Anything else goes to the original kernel.
  replaceKernel('Tile', (original) => (args) => {
    const x = args.inputs.x as tf.Tensor;
    const reps = (args.attrs as unknown as { reps: number[] }).reps;
    const broadcastOnly = reps.length === x.rank && reps.every((r, axis) => r === 1 || x.shape[axis] === 1);
    if (!broadcastOnly || x.dtype !== 'float32') return original(args);
    const shape = x.shape.map((size, axis) => size * reps[axis]);
    return tf.tidy(() => tf.mul(x, tf.ones(shape))) as unknown as tf.TensorInfo;
  });
  if (tf.getKernel('Conv2DBackpropFilter', 'wasm')) return;
  tf.registerKernel({
    kernelName: 'Conv2DBackpropFilter',
    backendName: 'wasm',
    kernelFunc: ({ inputs, attrs }) => {
      const { x, dy } = inputs as { x: tf.Tensor4D; dy: tf.Tensor4D };
      const a = attrs as unknown as Conv2DBackpropFilterAttrs;
      if (a.dataFormat === 'NCHW') throw new Error('Conv2DBackpropFilter on wasm: NCHW is not supported');
      const result = conv2dBackpropFilterViaForward(x, dy, a.filterShape, a.strides, a.pad);
      // The kernel must hand back TensorInfo; keep the data alive past the tidy by returning it.
      return result as unknown as tf.TensorInfo;
    },
  });
}
