/**
 * `npm run train -- [--epochs 14] [--steps 100] [--batch 64] [--lr 0.002] [--fresh]`
 * Trains the card identity CNN on wasm from cached sources (cards53 train, card-art decks but the
 * held-out one, art + generated backs, reject textures) with heavy augmentation. Checkpoints every
 * epoch to .cache/vision/checkpoint and resumes from there unless --fresh; writes the best model
 * (by cards53 valid top-1) to models/card-identity and the history to models/training-history.json.
 */
import { promises as fs, existsSync } from 'node:fs';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import cliProgress from 'cli-progress';
import { initBackend } from '../../server/vision/backend';
import { CROP_HEIGHT, CROP_WIDTH, classNames } from '../../server/vision/classes';
import { loadLayersModelFromDir, readModelMetadata, saveLayersModelToDir } from '../../server/vision/model-io';
import { buildIdentityModel } from '../lib/identity-model';
import { classIndexOf, labelBatch, makeBatch, trainingBackDesigns, trainingPool } from '../lib/batches';
import { curvesSvg, writeSvgAsPng } from '../lib/plots';
import { makeRng, shuffle } from '../lib/rng';
import { loadSources, type SourceSet } from '../lib/sources';
import { cacheDir, REPO_ROOT } from '../lib/shared-data';

interface TrainArgs {
  epochs: number;
  steps: number;
  batch: number;
  lr: number;
  fresh: boolean;
  plotOnly: boolean;
  seed: number;
  out: string;
}

/** One epoch's metrics, as written to the history file. */
export interface EpochRecord {
  epoch: number;
  loss: number;
  trainAcc: number;
  validAcc: number;
  heldoutDeckAcc: number;
  lr: number;
  seconds: number;
}

function parseArgs(argv: string[]): TrainArgs {
  const args: TrainArgs = { epochs: 14, steps: 100, batch: 64, lr: 0.002, fresh: false, plotOnly: false, seed: 7, out: path.join(REPO_ROOT, 'models', 'card-identity') };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i];
    const value = argv[i + 1];
    const num = () => {
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`${key} needs a positive number, got ${value}`);
      i++;
      return n;
    };
    if (key === '--epochs') args.epochs = num();
    else if (key === '--steps') args.steps = num();
    else if (key === '--batch') args.batch = num();
    else if (key === '--lr') args.lr = num();
    else if (key === '--seed') args.seed = num();
    else if (key === '--fresh') args.fresh = true;
    else if (key === '--plot-only') args.plotOnly = true;
    else if (key === '--out') {
      args.out = path.resolve(value);
      i++;
    } else if (key === '--help') {
      console.log('npm run train -- [--epochs 14] [--steps 100 per epoch] [--batch 64] [--lr 0.002] [--seed 7] [--fresh] [--out models/card-identity] [--plot-only]');
      process.exit(0);
    } else throw new Error(`unknown argument ${key} (try --help)`);
  }
  return args;
}

/** Top-1 accuracy of `model` on entries `indices` (plain crops, or lightly augmented). */
async function accuracy(model: tf.LayersModel, set: SourceSet, indices: number[], names: string[], strength: number, seed: number): Promise<number> {
  if (indices.length === 0) return NaN;
  const rng = makeRng(seed);
  let right = 0;
  for (let start = 0; start < indices.length; start += 64) {
    const chunk = indices.slice(start, start + 64);
    const x = makeBatch(set, chunk, rng, strength);
    const predicted = tf.tidy(() => {
      const input = tf.tensor4d(x, [chunk.length, CROP_HEIGHT, CROP_WIDTH, 3]);
      const [probs] = model.predict(input) as tf.Tensor[];
      return probs.argMax(-1);
    });
    const classes = await predicted.data();
    predicted.dispose();
    chunk.forEach((index, k) => {
      if (classes[k] === classIndexOf(set.entries[index].label, names)) right++;
    });
  }
  return right / indices.length;
}

/** Redraws models/training-curves.png from the history file. */
async function plotHistory(history: EpochRecord[]): Promise<void> {
  const svg = curvesSvg(
    {
      'train loss': history.map((h) => h.loss),
      'train top-1 (augmented)': history.map((h) => h.trainAcc),
      'cards53 valid top-1': history.map((h) => h.validAcc),
      'held-out deck top-1': history.map((h) => h.heldoutDeckAcc),
    },
    'card identity CNN: training curves',
  );
  await writeSvgAsPng(svg, path.join(REPO_ROOT, 'models', 'training-curves.png'));
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.plotOnly) {
    const history = JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'models', 'training-history.json'), 'utf8')) as EpochRecord[];
    await plotHistory(history);
    console.log(JSON.stringify({ plotted: history.length }));
    return;
  }
  const backend = await initBackend();
  if (backend === 'cpu') console.error('[train] warning: cpu backend is ~140x slower than wasm');
  const set = await loadSources();
  const backs = trainingBackDesigns(set);
  const names = classNames(backs);
  const pool = trainingPool(set);
  const validIdx = set.entries.flatMap((e, i) => (e.group === 'cards53' && e.split === 'valid' ? [i] : []));
  const heldoutIdx = set.entries.flatMap((e, i) => (e.group.startsWith('art:') && e.split === 'heldout' ? [i] : []));
  console.error(`[train] ${pool.length} pooled training samples, ${names.length} classes, valid ${validIdx.length}, held-out deck ${heldoutIdx.length}`);

  const ckptDir = path.join(cacheDir(), 'checkpoint');
  const statePath = path.join(ckptDir, 'state.json');
  let model: tf.LayersModel;
  let history: EpochRecord[] = [];
  let bestValid = -1;
  if (!args.fresh && existsSync(statePath)) {
    const state = JSON.parse(await fs.readFile(statePath, 'utf8')) as { history: EpochRecord[]; bestValid: number; names: string[] };
    if (JSON.stringify(state.names) !== JSON.stringify(names)) throw new Error('checkpoint classes differ from the data; rerun with --fresh');
    model = await loadLayersModelFromDir(path.join(ckptDir, 'model'));
    history = state.history;
    bestValid = state.bestValid;
    console.error(`[train] resuming after epoch ${history.length} (best valid ${bestValid.toFixed(4)}); optimizer moments restart`);
  } else {
    model = buildIdentityModel(names.length);
  }
  const trainModel = tf.model({ inputs: model.inputs, outputs: model.outputs[0] });
  const optimizer = tf.train.adam(args.lr);
  trainModel.compile({ optimizer, loss: 'categoricalCrossentropy', metrics: ['accuracy'] });

  const rng = makeRng(args.seed * 1000 + history.length);
  for (let epoch = history.length + 1; epoch <= args.epochs; epoch++) {
    // Cosine decay to lr/20, with one warm-up epoch.
    const progress = (epoch - 1) / Math.max(1, args.epochs - 1);
    const lr = epoch === 1 ? args.lr / 3 : args.lr * (0.05 + 0.95 * 0.5 * (1 + Math.cos(Math.PI * progress)));
    // Adam's learningRate is a plain field set at construction; tfjs gives no setter.
    (optimizer as unknown as { learningRate: number }).learningRate = lr;
    const started = Date.now();
    const bar = new cliProgress.SingleBar(
      { format: `epoch ${epoch}/${args.epochs} [{bar}] {value}/{total} loss {loss} acc {acc} eta {eta}s`, stream: process.stderr },
      cliProgress.Presets.shades_classic,
    );
    bar.start(args.steps, 0, { loss: '-', acc: '-' });
    let lossSum = 0;
    let accSum = 0;
    const order = shuffle(rng, pool.slice()).slice(0, args.steps * args.batch);
    for (let step = 0; step < args.steps; step++) {
      const indices = order.slice(step * args.batch, (step + 1) * args.batch);
      const x = makeBatch(set, indices, rng, 1);
      const classes = indices.map((i) => classIndexOf(set.entries[i].label, names));
      const xs = tf.tensor4d(x, [indices.length, CROP_HEIGHT, CROP_WIDTH, 3]);
      const ys = labelBatch(classes, names.length, 0.05);
      const [loss, acc] = (await trainModel.trainOnBatch(xs, ys)) as number[];
      xs.dispose();
      ys.dispose();
      lossSum += loss;
      accSum += acc;
      bar.update(step + 1, { loss: (lossSum / (step + 1)).toFixed(3), acc: (accSum / (step + 1)).toFixed(3) });
    }
    bar.stop();
    const validAcc = await accuracy(model, set, validIdx, names, 0, 1);
    const heldoutDeckAcc = await accuracy(model, set, heldoutIdx.flatMap((i) => [i, i, i, i]), names, 0.5, 2);
    const record: EpochRecord = {
      epoch,
      loss: lossSum / args.steps,
      trainAcc: accSum / args.steps,
      validAcc,
      heldoutDeckAcc,
      lr,
      seconds: (Date.now() - started) / 1000,
    };
    history.push(record);
    console.error(`[train] epoch ${epoch}: ${JSON.stringify(record)}`);
    const metadata = {
      format: 'nerts-card-identity/1',
      classNames: names,
      cropWidth: CROP_WIDTH,
      cropHeight: CROP_HEIGHT,
      input: 'RGB float 0..1, upright card crop, [N, cropHeight, cropWidth, 3]',
      outputs: ['probs', 'embedding'],
      epoch,
      validAcc,
      heldoutDeckAcc,
      backend,
    };
    await saveLayersModelToDir(model, path.join(ckptDir, 'model'), metadata);
    if (validAcc > bestValid) {
      bestValid = validAcc;
      await saveLayersModelToDir(model, args.out, metadata);
      console.error(`[train] new best cards53 valid ${validAcc.toFixed(4)} → ${args.out}`);
    }
    await fs.writeFile(statePath, JSON.stringify({ history, bestValid, names }));
    await fs.writeFile(path.join(REPO_ROOT, 'models', 'training-history.json'), JSON.stringify(history, null, 1));
    await plotHistory(history);
  }
  const meta = existsSync(path.join(args.out, 'model.json')) ? await readModelMetadata(args.out) : {};
  console.log(JSON.stringify({ epochs: history.length, bestValid, best: meta.epoch ?? null }));
}

main().catch((error: unknown) => {
  console.error(`[train] failed: ${(error as Error).message}`);
  process.exit(1);
});
