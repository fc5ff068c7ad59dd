/**
 * The webcam-like frame renderer: draws a TableScene (table millimetres) as a webcam sees it and
 * reports ground truth for every visible card. API agreed with the bots and vision engineers:
 * `createRenderer(options) -> { render(scene), deckInfo(deckId), camera }`.
 */
import sharp from 'sharp';
import { ALL_CARD_CODES, isCardCode, type CardCode } from '../../game/cards';
import type { Quad } from '../../vision/types';
import { CARD_HEIGHT_MM, CARD_WIDTH_MM, type CardPose, type TableScene, type Zone } from '../scene';
import { canonicalBack, createArtCatalogue, matchesStyle, type ArtCatalogue } from '../art/decks';
import type { CardTexture, TextureLevel } from '../art/texture';
import {
  applyHomography,
  cameraFrame,
  invert3,
  planeHomography,
  presetCamera,
  validateCamera,
  DEFAULT_TABLE_MM,
  type CameraFrame,
  type CameraPose,
} from './camera';
import { backTexture, faceTexture } from './deck-textures';
import { createNoiseTable, randomLight, randomSurface, renderLightField, renderSurfaceWithMask, type LightStyle, type SurfaceStyle } from './environment';
import { handCapsules, handShadowCapsules } from './hands';
import {
  clearLayers,
  clippedBox,
  createLayers,
  drawCapsules,
  drawCapsuleShadow,
  drawCard,
  drawCardShadow,
  OWNER_HAND,
  type Layers,
  type PixelBox,
} from './raster';
import { createRng, hashString } from './rng';

export type { CameraPose } from './camera';

/** Options for a renderer; the seed picks surface, light and deck styles deterministically. */
export interface RendererOptions {
  /** Image size, pixels (default 1280x720). */
  width?: number;
  height?: number;
  /** Pinhole camera: a preset or an explicit pose (oblique up to about 45 degrees). */
  camera?: 'top' | 'oblique' | CameraPose;
  seed: number;
  /** Any deck folder in the card-art/1 layout (faces/<CODE>.svg|png, backs/*): all faces come from it. */
  artDir?: string;
  /** Per deckId: face style / back design names; unspecified = seeded choice, distinct backs per deck. */
  decks?: Record<string, { faces?: string; back?: string }>;
  /** JPEG quality 1..100 (default: seeded, 62..90, like webcams). */
  jpegQuality?: number;
  /** Table size the camera presets frame, millimetres (default 1200x800). Additive option. */
  table?: { widthMm: number; heightMm: number };
  /** Overrides of the seeded look, for tests and contact sheets. Additive option. */
  look?: { surface?: Partial<SurfaceStyle>; light?: Partial<LightStyle>; plain?: boolean };
  /**
   * Restrict the seeded face-style pool to names matching `include` / drop names matching
   * `exclude` (dataset hold-outs; patterns as in matchesStyle: exact, unprefixed or `*` globs).
   * `exclude` also drops matching back designs. Additive option.
   */
  faceStylePool?: { include?: string[]; exclude?: string[] };
}

/** Ground truth for one card that is at least partly visible. */
export interface CardTruth {
  id: string;
  code: CardCode;
  deckId: string;
  owner: string;
  backDesign: string;
  faceUp: boolean;
  /** Image pixels, TL TR BR BL of the card itself (may lie partly outside the image). */
  corners: Quad;
  /** 0..1 of the card area not covered by other cards, hands or the image border. */
  visibleFraction: number;
  /**
   * 0..1 of the better-showing index corner (rank and suit, INDEX_CORNER_MM and its half-turn twin)
   * not covered by other cards, hands or the image border: a card under others that shows this
   * whole is still readable, as the strip of a cascaded work pile is. Additive field.
   */
  indexVisibleFraction: number;
  zone: Zone;
  /** Face style name of the card's deck (additive field, for datasets). */
  faceStyle: string;
}

/** One rendered frame: JPEG bytes plus ground truth for cards at least partly visible (>= MIN_VISIBLE_FRACTION). */
export interface RenderedFrame {
  jpeg: Buffer;
  width: number;
  height: number;
  truth: CardTruth[];
}

/** A frame with its raw pixels too (for dataset crops and tests). */
export interface DetailedFrame extends RenderedFrame {
  /** Packed RGB before JPEG, `width * height * 3` bytes. */
  rgb: Uint8Array;
  /** Per pixel: index into scene.cards of the card seen there, -2 for a hand, -1 for the table. */
  owner: Int32Array;
}

/** The renderer returned by createRenderer. */
export interface Renderer {
  render(scene: TableScene): Promise<RenderedFrame>;
  /** Like render, plus raw RGB and the per-pixel owner map. */
  renderDetailed(scene: TableScene): Promise<DetailedFrame>;
  deckInfo(deckId: string): { faces: string; back: string };
  /** Rasterises every face and the back of these decks now, so the first frames are not slow. Additive. */
  preload(deckIds: string[]): Promise<void>;
  camera: CameraPose;
  /** The surface and light this renderer's seed chose (for contact sheets and docs). */
  look: { surface: SurfaceStyle; light: LightStyle };
}

const MAX_PIXELS = 4096 * 4096;

/** Exposure time that smears moving cards and hands, seconds (webcams indoors expose ~1/30 s). */
const EXPOSURE_S = 1 / 30;

/** Cards showing less than this fraction (a sliver of edge under a stack) get no truth entry. */
export const MIN_VISIBLE_FRACTION = 0.005;

/**
 * Where a card's index (rank over suit) lies, card millimetres from its top-left corner: u across,
 * v down. The bottom-right index is its half-turn twin. Measured on the card-art decks: standard
 * indices lie within 1.5-8 mm of the long edge and 2-17 mm of the short one (jumbo indices run
 * wider, to 13 mm, and are readable with less of them showing).
 */
export const INDEX_CORNER_MM = { u0: 1.5, u1: 8, v0: 2, v1: 17 } as const;

/** Index-corner sample points per card: a grid of this many across by twice as many down. */
const INDEX_SAMPLES_ACROSS = 5;

/**
 * The share of the better-showing of a card's two index corners that is its own in the owner map
 * (`owner`: per pixel the index of the card seen there). Points outside the image count as hidden.
 */
function indexVisibleFraction(toImage: CardGeometry['toImage'], owner: Int32Array, index: number, width: number, height: number): number {
  const { u0, u1, v0, v1 } = INDEX_CORNER_MM;
  const across = INDEX_SAMPLES_ACROSS;
  const down = 2 * across;
  let best = 0;
  for (const turned of [false, true]) {
    let seen = 0;
    for (let i = 0; i < across; i++) {
      for (let j = 0; j < down; j++) {
        const u = u0 + ((i + 0.5) / across) * (u1 - u0);
        const v = v0 + ((j + 0.5) / down) * (v1 - v0);
        const [x, y] = turned ? applyHomography(toImage, CARD_WIDTH_MM - u, CARD_HEIGHT_MM - v) : applyHomography(toImage, u, v);
        const px = Math.floor(x);
        const py = Math.floor(y);
        if (px >= 0 && py >= 0 && px < width && py < height && owner[py * width + px] === index) seen++;
      }
    }
    best = Math.max(best, seen / (across * down));
  }
  return best;
}

function checkOptions(opts: RendererOptions): { width: number; height: number } {
  if (!opts || typeof opts !== 'object') throw new Error('createRenderer: options object required');
  if (!Number.isFinite(opts.seed)) throw new Error('createRenderer: seed must be a finite number');
  const width = opts.width ?? (typeof opts.camera === 'object' ? opts.camera.width : 1280);
  const height = opts.height ?? (typeof opts.camera === 'object' ? opts.camera.height : 720);
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 16 || height < 16 || width * height > MAX_PIXELS) {
    throw new Error(`createRenderer: bad image size ${width}x${height} (integers, at least 16, at most 4096x4096)`);
  }
  if (opts.jpegQuality !== undefined && !(opts.jpegQuality >= 1 && opts.jpegQuality <= 100)) {
    throw new Error('createRenderer: jpegQuality must be in 1..100');
  }
  return { width, height };
}

function checkScene(scene: TableScene): void {
  if (!scene || !Array.isArray(scene.cards) || !Array.isArray(scene.hands)) {
    throw new Error('render: scene must have cards and hands arrays');
  }
  for (const card of scene.cards) {
    if (!isCardCode(card.code)) throw new Error(`render: card ${card.id} has a bad code ${String(card.code)}`);
    if (![card.xMm, card.yMm, card.zMm, card.rotationRad].every(Number.isFinite)) {
      throw new Error(`render: card ${card.id} has a non-finite pose`);
    }
  }
  for (const hand of scene.hands) {
    if (![hand.xMm, hand.yMm, hand.zMm, hand.elbowXMm, hand.elbowYMm].every(Number.isFinite)) {
      throw new Error(`render: hand of seat ${hand.seat} has a non-finite pose`);
    }
  }
}

function validTable(table: TableScene['table'] | undefined): boolean {
  return !!table && Number.isFinite(table.widthMm) && Number.isFinite(table.heightMm) && table.widthMm > 0 && table.heightMm > 0;
}

/** Projected geometry of one card: homography card mm -> image px and its corners. */
interface CardGeometry {
  toImage: ReturnType<typeof planeHomography>;
  corners: Quad;
  box: PixelBox | null;
  areaPx: number;
  pxPerMm: number;
}

function cardGeometry(frame: CameraFrame, card: CardPose, width: number, height: number): CardGeometry | null {
  const c = Math.cos(card.rotationRad);
  const s = Math.sin(card.rotationRad);
  // Counter-clockwise seen from above, with table y pointing down the top-down image.
  const axisS = { x: c, y: -s, z: 0 };
  const axisT = { x: s, y: c, z: 0 };
  const origin = {
    x: card.xMm - axisS.x * (CARD_WIDTH_MM / 2) - axisT.x * (CARD_HEIGHT_MM / 2),
    y: card.yMm - axisS.y * (CARD_WIDTH_MM / 2) - axisT.y * (CARD_HEIGHT_MM / 2),
    z: card.zMm,
  };
  const toImage = planeHomography(frame, origin, axisS, axisT);
  const cornerMm: Array<[number, number]> = [[0, 0], [CARD_WIDTH_MM, 0], [CARD_WIDTH_MM, CARD_HEIGHT_MM], [0, CARD_HEIGHT_MM]];
  for (const [u, v] of cornerMm) {
    if (toImage[6] * u + toImage[7] * v + toImage[8] <= 1) return null; // behind the camera
  }
  const corners = cornerMm.map(([u, v]) => applyHomography(toImage, u, v)) as Quad;
  let area = 0;
  for (let k = 0; k < 4; k++) {
    const [x1, y1] = corners[k];
    const [x2, y2] = corners[(k + 1) % 4];
    area += x1 * y2 - x2 * y1;
  }
  area = Math.abs(area) / 2;
  // Rounded corners remove (4 - pi) r^2 of the rectangle.
  const roundedFraction = 1 - ((4 - Math.PI) * 9) / (CARD_WIDTH_MM * CARD_HEIGHT_MM);
  return {
    toImage,
    corners,
    box: clippedBox(corners, width, height),
    areaPx: area * roundedFraction,
    pxPerMm: Math.sqrt(area / (CARD_WIDTH_MM * CARD_HEIGHT_MM)),
  };
}

function pickLevel(texture: CardTexture, pxPerMm: number): TextureLevel {
  // Choose the mip whose texels are at most ~1.4 per image pixel: sharp but not aliased.
  let level = texture.levels[0];
  for (const candidate of texture.levels) {
    level = candidate;
    if (candidate.width / CARD_WIDTH_MM / pxPerMm <= 1.4) break;
  }
  return level;
}

/** Creates a renderer; loads art lazily on first render of each deck. Throws clear errors on bad options. */
export async function createRenderer(opts: RendererOptions): Promise<Renderer> {
  const { width, height } = checkOptions(opts);
  if (opts.table && !validTable(opts.table)) throw new Error('createRenderer: table must have positive widthMm and heightMm');
  const table = opts.table ?? DEFAULT_TABLE_MM;
  let camera: CameraPose;
  if (typeof opts.camera === 'object') {
    const problem = validateCamera(opts.camera);
    if (problem) throw new Error(`createRenderer: ${problem}`);
    camera = { ...opts.camera, width, height, focalPx: opts.camera.focalPx * (width / opts.camera.width) };
  } else {
    camera = presetCamera(opts.camera ?? 'top', width, height, table);
  }
  const frame = cameraFrame(camera);
  const catalogue: ArtCatalogue = createArtCatalogue({ artDir: opts.artDir });
  const rng = createRng(opts.seed);
  const surface: SurfaceStyle = { ...randomSurface(rng), ...(opts.look?.surface ?? {}) };
  let light: LightStyle = { ...randomLight(rng), ...(opts.look?.light ?? {}) };
  if (opts.look?.plain) {
    light = {
      ...light,
      exposure: 1,
      gradientStrength: 0,
      vignette: 0,
      spot: { ...light.spot, strength: 0 },
      glare: [],
      whiteBalance: [1, 1, 1],
      noiseSigma: 0,
      defocusSigma: 0,
      shadowStrength: 0,
    };
  }
  const jpegQuality = opts.jpegQuality ?? light.jpegQuality;
  // The surface is baked for one table size: the option's, else the first scene's (re-baked if it changes).
  let baked = opts.table ? renderSurfaceWithMask(camera, surface, opts.table) : null;
  let backgroundTable = opts.table ? `${opts.table.widthMm}x${opts.table.heightMm}` : '';
  const { gain, glare } = renderLightField(width, height, light);
  const noiseLength = width * height * 3 + 65536;
  const noise = createNoiseTable(noiseLength);
  const layers: Layers = createLayers(width, height);

  // Face styles in the seeded pool (optionally narrowed for dataset hold-outs).
  const include = opts.faceStylePool?.include;
  const exclude = opts.faceStylePool?.exclude ?? [];
  const excluded = (name: string) => exclude.some((pattern) => matchesStyle(pattern, name));
  let facePool = catalogue.faces.map((f) => f.name);
  if (include) {
    // Generated styles outside the default pool can be named explicitly (gen-<n>).
    const explicit = include.filter((n) => /^gen-\d+$/.test(n) && !facePool.includes(n));
    facePool = [...facePool.filter((n) => include.some((pattern) => matchesStyle(pattern, n))), ...explicit];
  }
  facePool = facePool.filter((n) => !excluded(n));
  if (facePool.length === 0) throw new Error('createRenderer: the face style pool is empty after include/exclude');
  const backPool = catalogue.backs.map((b) => b.name).filter((n) => !excluded(n));
  const deckChoices = new Map<string, { faces: string; back: string }>();
  const usedBacks = new Set<string>();
  // Backs in use, by canonical artwork name (twins from npm and the shared data count as one).
  for (const [, chosen] of Object.entries(opts.decks ?? {})) if (chosen.back) usedBacks.add(canonicalBack(chosen.back));
  const backFree = (name: string) => !usedBacks.has(canonicalBack(name));

  function deckInfo(deckId: string): { faces: string; back: string } {
    const known = deckChoices.get(deckId);
    if (known) return known;
    const asked = opts.decks?.[deckId] ?? {};
    const pick = createRng(hashString(`${opts.seed}/${deckId}`));
    // Half the decks from published art (when the pool has any), half generated, so neither dominates.
    const published = facePool.filter((n) => !/^gen-\d+$/.test(n));
    const generated = facePool.filter((n) => /^gen-\d+$/.test(n));
    const fromPublished = published.length > 0 && (generated.length === 0 || pick.chance(0.5));
    const faces = asked.faces ?? pick.pick(fromPublished ? published : generated);
    let back = asked.back;
    if (!back) back = catalogue.folderBacks.find(backFree);
    if (!back) {
      // Prefer the deck's own backs for published art a third of the time, else any; never reuse one.
      const own = backPool.filter((b) => b.startsWith(`${faces}/`) && backFree(b));
      const candidates = own.length > 0 && pick.chance(0.35) ? own : backPool.filter(backFree);
      back = candidates.length > 0 ? pick.pick(candidates) : `gen-back-${1000 + deckChoices.size}`;
    }
    catalogue.face(faces); // throws a clear error for an unknown name
    catalogue.back(back);
    usedBacks.add(canonicalBack(back));
    const info = { faces, back };
    deckChoices.set(deckId, info);
    return info;
  }

  // Reused between frames: the composed RGB image (sharp has finished with it once encoded).
  const composed = new Uint8Array(width * height * 3);

  async function renderFrame(scene: TableScene, keepPixels: boolean): Promise<DetailedFrame> {
    checkScene(scene);
    if (!opts.table) {
      const key = `${scene.table.widthMm}x${scene.table.heightMm}`;
      if (!baked || key !== backgroundTable) {
        baked = renderSurfaceWithMask(camera, surface, validTable(scene.table) ? scene.table : undefined);
        backgroundTable = key;
      }
    }
    const frameRng = createRng(hashString(`${opts.seed}/${scene.timeMs}`));
    // Load every texture this frame needs (cached after first use).
    const textures = await Promise.all(
      scene.cards.map((card) => {
        const info = deckInfo(card.deckId);
        return card.faceUp ? faceTexture(catalogue.face(info.faces), card.code) : backTexture(catalogue.back(info.back));
      }),
    );
    clearLayers(layers);
    for (const hand of scene.hands) {
      const capsules = handCapsules(frame, hand);
      // Smear width: the hand's image-space travel during the exposure.
      let smearPx = 1;
      if (hand.velocityMmPerS && capsules.length > 0) {
        const speedMm = Math.hypot(hand.velocityMmPerS.x, hand.velocityMmPerS.y) * EXPOSURE_S;
        const pxPerMm = capsules[0].ra / 8.8; // the first finger capsule is 8.8 mm thick at its base
        smearPx = Math.max(1, speedMm * pxPerMm);
      }
      drawCapsules(layers, capsules, OWNER_HAND, smearPx);
    }

    const geometries: Array<CardGeometry | null> = scene.cards.map((card) => cardGeometry(frame, card, width, height));
    const ownedPixels = new Int32Array(scene.cards.length);
    const exposureS = EXPOSURE_S;
    for (let index = scene.cards.length - 1; index >= 0; index--) {
      const geometry = geometries[index];
      if (!geometry || !geometry.box) continue;
      const card = scene.cards[index];
      const imageToCard = invert3(geometry.toImage);
      let blurX = 0;
      let blurY = 0;
      if (card.velocityMmPerS) {
        const a = applyHomography(geometry.toImage, CARD_WIDTH_MM / 2, CARD_HEIGHT_MM / 2);
        const moved = card.velocityMmPerS;
        const c = Math.cos(card.rotationRad);
        const s = Math.sin(card.rotationRad);
        // Table-plane motion expressed in card axes, then through the card's homography.
        const du = (moved.x * c - moved.y * s) * exposureS;
        const dv = (moved.x * s + moved.y * c) * exposureS;
        const b = applyHomography(geometry.toImage, CARD_WIDTH_MM / 2 + du, CARD_HEIGHT_MM / 2 + dv);
        blurX = b[0] - a[0];
        blurY = b[1] - a[1];
      }
      const box = blurX || blurY ? clippedBox([
        [geometry.box.x0 - Math.abs(blurX), geometry.box.y0 - Math.abs(blurY)],
        [geometry.box.x1 + Math.abs(blurX), geometry.box.y1 + Math.abs(blurY)],
      ], width, height) : geometry.box;
      if (!box) continue;
      ownedPixels[index] = drawCard(layers, {
        imageToCard,
        box,
        texture: pickLevel(textures[index], geometry.pxPerMm),
        pxPerMm: geometry.pxPerMm,
        brightness: 0.95 + 0.08 * createRng(hashString(`${opts.seed}/${card.id}`)).next(),
        blurX,
        blurY,
        ownerId: index,
      });
    }

    // Shadows: cards darken the table around them, hands darken everything below.
    if (light.shadowStrength > 0) {
      const offsetPerMm: [number, number] = [Math.cos(light.shadowAngleRad) * light.shadowPxPerMmHeight, Math.sin(light.shadowAngleRad) * light.shadowPxPerMmHeight];
      for (let index = 0; index < scene.cards.length; index++) {
        const geometry = geometries[index];
        if (!geometry) continue;
        const card = scene.cards[index];
        const lift = card.zMm + 1.5;
        const ox = offsetPerMm[0] * lift * geometry.pxPerMm;
        const oy = offsetPerMm[1] * lift * geometry.pxPerMm;
        const soft = 1.2 + card.zMm * 0.15;
        const grow = (soft + 2) * geometry.pxPerMm;
        const box = clippedBox(geometry.corners.map(([x, y]) => [x + ox, y + oy] as [number, number]), width, height, grow);
        if (!box) continue;
        drawCardShadow(layers, invert3(geometry.toImage), box, ox, oy, soft, light.shadowStrength * 0.8);
      }
      for (const hand of scene.hands) {
        const capsules = handShadowCapsules(frame, hand, [Math.cos(light.shadowAngleRad) * light.shadowPxPerMmHeight, Math.sin(light.shadowAngleRad) * light.shadowPxPerMmHeight]);
        drawCapsuleShadow(layers, capsules, 10 + hand.zMm * 0.1, light.shadowStrength);
      }
    }

    // Auto-exposure hunts a little from frame to frame.
    const flicker = light.noiseSigma > 0 ? 1 + frameRng.normal() * 0.012 : 1;
    const { colour: background, onTable } = baked as NonNullable<typeof baked>;
    const rgb = compose(layers, background, onTable, gain, glare, light, noise, frameRng.int(0, 65535), composed, flicker);
    let pipeline = sharp(rgb, { raw: { width, height, channels: 3 } });
    if (light.defocusSigma >= 0.3) pipeline = pipeline.blur(light.defocusSigma);
    const jpeg = await pipeline.jpeg({ quality: Math.round(jpegQuality), chromaSubsampling: '4:2:0' }).toBuffer();

    const truth: CardTruth[] = [];
    for (let index = 0; index < scene.cards.length; index++) {
      const geometry = geometries[index];
      if (!geometry || ownedPixels[index] === 0) continue;
      const visibleFraction = Math.min(1, ownedPixels[index] / Math.max(1, geometry.areaPx));
      if (visibleFraction < MIN_VISIBLE_FRACTION) continue;
      const card = scene.cards[index];
      const info = deckInfo(card.deckId);
      truth.push({
        id: card.id,
        code: card.code,
        deckId: card.deckId,
        owner: card.owner,
        backDesign: info.back,
        faceUp: card.faceUp,
        corners: geometry.corners,
        visibleFraction,
        indexVisibleFraction: indexVisibleFraction(geometry.toImage, layers.owner, index, width, height),
        zone: card.zone,
        faceStyle: info.faces,
      });
    }
    if (!keepPixels) return { jpeg, width, height, truth, rgb: new Uint8Array(0), owner: new Int32Array(0) };
    return { jpeg, width, height, truth, rgb: rgb.slice(), owner: layers.owner.slice() };
  }

  // Frames render one at a time: the buffers above are shared, so overlapping calls queue up.
  let queue: Promise<unknown> = Promise.resolve();
  function serialised(scene: TableScene, keepPixels: boolean): Promise<DetailedFrame> {
    const next = queue.then(() => renderFrame(scene, keepPixels));
    queue = next.catch(() => undefined);
    return next;
  }

  return {
    async render(scene) {
      const { jpeg, truth } = await serialised(scene, false);
      return { jpeg, width, height, truth };
    },
    renderDetailed: (scene) => serialised(scene, true),
    deckInfo,
    async preload(deckIds) {
      const jobs: Array<Promise<unknown>> = [];
      for (const deckId of deckIds) {
        const info = deckInfo(deckId);
        const style = catalogue.face(info.faces);
        for (const code of ALL_CARD_CODES) jobs.push(faceTexture(style, code));
        jobs.push(backTexture(catalogue.back(info.back)));
      }
      await Promise.all(jobs);
    },
    camera,
    look: { surface, light },
  };
}

/** Camera tone curve: linear up to 235, then a soft shoulder instead of hard clipping; index = value + 256. */
const TONE_CURVE = (() => {
  const lut = new Uint8Array(1024);
  for (let i = 0; i < 1024; i++) {
    const v = i - 256;
    const shaped = v > 235 ? 235 + (v - 235) * 0.35 : v;
    lut[i] = shaped < 0 ? 0 : shaped > 255 ? 255 : Math.round(shaped);
  }
  return lut;
})();

/** Puts the table under the drawn layers and applies light, glare, white balance and noise. */
function compose(
  layers: Layers,
  background: Float32Array,
  onTable: Uint8Array,
  gain: Float32Array,
  glare: Float32Array,
  light: LightStyle,
  noise: Int8Array,
  noiseOffset: number,
  out: Uint8Array,
  exposure: number,
): Uint8Array {
  const { colour, alpha, cardShadow, handShadow } = layers;
  const n = layers.width * layers.height;
  const wr = light.whiteBalance[0] * exposure;
  const wg = light.whiteBalance[1] * exposure;
  const wb = light.whiteBalance[2] * exposure;
  const noiseScale = light.noiseSigma / 16;
  const curve = TONE_CURVE;
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    const a = alpha[i];
    const under = (1 - a) * (1 - cardShadow[i]);
    // Shadows fall on the table and what lies on it; the floor beyond is far below.
    const lit = gain[i] * (onTable[i] === 1 || a > 0.5 ? 1 - handShadow[i] : 1);
    const shine = glare[i] * (0.35 + 0.65 * a) + 256.5;
    const k = noiseOffset + j;
    // Mostly luminance noise shared by the channels, plus weaker per-channel (chroma) noise.
    const luma = noise[k] * noiseScale * 0.8;
    const chroma = noiseScale * 0.55;
    // Index into the tone curve (offset 256 so small negatives stay in range), clamped to 0..1023.
    let r = ((colour[j] + under * background[j]) * lit * wr + shine + luma + noise[k + 1] * chroma) | 0;
    let g = ((colour[j + 1] + under * background[j + 1]) * lit * wg + shine + luma + noise[k + 2] * chroma) | 0;
    let b = ((colour[j + 2] + under * background[j + 2]) * lit * wb + shine + luma + noise[k + 3] * chroma) | 0;
    if (r > 1023) r = 1023;
    if (g > 1023) g = 1023;
    if (b > 1023) b = 1023;
    out[j] = curve[r < 0 ? 0 : r];
    out[j + 1] = curve[g < 0 ? 0 : g];
    out[j + 2] = curve[b < 0 ? 0 : b];
  }
  return out;
}
