/**
 * Starts a live-size model (see livePool in identity-model.ts) from the full-size model it
 * shrinks, so its fine-tune begins from what the full model learned rather than from noise.
 * Convolution kernels do not depend on the map size, so every layer whose weights have the same
 * shapes is copied by name. The index model's `features` layer reads a flattened map; in the live
 * model that map is half as high and wide (3x2 cells, not 6x4), so each of its cells gets the sum
 * of the rows of the four full-size cells it covers: where the four cells hold what the one cell
 * holds, the layer's output is unchanged.
 */
import * as tf from '@tensorflow/tfjs';

/** What happened to each layer with weights: copied as is, pooled (2x2 cells summed), or left as initialised. */
export interface TransferReport {
  copied: string[];
  pooled: string[];
  fresh: string[];
}

/** The [height, width, channels] a model's Flatten layer reads, or null when it has none. */
function flattenInput(model: tf.LayersModel): [number, number, number] | null {
  const flatten = model.layers.find((layer) => layer.getClassName() === 'Flatten');
  if (!flatten) return null;
  const shape = (flatten.input as tf.SymbolicTensor).shape;
  return shape.length === 4 ? [shape[1]!, shape[2]!, shape[3]!] : null;
}

/**
 * Rows of a dense kernel over a flattened [2h, 2w, c] map, pooled to one over [h, w, c]: row
 * (i, j, k) of the result is the sum of rows (2i + a, 2j + b, k), a and b in {0, 1}. Row-major
 * (channels last), as tf.layers.flatten orders them. Pure.
 */
export function poolDenseRows(kernel: Float32Array, units: number, [h, w, c]: [number, number, number]): Float32Array {
  if (kernel.length !== 4 * h * w * c * units) throw new Error(`a kernel of ${kernel.length} values is not one over [${2 * h}, ${2 * w}, ${c}] x ${units}`);
  const out = new Float32Array(h * w * c * units);
  for (let i = 0; i < h; i++)
    for (let j = 0; j < w; j++)
      for (let a = 0; a < 2; a++)
        for (let b = 0; b < 2; b++)
          for (let k = 0; k < c; k++) {
            const src = (((2 * i + a) * 2 * w + (2 * j + b)) * c + k) * units;
            const dst = ((i * w + j) * c + k) * units;
            for (let u = 0; u < units; u++) out[dst + u] += kernel[src + u];
          }
  return out;
}

const sameShape = (a: number[], b: number[]) => a.length === b.length && a.every((n, i) => n === b[i]);

/** Copies `from`'s weights into `to` layer by layer (by name), pooling a flattened dense input where the map halved. */
export function transferWeights(from: tf.LayersModel, to: tf.LayersModel): TransferReport {
  const report: TransferReport = { copied: [], pooled: [], fresh: [] };
  const fromFlat = flattenInput(from);
  const toFlat = flattenInput(to);
  for (const layer of to.layers) {
    const target = layer.getWeights();
    if (target.length === 0) continue;
    const source = from.layers.find((l) => l.name === layer.name)?.getWeights() ?? [];
    if (source.length === target.length && source.every((w, i) => sameShape(w.shape, target[i].shape))) {
      layer.setWeights(source);
      report.copied.push(layer.name);
      continue;
    }
    const pooledKernel =
      source.length === 2 && target.length === 2 && fromFlat && toFlat &&
      fromFlat[0] === 2 * toFlat[0] && fromFlat[1] === 2 * toFlat[1] && fromFlat[2] === toFlat[2] &&
      source[0].shape[0] === 4 * target[0].shape[0] && sameShape(source[1].shape, target[1].shape);
    if (pooledKernel) {
      const units = target[0].shape[1]!;
      const kernel = poolDenseRows(source[0].dataSync() as Float32Array, units, toFlat);
      const pooled = tf.tensor2d(kernel, target[0].shape as [number, number]);
      layer.setWeights([pooled, source[1]]);
      pooled.dispose();
      report.pooled.push(layer.name);
      continue;
    }
    report.fresh.push(layer.name);
  }
  return report;
}
