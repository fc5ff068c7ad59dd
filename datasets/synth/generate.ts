/**
 * Synthetic training data from the renderer: random cluttered tables seen by random webcams,
 * with detection labels and rectified crops of faces, backs and corner indices. Library
 * functions (in memory) for the training code, plus a disk writer used by `npm run dataset`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { ALL_CARD_CODES, type CardCode } from '../../server/game/cards';
import { randomCamera, presetCamera } from '../../server/sim/render/camera';
import { createRenderer, type CardTruth, type DetailedFrame } from '../../server/sim/render/index';
import { randomScene } from '../../server/sim/render/random-scene';
import { createRng } from '../../server/sim/render/rng';
import type { TableScene } from '../../server/sim/scene';
import { BOTTOM_RIGHT_INDEX, BOTTOM_RIGHT_MARKS, clippedQuadBox, quadInsideImage, rectifyCard, regionVisibility, TOP_LEFT_INDEX, TOP_LEFT_MARKS, WHOLE_CARD, type CardRegion, type RgbImage } from './crops';

/** Bump when the on-disk layout or label meaning changes. */
export const DATASET_FORMAT = 'nerts-synth/1';

/** Detection classes: the 52 faces in ALL_CARD_CODES order, then one class for any back. */
export const DETECTION_CLASSES: readonly string[] = [...ALL_CARD_CODES, 'back'];

/** What to generate. */
export interface SynthOptions {
  seed: number;
  frames: number;
  width?: number;
  height?: number;
  /** Scenes rendered per camera/surface/light session (a renderer is built per session). */
  framesPerSession?: number;
  /**
   * Share of sessions seen by a whole-table webcam (the `top` and `oblique` presets, 3:2), where a
   * card is only about 36x50 pixels at 1280x720, as on a live table; the rest get a random camera,
   * mostly closer. Default 0.25.
   */
  presetCameraShare?: number;
  /** Face styles to use (patterns, see matchesStyle); default all. */
  decks?: string[];
  /** Face styles and back designs to leave out (patterns). */
  excludeDecks?: string[];
  /** A card-art/1 folder to take every face from. */
  artDir?: string;
  /** Face and back crop size, pixels (default 96x144, the recogniser's source size). */
  cropWidth?: number;
  cropHeight?: number;
  /** Corner index crop size, pixels (default 48x60). */
  cornerWidth?: number;
  cornerHeight?: number;
  /** Minimum visible fraction for a whole-card crop (default 0.75). */
  minCropVisible?: number;
  /** Minimum visible fraction of the index region for a corner crop (default 0.95). */
  minCornerVisible?: number;
  /** Minimum visible fraction for a detection label (default 0.03). */
  minLabelVisible?: number;
  /**
   * Also crop the strips of cascaded work piles and fanned wastes: face-up cards there under
   * `minCropVisible` whose rank and suit marks show at least this much at one corner (none when
   * unset). Each is a whole-card crop turned so that corner is the top left, as the recogniser's
   * strip hypotheses crop them (kind `strip`).
   */
  minStripMarksVisible?: number;
}

/** One rectified crop. */
export interface SynthCrop {
  kind: 'face' | 'back' | 'corner' | 'strip';
  /** Card code for faces and corners. */
  code?: CardCode;
  backDesign: string;
  faceStyle: string;
  deckId: string;
  visibleFraction: number;
  width: number;
  height: number;
  /** Packed RGB. */
  rgb: Uint8Array;
}

/** A label for one card in one frame. */
export interface SynthLabel {
  classId: number;
  className: string;
  /** Box of the whole card clipped to the image, pixels. */
  box: { x: number; y: number; w: number; h: number };
  /** Box of the pixels where this card is actually seen (not covered), pixels. */
  visibleBox: { x: number; y: number; w: number; h: number };
  truth: CardTruth;
}

/** One generated frame: the JPEG a webcam would send, its labels and crops. */
export interface SynthSample {
  index: number;
  jpeg: Buffer;
  width: number;
  height: number;
  labels: SynthLabel[];
  crops: SynthCrop[];
  session: { seed: number; surface: string; faces: string[]; backs: string[] };
}

/** Crops of one frame, taken from the decoded JPEG so they carry real compression artefacts. */
export function cropsFromFrame(image: RgbImage, frame: DetailedFrame, scene: TableScene, options: SynthOptions): SynthCrop[] {
  const cropW = options.cropWidth ?? 96;
  const cropH = options.cropHeight ?? 144;
  const cornerW = options.cornerWidth ?? 48;
  const cornerH = options.cornerHeight ?? 60;
  const minCrop = options.minCropVisible ?? 0.75;
  const minCorner = options.minCornerVisible ?? 0.95;
  const indexOf = new Map(scene.cards.map((c, i) => [c.id, i]));
  const crops: SynthCrop[] = [];
  for (const truth of frame.truth) {
    const ownerId = indexOf.get(truth.id) as number;
    const base = { backDesign: truth.backDesign, faceStyle: truth.faceStyle, deckId: truth.deckId, visibleFraction: truth.visibleFraction };
    // Whole-card crops only for cards inside the frame: a crop half black from the image border
    // teaches nothing a real detector's crops show (occlusion by cards and hands stays in).
    if (truth.visibleFraction >= minCrop && quadInsideImage(truth.corners, frame.width, frame.height, 2)) {
      crops.push({
        ...base,
        kind: truth.faceUp ? 'face' : 'back',
        code: truth.faceUp ? truth.code : undefined,
        width: cropW,
        height: cropH,
        rgb: rectifyCard(image, truth.corners, cropW, cropH, WHOLE_CARD),
      });
    }
    if (!truth.faceUp) continue;
    const strip = options.minStripMarksVisible === undefined || truth.visibleFraction >= minCrop ? null : stripCorner(frame, truth, ownerId, options.minStripMarksVisible);
    if (strip !== null) crops.push({ ...base, kind: 'strip', code: truth.code, width: cropW, height: cropH, rgb: rectifyCard(image, truth.corners, cropW, cropH, WHOLE_CARD, strip === 'bottom-right') });
    for (const [region, flipped] of [[TOP_LEFT_INDEX, false], [BOTTOM_RIGHT_INDEX, true]] as const) {
      if (regionVisibility(frame.owner, frame.width, frame.height, truth.corners, ownerId, region) < minCorner) continue;
      crops.push({ ...base, kind: 'corner', code: truth.code, width: cornerW, height: cornerH, rgb: rectifyCard(image, truth.corners, cornerW, cornerH, region, flipped) });
    }
  }
  return crops;
}

/**
 * Which corner of a face-up card in a work pile or waste (inside the frame) shows its rank and
 * suit marks at least `minVisible`, the better one; null when neither does or it lies elsewhere.
 */
function stripCorner(frame: DetailedFrame, truth: CardTruth, ownerId: number, minVisible: number): 'top-left' | 'bottom-right' | null {
  if ((truth.zone.kind !== 'work' && truth.zone.kind !== 'waste') || !quadInsideImage(truth.corners, frame.width, frame.height, 2)) return null;
  const seen = (region: CardRegion) => regionVisibility(frame.owner, frame.width, frame.height, truth.corners, ownerId, region, 8);
  const topLeft = seen(TOP_LEFT_MARKS);
  const bottomRight = seen(BOTTOM_RIGHT_MARKS);
  if (Math.max(topLeft, bottomRight) < minVisible) return null;
  return topLeft >= bottomRight ? 'top-left' : 'bottom-right';
}

/** Per owner index: bounding box of the pixels it owns, from the owner map (one pass). */
function ownedBoxes(owner: Int32Array, width: number, count: number): Int32Array {
  const boxes = new Int32Array(count * 4);
  for (let k = 0; k < count; k++) boxes.set([2 ** 30, 2 ** 30, -1, -1], k * 4);
  for (let i = 0; i < owner.length; i++) {
    const k = owner[i];
    if (k < 0 || k >= count) continue;
    const x = i % width;
    const y = (i - x) / width;
    const o = k * 4;
    if (x < boxes[o]) boxes[o] = x;
    if (y < boxes[o + 1]) boxes[o + 1] = y;
    if (x > boxes[o + 2]) boxes[o + 2] = x;
    if (y > boxes[o + 3]) boxes[o + 3] = y;
  }
  return boxes;
}

/** Detection labels for a frame: every card at least `minLabelVisible` visible. */
export function labelsFromFrame(frame: DetailedFrame, scene: TableScene, minVisible = 0.03): SynthLabel[] {
  const labels: SynthLabel[] = [];
  const indexOf = new Map(scene.cards.map((c, i) => [c.id, i]));
  const owned = ownedBoxes(frame.owner, frame.width, scene.cards.length);
  for (const truth of frame.truth) {
    if (truth.visibleFraction < minVisible) continue;
    const box = clippedQuadBox(truth.corners, frame.width, frame.height);
    if (!box) continue;
    const o = (indexOf.get(truth.id) as number) * 4;
    const visibleBox = owned[o + 2] >= 0 ? { x: owned[o], y: owned[o + 1], w: owned[o + 2] - owned[o] + 1, h: owned[o + 3] - owned[o + 1] + 1 } : box;
    const className = truth.faceUp ? truth.code : 'back';
    labels.push({ classId: DETECTION_CLASSES.indexOf(className), className, box, visibleBox, truth });
  }
  return labels;
}

/** Generates samples one by one (in memory); deterministic for the options' seed. */
export async function* synthSamples(options: SynthOptions): AsyncGenerator<SynthSample> {
  if (!(options.frames >= 0) || !Number.isInteger(options.frames)) throw new Error('synth: frames must be a non-negative integer');
  const width = options.width ?? 1280;
  const height = options.height ?? 720;
  const perSession = Math.max(1, options.framesPerSession ?? 4);
  const master = createRng(options.seed);
  let index = 0;
  while (index < options.frames) {
    const sessionSeed = master.int(0, 2 ** 31 - 1);
    const rng = createRng(sessionSeed);
    const table = { widthMm: Math.round(rng.range(1000, 1400)), heightMm: Math.round(rng.range(700, 950)) };
    const cameraKind = rng.next();
    const presetShare = options.presetCameraShare ?? 0.25;
    const camera =
      cameraKind < presetShare * 0.6 ? presetCamera('top', width, height, table)
      : cameraKind < presetShare ? presetCamera('oblique', width, height, table)
      : randomCamera(rng, width, height, table);
    const renderer = await createRenderer({
      seed: sessionSeed,
      width,
      height,
      camera,
      table,
      artDir: options.artDir,
      faceStylePool: { include: options.decks, exclude: options.excludeDecks },
    });
    for (let k = 0; k < perSession && index < options.frames; k++, index++) {
      const scene = randomScene({ seed: sessionSeed + 7919 * (k + 1), table, maxHands: 3, timeMs: k * 1000 });
      const frame = await renderer.renderDetailed(scene);
      const decoded = await sharp(frame.jpeg).removeAlpha().raw().toBuffer();
      const image: RgbImage = { width, height, data: new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.length) };
      const decks = [...new Set(scene.cards.map((c) => c.deckId))];
      yield {
        index,
        jpeg: frame.jpeg,
        width,
        height,
        labels: labelsFromFrame(frame, scene, options.minLabelVisible),
        crops: cropsFromFrame(image, frame, scene, options),
        session: {
          seed: sessionSeed,
          surface: renderer.look.surface.kind,
          faces: decks.map((d) => renderer.deckInfo(d).faces),
          backs: decks.map((d) => renderer.deckInfo(d).back),
        },
      };
    }
  }
}

/** Counts written by writeDataset, also stored in the manifest. */
export interface DatasetCounts {
  frames: number;
  labels: number;
  faceCrops: number;
  backCrops: number;
  cornerCrops: number;
  stripCrops: number;
}

/**
 * Writes a dataset folder: images/*.jpg, YOLO labels/*.txt, COCO annotations.json (with the 4
 * card corners as keypoints), crops/{faces,corners}/<CODE>/*.png, crops/backs/<design>/*.png,
 * crops/index.csv and manifest.json. Calls `onFrame` after each frame (progress).
 */
export async function writeDataset(outDir: string, options: SynthOptions, onFrame: (done: number, counts: DatasetCounts) => void = () => {}): Promise<DatasetCounts> {
  mkdirSync(path.join(outDir, 'images'), { recursive: true });
  mkdirSync(path.join(outDir, 'labels'), { recursive: true });
  mkdirSync(path.join(outDir, 'crops'), { recursive: true });
  const counts: DatasetCounts = { frames: 0, labels: 0, faceCrops: 0, backCrops: 0, cornerCrops: 0, stripCrops: 0 };
  const cocoImages: unknown[] = [];
  const cocoAnnotations: unknown[] = [];
  const cropRows: string[] = ['file,kind,code,backDesign,faceStyle,deckId,visibleFraction,frame'];
  const facesUsed = new Set<string>();
  const backsUsed = new Set<string>();
  const safe = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_');
  for await (const sample of synthSamples(options)) {
    const stem = String(sample.index).padStart(6, '0');
    writeFileSync(path.join(outDir, 'images', `${stem}.jpg`), sample.jpeg);
    const yolo = sample.labels.map((l) => {
      const cx = (l.box.x + l.box.w / 2) / sample.width;
      const cy = (l.box.y + l.box.h / 2) / sample.height;
      return `${l.classId} ${cx.toFixed(6)} ${cy.toFixed(6)} ${(l.box.w / sample.width).toFixed(6)} ${(l.box.h / sample.height).toFixed(6)}`;
    });
    writeFileSync(path.join(outDir, 'labels', `${stem}.txt`), yolo.join('\n') + (yolo.length ? '\n' : ''));
    cocoImages.push({ id: sample.index, file_name: `images/${stem}.jpg`, width: sample.width, height: sample.height, session: sample.session });
    for (const l of sample.labels) {
      cocoAnnotations.push({
        id: cocoAnnotations.length,
        image_id: sample.index,
        category_id: l.classId,
        bbox: [l.box.x, l.box.y, l.box.w, l.box.h].map((v) => Math.round(v * 100) / 100),
        visible_bbox: [l.visibleBox.x, l.visibleBox.y, l.visibleBox.w, l.visibleBox.h],
        area: Math.round(l.box.w * l.box.h),
        iscrowd: 0,
        keypoints: l.truth.corners.flatMap(([x, y]) => [Math.round(x * 100) / 100, Math.round(y * 100) / 100, 2]),
        num_keypoints: 4,
        code: l.truth.code,
        face_up: l.truth.faceUp,
        visible_fraction: Math.round(l.truth.visibleFraction * 1000) / 1000,
        deck_id: l.truth.deckId,
        owner: l.truth.owner,
        back_design: l.truth.backDesign,
        face_style: l.truth.faceStyle,
        zone: l.truth.zone,
      });
    }
    counts.labels += sample.labels.length;
    sample.session.faces.forEach((f) => facesUsed.add(f));
    sample.session.backs.forEach((b) => backsUsed.add(b));
    for (const [k, crop] of sample.crops.entries()) {
      const folder = crop.kind === 'back' ? path.join('crops', 'backs', safe(crop.backDesign)) : path.join('crops', `${crop.kind}s`, crop.code as string);
      mkdirSync(path.join(outDir, folder), { recursive: true });
      const file = path.join(folder, `${stem}-${k}.png`);
      await sharp(crop.rgb, { raw: { width: crop.width, height: crop.height, channels: 3 } }).png({ compressionLevel: 6 }).toFile(path.join(outDir, file));
      cropRows.push([file, crop.kind, crop.code ?? '', crop.backDesign, crop.faceStyle, crop.deckId, crop.visibleFraction.toFixed(3), stem].join(','));
      if (crop.kind === 'face') counts.faceCrops++;
      else if (crop.kind === 'back') counts.backCrops++;
      else if (crop.kind === 'corner') counts.cornerCrops++;
      else counts.stripCrops++;
    }
    counts.frames++;
    onFrame(counts.frames, counts);
  }
  writeFileSync(path.join(outDir, 'crops', 'index.csv'), cropRows.join('\n') + '\n');
  writeFileSync(
    path.join(outDir, 'annotations.json'),
    JSON.stringify({
      info: { description: 'Nerts synthetic webcam frames', format: DATASET_FORMAT, seed: options.seed },
      images: cocoImages,
      annotations: cocoAnnotations,
      categories: DETECTION_CLASSES.map((name, id) => ({ id, name, keypoints: ['top_left', 'top_right', 'bottom_right', 'bottom_left'] })),
    }),
  );
  writeFileSync(path.join(outDir, 'classes.txt'), DETECTION_CLASSES.join('\n') + '\n');
  writeFileSync(
    path.join(outDir, 'manifest.json'),
    JSON.stringify(
      {
        format: DATASET_FORMAT,
        seed: options.seed,
        source: { generator: 'server/sim/render (random-scene)', artDir: options.artDir ?? null, decks: options.decks ?? null, excludeDecks: options.excludeDecks ?? null },
        size: { width: options.width ?? 1280, height: options.height ?? 720 },
        crops: {
          face: [options.cropWidth ?? 96, options.cropHeight ?? 144],
          corner: [options.cornerWidth ?? 48, options.cornerHeight ?? 60],
          minCropVisible: options.minCropVisible ?? 0.75,
          minCornerVisible: options.minCornerVisible ?? 0.95,
          minStripMarksVisible: options.minStripMarksVisible ?? null,
        },
        labels: { yolo: 'labels/<frame>.txt: class cx cy w h (normalised), classes.txt', coco: 'annotations.json (bbox + 4 corner keypoints)', minLabelVisible: options.minLabelVisible ?? 0.03 },
        faceStylesUsed: [...facesUsed].sort(),
        backDesignsUsed: [...backsUsed].sort(),
        counts,
        createdAt: new Date().toISOString(),
      },
      null,
      2,
    ),
  );
  return counts;
}
