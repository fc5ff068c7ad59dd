/**
 * Rendered training crops and evaluation scenes from the team's table renderer
 * (datasets/synth, server/sim/render): rectified face crops of cards at least 75 % visible, from
 * webcam-like frames with perspective, light, JPEG and clutter, and optionally their backs (the
 * identity model had seen backs only as clean art, never at webcam size). Deck styles in
 * HELD_OUT_STYLES never reach training; they make the "unseen deck art" evaluation scenes.
 */
import { promises as fs, existsSync } from 'node:fs';
import path from 'node:path';
import { canonicalBack } from '../../server/sim/art/decks';
import { synthSamples } from '../synth/generate';
import type { CardTruth } from '../../server/sim/render/index';
import { HELD_OUT_BACKS, RENDERED_STRIP_GROUP, SOURCE_HEIGHT, SOURCE_WIDTH, sharedBackDesigns, type SourceEntry } from './sources';
import { cacheDir } from './shared-data';

/** Face styles (renderer names/patterns) kept out of training. `letele` is kennard's npm twin. */
export const HELD_OUT_STYLES = ['kennard', 'letele', 'gen-4*'];

/** Where the rendered crop cache lives. */
export function renderedCachePaths(): { manifest: string; pixels: string } {
  return { manifest: path.join(cacheDir(), 'rendered.json'), pixels: path.join(cacheDir(), 'rendered.bin') };
}

/** How to build the rendered crop cache. */
export interface RenderedCropOptions {
  /** Share of scenes seen by a whole-table webcam (webcam-size cards); see SynthOptions. */
  presetCameraShare?: number;
  /** Keep the crops already cached and add these to them (a different seed gives new scenes). */
  append?: boolean;
  /** Which crops to keep: faces (default), backs, strips (RENDERED_STRIP_GROUP), or several. */
  kinds?: ReadonlyArray<RenderedCropKind>;
  log?: (message: string) => void;
}

/** Group of the rendered back crops in the source set (weighted as rendered crops). */
export const RENDERED_BACK_GROUP = 'rendered:backs';

/** The rendered crops the cache can hold. */
export type RenderedCropKind = 'face' | 'back' | 'strip';

/** Share of a strip card's rank and suit marks that must show for it to become a strip crop. */
export const STRIP_MARKS_VISIBLE = 0.9;

/**
 * The training back class (`<deck>/<file>` of the shared card art) a rendered back design shows,
 * or null: the renderer's npm twins of shared art map to their shared design, its generated
 * `gen-back-<n>` designs are not the sources' `gen-<n>` ones, and held-out backs never train.
 */
export function trainingBackOf(rendered: string, designs: readonly string[]): string | null {
  const key = canonicalBack(rendered);
  const design = designs.find((d) => canonicalBack(`shared-${d}`) === key);
  return design && !HELD_OUT_BACKS.includes(design) ? design : null;
}

/** Renders `frames` training scenes (held-out styles excluded) and caches their crops (`kinds`); returns the cache's crop count. */
export async function buildRenderedCrops(frames: number, seed: number, options: RenderedCropOptions = {}): Promise<number> {
  const log = options.log ?? console.error;
  const previous = options.append ? await loadRenderedCrops() : null;
  const entries: SourceEntry[] = [...(previous?.entries ?? [])];
  const chunks: Uint8Array[] = previous ? [previous.pixels] : [];
  const samples = synthSamples({
    seed,
    frames,
    excludeDecks: HELD_OUT_STYLES,
    cropWidth: SOURCE_WIDTH,
    cropHeight: SOURCE_HEIGHT,
    framesPerSession: 4,
    presetCameraShare: options.presetCameraShare,
    minStripMarksVisible: options.kinds?.includes('strip') ? STRIP_MARKS_VISIBLE : undefined,
  });
  const kinds = options.kinds ?? ['face'];
  const backDesigns = kinds.includes('back') ? sharedBackDesigns() : [];
  for await (const sample of samples) {
    const file = `rendered:${seed}/${sample.index}`;
    for (const crop of sample.crops) {
      if (crop.kind === 'face' && crop.code && kinds.includes('face')) {
        entries.push({ group: `rendered:${crop.faceStyle}`, label: crop.code, split: 'train', file });
        chunks.push(crop.rgb);
      }
      if (crop.kind === 'strip' && crop.code && kinds.includes('strip')) {
        entries.push({ group: `${RENDERED_STRIP_GROUP}${crop.faceStyle}`, label: crop.code, split: 'train', file });
        chunks.push(crop.rgb);
      }
      const design = crop.kind === 'back' && kinds.includes('back') ? trainingBackOf(crop.backDesign, backDesigns) : null;
      if (design) {
        entries.push({ group: RENDERED_BACK_GROUP, label: `back:${design}`, split: 'train', file });
        chunks.push(crop.rgb);
      }
    }
    if (sample.index % 10 === 9) log(`[rendered] ${sample.index + 1}/${frames} frames, ${entries.length} crops in the cache`);
  }
  const pixels = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    pixels.set(chunk, offset);
    offset += chunk.length;
  }
  const paths = renderedCachePaths();
  await fs.mkdir(cacheDir(), { recursive: true });
  await fs.writeFile(paths.pixels, pixels);
  const seeds = [...(previous?.seeds ?? []), seed];
  await fs.writeFile(paths.manifest, JSON.stringify({ format: 'nerts-vision-rendered/1', seeds, frames, entries }));
  return entries.length;
}

/** Loads cached rendered crops (and the seeds that rendered them), or null when none were built. */
export async function loadRenderedCrops(): Promise<{ entries: SourceEntry[]; pixels: Uint8Array; seeds: number[] } | null> {
  const paths = renderedCachePaths();
  if (!existsSync(paths.manifest) || !existsSync(paths.pixels)) return null;
  // Caches written before --append held one `seed`.
  const manifest = JSON.parse(await fs.readFile(paths.manifest, 'utf8')) as { entries: SourceEntry[]; seed?: number; seeds?: number[] };
  const pixels = new Uint8Array(await fs.readFile(paths.pixels));
  if (pixels.length !== manifest.entries.length * SOURCE_WIDTH * SOURCE_HEIGHT * 3) return null;
  return { entries: manifest.entries, pixels, seeds: manifest.seeds ?? (manifest.seed === undefined ? [] : [manifest.seed]) };
}

/**
 * Which cards of a rendered frame an evaluation set labels:
 * - `readable` (the default since session 58): the cards a referee reads. Face-up cards at least
 *   30 % visible, and in a work pile or waste those whose index corner shows (90 % of it: the
 *   strips of cascades and fanned wastes, which the localiser must read), by their code;
 *   face-down cards at least 30 % visible as `back`. The lower cards of a foundation pile are
 *   left out however much of their corner peeks out: only its top card counts.
 * - `faces`: face-up cards at least `minVisible` visible only (the sets up to session 57: they
 *   leave out cascade strips and every back, so reading those counted against precision).
 */
export type RenderedLabels = { kind: 'readable' } | { kind: 'faces'; minVisible: number };

/** Share of a card that must show for it to be labelled whole (RenderedLabels). */
export const LABEL_MIN_VISIBLE = 0.3;
/** Share of a card's index corner that must show for a card under others to be labelled (RenderedLabels). */
export const LABEL_MIN_INDEX_VISIBLE = 0.9;

/** The label a rendered card gets in an evaluation set (a card code or `back`), or null when it is left out. Pure. */
export function renderedLabel(truth: Pick<CardTruth, 'faceUp' | 'code' | 'visibleFraction' | 'indexVisibleFraction' | 'zone'>, rule: RenderedLabels = { kind: 'readable' }): string | null {
  if (rule.kind === 'faces') return truth.faceUp && truth.visibleFraction >= rule.minVisible ? truth.code : null;
  if (!truth.faceUp) return truth.visibleFraction >= LABEL_MIN_VISIBLE ? 'back' : null;
  const fanned = truth.zone.kind === 'work' || truth.zone.kind === 'waste';
  return truth.visibleFraction >= LABEL_MIN_VISIBLE || (fanned && truth.indexVisibleFraction >= LABEL_MIN_INDEX_VISIBLE) ? truth.code : null;
}

/**
 * Writes an evaluation folder in layout (b): rendered 1280x720 frames whose faces all come from
 * `styles` (default: the held-out ones), with labels.csv of the cards `labels` picks (boxes
 * around the whole card, clipped to the image). `presetCameraShare`: the share of scenes seen by
 * a whole-table webcam (see SynthOptions; 1 gives live-size cards only).
 */
export async function writeRenderedEvalSet(outDir: string, frames: number, seed: number, styles: string[] = ['kennard'], labels: RenderedLabels = { kind: 'readable' }, presetCameraShare?: number): Promise<{ frames: number; labels: number }> {
  await fs.mkdir(outDir, { recursive: true });
  const rows = ['filename,width,height,code,xmin,ymin,xmax,ymax'];
  for await (const sample of synthSamples({ seed, frames, decks: styles, framesPerSession: 2, presetCameraShare })) {
    const name = `render_${String(sample.index).padStart(4, '0')}.jpg`;
    await fs.writeFile(path.join(outDir, name), sample.jpeg);
    for (const label of sample.labels) {
      const code = renderedLabel(label.truth, labels);
      if (code === null) continue;
      const { x, y, w, h } = label.box;
      rows.push(`${name},${sample.width},${sample.height},${code},${Math.round(x)},${Math.round(y)},${Math.round(x + w)},${Math.round(y + h)}`);
    }
  }
  await fs.writeFile(path.join(outDir, 'labels.csv'), `${rows.join('\n')}\n`);
  return { frames, labels: rows.length - 1 };
}
