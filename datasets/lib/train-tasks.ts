/**
 * What `npm run train` can train: the whole-card identity model and the index-corner model.
 * A task owns its model, data pool, batches, loss and validation numbers; the training loop in
 * datasets/cli/train.ts (schedule, checkpoints, history, plots) is shared.
 */
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { RANKS, SUITS } from '../../server/game/cards';
import { LOCATOR_ALIGN, LOCATOR_CHANNELS, LOCATOR_OUTPUTS, LOCATOR_STRIDE } from '../../server/vision/locator';
import { CROP_HEIGHT, CROP_WIDTH, INDEX_HEIGHT, INDEX_RANK_CLASSES, INDEX_SUIT_CLASSES, INDEX_WIDTH, INDEX_REGION, classNames } from '../../server/vision/classes';
import { BACK_EMBED_SIZE } from '../../server/vision/classes';
import { readBackLooks } from '../../server/vision/identify';
import { BACK_TRAIN_SEEDS, BACK_VALID_SEEDS, buildBackEmbedModel, contrastiveLoss, designCrops, enrolmentAccuracy, generatedDesigns, designView, VIEWS_PER_DESIGN } from './back-embed';
import { buildIdentityModel } from './identity-model';
import { buildIndexModel } from './index-model';
import { classIndexOf, labelBatch, makeBatch, trainingBackDesigns, trainingPool } from './batches';
import { indexLabels, indexTrainingPool, makeIndexBatch, NO_INDEX_GROUPS } from './index-batches';
import { encodeLocatorTargets, loadLocatorFrames, sampleWindow } from './locator-data';
import { buildLocatorModel, locatorLoss } from './locator-model';
import { scoreLocatorOnFrames } from './locator-score';
import { makeRng, type Rng } from './rng';
import { sourceView, type SourceSet } from './sources';
import { cacheDir, REPO_ROOT } from './shared-data';

/** The two numbers every task reports per epoch (the first picks the model kept). */
export interface TaskScores {
  /** Classifiers: cards53 valid, the card named right (code), plain crops. Locator: F1 on held-out-art frames. */
  validAcc: number;
  /** Classifiers: the held-out art deck under training-style augmentation. Locator: recall there. */
  heldoutDeckAcc: number;
}

/** Where a task's best model goes, and its epoch checkpoint / history / curves files (no data needed). */
export interface TaskFiles {
  outDir: string;
  checkpointDir: string;
  historyFile: string;
  curvesFile: string;
}

/**
 * The files of task `name`. With `out` (a run whose best model goes elsewhere, e.g. a fine-tune
 * being tried), its history and curves go there too, so the committed model's stay as they are.
 */
export function taskFiles(name: TrainTask['name'], out?: string, live = false): TaskFiles {
  const files = live ? liveTaskFiles(name) : defaultTaskFiles(name);
  return out ? { ...files, outDir: out, historyFile: path.join(out, 'history.json'), curvesFile: path.join(out, 'curves.png') } : files;
}

/** A model's files: its folder under models/, its checkpoint folder, and its history and curves (named by `stem`). */
function modelFiles(model: string, checkpoint: string, stem = model): TaskFiles {
  return {
    outDir: path.join(REPO_ROOT, 'models', model),
    checkpointDir: path.join(cacheDir(), checkpoint),
    historyFile: path.join(REPO_ROOT, 'models', `${stem}-history.json`),
    curvesFile: path.join(REPO_ROOT, 'models', `${stem}-curves.png`),
  };
}

/** The live-size variant of a classifier (`--live`): its own model folder and checkpoints. */
function liveTaskFiles(name: TrainTask['name']): TaskFiles {
  if (name === 'locator' || name === 'back') throw new Error(`the ${name} model has no live-size variant`);
  return name === 'identity' ? modelFiles('card-identity-live', 'checkpoint-live') : modelFiles('card-index-live', 'checkpoint-index-live');
}

function defaultTaskFiles(name: TrainTask['name']): TaskFiles {
  switch (name) {
    case 'identity':
      return modelFiles('card-identity', 'checkpoint', 'training');
    case 'index':
      return modelFiles('card-index', 'checkpoint-index');
    case 'locator':
      return modelFiles('card-locator', 'checkpoint-locator');
    case 'back':
      return modelFiles('back-looks', 'checkpoint-back');
  }
}

export interface TrainTask extends TaskFiles {
  name: 'identity' | 'index' | 'locator' | 'back';
  /** The live-size variant of a classifier (see livePool). */
  live: boolean;
  /** What the two TaskScores mean for this task, for logs and curves. */
  scoreLabels: [string, string];
  /** Keras metrics reported per step ('accuracy' for the classifiers; none for the locator). */
  metrics: string[];
  /** Must match between a checkpoint and the data to resume. */
  signature: string[];
  pool: number[];
  build(): tf.LayersModel;
  /** The model whose outputs the loss sees (the identity model's embedding output is not trained directly). */
  trainable(model: tf.LayersModel): tf.LayersModel;
  loss: string | string[] | ((yTrue: tf.Tensor, yPred: tf.Tensor) => tf.Scalar);
  /** A training batch of `indices`, augmented at `strength` (1 = the full augmentation; the locator's windows ignore it). */
  batch(indices: readonly number[], rng: Rng, strength?: number): { xs: tf.Tensor; ys: tf.Tensor | tf.Tensor[] };
  evaluate(model: tf.LayersModel): Promise<TaskScores>;
  metadata: Record<string, unknown>;
}

const CLASSIFIER_SCORES: [string, string] = ['cards53 valid top-1', 'held-out deck top-1'];
const LOCATOR_SCORES: [string, string] = ['held-out art frames F1', 'held-out art frames recall'];
const BACK_SCORES: [string, string] = ['100 new designs', '6 held-out designs'];

/** Score labels and step metrics of each task, known without its data (for --plot-only). */
export const TASK_SCORES: Record<TrainTask['name'], Pick<TrainTask, 'scoreLabels' | 'metrics'>> = {
  identity: { scoreLabels: CLASSIFIER_SCORES, metrics: ['accuracy'] },
  index: { scoreLabels: CLASSIFIER_SCORES, metrics: ['accuracy'] },
  locator: { scoreLabels: LOCATOR_SCORES, metrics: [] },
  back: { scoreLabels: BACK_SCORES, metrics: [] },
};

function validAndHeldout(set: SourceSet): { validIdx: number[]; heldoutIdx: number[] } {
  return {
    validIdx: set.entries.flatMap((e, i) => (e.group === 'cards53' && e.split === 'valid' ? [i] : [])),
    heldoutIdx: set.entries.flatMap((e, i) => (e.group.startsWith('art:') && e.split === 'heldout' ? [i] : [])),
  };
}

/** The arg-max class of every output of `model` for a batch `x` of `shape`. Frees its tensors. */
export async function argMaxes(model: tf.LayersModel, x: Float32Array, shape: [number, number, number, number]): Promise<Int32Array[]> {
  const tops = tf.tidy(() => {
    const outputs = model.predict(tf.tensor4d(x, shape));
    return (Array.isArray(outputs) ? outputs : [outputs]).map((output) => output.argMax(-1));
  });
  try {
    return (await Promise.all(tops.map((t) => t.data()))) as Int32Array[];
  } finally {
    tf.dispose(tops);
  }
}

/** How a task turns a chunk of entries into model input, and whether an entry was answered right. */
interface Judge {
  input(chunk: number[], rng: Rng, strength: number): { x: Float32Array; shape: [number, number, number, number] };
  /** `tops` holds the arg-max of each model output for the chunk; `k` is the entry's place in it. */
  right(index: number, tops: Int32Array[], k: number): boolean;
}

/** Top-1 share of `indices` answered right, inputs made with `strength` and a fixed seed. */
async function accuracy(model: tf.LayersModel, judge: Judge, indices: number[], strength: number, seed: number): Promise<number> {
  if (indices.length === 0) return NaN;
  const rng = makeRng(seed);
  let right = 0;
  for (let start = 0; start < indices.length; start += 64) {
    const chunk = indices.slice(start, start + 64);
    const { x, shape } = judge.input(chunk, rng, strength);
    const tops = await argMaxes(model, x, shape);
    chunk.forEach((index, k) => {
      if (judge.right(index, tops, k)) right++;
    });
  }
  return right / indices.length;
}

/** The per-epoch scores: cards53 valid plain, the held-out deck four times under augmentation. */
async function taskScores(model: tf.LayersModel, judge: Judge, validIdx: number[], heldoutIdx: number[]): Promise<TaskScores> {
  return {
    validAcc: await accuracy(model, judge, validIdx, 0, 1),
    heldoutDeckAcc: await accuracy(model, judge, heldoutIdx.flatMap((i) => [i, i, i, i]), 0.5, 2),
  };
}

/** The whole-card identity model: 52 faces, reject, and one class per training back design (`live`: its live-size variant). */
export function identityTask(set: SourceSet, live = false): TrainTask {
  const names = classNames(trainingBackDesigns(set));
  const { validIdx, heldoutIdx } = validAndHeldout(set);
  const judge: Judge = {
    input: (chunk, rng, strength) => ({ x: makeBatch(set, chunk, rng, strength), shape: [chunk.length, CROP_HEIGHT, CROP_WIDTH, 3] }),
    right: (index, [classes], k) => classes[k] === classIndexOf(set.entries[index].label, names),
  };
  return {
    name: 'identity',
    live,
    ...taskFiles('identity', undefined, live),
    ...TASK_SCORES.identity,
    signature: live ? [...names, 'live'] : names,
    pool: trainingPool(set),
    build: () => buildIdentityModel(names.length, live),
    trainable: (model) => tf.model({ inputs: model.inputs, outputs: model.outputs[0] }),
    loss: 'categoricalCrossentropy',
    batch(indices, rng, strength = 1) {
      const x = makeBatch(set, indices, rng, strength);
      const classes = indices.map((i) => classIndexOf(set.entries[i].label, names));
      return { xs: tf.tensor4d(x, [indices.length, CROP_HEIGHT, CROP_WIDTH, 3]), ys: labelBatch(classes, names.length, 0.05) };
    },
    evaluate: (model) => taskScores(model, judge, validIdx, heldoutIdx),
    metadata: {
      format: 'nerts-card-identity/1',
      classNames: names,
      cropWidth: CROP_WIDTH,
      cropHeight: CROP_HEIGHT,
      input: 'RGB float 0..1, upright card crop, [N, cropHeight, cropWidth, 3]',
      outputs: ['probs', 'embedding'],
      ...(live ? { live: true } : {}),
    },
  };
}

/** The index-corner model: rank and suit heads over the card's corner (`live`: its live-size variant). */
export function indexTask(set: SourceSet, live = false, stripShare = 0): TrainTask {
  const { validIdx, heldoutIdx } = validAndHeldout(set);
  const faces = (indices: number[]) => indices.filter((i) => !NO_INDEX_GROUPS.includes(set.entries[i].group));
  const judge: Judge = {
    input: (chunk, rng, strength) => ({ x: makeIndexBatch(set, chunk, rng, strength, { interiorShare: 0 }).x, shape: [chunk.length, INDEX_HEIGHT, INDEX_WIDTH, 3] }),
    right: (index, [ranks, suits], k) => {
      const truth = indexLabels(set.entries[index].label);
      return ranks[k] === truth.rank && suits[k] === truth.suit;
    },
  };
  return {
    name: 'index',
    live,
    ...taskFiles('index', undefined, live),
    ...TASK_SCORES.index,
    signature: [`rank:${INDEX_RANK_CLASSES}`, `suit:${INDEX_SUIT_CLASSES}`, `${INDEX_WIDTH}x${INDEX_HEIGHT}`, ...(live ? ['live'] : [])],
    pool: indexTrainingPool(set),
    build: () => buildIndexModel(live),
    trainable: (model) => model,
    loss: ['categoricalCrossentropy', 'categoricalCrossentropy'],
    batch(indices, rng, strength = 1) {
      const { x, ranks, suits } = makeIndexBatch(set, indices, rng, strength, { stripShare });
      return {
        xs: tf.tensor4d(x, [indices.length, INDEX_HEIGHT, INDEX_WIDTH, 3]),
        ys: [labelBatch(ranks, INDEX_RANK_CLASSES, 0.05), labelBatch(suits, INDEX_SUIT_CLASSES, 0.05)],
      };
    },
    evaluate: (model) => taskScores(model, judge, faces(validIdx), faces(heldoutIdx)),
    metadata: {
      format: 'nerts-card-index/1',
      rankClasses: [...RANKS, 'none'],
      suitClasses: [...SUITS, 'none'],
      cropWidth: INDEX_WIDTH,
      cropHeight: INDEX_HEIGHT,
      region: INDEX_REGION,
      input: 'RGB float 0..1, the upright card corner INDEX_REGION, [N, cropHeight, cropWidth, 3]',
      outputs: ['rank', 'suit'],
      ...(live ? { live: true } : {}),
    },
  };
}

/** Window side the locator trains on, pixels. */
const LOCATOR_WINDOW = 192;

/**
 * The card locator: centre heat map and card geometry over rendered table frames (training
 * styles), scored on whole frames of held-out deck art. Needs the frame cache built by
 * `npm run dataset -- --locator`.
 */
export async function locatorTask(): Promise<TrainTask> {
  const train = await loadLocatorFrames('train');
  const valid = await loadLocatorFrames('valid');
  if (!train || !valid) throw new Error('no locator frames cached: run `npm run dataset -- --locator` first');
  const grid = LOCATOR_WINDOW / LOCATOR_STRIDE;
  // Every window is a fresh random crop, so each frame can serve several times per epoch.
  const pool = Array.from({ length: train.count * 4 }, (_, i) => i % train.count);
  return {
    name: 'locator',
    live: false,
    ...taskFiles('locator'),
    ...TASK_SCORES.locator,
    signature: [...LOCATOR_CHANNELS, `stride:${LOCATOR_STRIDE}`],
    pool,
    build: buildLocatorModel,
    trainable: (model) => model,
    loss: locatorLoss,
    batch(indices, rng) {
      const x = new Float32Array(indices.length * LOCATOR_WINDOW * LOCATOR_WINDOW * 3);
      const y = new Float32Array(indices.length * grid * grid * LOCATOR_CHANNELS.length);
      indices.forEach((frame, k) => {
        const cards = sampleWindow(train, frame, LOCATOR_WINDOW, rng, x, k * LOCATOR_WINDOW * LOCATOR_WINDOW * 3);
        y.set(encodeLocatorTargets(cards, LOCATOR_WINDOW), k * grid * grid * LOCATOR_CHANNELS.length);
      });
      return {
        xs: tf.tensor4d(x, [indices.length, LOCATOR_WINDOW, LOCATOR_WINDOW, 3]),
        ys: tf.tensor4d(y, [indices.length, grid, grid, LOCATOR_CHANNELS.length]),
      };
    },
    async evaluate(model) {
      const { recall, precision } = await scoreLocatorOnFrames(model, valid);
      return { validAcc: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0, heldoutDeckAcc: recall };
    },
    metadata: {
      format: 'nerts-card-locator/1',
      channels: LOCATOR_CHANNELS.slice(0, LOCATOR_OUTPUTS),
      stride: LOCATOR_STRIDE,
      align: LOCATOR_ALIGN,
      input: 'RGB float 0..1, [1, H, W, 3] with H and W multiples of align',
    },
  };
}

/**
 * The back-look model (datasets/lib/back-embed.ts): generated back designs plus the training
 * split's art and generated backs, each batch VIEWS_PER_DESIGN augmented views of a few designs,
 * trained with a contrastive loss. Scored by enrolment as the recogniser does it: 100 unseen
 * generated designs (picks the epoch kept) and the six held-out designs of `npm run eval -- --suite`.
 */
export async function backTask(set: SourceSet): Promise<TrainTask> {
  const generated = await generatedDesigns(BACK_TRAIN_SEEDS);
  const valid = await generatedDesigns(BACK_VALID_SEEDS);
  const backsOf = (split: 'train' | 'heldout') => {
    const byDesign = new Map<string, number>();
    set.entries.forEach((e, i) => {
      if (e.group === 'back' && e.split === split && !byDesign.has(e.label)) byDesign.set(e.label, i);
    });
    return [...byDesign.values()].map((i) => sourceView(set, i));
  };
  const designs = [...Array.from({ length: generated.count }, (_, k) => designView(generated, k)), ...backsOf('train')];
  const heldOut = backsOf('heldout');
  const validViews = Array.from({ length: valid.count }, (_, k) => designView(valid, k));
  const embed = (model: tf.LayersModel) => (crops: Float32Array, count: number) => readBackLooks(model, crops, count);
  return {
    name: 'back',
    live: false,
    ...taskFiles('back'),
    ...TASK_SCORES.back,
    signature: [`designs:${designs.length}`, `embedding:${BACK_EMBED_SIZE}`, `views:${VIEWS_PER_DESIGN}`],
    // Every design four times an epoch pool; a batch takes its first indices as its designs.
    pool: Array.from({ length: designs.length * 4 }, (_, i) => i % designs.length),
    build: buildBackEmbedModel,
    trainable: (model) => model,
    loss: contrastiveLoss,
    batch(indices, rng, strength = 1) {
      const picked = [...new Set(indices)].slice(0, Math.max(2, Math.floor(indices.length / VIEWS_PER_DESIGN)));
      const views = picked.flatMap((d) => Array<Uint8Array>(VIEWS_PER_DESIGN).fill(designs[d]));
      const labels = new Float32Array(views.length * BACK_EMBED_SIZE);
      picked.forEach((d, k) => {
        for (let v = 0; v < VIEWS_PER_DESIGN; v++) labels[(k * VIEWS_PER_DESIGN + v) * BACK_EMBED_SIZE] = d;
      });
      return {
        xs: tf.tensor4d(designCrops(views, rng, strength), [views.length, CROP_HEIGHT, CROP_WIDTH, 3]),
        ys: tf.tensor2d(labels, [views.length, BACK_EMBED_SIZE]),
      };
    },
    async evaluate(model) {
      return {
        validAcc: await enrolmentAccuracy(validViews, embed(model), makeRng(11), { testViews: 10 }),
        heldoutDeckAcc: await enrolmentAccuracy(heldOut, embed(model), makeRng(7), { testViews: 50 }),
      };
    },
    metadata: {
      format: 'nerts-back-looks/1',
      cropWidth: CROP_WIDTH,
      cropHeight: CROP_HEIGHT,
      embeddingSize: BACK_EMBED_SIZE,
      input: 'RGB float 0..1, upright whole-card crop, [N, cropHeight, cropWidth, 3]',
      outputs: ['embedding (L2-normalise before comparing)'],
    },
  };
}
