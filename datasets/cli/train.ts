/**
 * `npm run train -- [--model identity|index] [--epochs 14] [--steps 100] [--batch 64] [--lr 0.002] [--fresh]`
 * Trains a recogniser CNN on wasm from cached sources (cards53 train, card-art decks but the
 * held-out one, art + generated backs, reject textures, rendered scenes) with heavy augmentation:
 * the whole-card identity model (default) or the index-corner model. Checkpoints every epoch
 * (.cache/vision/checkpoint[-index]) and resumes from there unless --fresh; writes the best model
 * (by cards53 valid) to models/card-identity or models/card-index, with its history and curves
 * (with --out DIR: all three to DIR, as history.json and curves.png, so a trial run leaves the
 * committed files alone).
 * Every epoch's model is also kept under <checkpoint>/epochs/e<N> so any epoch can be evaluated.
 *
 * `--strength S` (0 < S ≤ 1, default 1) scales the training batches' augmentation, for a last,
 * gentler fine-tune.
 *
 * `--strip-share S` (index model; default 0) covers that share of the face corners as a cascade
 * covers the card under it (coverAsCascade): the card above from a cut across the corner, its own
 * index past its edge. Session 58's fine-tune: `--model index --init-from models/card-index
 * --fresh --lr 0.0005 --epochs 4 --steps 100 --strip-share 0.3 --out DIR`, then
 * `npm run average-models -- --from models/card-index --to DIR --alpha 0.3`.
 *
 * `--model back` trains the back-look model (datasets/lib/back-embed.ts) into models/back-looks:
 * generated back designs, a contrastive loss, scored by enrolling unseen designs.
 *
 * `--live` trains the live-size variant of the identity or index model (a 2x2 average first: a
 * quarter of the work, for cards a whole-table webcam sees at about 36x50 pixels) into
 * models/card-identity-live or models/card-index-live; a fresh run starts from the committed
 * full-size model's weights (`--init-from DIR`, or `none` for random weights).
 *
 * `--init-from DIR` on a fresh run of any model starts from a trained model's weights (layers
 * matched by name and shape) with a new schedule: the locator's session-44 fine-tune
 * (`--model locator --init-from models/card-locator --lr 0.001 --out DIR`).
 *
 * `--warm-restart` (when resuming) starts a new cosine schedule from --lr at the resumed epoch
 * and forgets the best score so far: a fine-tune on new data (e.g. more rendered crops) whose
 * best epoch by cards53 valid goes to --out. An interrupted fine-tune resumes without the flag.
 */
import { promises as fs, existsSync } from 'node:fs';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import cliProgress from 'cli-progress';
import { initBackend } from '../../server/vision/backend';
import { loadLayersModelFromDir, readModelMetadata, saveLayersModelToDir } from '../../server/vision/model-io';
import { curvesSvg, writeSvgAsPng } from '../lib/plots';
import { makeRng, shuffle } from '../lib/rng';
import { learningRate } from '../lib/schedule';
import { loadSources } from '../lib/sources';
import { backTask, identityTask, indexTask, locatorTask, TASK_SCORES, taskFiles, type TrainTask } from '../lib/train-tasks';
import { transferWeights } from '../lib/transfer';

interface TrainArgs {
  model: TrainTask['name'];
  epochs: number;
  steps: number;
  batch: number;
  lr: number;
  fresh: boolean;
  plotOnly: boolean;
  seed: number;
  out?: string;
  /** New cosine schedule from the resumed epoch, best score forgotten (fine-tuning). */
  warmRestart: boolean;
  /** Augmentation strength of the training batches (1: full; lower for a last, gentler fine-tune). */
  strength: number;
  /** The live-size variant of a classifier. */
  live: boolean;
  /** Index model: share of face corners covered as a cascade's strip is (coverAsCascade). */
  stripShare: number;
  /** A fresh live run starts from this full-size model (default the committed one; 'none': random). */
  initFrom?: string;
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
  const args: TrainArgs = { model: 'identity', epochs: 14, steps: 100, batch: 64, lr: 0.002, fresh: false, plotOnly: false, seed: 7, warmRestart: false, strength: 1, live: false, stripShare: 0 };
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
    else if (key === '--warm-restart') args.warmRestart = true;
    else if (key === '--strength') {
      args.strength = num();
      if (args.strength > 1) throw new Error(`--strength is at most 1, got ${args.strength}`);
    }
    else if (key === '--model') {
      if (value !== 'identity' && value !== 'index' && value !== 'locator' && value !== 'back') throw new Error(`--model is identity, index, locator or back, got ${value}`);
      args.model = value;
      i++;
    }
    else if (key === '--plot-only') args.plotOnly = true;
    else if (key === '--live') args.live = true;
    else if (key === '--strip-share') {
      args.stripShare = num();
      if (!(args.stripShare >= 0 && args.stripShare <= 1)) throw new Error(`--strip-share is a share in 0..1, got ${args.stripShare}`);
    }
    else if (key === '--init-from') {
      args.initFrom = value === 'none' ? value : path.resolve(value);
      i++;
    }
    else if (key === '--out') {
      args.out = path.resolve(value);
      i++;
    } else if (key === '--help') {
      console.log('npm run train -- [--model identity|index|locator|back] [--live] [--init-from DIR|none] [--epochs 14] [--steps 100 per epoch] [--batch 64] [--lr 0.002] [--seed 7] [--fresh | --warm-restart] [--strength 1] [--strip-share 0] [--out models/card-identity] [--plot-only]');
      process.exit(0);
    } else throw new Error(`unknown argument ${key} (try --help)`);
  }
  if (args.live && (args.model === 'locator' || args.model === 'back')) throw new Error('--live is for the identity and index models');
  return args;
}

/** Redraws a task's curves PNG from its history. */
async function plotHistory(history: EpochRecord[], task: Pick<TrainTask, 'name' | 'live' | 'scoreLabels' | 'metrics' | 'curvesFile'>): Promise<void> {
  const curves: Record<string, number[]> = { 'train loss': history.map((h) => h.loss) };
  if (task.metrics.length) curves['train top-1 (augmented)'] = history.map((h) => h.trainAcc);
  curves[task.scoreLabels[0]] = history.map((h) => h.validAcc);
  curves[task.scoreLabels[1]] = history.map((h) => h.heldoutDeckAcc);
  const svg = curvesSvg(curves, `card ${task.name} CNN${task.live ? ' (live size)' : ''}: training curves`);
  await writeSvgAsPng(svg, task.curvesFile);
}

/** The task to train; the classifiers' sources are loaded here (the locator has its own frames). */
async function makeTask(name: TrainTask['name'], live: boolean, stripShare: number): Promise<TrainTask> {
  if (name === 'locator') return locatorTask();
  const set = await loadSources();
  if (name === 'back') return backTask(set);
  return name === 'index' ? indexTask(set, live, stripShare) : identityTask(set, live);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.plotOnly) {
    // Plotting needs no data: only the task's files.
    const files = taskFiles(args.model, args.out, args.live);
    const history = JSON.parse(await fs.readFile(files.historyFile, 'utf8')) as EpochRecord[];
    await plotHistory(history, { name: args.model, live: args.live, ...files, ...TASK_SCORES[args.model] });
    console.log(JSON.stringify({ plotted: history.length }));
    return;
  }
  const backend = await initBackend();
  if (backend === 'cpu') console.error('[train] warning: cpu backend is ~140x slower than wasm');
  const task = await makeTask(args.model, args.live, args.stripShare);
  const files = taskFiles(task.name, args.out, task.live);
  const outDir = files.outDir;
  console.error(`[train] ${task.name} model: ${task.pool.length} pooled training samples`);

  const statePath = path.join(task.checkpointDir, 'state.json');
  let model: tf.LayersModel;
  let history: EpochRecord[] = [];
  let bestValid = -1;
  // The schedule's first epoch: 1, or the first one after the checkpoint of a warm restart (kept
  // in the state, so a plain resume of an interrupted fine-tune goes on with its schedule).
  let first = 1;
  if (!args.fresh && existsSync(statePath)) {
    const state = JSON.parse(await fs.readFile(statePath, 'utf8')) as { history: EpochRecord[]; bestValid: number; names: string[]; scheduleFirst?: number };
    if (JSON.stringify(state.names) !== JSON.stringify(task.signature)) throw new Error('checkpoint classes differ from the data; rerun with --fresh');
    model = await loadLayersModelFromDir(path.join(task.checkpointDir, 'model'));
    history = state.history;
    bestValid = args.warmRestart ? -1 : state.bestValid;
    first = args.warmRestart ? history.length + 1 : (state.scheduleFirst ?? 1);
    console.error(`[train] resuming after epoch ${history.length} (best valid ${state.bestValid.toFixed(4)}${args.warmRestart ? ', warm restart: new schedule, best forgotten' : ''}); optimizer moments restart`);
  } else {
    model = task.build();
    const initFrom = args.initFrom ?? (task.live ? taskFiles(task.name).outDir : 'none');
    if (initFrom !== 'none') {
      const full = await loadLayersModelFromDir(initFrom);
      const report = transferWeights(full, model);
      full.dispose();
      console.error(`[train] started from ${initFrom}: ${report.copied.length} layers copied, pooled ${report.pooled.join(', ') || 'none'}, fresh ${report.fresh.join(', ') || 'none'}`);
    }
  }
  const trainModel = task.trainable(model);
  const optimizer = tf.train.adam(args.lr);
  trainModel.compile({ optimizer, loss: task.loss, metrics: task.metrics });

  const rng = makeRng(args.seed * 1000 + history.length);
  for (let epoch = history.length + 1; epoch <= args.epochs; epoch++) {
    const lr = learningRate(epoch, args.lr, first, args.epochs);
    // Adam's learningRate is a plain field set at construction; tfjs gives no setter.
    (optimizer as unknown as { learningRate: number }).learningRate = lr;
    const started = Date.now();
    const bar = new cliProgress.SingleBar(
      { format: `epoch ${epoch}/${args.epochs} [{bar}] {value}/{total} loss {loss}${task.metrics.length ? ' acc {acc}' : ''} eta {eta}s`, stream: process.stderr },
      cliProgress.Presets.shades_classic,
    );
    bar.start(args.steps, 0, { loss: '-', acc: '-' });
    let lossSum = 0;
    let accSum = 0;
    const order = shuffle(rng, task.pool.slice()).slice(0, args.steps * args.batch);
    for (let step = 0; step < args.steps; step++) {
      const indices = order.slice(step * args.batch, (step + 1) * args.batch);
      const { xs, ys } = task.batch(indices, rng, args.strength);
      const result = await trainModel.trainOnBatch(xs, ys);
      // A task without step metrics (the locator) gets its loss alone.
      const metrics = Array.isArray(result) ? result : [result, 0];
      tf.dispose([xs, ys]);
      // [loss, acc] for one output; [loss, loss per output..., acc per output...] for several.
      const loss = metrics[0];
      const accs = metrics.slice(Math.floor(metrics.length / 2) + 1);
      lossSum += loss;
      accSum += accs.length ? accs.reduce((a, b) => a + b, 0) / accs.length : metrics[1];
      bar.update(step + 1, { loss: (lossSum / (step + 1)).toFixed(3), acc: (accSum / (step + 1)).toFixed(3) });
    }
    bar.stop();
    const { validAcc, heldoutDeckAcc } = await task.evaluate(model);
    const record: EpochRecord = {
      epoch,
      loss: lossSum / args.steps,
      trainAcc: task.metrics.length ? accSum / args.steps : 0,
      validAcc,
      heldoutDeckAcc,
      lr,
      seconds: (Date.now() - started) / 1000,
    };
    history.push(record);
    console.error(`[train] epoch ${epoch}: ${JSON.stringify(record)}`);
    const metadata = { ...task.metadata, epoch, validAcc, heldoutDeckAcc, backend };
    await saveLayersModelToDir(model, path.join(task.checkpointDir, 'model'), metadata);
    await saveLayersModelToDir(model, path.join(task.checkpointDir, 'epochs', `e${epoch}`), metadata);
    if (validAcc > bestValid) {
      bestValid = validAcc;
      await saveLayersModelToDir(model, outDir, metadata);
      console.error(`[train] new best ${task.scoreLabels[0]} ${validAcc.toFixed(4)} → ${outDir}`);
    }
    await fs.writeFile(statePath, JSON.stringify({ history, bestValid, names: task.signature, scheduleFirst: first }));
    await fs.mkdir(path.dirname(files.historyFile), { recursive: true });
    await fs.writeFile(files.historyFile, JSON.stringify(history, null, 1));
    await plotHistory(history, { ...task, ...files });
  }
  const meta = existsSync(path.join(outDir, 'model.json')) ? await readModelMetadata(outDir) : {};
  console.log(JSON.stringify({ model: task.name, epochs: history.length, bestValid, best: meta.epoch ?? null }));
}

main().catch((error: unknown) => {
  console.error(`[train] failed: ${(error as Error).message}`);
  process.exit(1);
});
