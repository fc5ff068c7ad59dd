/**
 * Training and evaluation sources for the identity model, decoded once to SOURCE_WIDTH x
 * SOURCE_HEIGHT RGB (a little larger than the crop so augmentation can re-crop) and cached in
 * .cache/vision. Self-describing: a manifest with format version, seed, and one entry per image
 * (group, class name, split).
 */
import { promises as fs, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { isCardCode } from '../../server/game/cards';
import { generatedBackSvg, generatedOtherSvg } from './generated-art';
import { loadRenderedCrops } from './rendered';
import { cacheDir, sharedDataPath } from './shared-data';

/** Source image size, pixels (portrait, card aspect with no margin). */
export const SOURCE_WIDTH = 96;
export const SOURCE_HEIGHT = 144;
export const SOURCE_BYTES = SOURCE_WIDTH * SOURCE_HEIGHT * 3;

/** Bump when the cache layout or contents change. */
export const SOURCES_FORMAT = 'nerts-vision-sources/2';

/** Face deck kept out of training, to measure generalisation to unseen art. */
export const HELD_OUT_FACE_DECKS = ['kennard'];
/** Back designs kept out of training, to measure enrolment of unseen backs (6 designs). */
export const HELD_OUT_BACKS = ['gen-40', 'gen-41', 'gen-42', 'gen-43', 'kennard/b-1', 'kennard/b-2'];
/** Generated back designs 0..GENERATED_BACKS-1 (40+ are held out). */
export const GENERATED_BACKS = 46;
/** Generated reject-class textures. */
export const GENERATED_OTHERS = 400;

/**
 * Group prefix of the rendered strip crops (`strip:<face style>`, datasets/lib/rendered.ts):
 * whole-card crops of cards of a cascade or fan whose index corner shows at the top left, the rest
 * mostly the card above. They teach the index model only (weightedPool's `strip` weight).
 */
export const RENDERED_STRIP_GROUP = 'strip:';

/** Where an image came from and what it is. */
export interface SourceEntry {
  /** 'cards53' | 'art:<deck>' | 'back' | 'other', or a rendered crop's (RENDERED_STRIP_GROUP, 'rendered:…') */
  group: string;
  /** A card code, 'other', or 'back:<design>'. */
  label: string;
  split: 'train' | 'valid' | 'heldout';
  file: string;
}

/** All sources in memory: entry i's pixels are pixels[i*SOURCE_BYTES ...]. */
export interface SourceSet {
  format: string;
  entries: SourceEntry[];
  pixels: Uint8Array;
}

/** Bytes of one source image. */
export function sourceView(set: SourceSet, index: number): Uint8Array {
  return set.pixels.subarray(index * SOURCE_BYTES, (index + 1) * SOURCE_BYTES);
}

/** An image file or SVG as source-sized raw RGB (transparent parts grey). */
export async function decodeSource(input: string | Buffer): Promise<Buffer> {
  return sharp(input, { density: 72 })
    .flatten({ background: '#808080' })
    .resize(SOURCE_WIDTH, SOURCE_HEIGHT, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer();
}

/** One deck's back art in the card-art folder `artPath`: each design (`<deck>/<file stem>`) and its file, sorted. */
function deckBacks(artPath: string, deck: string): Array<{ design: string; file: string }> {
  const backsDir = path.join(artPath, deck, 'backs');
  return (existsSync(backsDir) ? readdirSync(backsDir).sort() : []).map((f) => ({ design: `${deck}/${f.replace(/\.(svg|png)$/, '')}`, file: path.join(backsDir, f) }));
}

/** The back designs of the shared card art (`<deck>/<file stem>`, held-out ones included), sorted. */
export function sharedBackDesigns(): string[] {
  const art = sharedDataPath('card-art');
  if (art.missing) throw new Error(art.missing);
  return readdirSync(art.path).sort().flatMap((deck) => deckBacks(art.path, deck).map((b) => b.design));
}

function listJobs(): Array<SourceEntry & { input: () => string | Buffer }> {
  const jobs: Array<SourceEntry & { input: () => string | Buffer }> = [];
  const cards53 = sharedDataPath('real', 'cards53');
  if (cards53.missing) throw new Error(cards53.missing);
  for (const split of ['train', 'valid'] as const) {
    const dir = path.join(cards53.path, split);
    for (const cls of readdirSync(dir).sort()) {
      const label = isCardCode(cls) ? cls : 'other';
      for (const f of readdirSync(path.join(dir, cls)).sort()) {
        const file = path.join(dir, cls, f);
        jobs.push({ group: 'cards53', label, split, file, input: () => file });
      }
    }
  }
  const art = sharedDataPath('card-art');
  if (art.missing) throw new Error(art.missing);
  for (const deck of readdirSync(art.path).sort()) {
    const facesDir = path.join(art.path, deck, 'faces');
    if (!existsSync(facesDir)) continue;
    const split = HELD_OUT_FACE_DECKS.includes(deck) ? 'heldout' : 'train';
    for (const f of readdirSync(facesDir).sort()) {
      const code = f.replace(/\.(svg|png)$/, '');
      if (!isCardCode(code)) continue;
      const file = path.join(facesDir, f);
      jobs.push({ group: `art:${deck}`, label: code, split, file, input: () => file });
    }
    for (const { design, file } of deckBacks(art.path, deck)) {
      const bsplit = HELD_OUT_BACKS.includes(design) ? 'heldout' : 'train';
      jobs.push({ group: 'back', label: `back:${design}`, split: bsplit, file, input: () => file });
    }
  }
  for (let i = 0; i < GENERATED_BACKS; i++) {
    const design = `gen-${i}`;
    const split = HELD_OUT_BACKS.includes(design) ? 'heldout' : 'train';
    jobs.push({ group: 'back', label: `back:${design}`, split, file: `generated:${design}`, input: () => Buffer.from(generatedBackSvg(i)) });
  }
  for (let i = 0; i < GENERATED_OTHERS; i++) {
    jobs.push({ group: 'other', label: 'other', split: i % 10 === 0 ? 'heldout' : 'train', file: `generated:other-${i}`, input: () => Buffer.from(generatedOtherSvg(i)) });
  }
  return jobs;
}

/** Loads the cached sources (plus rendered crops when built), building the cache first when missing or stale. */
export async function loadSources(log: (m: string) => void = console.error): Promise<SourceSet> {
  const base = await loadBaseSources(log);
  const rendered = await loadRenderedCrops();
  if (!rendered) return base;
  const pixels = new Uint8Array(base.pixels.length + rendered.pixels.length);
  pixels.set(base.pixels, 0);
  pixels.set(rendered.pixels, base.pixels.length);
  log(`[sources] + ${rendered.entries.length} rendered face crops`);
  return { format: base.format, entries: [...base.entries, ...rendered.entries], pixels };
}

async function loadBaseSources(log: (m: string) => void): Promise<SourceSet> {
  const dir = cacheDir();
  const manifestPath = path.join(dir, 'sources.json');
  const pixelsPath = path.join(dir, 'sources.bin');
  if (existsSync(manifestPath) && existsSync(pixelsPath)) {
    const manifest = JSON.parse(await fs.readFile(manifestPath, 'utf8')) as { format: string; entries: SourceEntry[] };
    if (manifest.format === SOURCES_FORMAT) {
      const pixels = new Uint8Array(await fs.readFile(pixelsPath));
      if (pixels.length === manifest.entries.length * SOURCE_BYTES) return { ...manifest, pixels };
    }
  }
  const jobs = listJobs();
  log(`[sources] decoding ${jobs.length} images into ${dir} (once)`);
  const pixels = new Uint8Array(jobs.length * SOURCE_BYTES);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      try {
        pixels.set(await decodeSource(jobs[i].input()), i * SOURCE_BYTES);
      } catch (error) {
        throw new Error(`cannot decode ${jobs[i].file}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all([worker(), worker()]);
  const entries = jobs.map(({ group, label, split, file }) => ({ group, label, split, file }));
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(pixelsPath, pixels);
  await fs.writeFile(manifestPath, JSON.stringify({ format: SOURCES_FORMAT, entries }));
  return { format: SOURCES_FORMAT, entries, pixels };
}
