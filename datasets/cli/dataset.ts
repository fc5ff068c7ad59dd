/**
 * `npm run dataset -- --out DIR [--frames 200] [--seed 1] [--width 1280 --height 720]
 *   [--decks a,b] [--exclude-decks c,d*] [--art DIR] [--crop-size 96x144] [--corner-size 48x60]
 *   [--frames-per-session 4]`
 * Writes a synthetic training set (see datasets/synth/generate.ts and docs/RENDERER.md).
 *
 * `npm run dataset -- --locator [--frames 1400] [--shards 2] [--seed 1]`
 * Caches the learned locator's training frames (training deck styles, in shards that can render
 * in parallel: `--shard K` renders only shard K) and 60 validation frames of held-out deck art
 * under .cache/vision/locator/. Shards already there are kept.
 *
 * `npm run dataset -- --rendered-crops [--frames 120] [--seed 1] [--webcam-share 0.25] [--append] [--kinds face,back,strip]`
 * Renders training scenes (held-out deck styles left out) and caches their face crops (and with
 * `--kinds`, backs of the training back designs, and `strip`: the cards of cascades and fans whose
 * index corner shows) in .cache/vision/rendered.*, which `npm run train` mixes into both card
 * models (strips into the index model only). `--webcam-share` is the share of scenes seen by a
 * whole-table webcam (cards about 36x50 pixels, as live); `--append` adds to the crops already cached.
 *
 * `npm run dataset -- --gpu-pack DIR`
 * Packs the training sources (the cache `npm run train` reads, rendered crops included) for the
 * PyTorch trainer on an accelerator machine (datasets/gpu/train_cards.py): WebPs in one file and
 * a manifest with labels, pools and validation entries (datasets/lib/gpu-pack.ts).
 *
 * `npm run dataset -- --gpu-locator-pack DIR [--pack-quality 75]`
 * Packs the locator's cached frames (`--locator`) for the PyTorch locator trainer
 * (datasets/gpu/train_locator.py): WebPs in one file and a manifest with every frame's cards and
 * the window and target settings (datasets/lib/locator-pack.ts). `--pack-quality` is the training
 * frames' WebP quality (lower it to fit more frames into what a lent machine takes).
 */
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildLocatorShard, loadLocatorFrames } from '../lib/locator-data';
import { TRAIN_QUALITY, writeLocatorPack } from '../lib/locator-pack';
import { writeGpuPack } from '../lib/gpu-pack';
import { buildRenderedCrops, type RenderedCropKind } from '../lib/rendered';
import { loadSources } from '../lib/sources';
import { cacheDir } from '../lib/shared-data';
import { writeDataset, type SynthOptions } from '../synth/generate';

/** The locator's frame cache: `shards` training shards of frames/shards frames each, one validation shard. */
async function locatorData(frames: number, shards: number, seed: number, only?: number): Promise<void> {
  const jobs = [
    ...Array.from({ length: shards }, (_, k) => ({ name: `train-${k}`, frames: Math.ceil(frames / shards), seed: seed * 1000 + k, heldOut: false })),
    { name: 'valid-0', frames: 60, seed: seed * 1000 + 999, heldOut: true },
  ];
  for (const [k, job] of jobs.entries()) {
    if (only !== undefined && k !== only) continue;
    if (existsSync(path.join(cacheDir(), 'locator', `${job.name}.json`))) {
      console.error(`[dataset] locator shard ${job.name} already cached`);
      continue;
    }
    await buildLocatorShard(job.name, job.frames, job.seed, job.heldOut);
  }
  console.log(JSON.stringify({ locator: path.join(cacheDir(), 'locator'), frames, shards }));
}

function size(text: string, flag: string): [number, number] {
  const match = /^(\d+)x(\d+)$/.exec(text);
  if (!match) throw new Error(`${flag} must look like 96x144`);
  return [Number(match[1]), Number(match[2])];
}
const list = (text: string | undefined) => (text ? text.split(',').map((s) => s.trim()).filter(Boolean) : undefined);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      frames: { type: 'string' },
      seed: { type: 'string', default: '1' },
      width: { type: 'string', default: '1280' },
      height: { type: 'string', default: '720' },
      decks: { type: 'string' },
      'exclude-decks': { type: 'string' },
      art: { type: 'string' },
      'crop-size': { type: 'string', default: '96x144' },
      'corner-size': { type: 'string', default: '48x60' },
      'frames-per-session': { type: 'string', default: '4' },
      'min-crop-visible': { type: 'string', default: '0.75' },
      locator: { type: 'boolean', default: false },
      shards: { type: 'string', default: '2' },
      shard: { type: 'string' },
      'rendered-crops': { type: 'boolean', default: false },
      'webcam-share': { type: 'string', default: '0.25' },
      append: { type: 'boolean', default: false },
      kinds: { type: 'string', default: 'face' },
      'gpu-pack': { type: 'string' },
      'gpu-locator-pack': { type: 'string' },
      'pack-quality': { type: 'string', default: String(TRAIN_QUALITY) },
    },
  });
  if (values['gpu-locator-pack']) {
    const train = await loadLocatorFrames('train');
    const valid = await loadLocatorFrames('valid');
    if (!train || !valid) throw new Error('no locator frames cached: run `npm run dataset -- --locator` first');
    const quality = Number(values['pack-quality']);
    if (!(quality >= 1 && quality <= 100)) throw new Error('--pack-quality must be a WebP quality from 1 to 100');
    const manifest = await writeLocatorPack(values['gpu-locator-pack'], train, valid, quality);
    console.log(JSON.stringify({ gpuLocatorPack: values['gpu-locator-pack'], train: train.count, valid: valid.count, frames: manifest.frames.length }));
    return;
  }
  if (values['gpu-pack']) {
    const manifest = await writeGpuPack(values['gpu-pack'], await loadSources());
    console.log(JSON.stringify({ gpuPack: values['gpu-pack'], entries: manifest.entries.length, identityPool: manifest.identityPool.length, indexPool: manifest.indexPool.length }));
    return;
  }
  if (values['rendered-crops']) {
    const frames = Number(values.frames ?? 120);
    const share = Number(values['webcam-share']);
    if (!(frames > 0) || !Number.isInteger(frames)) throw new Error('--frames must be a positive integer');
    if (!(share >= 0 && share <= 1)) throw new Error('--webcam-share must be between 0 and 1');
    const seed = Number(values.seed);
    const started = Date.now();
    const kinds = values.kinds.split(',');
    if (kinds.length === 0 || kinds.some((k) => k !== 'face' && k !== 'back' && k !== 'strip')) throw new Error('--kinds must list face, back and/or strip (comma-separated)');
    const crops = await buildRenderedCrops(frames, seed, { presetCameraShare: share, append: values.append, kinds: kinds as RenderedCropKind[] });
    console.log(JSON.stringify({ renderedCrops: crops, frames, seed, webcamShare: share, kinds, seconds: Math.round((Date.now() - started) / 1000) }));
    return;
  }
  if (values.locator) {
    const frames = Number(values.frames ?? 1400);
    if (!(frames > 0) || !(Number(values.shards) > 0)) throw new Error('--frames and --shards must be positive numbers');
    return locatorData(frames, Number(values.shards), Number(values.seed), values.shard === undefined ? undefined : Number(values.shard));
  }
  if (!values.out) throw new Error('--out DIR is required');
  values.frames ??= '200';
  const numbers = ['frames', 'seed', 'width', 'height', 'frames-per-session', 'min-crop-visible'] as const;
  for (const key of numbers) if (!Number.isFinite(Number(values[key]))) throw new Error(`--${key} must be a number`);
  const [cropWidth, cropHeight] = size(values['crop-size'], '--crop-size');
  const [cornerWidth, cornerHeight] = size(values['corner-size'], '--corner-size');
  const options: SynthOptions = {
    seed: Number(values.seed),
    frames: Number(values.frames),
    width: Number(values.width),
    height: Number(values.height),
    framesPerSession: Number(values['frames-per-session']),
    decks: list(values.decks),
    excludeDecks: list(values['exclude-decks']),
    artDir: values.art,
    cropWidth,
    cropHeight,
    cornerWidth,
    cornerHeight,
    minCropVisible: Number(values['min-crop-visible']),
  };
  const bar = new cliProgress.SingleBar({ format: 'dataset [{bar}] {value}/{total} frames | {crops} crops | {labels} labels | ETA {eta}s' }, cliProgress.Presets.shades_classic);
  bar.start(options.frames, 0, { crops: 0, labels: 0 });
  const started = Date.now();
  const counts = await writeDataset(values.out, options, (done, c) => bar.update(done, { crops: c.faceCrops + c.backCrops + c.cornerCrops, labels: c.labels }));
  bar.stop();
  console.log(JSON.stringify({ out: values.out, ...counts, seconds: Math.round((Date.now() - started) / 100) / 10 }));
}

main().catch((error: unknown) => {
  console.error(`dataset: ${(error as Error).message}`);
  process.exit(1);
});
