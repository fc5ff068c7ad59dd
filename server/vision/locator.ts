/**
 * The learned card locator (models/card-locator): a small fully convolutional net that marks
 * every visible card's centre on a grid LOCATOR_STRIDE pixels apart and regresses, at that cell,
 * the card's sub-cell offset, size, aspect and orientation. Decoding takes the local maxima of the
 * centre map, so cards that overlap (cascades, fans, stacks) stay separate as long as their
 * centres do. It runs at a few image scales and merges, so a card 15 px wide and one filling half
 * a phone photo are both found. Pure decoding is separate from the TF.js call.
 */
import * as tf from '@tensorflow/tfjs';
import type { RgbImage } from './crop';
import type { LocatedCard } from './locate';
import { REFINE_DEFAULTS, refineGeometry, toGrey, type GreyImage } from './refine';
import type { Point, Quad } from './types';

/** Input pixels per output cell. */
export const LOCATOR_STRIDE = 4;
/** Model inputs are padded to a multiple of this (its coarsest level). */
export const LOCATOR_ALIGN = 32;
/**
 * Output channels in order: centre heat (a logit; in training targets 0..1, or −1 where the
 * answer is ambiguous and not scored), sub-cell offset of the centre, log of the card's short
 * side in cells, log of long/short, and the long axis angle θ as cos 2θ, sin 2θ (a card looks
 * the same turned half a turn).
 */
export const LOCATOR_CHANNELS = ['heat', 'dx', 'dy', 'logShort', 'logAspect', 'cos2', 'sin2'] as const;
/** Channels the model predicts. */
export const LOCATOR_OUTPUTS = LOCATOR_CHANNELS.length;

/** Tunables of the learned locator. */
export const LOCATOR_DEFAULTS = {
  /** Longest image side at each scale the net runs at (never upscaled past the input). */
  scales: [640, 320],
  /** A centre peak below this probability is no card. */
  threshold: 0.35,
  /** Two cards whose centres lie closer than this fraction of the card's short side are one. */
  mergeDistance: 0.3,
  /** Card width (net px) to scale to when the card size is known (mid-range of the training windows). */
  preferredCardWidth: 40,
};

/** A card as the net describes it: centre, sides, and the long axis angle (radians, mod π). */
export interface CardGeometry {
  cx: number;
  cy: number;
  short: number;
  long: number;
  angle: number;
}

const dist = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);
const mid = (a: Point, b: Point): Point => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];

/** Geometry of a card quad (TL TR BR BL, TL→TR the short side). */
export function cardGeometry(corners: Quad): CardGeometry {
  const [tl, tr, br, bl] = corners;
  const top = mid(tl, tr);
  const bottom = mid(bl, br);
  return {
    cx: (tl[0] + tr[0] + br[0] + bl[0]) / 4,
    cy: (tl[1] + tr[1] + br[1] + bl[1]) / 4,
    short: (dist(tl, tr) + dist(bl, br)) / 2,
    long: (dist(tl, bl) + dist(tr, br)) / 2,
    angle: Math.atan2(bottom[1] - top[1], bottom[0] - top[0]),
  };
}

/** The rectangle quad of a geometry (which end is "top" is arbitrary: the card is symmetric). */
export function geometryQuad(g: CardGeometry): Quad {
  const ax = Math.cos(g.angle) * (g.long / 2);
  const ay = Math.sin(g.angle) * (g.long / 2);
  const px = Math.sin(g.angle) * (g.short / 2);
  const py = -Math.cos(g.angle) * (g.short / 2);
  return [
    [g.cx - ax - px, g.cy - ay - py],
    [g.cx - ax + px, g.cy - ay + py],
    [g.cx + ax + px, g.cy + ay + py],
    [g.cx + ax - px, g.cy + ay - py],
  ];
}

/** A decoded card: geometry in input-image pixels plus the centre probability. */
export interface LocatorDetection extends CardGeometry {
  score: number;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/**
 * Decodes one output map (`gw` x `gh` cells, LOCATOR_OUTPUTS channels per cell, row-major) into
 * detections in the net's input pixels: every cell whose centre probability reaches `threshold`
 * and beats its eight neighbours.
 */
export function decodeLocatorOutput(out: Float32Array, gw: number, gh: number, threshold = LOCATOR_DEFAULTS.threshold): LocatorDetection[] {
  const ch = LOCATOR_OUTPUTS;
  if (out.length !== gw * gh * ch) throw new Error(`locator output has ${out.length} values, expected ${gw}x${gh}x${ch}`);
  const logit = Math.log(threshold / (1 - threshold));
  const found: LocatorDetection[] = [];
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      const o = (y * gw + x) * ch;
      const z = out[o];
      if (z < logit) continue;
      let peak = true;
      for (let dy = -1; dy <= 1 && peak; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if ((dx || dy) && x + dx >= 0 && y + dy >= 0 && x + dx < gw && y + dy < gh && out[((y + dy) * gw + x + dx) * ch] > z) {
            peak = false;
            break;
          }
        }
      }
      if (!peak) continue;
      const short = Math.exp(out[o + 3]) * LOCATOR_STRIDE;
      found.push({
        cx: (x + 0.5 + out[o + 1]) * LOCATOR_STRIDE,
        cy: (y + 0.5 + out[o + 2]) * LOCATOR_STRIDE,
        short,
        long: short * Math.exp(out[o + 4]),
        angle: Math.atan2(out[o + 6], out[o + 5]) / 2,
        score: sigmoid(z),
      });
    }
  }
  return found;
}

/**
 * Whether two card geometries describe one card: centres closer than `mergeDistance` of the
 * smaller short side and, with `sameSize`, short sides within a factor 1.6.
 */
export function sameCardGeometry(a: CardGeometry, b: CardGeometry, mergeDistance = LOCATOR_DEFAULTS.mergeDistance, sameSize = true): boolean {
  const smaller = Math.min(a.short, b.short);
  return Math.hypot(a.cx - b.cx, a.cy - b.cy) < mergeDistance * smaller && (!sameSize || Math.max(a.short, b.short) / smaller < 1.6);
}

/** Merges detections (from several scales) that describe one card (`sameCardGeometry`), keeping the best score. */
export function mergeDetections(detections: LocatorDetection[], mergeDistance = LOCATOR_DEFAULTS.mergeDistance): LocatorDetection[] {
  const kept: LocatorDetection[] = [];
  for (const d of detections.slice().sort((a, b) => b.score - a.score)) if (!kept.some((k) => sameCardGeometry(k, d, mergeDistance))) kept.push(d);
  return kept;
}

/** Scale factors (net px per image px) at which to run the net on a `width` x `height` image. */
export function locatorScales(width: number, height: number, scales: readonly number[] = LOCATOR_DEFAULTS.scales): number[] {
  const long = Math.max(width, height);
  return [...new Set(scales.map((side) => Math.min(1, side / long)))];
}

/** Net px per image px that makes a card `cardWidthPx` wide about as wide as the net likes best. */
export function locatorScaleForCard(cardWidthPx: number): number {
  return Math.min(1, LOCATOR_DEFAULTS.preferredCardWidth / Math.max(1, cardWidthPx));
}

/** Options for one runLocator call. */
export interface RunLocatorOptions {
  /** Net px per image px, one run each (default: locatorScales of the image). */
  factors?: readonly number[];
  threshold?: number;
  /** Fit each card's outline to the image's edges (refine.ts; default true). */
  refine?: boolean;
}

/** Runs the locator net on `image` at every scale and returns the merged cards in image pixels. */
export async function runLocator(model: tf.LayersModel, image: RgbImage, options: RunLocatorOptions = {}): Promise<LocatedCard[]> {
  const all: LocatorDetection[] = [];
  for (const scale of options.factors ?? locatorScales(image.width, image.height)) {
    const w = Math.max(LOCATOR_ALIGN, Math.round(image.width * scale));
    const h = Math.max(LOCATOR_ALIGN, Math.round(image.height * scale));
    const pw = Math.ceil(w / LOCATOR_ALIGN) * LOCATOR_ALIGN;
    const ph = Math.ceil(h / LOCATOR_ALIGN) * LOCATOR_ALIGN;
    const output = tf.tidy(() => {
      const pixels = tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
      const resized = tf.image.resizeBilinear(pixels.toFloat().div(255) as tf.Tensor3D, [h, w], true);
      const padded = resized.pad([[0, ph - h], [0, pw - w], [0, 0]], 0.3);
      return model.predict(padded.expandDims(0)) as tf.Tensor;
    });
    const values = (await output.data()) as Float32Array;
    output.dispose();
    const sx = w / image.width;
    const sy = h / image.height;
    for (const d of decodeLocatorOutput(values, pw / LOCATOR_STRIDE, ph / LOCATOR_STRIDE, options.threshold)) {
      // Keep centres inside the real image (the padding holds none).
      if (d.cx >= w || d.cy >= h) continue;
      all.push({ ...d, cx: d.cx / sx, cy: d.cy / sy, short: d.short / sx, long: d.long / sy });
    }
  }
  const cards = mergeDetections(all).map((d) => ({ corners: geometryQuad(d), source: 'net' as const, support: d.score }));
  return options.refine === false ? cards : refineLocated(image, cards);
}

/**
 * The net finds where cards are better than their exact angle: fits the outline of each card the
 * net found to the image's edges (refine.ts), dropping those with no card edge to fit. Cards
 * from other sources are returned as they are. With `rivals`, outlines that differ are all kept
 * as rivals (the surer reading stays): the fit near the net's own size, and on a calibrated
 * table (`cardAbout`: the card of the calibrated size lying about an outline) the card of its
 * known size, fitted in angle and place only. With `sureDetection`, a net card at least that sure
 * whose fits all lack a clear edge keeps its best fit and its own outline, rivals, marked faintEdge.
 * `knownSizeOnly` (with `cardAbout`): only the card of the known size is fitted, about a sixth of
 * the time of the three fits (a plain pale table's live frames, where the calibrated size is right).
 */
export function refineLocated(
  image: RgbImage,
  cards: LocatedCard[],
  { rivals = false, cardAbout, sureDetection = Infinity, knownSizeOnly = false }: { rivals?: boolean; cardAbout?: (quad: Quad) => Quad; sureDetection?: number; knownSizeOnly?: boolean } = {},
): LocatedCard[] {
  if (!cards.some((card) => card.source === 'net')) return cards;
  const grey = toGrey(image);
  return cards.flatMap((card) => {
    if (card.source !== 'net') return [card];
    const detected = cardGeometry(card.corners);
    if (knownSizeOnly && cardAbout) return knownSizeFit(grey, card, cardAbout, sureDetection);
    const fits = [refineGeometry(grey, detected)];
    // The widest fit is right more often (the net's size is often 20-40 % off), but on a pale
    // ground it can take in a neighbour: the fit near the net's own size is the rival outline.
    if (rivals) {
      const near = refineGeometry(grey, detected, { ...REFINE_DEFAULTS, scales: RIVAL_SCALES });
      if (distinctOutlines(fits[0], near, RIVAL_SIZE_RATIO, false)) fits.push(near);
      // Both can settle on part of a card: on a near-black checked back the brightest step is
      // its pale oval's, and a fit from a net size a sixth short read as a KD (the 6-player sort).
      if (cardAbout) {
        const sized = fitOfKnownSize(grey, cardGeometry(cardAbout(card.corners)));
        // A rival to fits a little off its size either way, its length too (cut at a pattern's edge).
        if (fits.every((fit) => distinctOutlines(fit, sized, SIZED_RIVAL_RATIO, true))) fits.push(sized);
      }
    }
    const kept = fits.filter((fit) => fit.edge >= REFINE_DEFAULTS.minEdge);
    // A card the net is sure of stays however faint its edge (white on white: a card on a card,
    // or on a cream cloth), the reader then sure of it (faintEdge). With no clear edge the best
    // fit may have followed something else (photo IMG_2460: a QD on a towel, fitted along the
    // edge of the cloth over it): the net's own outline is its rival (the surer reading stays).
    if (kept.length === 0 && card.support >= sureDetection) {
      const best = fits.reduce((a, b) => (b.edge > a.edge ? b : a));
      const rivalGroup = nextRivalGroup++;
      return [
        { ...card, corners: geometryQuad(best), faintEdge: true, rivalGroup },
        { ...card, faintEdge: true, rivalGroup },
      ];
    }
    // A card the net is sure of keeps its own outline as a rival too: on a cream table the clear
    // edges near a court card's are its picture frame's (render_0019's QH, fitted inside it).
    const own = rivals && card.support >= sureDetection && kept.every((fit) => distinctOutlines(fit, detected, RIVAL_SIZE_RATIO, true)) ? [detected] : [];
    const outlines = [...kept, ...own];
    const rivalGroup = outlines.length > 1 ? nextRivalGroup++ : undefined;
    return outlines.map((fit) => ({ ...card, corners: geometryQuad(fit), ...(rivalGroup === undefined ? {} : { rivalGroup }) }));
  });
}

/** A net card fitted at its known size only (refineLocated's `knownSizeOnly`): kept when the fit shows a clear edge, else, sure enough, as that fit and the net's own outline, rivals marked faintEdge. */
function knownSizeFit(grey: GreyImage, card: LocatedCard, cardAbout: (quad: Quad) => Quad, sureDetection: number): LocatedCard[] {
  const sized = fitOfKnownSize(grey, cardGeometry(cardAbout(card.corners)));
  if (sized.edge >= REFINE_DEFAULTS.minEdge) return [{ ...card, corners: geometryQuad(sized) }];
  if (card.support < sureDetection) return [];
  const rivalGroup = nextRivalGroup++;
  return [
    { ...card, corners: geometryQuad(sized), faintEdge: true, rivalGroup },
    { ...card, faintEdge: true, rivalGroup },
  ];
}

/**
 * Without a calibration a card's size is unknown, but the cards read surely in the frame show it:
 * the medians of their short and long sides (null with fewer than `min` of them).
 */
export function typicalCardSize(quads: Quad[], min = 2): { short: number; long: number } | null {
  if (quads.length < min) return null;
  const median = (values: number[]) => {
    const sorted = values.slice().sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  const shapes = quads.map(cardGeometry);
  return { short: median(shapes.map((g) => g.short)), long: median(shapes.map((g) => g.long)) };
}

/**
 * The card of `size` about an outline (same centre), fitted to the image's edges in angle and
 * place only (refine.ts, every angle tried: the small outline's own angle says little). For an
 * outline clearly smaller than the frame's cards: a court card's picture frame, or the net's
 * guess of a card lying sideways a size too small. Its edge may be faint (a white card on a
 * cream cloth): the reader decides.
 */
export function cardOfSizeAbout(grey: GreyImage, corners: Quad, size: { short: number; long: number }): Quad {
  const { cx, cy, angle } = cardGeometry(corners);
  return geometryQuad(fitOfKnownSize(grey, { cx, cy, angle, ...size }));
}

/** `known` fitted to the image's edges in angle and place only, its size and aspect kept (refine.ts). */
function fitOfKnownSize(grey: GreyImage, known: CardGeometry): CardGeometry & { edge: number } {
  return refineGeometry(grey, known, { ...REFINE_DEFAULTS, scales: [1], aspects: [known.long / known.short], resize: false });
}

/**
 * A net card whose centre score is at least this keeps its best outline when no fit finds a clear
 * edge (refineLocated's sureDetection; the recogniser uses it without a calibration). On the
 * held-out rendered frames 131 of about 1,000 cards the net found were lost to the edge test
 * (white on white: a card on a card, a card on a cream cloth); the net's false cards rarely score
 * this high, and such an outline (and the net's own, its rival) counts only when read as a sure face.
 */
export const SURE_DETECTION = 0.45;

/** Rival groups are numbered once per process: outlines from different frames or regions never share one. */
let nextRivalGroup = 0;

/** A rival group number no other outline holds yet (see LocatedCard.rivalGroup). */
export function newRivalGroup(): number {
  return nextRivalGroup++;
}
/** Sizes (of the net's short side) the rival outline is fitted at. */
const RIVAL_SCALES = [0.85, 0.92, 1, 1.08, 1.17];
/** A rival outline differs from the widest fit by this much in size, or by RIVAL_DISTANCE of a short side in centre. */
const RIVAL_SIZE_RATIO = 1.15;
const RIVAL_DISTANCE = 0.15;
/** The card of calibrated size is a rival outline when it differs from every fit by this much in either side (or RIVAL_DISTANCE in centre). */
const SIZED_RIVAL_RATIO = 1.08;

/** How many times the longer of two sides is the shorter. */
const sideRatio = (x: number, y: number) => Math.max(x, y) / Math.min(x, y);

/** Whether two fits are different outlines: centres RIVAL_DISTANCE of a short side apart, or the short side (with `length`, either side) more than `sizeRatio` off. */
function distinctOutlines(a: CardGeometry, b: CardGeometry, sizeRatio: number, length: boolean): boolean {
  return !sameCardGeometry(a, b, RIVAL_DISTANCE, true) || sideRatio(a.short, b.short) > sizeRatio || (length && sideRatio(a.long, b.long) > sizeRatio);
}

/**
 * When a sure net card is read beside the classical outlines claiming it (sureCardsClaimedAmiss):
 * each differs from it by `sizeRatio` in a side, or, for a net card at least `offCentreDetection`,
 * lies RIVAL_DISTANCE of a short side or more off its centre.
 */
export const CLAIMED_AMISS = { sizeRatio: 1.25, offCentreDetection: 0.8 } as const;

/**
 * The net's cards at least `sure` (SURE_DETECTION) that a classical outline claims (`unionOfLocated`
 * leaves them out) where every outline claiming them is another outline of the card (CLAIMED_AMISS):
 * of another size, or, when the net is very sure, off its centre; or where only split hypotheses
 * claim them (guesses in a merged blob: under an oblique camera a card lying sideways makes a blob
 * too long for one card, cut into skewed pieces, render_0020's QS; session 52: photos 98.86 →
 * 99.05 % found, IMG_2516's 9S; rendered scenes 85.04 → 85.68 % found, precision 68.86 → 67.85 %). The classical outline is exact
 * when it is of the card, but on clutter it can be a piece of it or lie off it: cam_image31's 10S on
 * pale wood grain was outlined 180x201 px (read as no card), the net's card 212x294 was never read;
 * IMG_2478's 10C on a flowered placemat was outlined at its size 26 px off, the net's card (0.82)
 * on it. The caller reads these as the claiming outline's rivals (the surer reading stays). Off-centre
 * whole outlines of the net's less sure cards are left alone: reading those from 0.45 up (session
 * 49, split hypotheses included) found no photo card more and cost the rendered scenes 1.3 points
 * of precision.
 */
export function sureCardsClaimedAmiss(claiming: LocatedCard[], learned: LocatedCard[], sure: number, rule: { sizeRatio: number; offCentreDetection: number } = CLAIMED_AMISS): LocatedCard[] {
  const outlines = claiming.map((card) => cardGeometry(card.corners));
  const off = (a: number, b: number) => sideRatio(a, b) >= rule.sizeRatio;
  return learned.filter((card) => {
    if (card.support < sure) return false;
    const g = cardGeometry(card.corners);
    const offCentre = (o: CardGeometry) => card.support >= rule.offCentreDetection && Math.hypot(o.cx - g.cx, o.cy - g.cy) >= RIVAL_DISTANCE * Math.min(o.short, g.short);
    const claimers = outlines.flatMap((o, i) => (sameCardGeometry(o, g) ? [i] : []));
    // Split hypotheses are guesses: the net's sure card is one more.
    if (claimers.length > 0 && claimers.every((i) => claiming[i].source === 'split')) return true;
    return claimers.length > 0 && claimers.every((i) => off(outlines[i].short, g.short) || off(outlines[i].long, g.long) || offCentre(outlines[i]));
  });
}

/**
 * The cards of `first` plus those of `second` that are new (not `sameCardGeometry` as one already
 * accepted; with `sameSize: false` only the centres are compared). `second` is deduplicated too,
 * except that rival outlines of one detection (same `rivalGroup`) all stay.
 */
export function unionOfLocated(first: LocatedCard[], second: LocatedCard[], { mergeDistance = LOCATOR_DEFAULTS.mergeDistance, sameSize = true } = {}): LocatedCard[] {
  const accepted = first.map((card) => ({ card, g: cardGeometry(card.corners) }));
  for (const card of second) {
    const g = cardGeometry(card.corners);
    const rival = (a: { card: LocatedCard }) => card.rivalGroup !== undefined && a.card.rivalGroup === card.rivalGroup;
    if (!accepted.some((a) => !rival(a) && sameCardGeometry(a.g, g, mergeDistance, sameSize))) accepted.push({ card, g });
  }
  return accepted.map(({ card }) => card);
}
