/**
 * `npm run dataset -- --out DIR [--frames 200] [--seed 1] [--width 1280 --height 720]
 *   [--decks a,b] [--exclude-decks c,d*] [--art DIR] [--crop-size 96x144] [--corner-size 48x60]
 *   [--frames-per-session 4]`
 * Writes a synthetic training set (see datasets/synth/generate.ts and docs/RENDERER.md).
 */
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { writeDataset, type SynthOptions } from '../synth/generate';

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
      frames: { type: 'string', default: '200' },
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
    },
  });
  if (!values.out) throw new Error('--out DIR is required');
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
