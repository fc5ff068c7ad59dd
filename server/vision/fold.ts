/**
 * Inference-time model folding: every `Conv2D → BatchNormalization (→ ReLU)` chain of a trained
 * layers model becomes one convolution with a bias and a fused ReLU, computing the same outputs.
 *
 * At inference a batch norm is a fixed per-channel scale and shift, so it can be baked into the
 * convolution before it: with s = γ / √(σ² + ε),
 *   W' = W · s   (per output channel)      b' = (b − μ) · s + β.
 * TF.js then runs the chain as one fused kernel (conv + bias + ReLU) instead of three passes
 * over the feature map: the batch norms were about a fifth of the recogniser's CNN time on wasm.
 *
 * Training keeps the unfolded model (its batch norms learn); only the recogniser's loaders fold.
 * Pure graph rewriting: every other layer is rebuilt from its own config with its own weights,
 * so the folded model shares nothing with the original and either can be disposed alone.
 */
import * as tf from '@tensorflow/tfjs';

type Layer = tf.layers.Layer;

/** What a layer consumes, as a list (a layer with one input gives a list of one). */
function inputsOf(layer: Layer): tf.SymbolicTensor[] {
  const input = layer.input as tf.SymbolicTensor | tf.SymbolicTensor[];
  return Array.isArray(input) ? input : [input];
}

/** A fresh, unconnected copy of `layer` from its config (same class, same settings and name). */
function rebuild(layer: Layer): Layer {
  const entry = tf.serialization.SerializationMap.getMap().classNameMap[layer.getClassName()];
  if (!entry) throw new Error(`cannot fold a model with a ${layer.getClassName()} layer (not registered)`);
  const [cls, fromConfig] = entry;
  return fromConfig(cls, layer.getConfig()) as unknown as Layer;
}

/** The layers that read each symbolic tensor, by tensor id. */
function consumers(model: tf.LayersModel): Map<number, Layer[]> {
  const readers = new Map<number, Layer[]>();
  for (const layer of model.layers) {
    if (layer.getClassName() === 'InputLayer') continue;
    for (const input of inputsOf(layer)) readers.set(input.id, [...(readers.get(input.id) ?? []), layer]);
  }
  return readers;
}

/** Whether a layer is a plain ReLU (no cap, no leak, no threshold), which a fused conv can run. */
function isPlainRelu(layer: Layer): boolean {
  if (layer.getClassName() === 'Activation') return (layer.getConfig() as { activation?: string }).activation === 'relu';
  if (layer.getClassName() !== 'ReLU') return false;
  const { maxValue } = layer.getConfig() as { maxValue?: number | null };
  return maxValue === null || maxValue === undefined;
}

/** A batch norm over the channel axis of an NHWC map, the only kind we fold. */
function foldableBatchNorm(layer: Layer | undefined): layer is Layer {
  if (!layer || layer.getClassName() !== 'BatchNormalization') return false;
  const { axis } = layer.getConfig() as { axis: number };
  return axis === -1 || axis === 3;
}

/**
 * The folded kernel and bias of `conv` followed by `bn`, as new tensors (the caller owns them).
 * Batch norm weights come in the order gamma (if `scale`), beta (if `center`), mean, variance.
 */
function foldedWeights(conv: Layer, bn: Layer): [tf.Tensor, tf.Tensor] {
  const { scale: hasGamma, center: hasBeta, epsilon } = bn.getConfig() as { scale: boolean; center: boolean; epsilon: number };
  const { useBias } = conv.getConfig() as { useBias: boolean };
  return tf.tidy(() => {
    const convWeights = conv.getWeights();
    const kernel = convWeights[0];
    const filters = kernel.shape[kernel.shape.length - 1];
    const bias = useBias ? convWeights[1] : tf.zeros([filters]);
    const bnWeights = [...bn.getWeights()];
    const gamma = hasGamma ? bnWeights.shift()! : tf.ones([filters]);
    const beta = hasBeta ? bnWeights.shift()! : tf.zeros([filters]);
    const [mean, variance] = bnWeights;
    const s = gamma.div(variance.add(epsilon).sqrt());
    return [kernel.mul(s), bias.sub(mean).mul(s).add(beta)];
  });
}

/** The one layer that reads `layer`'s output, if exactly one does. */
function soleReader(readers: Map<number, Layer[]>, layer: Layer): Layer | undefined {
  const list = readers.get((layer.output as tf.SymbolicTensor).id) ?? [];
  return list.length === 1 ? list[0] : undefined;
}

/** The batch norm that `layer` feeds and nothing else does, when `layer` is a Conv2D and that batch norm can be folded into it. */
function batchNormToFold(readers: Map<number, Layer[]>, layer: Layer): Layer | undefined {
  if (layer.getClassName() !== 'Conv2D') return undefined;
  const bn = soleReader(readers, layer);
  return foldableBatchNorm(bn) ? bn : undefined;
}

/** How many Conv2D → BatchNormalization chains `model` holds that foldBatchNorms would fold. */
export function foldableChains(model: tf.LayersModel): number {
  const readers = consumers(model);
  return model.layers.filter((layer) => batchNormToFold(readers, layer)).length;
}

/**
 * An inference copy of `model` with every Conv2D → BatchNormalization (→ ReLU) chain folded into
 * one Conv2D with bias and fused ReLU (see the header). Same inputs, outputs, output names and
 * results up to float rounding. A batch norm whose convolution feeds anything else, or one on
 * another axis, is kept as it is. The original model is left untouched.
 */
export function foldBatchNorms(model: tf.LayersModel): tf.LayersModel {
  const readers = consumers(model);
  const mapped = new Map<number, tf.SymbolicTensor>(); // original tensor id → folded model's tensor
  const absorbed = new Set<Layer>(); // batch norms and ReLUs folded into a convolution
  const pending: Array<{ layer: Layer; weights: tf.Tensor[]; owned: boolean }> = [];
  const inputs: tf.SymbolicTensor[] = [];
  const mapInputs = (layer: Layer) => {
    const list = inputsOf(layer).map((t) => {
      const found = mapped.get(t.id);
      if (!found) throw new Error(`cannot fold: ${layer.name} reads a tensor not yet built`);
      return found;
    });
    return list.length === 1 ? list[0] : list;
  };

  for (const layer of model.layers) {
    if (absorbed.has(layer)) continue;
    if (layer.getClassName() === 'InputLayer') {
      const output = layer.output as tf.SymbolicTensor;
      const input = tf.input({ shape: output.shape.slice(1) as number[], dtype: output.dtype, name: layer.name });
      mapped.set(output.id, input);
      inputs.push(input);
      continue;
    }
    const bn = batchNormToFold(readers, layer);
    if (bn) {
      const relu = soleReader(readers, bn);
      const fuseRelu = relu !== undefined && isPlainRelu(relu);
      const config = layer.getConfig() as tf.serialization.ConfigDict;
      const conv = tf.layers.conv2d({
        filters: config.filters as number,
        kernelSize: config.kernelSize as number[],
        strides: config.strides as number[],
        padding: config.padding as 'same' | 'valid',
        dataFormat: config.dataFormat as 'channelsLast',
        dilationRate: config.dilationRate as [number, number],
        useBias: true,
        activation: fuseRelu ? 'relu' : 'linear',
        name: layer.name,
      });
      const output = conv.apply(mapInputs(layer)) as tf.SymbolicTensor;
      mapped.set((layer.output as tf.SymbolicTensor).id, output); // nothing else reads it
      mapped.set((bn.output as tf.SymbolicTensor).id, output);
      absorbed.add(bn);
      if (fuseRelu) {
        mapped.set((relu.output as tf.SymbolicTensor).id, output);
        absorbed.add(relu);
      }
      pending.push({ layer: conv, weights: foldedWeights(layer, bn), owned: true });
      continue;
    }
    const copy = rebuild(layer);
    const output = copy.apply(mapInputs(layer)) as tf.SymbolicTensor | tf.SymbolicTensor[];
    const originals = layer.output as tf.SymbolicTensor | tf.SymbolicTensor[];
    const outs = Array.isArray(output) ? output : [output];
    (Array.isArray(originals) ? originals : [originals]).forEach((t, i) => mapped.set(t.id, outs[i]));
    pending.push({ layer: copy, weights: layer.getWeights(), owned: false });
  }

  const outputs = model.outputs.map((t) => {
    const found = mapped.get(t.id);
    if (!found) throw new Error(`cannot fold: output ${t.name} was not rebuilt`);
    return found;
  });
  const folded = tf.model({ inputs, outputs, name: model.name });
  for (const { layer, weights, owned } of pending) {
    if (weights.length > 0) layer.setWeights(weights);
    if (owned) tf.dispose(weights);
  }
  return folded;
}
