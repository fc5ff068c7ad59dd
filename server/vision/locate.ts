/**
 * Card localisation, classical: cards are bright, low-saturation shapes with a white border.
 * Threshold (low saturation AND bright) → external contours → a card-shaped blob is one card;
 * a bigger blob (stack, cascade, fan, cards touching) is split by hypothesising a card of the
 * known size at each of its convex right-angle corners and keeping hypotheses the mask supports.
 * Works on a downscaled copy (DETECT_MAX_SIDE); returns quads in the input image's pixels.
 */
import { boundingRect, rectsOverlap, type PixelRect } from './change';
import { CARD_ASPECT } from './classes';
import type { RgbImage } from './crop';
import type { CvMat, OpenCv } from './opencv';
import type { Point, Quad } from './types';
import { pointInPolygon, pointOfQuad, polygonArea, quadCentre, quadShortSide, sameCorners, shareInside } from '../geometry';
import { PROBE_DEFAULTS, probePile } from './probe';
import { cardGeometry, geometryQuad, sameCardGeometry, type CardGeometry } from './locator';
import { REFINE_DEFAULTS, refineGeometry } from './refine';
import { joinCollinear, LINE_DEFAULTS, quadsFromSegments, sideSupport, type Segment } from './lines';
import { flatSizer, planeSizer, type CardSizer, type TableMapping } from './card-size';

/** Tunables of the localiser, in detection-image pixels unless noted. */
export const LOCATE_DEFAULTS = {
  /** Longest side of the image the localiser works on, pixels. */
  detectMaxSide: 960,
  /** Bounds on the whiteness (value − saturation, 0..255) threshold chosen by Otsu. */
  minWhiteness: 100,
  maxWhiteness: 200,
  /** Canny thresholds for the edges that cut cards apart from each other and the cloth. */
  cannyLow: 60,
  cannyHigh: 160,
  /** Local threshold: whiteness must beat its neighbourhood mean by this much (0..255)... */
  localContrast: 12,
  /** ...over a window this many card widths across (estimated from the image size). */
  localWindow: 0.25,
  /** A card in shadow (no calibration): whiter than its neighbourhood mean by this much, and at least this white. */
  shadowContrast: 20,
  shadowMinWhiteness: 15,
  /** Pixels the edge cut shaves off a blob's outline, added back to the quads (detection px). */
  edgeShave: 1.5,
  /** Smallest card side we look for, detection pixels. */
  minCardSide: 14,
  /** Card aspect ratio (long / short) of a 63x88 mm card. */
  aspect: CARD_ASPECT,
  /** Accepted long/short ratio of a card outline in the image: an oblique camera foreshortens one side. */
  minAspect: 1.08,
  maxAspect: 1.8,
  /** Without a known card size, a card-shaped blob whose aspect is off a card's by more than this factor may hold several cards (mayHoldSeveral). */
  singleAspectSlack: 1.06,
  /** A blob is one card when it fills this much of its min-area rectangle... */
  singleFill: 0.86,
  /** ...and, with the card size known, is no wider than this many card widths. */
  maxSingleWidth: 1.6,
  /**
   * ...nor covers more than this many cards' area (known size). Two cards side by side along
   * their short sides make a card-shaped rectangle (2w x l has a card's aspect, 1.43), about 1.5
   * card widths wide, so the width alone let such a pair through as one card: a Nerts pile's top
   * and the work-pile card below it, outlined as one and read as neither, on the 2-player table.
   * A card lying on the table is at most 1.05 card areas from a top camera and about 1.6 from
   * an oblique one (near the camera); a pair is 2 or more.
   */
  maxSingleArea: 1.9,
  /** A hypothesised card is kept when this fraction of it lies on the mask. */
  minSupport: 0.82,
  /** A split hypothesis cut by the frame's edge (no calibration) must show at least this share of itself. */
  minCutShown: 0.3,
  /** ... and be this well supported where it shows (a court card's picture open to the edge is no hole to fill). */
  minCutSupport: 0.7,
  /** Hypotheses overlapping each other this much, each way, are one card. */
  sameOverlap: 0.8,
  /**
   * Pale patterned cloth (see paleTableShare): at least this share of the table at least
   * paleLevel white (value − saturation). A pale gingham measured 0.46; wood, felt, dots,
   * stripes and a dark gingham 0.02–0.18 (session 21).
   */
  paleLevel: 170,
  paleShare: 0.35,
  /**
   * On pale patterned cloth, for the whiter-than-the-cloth mask, in card widths: the cells whose
   * brightest pixel samples the cloth's white, the span the median of those takes, the closing
   * that fills a card's pips and the opening that leaves only cards; and how much whiter than
   * the cloth's white a card is (0..255).
   */
  paleCell: 0.22,
  paleSpan: 2.5,
  paleClose: 0.25,
  paleWhiterOpen: 0.42,
  paleAbove: 4,
  /**
   * Whiter-than-cloth levels above which an outline fitted there sees no difference, and the
   * edge (0..255 after stretching) the outline needs.
   */
  paleCap: 30,
  paleFitEdge: 60,
  /** The opening of the brightest-pixels mask (cloth as white as the cards), in card widths... */
  paleOpen: 0.6,
  /** ...and the edge floor of the outline fitted on the frame at its blobs (the cloth's squares are nearly as bright as a card). */
  paleMinEdge: 20,
  /**
   * A plain pale table (white or cream laminate): at least this share of it paleLevel white. A
   * white laminate measured 0.89, a cream one 0.88, the pale gingham 0.46-0.53 (session 23).
   */
  plainShare: 0.75,
  /**
   * On a plain pale table (see inkMask): how much darker than the table's white a card's ink is
   * (0..255); in card widths, the closing that joins a card's ink into one blob, the smallest
   * such blob (side of a square of its area), and for lone marks (see loneMarkCards) the wider
   * closing and its smallest blob; and how far off the calibrated width an outline is of the
   * wrong size (see resizedOutlines).
   */
  inkBelow: 15,
  inkClose: 0.35,
  inkMinBlob: 0.5,
  inkLoneClose: 0.7,
  inkLoneBlob: 0.3,
  offSize: 0.15,
  /**
   * With a calibration: a whole-card outline whose short side is this share of a card's width
   * is also read as the card of the calibrated size about it (grownOutlines): a back whose white
   * border reads as table is outlined on its pattern, about 0.75 of the card (or just inside the
   * border, 0.87: a green back on green felt, read as 'other' so).
   */
  grownBand: [0.6, 0.9] as [number, number],
  /**
   * With a calibration, a closed edge outline of a size in `grownBand` counts when its convex hull
   * fills this much of its rectangle (see closedOutlines): a near-black checked back's pale oval
   * reaches the inner edge of its thin cream border, and the dark field between them, 0.73 of a
   * card wide, filled only 0.55 of its rectangle (one of the 5-player sort's backs, session 32).
   */
  hullFill: 0.92,
  /**
   * With a calibration and `colourEdges`: closed outlines in the colour edges (Canny of the Lab a*
   * and b* channels, these thresholds) whose short side lies within `chromaSize` of the calibrated width. A back
   * as bright as the wood under it (a light blue back on a light stripe of grain) has no
   * brightness edge and a border too thin for the whiteness mask, but its colour differs.
   * From 0.6 of a card's width (session 32; was 0.8): the colour edge of a red back's field
   * inside its thin pink border, on a blue gingham, closes 0.78 of a card wide, and such an
   * outline is read as the card grown about it (grownOutlines); 2 of the crowded seed-2 sort's
   * 21 red backs were missed for it.
   */
  chromaCanny: [20, 60] as [number, number],
  chromaSize: [0.6, 1.25] as [number, number],
  /**
   * Straight-edge outlines (lineCards; frames without a calibration): Canny thresholds as a
   * multiple of cannyLow / cannyHigh, the shortest segment as a share of the image's longer
   * side, and the share of each side, and of all four, that must lie on an edge.
   */
  lineCanny: 2,
  lineMinLength: 0.05,
  lineEdgeSide: 0.4,
  lineEdgeTotal: 0.6,
  /** ...and how much brighter than outside the fitted outline's inside must be (0..255; see refine.ts). */
  lineMinEdge: 20,
  /** A court card's picture frame is about this much smaller than the card, across and along. */
  lineFrameGrowth: [1.38, 1.25] as [number, number],
  /** At most this many straight-edge hypotheses are fitted in one frame (the best supported first). */
  lineMaxFits: 40,
  /** Short side of a straight-edge outline, as a share of the single cards' common width (when they agree on one). */
  lineSizeRange: [0.7, 1.45] as [number, number],
};

/** Options for one localisation call. */
export interface LocateOptions {
  /** Card short side in input-image pixels when known (calibrated top-down view). */
  cardWidthPx?: number;
  /**
   * With `cardWidthPx`: the calibration's table plane (frame pixels ↔ millimetres). Each
   * outline's size is then judged on the table where it lies (see card-size.ts: under an oblique
   * camera a card's size in the image varies 0.6–1.6 times); masks and morphology keep the one
   * `cardWidthPx`.
   */
  table?: TableMapping;
  /** Where this image's top-left lies in the frame `table` maps (a region searched alone), pixels. */
  origin?: Point;
  /**
   * The lowest long/short ratio a card shows on this table, when known (a calibration's
   * `minCardAspect`): below the default `minAspect` it lets a far card lying lengthwise under an
   * oblique camera, nearly square, count as card-shaped. Never raises the default.
   */
  minAspect?: number;
  /**
   * Detection scale (detection px per input px). Default: fit detectMaxSide. Tracking passes the
   * full frame's scale when it re-examines a sub-region, so sizes and thresholds stay the same.
   */
  scale?: number;
  /** The table is a pale patterned cloth (see paleTableShare): also look for cards by size (needs cardWidthPx). */
  paleCloth?: boolean;
  /**
   * The pale table is plain, nearly all of it as white as a card (a white or cream laminate;
   * with paleCloth): cards are also looked for by their ink (see inkMask).
   */
  plainTable?: boolean;
  /**
   * Also look for card outlines in the colour edges (chromaOutlines; needs cardWidthPx). It cost
   * about 40 % more per live frame (locate and the extra reads), so the recogniser asks for it
   * only on frames read whole (the score sort's once a second, single POSTed frames).
   */
  colourEdges?: boolean;
}

/**
 * Sets every value under `level` (in place) to the median of those at or above it: cells of a
 * pale cloth's white-level map that hold no cloth (a hand, the floor) stand in as the cloth's
 * white overall. Leaves `values` as they are when none reaches `level`.
 */
export function fillDarkCells(values: Uint8Array, level: number): void {
  const pale = values.filter((v) => v >= level).sort();
  if (pale.length === 0) return;
  const median = pale[Math.floor(pale.length / 2)];
  for (let i = 0; i < values.length; i++) if (values[i] < level) values[i] = median;
}

/**
 * The share of the table (`tableQuad`, image pixels) at least `level` white (value − saturation,
 * as the localiser's mask), sampled every `step` pixels. On a pale gingham the cloth's white
 * squares are as white as the cards and every card merges with the cloth in the mask.
 */
export function paleTableShare(image: RgbImage, tableQuad: Quad, level = LOCATE_DEFAULTS.paleLevel, step = 4): number {
  const xs = tableQuad.map((p) => p[0]);
  const ys = tableQuad.map((p) => p[1]);
  let on = 0;
  let all = 0;
  for (let y = Math.max(0, Math.floor(Math.min(...ys))); y < Math.min(image.height, Math.max(...ys)); y += step) {
    for (let x = Math.max(0, Math.floor(Math.min(...xs))); x < Math.min(image.width, Math.max(...xs)); x += step) {
      if (!pointInPolygon(tableQuad, x, y)) continue;
      const o = (y * image.width + x) * 3;
      const max = Math.max(image.data[o], image.data[o + 1], image.data[o + 2]);
      const min = Math.min(image.data[o], image.data[o + 1], image.data[o + 2]);
      const saturation = max === 0 ? 0 : ((max - min) / max) * 255;
      all += 1;
      if (max - saturation >= level) on += 1;
    }
  }
  return all === 0 ? 0 : on / all;
}

/** A located card: its quad (TL TR BR BL, TL→TR the short side) and how it was found. */
export interface LocatedCard {
  corners: Quad;
  /**
   * 'single': an isolated card-shaped blob; 'split': a hypothesis inside a merged blob; 'net': the
   * learned locator; 'probe': an outline fitted on a calibrated Nerts pile (probe.ts), or where a
   * card's blob shows on a pale patterned cloth; 'ink': found by its ink on a plain pale table
   * (inkBlobCards, resizedOutlines, loneMarkCards); 'lines': spanned by two long straight edges
   * (lineCards, frames without a calibration); 'grown': the calibrated card about an outline
   * clearly smaller than a card (grownOutlines); 'chroma': a closed outline in the colour edges
   * (chromaOutlines, calibrated frames); 'strip': a card under a sure card whose strip shows beside
   * it (the recogniser's lookForStrips, frames without a calibration).
   */
  source: 'single' | 'split' | 'net' | 'probe' | 'ink' | 'lines' | 'grown' | 'chroma' | 'strip';
  /** Fraction of the quad supported by the card mask, 0..1. */
  support: number;
  /**
   * Cards sharing a rival group are other outlines fitted to one detection (see refineLocated):
   * the recogniser keeps the one it reads most surely (keepSurestRivals).
   */
  rivalGroup?: number;
  /** The part in the frame of a card cut by the frame's edge (withCutCards), whose outline runs past it. */
  inFrame?: Quad;
  /** A net card kept though its fitted outline's edge is faint (refineLocated's sureDetection): it counts only when read surely. */
  faintEdge?: true;
}

/** Orders four points clockwise (image y down) starting so that p0→p1 is a short side. */
export function orderCardQuad(points: Point[]): Quad {
  const cx = points.reduce((s, p) => s + p[0], 0) / 4;
  const cy = points.reduce((s, p) => s + p[1], 0) / 4;
  const sorted = points.slice().sort((a, b) => Math.atan2(a[1] - cy, a[0] - cx) - Math.atan2(b[1] - cy, b[0] - cx));
  // atan2 ascending with y down is clockwise on screen.
  const d = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  let start = d(sorted[0], sorted[1]) <= d(sorted[1], sorted[2]) ? 0 : 1;
  // Of the two starts with a short first edge, take the one nearer the image's top-left.
  const alt = start + 2;
  if (sorted[alt][0] + sorted[alt][1] < sorted[start][0] + sorted[start][1]) start = alt;
  return [0, 1, 2, 3].map((k) => sorted[(start + k) % 4]) as Quad;
}

interface Blob {
  contour: CvMat;
  area: number;
  rect: ReturnType<OpenCv['minAreaRect']>;
  /** Pixels the edge cut shaved off this blob's outline. */
  shave: number;
}

/** Even-odd point-in-polygon test on a contour's points. */
function pointInContour(contour: CvMat, x: number, y: number): boolean {
  const d = contour.data32S;
  const n = d.length / 2;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = d[2 * i];
    const yi = d[2 * i + 1];
    const xj = d[2 * j];
    const yj = d[2 * j + 1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function contourPoints(contour: CvMat): Point[] {
  const pts: Point[] = [];
  const d = contour.data32S;
  for (let i = 0; i + 1 < d.length; i += 2) pts.push([d[i], d[i + 1]]);
  return pts;
}

function rectCorners(center: { x: number; y: number }, size: { width: number; height: number }, angleDeg: number): Point[] {
  const a = (angleDeg * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  const hw = size.width / 2;
  const hh = size.height / 2;
  return [
    [-hw, -hh],
    [hw, -hh],
    [hw, hh],
    [-hw, hh],
  ].map(([x, y]) => [center.x + x * c - y * s, center.y + x * s + y * c] as Point);
}

/** Fraction of a quad's interior (sampled on a grid) that is set in `mask` (1 byte per pixel). */
export function maskSupport(mask: Uint8Array, width: number, height: number, quad: Quad, steps = 12): number {
  const { set, total } = maskSamples(mask, width, height, quad, steps);
  return set / total;
}

/**
 * A quad's support counted over its part inside the frame (`support`), and the share of it that
 * lies inside (`shown`): a card cut by the frame's edge is as white as any where it shows.
 */
export function inFrameSupport(mask: Uint8Array, width: number, height: number, quad: Quad, steps = 12): { support: number; shown: number } {
  const { set, inFrame, total } = maskSamples(mask, width, height, quad, steps);
  return { support: inFrame ? set / inFrame : 0, shown: inFrame / total };
}

/** Samples of a quad's interior on a `steps` x `steps` grid: how many, how many in the frame, how many set in `mask`. */
function maskSamples(mask: Uint8Array, width: number, height: number, quad: Quad, steps: number): { set: number; inFrame: number; total: number } {
  let inside = 0;
  let shown = 0;
  let total = 0;
  const [p0, p1, , p3] = quad;
  for (let i = 0; i < steps; i++) {
    const u = (i + 0.5) / steps;
    for (let j = 0; j < steps; j++) {
      const v = (j + 0.5) / steps;
      // Parallelogram interpolation is close enough for support scoring.
      const x = p0[0] + (p1[0] - p0[0]) * u + (p3[0] - p0[0]) * v;
      const y = p0[1] + (p1[1] - p0[1]) * u + (p3[1] - p0[1]) * v;
      total++;
      const xi = Math.round(x);
      const yi = Math.round(y);
      if (xi < 0 || yi < 0 || xi >= width || yi >= height) continue;
      shown++;
      if (mask[yi * width + xi]) inside++;
    }
  }
  return { set: inside, inFrame: shown, total };
}

/** A convex, roughly right-angled corner of a blob's outline: where a card's corner may be. */
interface BlobCorner {
  p: Point;
  /** Unit vectors along the two outline edges leaving the corner, and those edges' lengths. */
  da: Point;
  db: Point;
  la: number;
  lb: number;
}

/** The convex corners of `polygon` within about 65..115 degrees whose edges are at least `minEdge` long. */
function convexCorners(polygon: Point[], minEdge: number): BlobCorner[] {
  const n = polygon.length;
  const out: BlobCorner[] = [];
  // Signed area tells which turn direction is convex.
  let area = 0;
  for (let i = 0; i < n; i++) {
    const [x1, y1] = polygon[i];
    const [x2, y2] = polygon[(i + 1) % n];
    area += x1 * y2 - x2 * y1;
  }
  for (let i = 0; i < n; i++) {
    const p = polygon[i];
    const a = polygon[(i + n - 1) % n];
    const b = polygon[(i + 1) % n];
    const ua: Point = [a[0] - p[0], a[1] - p[1]];
    const ub: Point = [b[0] - p[0], b[1] - p[1]];
    const la = Math.hypot(ua[0], ua[1]);
    const lb = Math.hypot(ub[0], ub[1]);
    if (la < minEdge || lb < minEdge) continue;
    const cos = (ua[0] * ub[0] + ua[1] * ub[1]) / (la * lb);
    if (Math.abs(cos) > 0.42) continue; // not within ~65..115 degrees
    const cross = (p[0] - a[0]) * (b[1] - p[1]) - (p[1] - a[1]) * (b[0] - p[0]);
    if (cross * area <= 0) continue; // concave: where two cards meet, not a card corner
    out.push({ p, da: [ua[0] / la, ua[1] / la], db: [ub[0] / lb, ub[1] / lb], la, lb });
  }
  return out;
}

/** The card at `corner` spanning `lenA` along its first edge and `lenB` along its second. */
function cardAt({ p, da, db }: BlobCorner, lenA: number, lenB: number): Quad {
  return orderCardQuad([
    p,
    [p[0] + da[0] * lenA, p[1] + da[1] * lenA],
    [p[0] + da[0] * lenA + db[0] * lenB, p[1] + da[1] * lenA + db[1] * lenB],
    [p[0] + db[0] * lenB, p[1] + db[1] * lenB],
  ]);
}

/**
 * Card hypotheses at the convex right-angle corners of a merged blob's polygon, for a card of
 * short side `w` and long side `h` (detection pixels).
 */
export function cornerHypotheses(polygon: Point[], w: number, h: number): Quad[] {
  // No length check on the edges: in a cascade one straight outline edge spans several cards.
  return convexCorners(polygon, w * 0.2).flatMap((corner) => [cardAt(corner, w, h), cardAt(corner, h, w)]);
}

/**
 * Card hypotheses sized by the outline itself, for when the card size is not known: at each
 * convex right-angle corner, the card whose sides are the two outline edges there (the top card
 * of a fan shows both), and the cards that take one edge as a whole side and the other side from
 * the card's aspect (the other edge runs under a neighbour, or on along one). A photo's
 * perspective makes cards of one deck different sizes, so one size for the blob misses some.
 */
export function edgeSizedHypotheses(polygon: Point[], params = LOCATE_DEFAULTS): Quad[] {
  const out: Quad[] = [];
  for (const corner of convexCorners(polygon, params.minCardSide)) {
    const { la, lb } = corner;
    const ratio = Math.max(la, lb) / Math.min(la, lb);
    if (ratio > params.minAspect && ratio < params.maxAspect) out.push(cardAt(corner, la, lb));
    for (const [lenA, lenB] of [
      [la, la * params.aspect],
      [la, la / params.aspect],
      [lb * params.aspect, lb],
      [lb / params.aspect, lb],
    ]) {
      if (Math.min(lenA, lenB) >= params.minCardSide) out.push(cardAt(corner, lenA, lenB));
    }
  }
  return out;
}

/**
 * Whether a blob (its bounding box) reaches each side of the frame that a card hypothesised on it
 * (`card`, its bounding box) runs past, within `near` pixels: a card cut by the frame's edge
 * shows up to that edge.
 */
export function reachesEdgesCrossed(blob: PixelRect, card: PixelRect, width: number, height: number, near = 2): boolean {
  if (card.x < 0 && blob.x > near) return false;
  if (card.y < 0 && blob.y > near) return false;
  if (card.x + card.width > width && blob.x + blob.width < width - near) return false;
  if (card.y + card.height > height && blob.y + blob.height < height - near) return false;
  return true;
}

/** Moves each side of a quad outwards by `pixels` (approximately, along the diagonals). */
export function growQuad(quad: Quad, pixels: number): Quad {
  const cx = quad.reduce((s, p) => s + p[0], 0) / 4;
  const cy = quad.reduce((s, p) => s + p[1], 0) / 4;
  return quad.map(([x, y]) => {
    const d = Math.hypot(x - cx, y - cy) || 1;
    const k = (pixels * Math.SQRT2) / d;
    return [x + (x - cx) * k, y + (y - cy) * k] as Point;
  }) as Quad;
}

/**
 * Drops quads that are the frame itself: every corner within `tolerance` (a share of the long
 * side) of one of the frame's corners. On an even cloth (carpet, felt) the whole frame passes the
 * whiteness threshold as one card-shaped blob; read as "a back", it would hide every real card
 * inside it as nested (see suppressNested).
 */
export function dropFrameOutlines<T extends LocatedCard>(cards: T[], width: number, height: number, tolerance = 0.03): T[] {
  const frame: Point[] = [
    [0, 0],
    [width, 0],
    [width, height],
    [0, height],
  ];
  const near = tolerance * Math.max(width, height);
  return cards.filter((card) => !frame.every(([fx, fy]) => card.corners.some(([x, y]) => Math.hypot(x - fx, y - fy) <= near)));
}

/**
 * `cards` and the cards cut by the frame's edge, whole: for each outline with a side along the
 * frame's edge (both its ends within `tolerance` of one edge, a share of the frame's short side,
 * 2 pixels at least), the card it would be if the frame cut it there, its other sides as seen: the
 * cut side taken for the card's short side, or for its long side, and the outline grown across the
 * edge to the card's aspect. The part in the frame shows an index corner the grown outline can be
 * read by (photo IMG_2612's AC at the right edge, outlined 81x99 pixels and read as nothing). Each
 * is a 'split' hypothesis and a rival of the outline it grows; new groups are numbered below every
 * group in `cards` that is below zero (as addAsRivals).
 */
export function withCutCards(cards: LocatedCard[], width: number, height: number, aspect = CARD_ASPECT, tolerance = 0.01): LocatedCard[] {
  const near = Math.max(2, tolerance * Math.min(width, height));
  const onEdge = ([x, y]: Point) => [x <= near, y <= near, x >= width - 1 - near, y >= height - 1 - near];
  const out = cards.map((card) => ({ ...card }));
  let next = Math.min(0, ...cards.map((card) => card.rivalGroup ?? 0)) - 1;
  for (const card of out.slice()) {
    const corners = card.corners;
    // Hypothesised whole already, past the edge (a split at a blob's corner).
    if (card.inFrame) continue;
    for (let i = 0; i < 4; i++) {
      // Side a-b along the frame's edge; d-a the side across it, which grows past the edge.
      const a = corners[i];
      const b = corners[(i + 1) % 4];
      const d = corners[(i + 3) % 4];
      const edgeB = onEdge(b);
      if (!onEdge(a).some((on, k) => on && edgeB[k])) continue;
      // The other two corners lie inside the frame: an outline from edge to edge is no card (a table's edge, a shadow).
      if ([corners[(i + 2) % 4], d].some((p) => onEdge(p).some(Boolean))) continue;
      const seen = Math.hypot(a[0] - d[0], a[1] - d[1]);
      const cut = Math.hypot(b[0] - a[0], b[1] - a[1]);
      if (seen === 0 || cut === 0) continue;
      const ux = (a[0] - d[0]) / seen;
      const uy = (a[1] - d[1]) / seen;
      for (const whole of [cut * aspect, cut / aspect]) {
        if (whole < seen * 1.1) continue;
        const grow = whole - seen;
        const grown = corners.map(([x, y]) => [x, y]) as Quad;
        grown[i] = [a[0] + ux * grow, a[1] + uy * grow];
        grown[(i + 1) % 4] = [b[0] + ux * grow, b[1] + uy * grow];
        card.rivalGroup ??= next--;
        // Ordered anew: the grown card's long side may run the other way.
        out.push({ corners: orderCardQuad(grown), source: 'split', support: card.support, rivalGroup: card.rivalGroup, inFrame: corners, ...(card.faintEdge ? { faintEdge: true as const } : {}) });
      }
    }
  }
  return out;
}

/**
 * Of each rival group (other outlines of one detection), the card read most surely; cards with no
 * group all stay. A `preferred` card (a whole whose pieces were outlined too, wholesOfPieces)
 * outranks its rivals however surely they read: photo IMG_2610's JD, outlined whole at 0.992 and
 * by straight edges 17 px short at 0.993, lost to the short outline, which its two outlined halves
 * stuck out of, and the halves stayed as two JDs.
 */
export function keepSurestRivals<T extends LocatedCard>(cards: T[], confidence: (card: T) => number, preferred: ReadonlySet<T> = new Set()): T[] {
  const rank = (card: T) => (preferred.has(card) ? 1 : 0) + confidence(card);
  const best = new Map<number, T>();
  for (const card of cards) {
    if (card.rivalGroup === undefined) continue;
    const held = best.get(card.rivalGroup);
    if (!held || rank(card) > rank(held)) best.set(card.rivalGroup, card);
  }
  return cards.filter((card) => card.rivalGroup === undefined || best.get(card.rivalGroup) === card);
}

/**
 * The straight-edge outlines (lineCards) of about the card size, where many single cards agree
 * on one (`typicalWidth`, detection pixels; see lineSizeRange): between the straight edges of a
 * crowded table lie stretches of cloth and rows of cards.
 */
export function plausibleLineCards(lines: Quad[], typicalWidth: number | undefined, params: typeof LOCATE_DEFAULTS): Quad[] {
  if (typicalWidth === undefined) return lines;
  return lines.filter((quad) => quadShortSide(quad) >= typicalWidth * params.lineSizeRange[0] && quadShortSide(quad) <= typicalWidth * params.lineSizeRange[1]);
}

/**
 * Drops each straight-edge outline (source 'lines') that holds the centres of two or more other
 * cards read surely (`sure`) and smaller than it: a tray, a book or a stretch of table between
 * two straight edges, which read as a back would hide the cards on it (suppressNested). With the
 * frame's `typicalWidth` (its sure cards' short side, typicalCardSize), so is any outline clearly
 * wider than that (OVERSIZE_OUTLINE): a cream board under five cards, outlined whole, read as a 3D
 * at 0.75 and hid them all.
 */
export function dropLinesHoldingCards<T extends LocatedCard>(cards: T[], sure: (card: T) => boolean, typicalWidth?: number): T[] {
  return dropOutlinesHoldingCards(cards, sure, (card) => card.source === 'lines' || (typicalWidth !== undefined && quadShortSide(card.corners) > typicalWidth * OVERSIZE_OUTLINE));
}

/** An outline whose short side is over this many card widths (calibrated, or the frame's typical card) is clearly wider than one card. */
export const OVERSIZE_OUTLINE = 1.25;

/**
 * With a calibration: drops each outline clearly wider than a card (short side over
 * `oversize` times the calibrated width) that holds the centres of two or more cards read surely
 * and smaller than it: two cards lying side by side (dealt out at the score sort, 7 px apart at
 * webcam size) outlined as one were read as a back that hid both (suppressNested).
 */
export function dropOversizeHoldingCards<T extends LocatedCard>(cards: T[], sure: (card: T) => boolean, knownWidth: number, oversize = OVERSIZE_OUTLINE): T[] {
  return dropOutlinesHoldingCards(cards, sure, (card) => quadShortSide(card.corners) > knownWidth * oversize);
}

/** Drops each card that `mayHold` says could be several and that holds two or more surely read, smaller cards. */
function dropOutlinesHoldingCards<T extends LocatedCard>(cards: T[], sure: (card: T) => boolean, mayHold: (card: T) => boolean): T[] {
  return cards.filter((card) => {
    if (!mayHold(card)) return true;
    const w = quadShortSide(card.corners);
    const held = cards.filter((other) => other !== card && sure(other) && quadShortSide(other.corners) < w * 0.8 && pointInPolygon(card.corners, ...quadCentre(other.corners)));
    return held.length < 2;
  });
}

/**
 * An outline whose long side is under this many times its short side is squarer than a card
 * (1.40) by more than an outline's error: a card foreshortened by a camera looking across the
 * table, whose length may be either side (see quarterTurned).
 */
export const SQUAT_OUTLINE_ASPECT = 1.3;

/** Whether `quad` is squat (SQUAT_OUTLINE_ASPECT): from its shape alone, either side may be the card's length. */
export function squatOutline(quad: Quad, squat = SQUAT_OUTLINE_ASPECT): boolean {
  return outlineAspect(cardGeometry(quad)) < squat;
}

/** An outline's long side over its short side, whichever way it lies (1 or more). */
function outlineAspect({ short, long }: Pick<CardGeometry, 'short' | 'long'>): number {
  return Math.max(long, short) / Math.max(1e-6, Math.min(long, short));
}

/**
 * The same outline a quarter turn on: cut with its other side across the card. A crop is cut with
 * the outline's short side across the card, but a far card seen by a tilted camera is
 * foreshortened along the table: one lying lengthwise away from the camera shows shorter than it
 * is wide, and cut across its length it is read on its side.
 */
export function quarterTurned(quad: Quad): Quad {
  const [a, b, c, d] = quad;
  return [b, c, d, a];
}

/**
 * `cards` and `extra`, each extra card the rival of an outline of about the same place and size
 * (sameCardGeometry; the reading keeps the surer, keepSurestRivals), or alone where there is
 * none; an extra outline nearly the same as that one (corners within `cornerShare` of a short
 * side) is left out, it would only be read twice. New groups are numbered below every group in
 * `cards` that is below zero.
 */
export function addAsRivals(cards: LocatedCard[], extra: LocatedCard[], cornerShare = 0.15): LocatedCard[] {
  const out = cards.map((card) => ({ ...card }));
  let next = Math.min(0, ...cards.map((card) => card.rivalGroup ?? 0)) - 1;
  for (const card of extra) {
    const g = cardGeometry(card.corners);
    const same = out.find((other) => sameCardGeometry(cardGeometry(other.corners), g));
    if (!same) {
      out.push(card);
      continue;
    }
    if (sameCorners(same.corners, card.corners, quadShortSide(card.corners) * cornerShare)) continue;
    same.rivalGroup ??= next--;
    out.push({ ...card, rivalGroup: same.rivalGroup });
  }
  return out;
}

/**
 * A rival group's number once its region has been localised on its own: the classical localiser
 * numbers its groups -1, -2, ... (fewer than 1,000) in each call (loneMarkCards), and the cards
 * of regions localised in earlier frames stay in play, so each region of each frame is given its
 * own `offset` (-1,000 or lower, a multiple of 1,000); the learned locator's groups (0 and up,
 * counted over the whole run) stay as they are.
 */
export function regionRivalGroup(offset: number, group: number | undefined): number | undefined {
  return group === undefined || group >= 0 ? group : offset + group;
}

/**
 * Drops quads nested in a clearly bigger one (a court card's picture frame, a pip cluster):
 * cards of one deck are one size, so overlapping cards of equal size all survive. The bigger
 * one suppresses the nested one only where `canSuppress(bigger, nested)` holds.
 */
export function suppressNested<T extends LocatedCard>(cards: T[], canSuppress: (card: T, nested: T) => boolean = () => true): T[] {
  return cards.filter((card, i) => {
    const area = polygonArea(card.corners);
    const cx = card.corners.reduce((s, p) => s + p[0], 0) / 4;
    const cy = card.corners.reduce((s, p) => s + p[1], 0) / 4;
    return !cards.some((other, j) => j !== i && canSuppress(other, card) && polygonArea(other.corners) * 0.8 > area && pointInPolygon(other.corners, cx, cy));
  });
}

/** What shows of a card lying under others (see visiblePart). */
export interface VisiblePart {
  /** Share of the card not under any of the covering cards, 0..1. */
  share: number;
  /** The card's own rectangle (a quad in image pixels) around the part that shows; null when none does. */
  quad: Quad | null;
  /** Whether one of its index corners (`region` and the one turned 180 degrees) shows whole. */
  indexShows: boolean;
}

/**
 * The part of `card` not under any of `covers`, sampled on a grid in the card's own frame. A card
 * under others in a fan or cascade shows a strip; read by its index corner, it is reported with
 * that strip, as a person would point at it.
 */
export function visiblePart(card: Quad, covers: Quad[], region: { x0: number; y0: number; x1: number; y1: number }, steps = 16): VisiblePart {
  let shown = 0;
  let u0 = 1;
  let u1 = 0;
  let v0 = 1;
  let v1 = 0;
  const corners = [0, 0];
  const cornerSamples = [0, 0];
  for (let i = 0; i < steps; i++) {
    for (let j = 0; j < steps; j++) {
      const u = (i + 0.5) / steps;
      const v = (j + 0.5) / steps;
      const inFirst = u >= region.x0 && u <= region.x1 && v >= region.y0 && v <= region.y1;
      const inSecond = 1 - u >= region.x0 && 1 - u <= region.x1 && 1 - v >= region.y0 && 1 - v <= region.y1;
      if (inFirst) cornerSamples[0]++;
      if (inSecond) cornerSamples[1]++;
      const [x, y] = pointOfQuad(card, u, v);
      if (covers.some((cover) => pointInPolygon(cover, x, y))) continue;
      shown++;
      if (inFirst) corners[0]++;
      if (inSecond) corners[1]++;
      u0 = Math.min(u0, u - 0.5 / steps);
      u1 = Math.max(u1, u + 0.5 / steps);
      v0 = Math.min(v0, v - 0.5 / steps);
      v1 = Math.max(v1, v + 0.5 / steps);
    }
  }
  const quad: Quad | null = shown ? [pointOfQuad(card, u0, v0), pointOfQuad(card, u1, v0), pointOfQuad(card, u1, v1), pointOfQuad(card, u0, v1)] : null;
  const indexShows = [0, 1].some((k) => cornerSamples[k] > 0 && corners[k] >= cornerSamples[k] * 0.9);
  return { share: shown / (steps * steps), quad, indexShows };
}

/** Outlines of one reading overlapping this much (the larger share of either inside the other) are one card (dropRepeatedOutlines). */
export const REPEATED_OUTLINE_OVERLAP = 0.6;

/** Whether two outlines overlap as one card's repeated outlines do: the larger share of either inside the other at least `minOverlap`. */
export function outlinesRepeat(a: Quad, b: Quad, minOverlap = REPEATED_OUTLINE_OVERLAP): boolean {
  return Math.max(shareInside(a, b), shareInside(b, a)) >= minOverlap;
}

/**
 * Drops outlines that repeat a card: a merged blob is split at each of its corners and with
 * several card sizes, and the localiser's passes (plain mask, brighter levels, edge outlines)
 * each outline a lone card a little differently, so one card is often outlined a few times, each
 * read as that card. Of the cards read as the same face (`key`) whose outlines mostly cover each
 * other, the surest stays, except that a card whose pieces were outlined too comes first
 * (wholesOfPieces; `mayBeOneCard` vets it). Two copies of one face lying side by side (two decks)
 * stay apart; a second copy dropped almost exactly on the first hides it anyway.
 */
export function dropRepeatedOutlines<T extends LocatedCard>(
  cards: T[],
  key: (card: T) => string | undefined,
  confidence: (card: T) => number,
  minOverlap = REPEATED_OUTLINE_OVERLAP,
  mayBeOneCard: (card: T) => boolean = () => true,
): T[] {
  const wholes = new Set(wholesOfPieces(cards, key, confidence, minOverlap, mayBeOneCard));
  const wholeFirst = (i: number) => (wholes.has(i) ? 1 : 0);
  const order = cards.map((_, i) => i).sort((a, b) => wholeFirst(b) - wholeFirst(a) || confidence(cards[b]) - confidence(cards[a]));
  const keep = new Array<boolean>(cards.length).fill(true);
  order.forEach((i, rank) => {
    const card = cards[i];
    const k = key(card);
    if (k === undefined) return;
    keep[i] = !order.slice(0, rank).some((j) => {
      if (!keep[j] || key(cards[j]) !== k) return false;
      return outlinesRepeat(card.corners, cards[j].corners, minOverlap);
    });
  });
  return cards.filter((_, i) => keep[i]);
}

/** Outlines held this much by a bigger one read alike may be its pieces (wholesOfPieces). */
export const PIECE_OF_WHOLE = { inside: 0.9, maxArea: 0.8, minConfidence: 0.9 };

/**
 * The indices of outlines that are a card whose pieces were outlined too: an outline holding two
 * or more smaller outlines read alike (`key`) that are not one another's repeats (see
 * dropRepeatedOutlines). The identity model reads a half card stretched to a card's shape as the
 * card, often more surely than the whole (a 10D outlined whole at 0.98 and as its two halves at
 * 0.99 and 0.78), so the surest outline was a half, and the other half, no repeat of it, stayed
 * as a second card. Two halves read alike make the whole the card, if the whole is read surely
 * too (an unsure outline round a card and half its neighbour holds pieces of the card as well).
 * `mayBeOneCard` vets the whole (with a calibration: no wider than a card, not two copies of a
 * face side by side).
 */
export function wholesOfPieces<T extends LocatedCard>(
  cards: T[],
  key: (card: T) => string | undefined,
  confidence: (card: T) => number,
  minOverlap = REPEATED_OUTLINE_OVERLAP,
  mayBeOneCard: (card: T) => boolean = () => true,
): number[] {
  const keys = cards.map(key);
  const areas = cards.map((card) => polygonArea(card.corners));
  return cards.flatMap((whole, w) => {
    if (keys[w] === undefined || confidence(whole) < PIECE_OF_WHOLE.minConfidence || !mayBeOneCard(whole)) return [];
    const pieces = cards.flatMap((piece, p) =>
      p !== w && keys[p] === keys[w] && areas[p] <= areas[w] * PIECE_OF_WHOLE.maxArea && shareInside(piece.corners, whole.corners) >= PIECE_OF_WHOLE.inside ? [piece] : [],
    );
    const apart = pieces.some((a, i) => pieces.some((b, j) => j > i && !outlinesRepeat(a.corners, b.corners, minOverlap)));
    return apart ? [w] : [];
  });
}

/**
 * Drops suspect cards far smaller than the frame's surely read faces: cards of one table are about
 * one size, so a card a fraction of a card's area is a fragment of something else. Used for backs
 * (a back shows whole: a stock, a Nerts pile, a spread of sorted cards; a "back" a fraction of a
 * card is a wood-grain sliver or a pale corner of clutter, `FRAGMENT_BACK_SHARE`) and for faces
 * read less than surely (a speck of wood grain or a cable's glint outlined by the learned locator,
 * read as a 10C at 0.68 beside a KC thirty times its area: `FRAGMENT_FACE_SHARE`). Only for frames
 * with no calibration (which knows the card size and filters by it already). Without
 * `minSureFaces` sure faces to size against, nothing is dropped.
 */
export function dropFragments<T extends LocatedCard>(cards: T[], isSuspect: (card: T) => boolean, isSureFace: (card: T) => boolean, minAreaShare: number, minSureFaces = 1, maxAreaShare = Infinity): T[] {
  const faceAreas = cards.filter(isSureFace).map((card) => polygonArea(card.corners)).sort((a, b) => a - b);
  if (faceAreas.length < minSureFaces) return cards;
  const typical = faceAreas[Math.floor(faceAreas.length / 2)];
  return cards.filter((card) => {
    if (!isSuspect(card)) return true;
    const area = polygonArea(card.corners);
    return area >= minAreaShare * typical && area <= maxAreaShare * typical;
  });
}

/** A "back" under this share of the typical sure face's area is a fragment (dropFragments). */
export const FRAGMENT_BACK_SHARE = 0.3;
/**
 * ... and one over this share no card: a page of a book, a sheet of paper or a box's window
 * outlined whole and read as a back (photos IMG_2507, IMG_2527: 2.9 and 7 times the sure face
 * beside it). The perspective of one photo makes its cards differ in area by less.
 */
export const OVERSIZE_BACK_SHARE = 2;
/**
 * A face read less than surely under this share of the typical sure face's area is a fragment
 * (dropFragments). On the real photos (session 47) the 8 faces this small were all false, the
 * smallest real card was 0.3 of the typical one's area (a card far off in an oblique photo is
 * about 0.4).
 */
export const FRAGMENT_FACE_SHARE = 0.2;

/**
 * One outline per Nerts pile: a card found whole there (`single`) is the pile's top, and split
 * hypotheses (a merged blob cut at card size) lying over it are dropped. A Nerts pile is a
 * squared stack whose edge, or a neighbouring card, merges with the top into one blob; the blob's
 * split outlines sit a few pixels off the top, read as other cards (a 9D at 0.93 whole, 7H, 6D,
 * 5H at 0.3-0.6 split), and their looks differ from the top's, so the tracker counted cards that
 * never left. `nertsPileOf` names the Nerts pile a card lies on (undefined: none); a split whose
 * centre lies within `maxOffset` of a short side of a whole card's centre on the same pile goes.
 */
export function oneOutlinePerNertsPile<T extends LocatedCard>(cards: T[], nertsPileOf: (card: T) => string | undefined, maxOffset = 0.5): T[] {
  const piles = cards.map(nertsPileOf);
  const whole = cards.flatMap((card, i) => (card.source === 'single' && piles[i] !== undefined ? [{ pile: piles[i], at: quadCentre(card.corners), short: quadShortSide(card.corners) }] : []));
  if (whole.length === 0) return cards;
  return cards.filter((card, i) => {
    if (card.source !== 'split' || piles[i] === undefined) return true;
    const [x, y] = quadCentre(card.corners);
    return !whole.some((top) => top.pile === piles[i] && Math.hypot(x - top.at[0], y - top.at[1]) <= maxOffset * top.short);
  });
}

/** Detection px per input px for a frame of this size. */
export function detectionScale(width: number, height: number, params = LOCATE_DEFAULTS): number {
  return Math.min(1, params.detectMaxSide / Math.max(width, height));
}

/**
 * Whether a blob that fills its rectangle like a card may still be several: its shape is far
 * from a card's (two or three cards overlapping in a row make a long or a squat rectangle), or
 * it is clearly wider than a card of the known size.
 */
export function mayHoldSeveral(size: { width: number; height: number }, knownWidth: number | undefined, params = LOCATE_DEFAULTS): boolean {
  const short = Math.min(size.width, size.height);
  const long = Math.max(size.width, size.height);
  if (knownWidth) return short > knownWidth * 1.3;
  const aspect = long / Math.max(1, short);
  return aspect < params.aspect / params.singleAspectSlack || aspect > params.aspect * params.singleAspectSlack;
}

/**
 * Card widths to split a merged blob with when the card size is not calibrated: the median of
 * the single cards found (often right, but pips, picture frames and cloth texture also make
 * small card-shaped outlines) and the widths the blob itself suggests (its short side as a
 * card's short or long side); widths within 15 % of one already listed are left out.
 */
export function splitWidths(blobShort: number, medianSingle: number | undefined, params = LOCATE_DEFAULTS): number[] {
  const widths: number[] = [];
  for (const w of [medianSingle, blobShort, blobShort / params.aspect]) {
    if (w === undefined || w < params.minCardSide) continue;
    if (widths.some((v) => Math.abs(v - w) < 0.15 * Math.max(v, w))) continue;
    widths.push(w);
  }
  return widths;
}

/**
 * Whether single-card outlines agree on the card size: at least 4 (sorted ascending), with the
 * middle half within 15 % of the median.
 */
export function agreeOnSize(sortedWidths: number[]): boolean {
  const n = sortedWidths.length;
  if (n < 4) return false;
  const median = sortedWidths[Math.floor(n / 2)];
  return (sortedWidths[Math.floor((3 * n) / 4)] - sortedWidths[Math.floor(n / 4)]) / median < 0.15;
}

const odd = (x: number): number => 2 * Math.round(x / 2) + 1;
type Track = <T extends { delete(): void }>(m: T) => T;

/** A close-then-open of `mask` in place: the closing fills a card's pips and index, the opening leaves only things a card wide. */
function keepCardSized(cv: OpenCv, mask: CvMat, closeSide: number, openSide: number, track: Track): CvMat {
  cv.morphologyEx(mask, mask, cv.MORPH_CLOSE, track(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(closeSide, closeSide))));
  cv.morphologyEx(mask, mask, cv.MORPH_OPEN, track(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(openSide, openSide))));
  return mask;
}

/**
 * Pale cloth, first seed mask: the brightest pixels of all (80 levels above the Otsu threshold),
 * kept where card-sized (closed by 5 pixels, opened by 0.6 of a card's width: checks as wide as
 * half a card go).
 */
function brightestMask(cv: OpenCv, whiteness: CvMat, threshold: number, knownWidth: number, params: typeof LOCATE_DEFAULTS, track: Track): CvMat {
  const mask = track(new cv.Mat());
  cv.threshold(whiteness, mask, Math.min(235, threshold + 80), 255, cv.THRESH_BINARY);
  return keepCardSized(cv, mask, 5, odd(knownWidth * params.paleOpen), track);
}

/**
 * Pale cloth: how much whiter each pixel is than the cloth's own white squares around it (0 where
 * it is not; `whiteness` is value − saturation, detection pixels). The cloth's white is the
 * median, over about 2.5 card widths, of the brightest pixel near each cell a fifth of a card
 * wide: a card covers fewer than half of those cells, and cells with nothing pale in them (a
 * hand, the floor) stand in as the cloth's white overall.
 */
export function whiterThanCloth(cv: OpenCv, whiteness: CvMat, knownWidth: number, params: typeof LOCATE_DEFAULTS, track: Track, maps = clothWhiteMaps(cv, whiteness, knownWidth, params, track)): CvMat {
  const above = track(new cv.Mat());
  cv.subtract(whiteness, maps.clothWhite, above); // saturates at 0
  return above;
}

/** The cloth's own white around each pixel (see whiterThanCloth), and the brightest pixel near each (`cellMax`). */
export function clothWhiteMaps(cv: OpenCv, whiteness: CvMat, knownWidth: number, params: typeof LOCATE_DEFAULTS, track: Track): { clothWhite: CvMat; cellMax: CvMat } {
  const [dw, dh] = [whiteness.cols, whiteness.rows];
  const cell = Math.max(2, Math.round(knownWidth * params.paleCell));
  const cellMax = track(new cv.Mat());
  cv.dilate(whiteness, cellMax, track(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(2 * cell + 1, 2 * cell + 1))));
  const cells = track(new cv.Mat());
  cv.resize(cellMax, cells, new cv.Size(Math.max(1, Math.round(dw / cell)), Math.max(1, Math.round(dh / cell))), 0, 0, cv.INTER_NEAREST);
  fillDarkCells(cells.data, params.paleLevel);
  cv.medianBlur(cells, cells, Math.max(3, odd(params.paleSpan / params.paleCell)));
  const clothWhite = track(new cv.Mat());
  cv.resize(cells, clothWhite, new cv.Size(dw, dh), 0, 0, cv.INTER_LINEAR);
  return { clothWhite, cellMax };
}

/**
 * White plain table: a card is as white as the table and shows only by its ink (pips, index,
 * border). Pixels clearly darker than the table's white around them, where the table is near
 * (not the floor beyond it, nor the middle of a hand), closed over a card's pip spacing.
 */
export function inkMask(cv: OpenCv, whiteness: CvMat, knownWidth: number, params: typeof LOCATE_DEFAULTS, track: Track, maps = clothWhiteMaps(cv, whiteness, knownWidth, params, track)): CvMat {
  const { clothWhite, cellMax } = maps;
  const below = track(new cv.Mat());
  cv.subtract(clothWhite, whiteness, below);
  const mask = track(new cv.Mat());
  cv.threshold(below, mask, params.inkBelow, 255, cv.THRESH_BINARY);
  const nearTable = track(new cv.Mat());
  cv.threshold(cellMax, nearTable, params.paleLevel - 1, 255, cv.THRESH_BINARY);
  cv.bitwise_and(mask, nearTable, mask);
  cv.morphologyEx(mask, mask, cv.MORPH_CLOSE, track(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(odd(knownWidth * params.inkClose), odd(knownWidth * params.inkClose)))));
  // Fill each card-sized blob: between its pips a card's middle is as white as the table. (The
  // table's own darker rim holds everything: only blobs up to a few cards are filled.)
  const contours = track(new cv.MatVector());
  const hierarchy = track(new cv.Mat());
  cv.findContours(mask, contours, hierarchy, cv.RETR_CCOMP, cv.CHAIN_APPROX_SIMPLE);
  const maxArea = 6 * knownWidth * knownWidth * params.aspect;
  for (let i = 0; i < contours.size(); i++) {
    if (hierarchy.data32S[i * 4 + 3] !== -1) continue;
    const contour = track(contours.get(i));
    if (cv.contourArea(contour) <= maxArea) cv.drawContours(mask, contours, i, new cv.Scalar(255), -1);
  }
  return mask;
}

/** Pale cloth, second seed mask: pixels whiter than the cloth around them (`above`, from whiterThanCloth), kept where card-sized. */
export function whiterThanClothMask(cv: OpenCv, above: CvMat, knownWidth: number, params: typeof LOCATE_DEFAULTS, track: Track): CvMat {
  const mask = track(new cv.Mat());
  cv.threshold(above, mask, params.paleAbove, 255, cv.THRESH_BINARY);
  return keepCardSized(cv, mask, odd(knownWidth * params.paleClose), odd(knownWidth * params.paleWhiterOpen), track);
}

/**
 * The card outline of about `knownWidth` that best fits the whiter-than-cloth image `above`
 * around `seed` (detection pixels), by the edge search the learned locator's cards get
 * (refine.ts); null without a clear edge. Fitted on the raw image, an outline snaps to the
 * cloth's own straight edges (a gingham's checks are as sharp as a card's border); on `above`,
 * capped at `paleCap` and stretched to 0..255, the cloth is nearly flat and only cards show.
 */
export function fitOnWhiter(above: CvMat, seed: Point, knownWidth: number, params: typeof LOCATE_DEFAULTS): Quad | null {
  // The whiter part stops short of the card's grey border and soft edge: fitted a little smaller.
  return fitOnMap(above, seed, knownWidth, params, [0.85, 0.95])?.corners ?? null;
}

/**
 * fitOnWhiter's search on any map where a card is brighter than what is round it, at `scales`
 * of the known width; the outline takes the calibrated card size about the fitted centre and
 * angle, with the edge it fitted (0..255).
 */
function fitOnMap(map: CvMat, seed: Point, knownWidth: number, params: typeof LOCATE_DEFAULTS, scales: number[]): { corners: Quad; edge: number } | null {
  const [w, h] = [map.cols, map.rows];
  const r = Math.ceil(knownWidth * 1.4);
  const x0 = Math.max(0, Math.floor(seed[0] - r));
  const y0 = Math.max(0, Math.floor(seed[1] - r));
  const x1 = Math.min(w, Math.ceil(seed[0] + r));
  const y1 = Math.min(h, Math.ceil(seed[1] + r));
  if (x1 - x0 < 4 || y1 - y0 < 4) return null;
  const data = new Float32Array((x1 - x0) * (y1 - y0));
  const gain = 255 / params.paleCap;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data[(y - y0) * (x1 - x0) + x - x0] = Math.min(params.paleCap, map.data[y * w + x]) * gain;
  const g = { width: x1 - x0, height: y1 - y0, data };
  // The seed is the centre of what is left of a blob, a few pixels off the card's: start from
  // the best of a few positions round it.
  const fit = { ...REFINE_DEFAULTS, scales, aspects: [params.aspect] };
  const base: CardGeometry = { cx: seed[0] - x0, cy: seed[1] - y0, short: knownWidth, long: knownWidth * params.aspect, angle: 0 };
  let start = { ...base, edge: -1 };
  const offsets = [-0.15, 0, 0.15].map((f) => f * knownWidth);
  for (const dx of offsets) for (const dy of offsets) {
    const at = refineGeometry(g, { ...base, cx: base.cx + dx, cy: base.cy + dy }, { ...fit, probes: [fit.probes[0]], maxRounds: 0 });
    if (at.edge > start.edge) start = at;
  }
  const fitted = refineGeometry(g, start, { ...fit, scales: [1], aspects: [params.aspect], resize: false });
  if (fitted.edge < params.paleFitEdge) return null;
  return { corners: geometryQuad({ cx: fitted.cx + x0, cy: fitted.cy + y0, angle: fitted.angle, short: knownWidth, long: knownWidth * params.aspect }), edge: fitted.edge };
}

/**
 * Plain pale table: card outlines of `knownWidth` fitted on the ink mask (see inkMask) at its
 * blobs (detection pixels), as on the whiter-than-cloth image (fitOnWhiter). A blob about one
 * card wide and long is fitted from its centre; cards touching (a foundation pile beside another)
 * make one bigger blob, fitted from seeds on a grid 0.6 of a card's width apart. The ink of a
 * card is ragged, so fits from different seeds land a few pixels apart: the best-fitting of
 * those within a quarter of a card's width of each other is kept, the others read too (on 20
 * frames of the white table, keeping only the best within 0.75 of a card's width found 50 % of
 * the centre cards instead of 70 %: an outline straddling two cards is then read as well).
 * Seeds on one of the `found` cards (of the calibrated size) are not fitted.
 */
export function inkBlobCards(ink: CvMat, blobs: Blob[], knownWidth: number, params: typeof LOCATE_DEFAULTS, found: Quad[] = []): Quad[] {
  const cards: Quad[] = [];
  const step = knownWidth * 0.6;
  const cardLong = knownWidth * params.aspect;
  for (const { rect, contour } of blobs) {
    const { width, height } = rect.size;
    const [short, long] = [Math.min(width, height), Math.max(width, height)];
    if (short > knownWidth * 2.6 || long > cardLong * 3.5) continue;
    let seeds: Point[] = [[rect.center.x, rect.center.y]];
    if (short > knownWidth * 1.25 || long > cardLong * 1.25) {
      const rad = (rect.angle * Math.PI) / 180;
      const [ux, uy, vx, vy] = [Math.cos(rad), Math.sin(rad), -Math.sin(rad), Math.cos(rad)];
      const [nu, nv] = [Math.max(1, Math.round(width / step)), Math.max(1, Math.round(height / step))];
      seeds = [];
      for (let a = 0; a < nu; a++) {
        for (let b = 0; b < nv; b++) {
          const [tu, tv] = [(a - (nu - 1) / 2) * (width / nu), (b - (nv - 1) / 2) * (height / nv)];
          const at: Point = [rect.center.x + tu * ux + tv * vx, rect.center.y + tu * uy + tv * vy];
          if (pointInContour(contour, at[0], at[1])) seeds.push(at);
        }
      }
    }
    // A seed on a card of the calibrated size found already needs no fit.
    seeds = seeds.filter(([x, y]) => !found.some((q) => pointInPolygon(q, x, y)));
    const fits = seeds.flatMap((at) => fitOnMap(ink, at, knownWidth, params, [0.85, 0.95]) ?? []).sort((a, b) => b.edge - a.edge);
    const kept: Quad[] = [];
    for (const { corners } of fits) {
      const [cx, cy] = quadCentre(corners);
      if (!kept.some((k) => Math.hypot(quadCentre(k)[0] - cx, quadCentre(k)[1] - cy) < knownWidth * 0.25)) kept.push(orderCardQuad(corners));
    }
    cards.push(...kept);
  }
  return cards;
}

/** A card size: one width in pixels, or a CardSizer (card-size.ts). */
function sizerOf(size: number | CardSizer, params: typeof LOCATE_DEFAULTS): CardSizer {
  return typeof size === 'number' ? flatSizer(size, params.aspect) : size;
}

/** Whether an outline's short side is more than `offSize` off the calibrated card's where it lies. */
function offCalibratedSize(corners: Quad, sizer: CardSizer, params: typeof LOCATE_DEFAULTS): boolean {
  return Math.abs(sizer.shares(corners).short - 1) > params.offSize;
}

/**
 * Plain pale table: the whole-card outlines of the wrong size (more than `offSize` off the
 * calibrated width) are often a card's printed frame, or its border with a halo, about the right
 * centre: the card of the calibrated size there, unless one of about that size is found already.
 * (On the pale gingham this lost naming: its wrong-size outlines are mostly not centred on a card.)
 */
export function resizedOutlines(found: LocatedCard[], size: number | CardSizer, params: typeof LOCATE_DEFAULTS): LocatedCard[] {
  const sizer = sizerOf(size, params);
  const offSize = (corners: Quad) => offCalibratedSize(corners, sizer, params);
  const added: LocatedCard[] = [];
  for (const card of found) {
    if (card.source !== 'single' || !offSize(card.corners)) continue;
    const corners = orderCardQuad(sizer.cardAbout(card.corners));
    const known = (f: LocatedCard) => !offSize(f.corners) && sameCorners(f.corners, corners, quadShortSide(corners) * 0.18);
    if (!found.some(known) && !added.some(known)) added.push({ corners, source: 'ink', support: 1 });
  }
  return added;
}

/**
 * With a calibration: each whole-card outline (a single blob, or a closed outline in the grey or
 * colour edges) clearly smaller than a card (its short side within
 * `grownBand` of the calibrated width) is often a back's pattern inside its white border (the
 * border taken for table: a purple back on wood read as "not a card", at a similarity of 0.7 to
 * its own enrolled views) or a court card's picture frame. The card of the calibrated size about
 * it, same centre and angle, is read as well, unless a card of about that size is there already;
 * the inner outline then reads as no card, or is dropped as nested (suppressNested).
 */
export function grownOutlines(found: LocatedCard[], size: number | CardSizer, params: typeof LOCATE_DEFAULTS): LocatedCard[] {
  const sizer = sizerOf(size, params);
  const [low, high] = params.grownBand;
  const added: LocatedCard[] = [];
  for (const card of found) {
    if (card.source !== 'single' && card.source !== 'chroma') continue;
    const share = sizer.shares(card.corners).short;
    if (share < low || share > high) continue;
    const corners = orderCardQuad(sizer.cardAbout(card.corners));
    // Found already: an outline of about the card's size there, not itself one clearly too small.
    const known = (f: LocatedCard) => !offCalibratedSize(f.corners, sizer, params) && sizer.shares(f.corners).short > high && sameCorners(f.corners, corners, quadShortSide(corners) * 0.18);
    if (!found.some(known) && !added.some(known)) added.push({ corners, source: 'grown', support: 1 });
  }
  return added;
}

/**
 * Plain pale table, lone marks: an ace (or a card whose border is too faint) shows only a pip and
 * its two index marks, too far apart to close into a card-sized blob. The ink no card `found` so
 * far covers, closed over most of a card's width, marks where such a card lies but not its angle:
 * a card of the calibrated size is tried there at six angles, one rival group (the reading keeps
 * the surest, keepSurestRivals). Groups are numbered -1, -2, ... (the recogniser renumbers them
 * per region).
 */
export function loneMarkCards(cv: OpenCv, ink: CvMat, found: LocatedCard[], knownWidth: number, params: typeof LOCATE_DEFAULTS, blobsOf: (mask: CvMat) => Blob[], track: Track): LocatedCard[] {
  const lone = track(new cv.Mat());
  cv.threshold(ink, lone, 0, 255, cv.THRESH_BINARY);
  if (found.length) {
    const quads = track(new cv.MatVector());
    for (const f of found) quads.push_back(track(cv.matFromArray(4, 1, cv.CV_32SC2, f.corners.flatMap(([x, y]) => [Math.round(x), Math.round(y)]))));
    cv.fillPoly(lone, quads, new cv.Scalar(0));
  }
  const side = odd(knownWidth * params.inkLoneClose);
  cv.morphologyEx(lone, lone, cv.MORPH_CLOSE, track(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(side, side))));
  const cards: LocatedCard[] = [];
  let group = 0;
  for (const { rect } of blobsOf(lone)) {
    if (Math.max(rect.size.width, rect.size.height) > knownWidth * params.aspect * 1.3 || found.some((f) => pointInPolygon(f.corners, rect.center.x, rect.center.y))) continue;
    group -= 1;
    for (let degrees = 0; degrees < 180; degrees += 30) {
      const corners = geometryQuad({ cx: rect.center.x, cy: rect.center.y, angle: (degrees * Math.PI) / 180, short: knownWidth, long: knownWidth * params.aspect });
      cards.push({ corners: orderCardQuad(corners), source: 'ink', support: 1, rivalGroup: group });
    }
  }
  return cards;
}

/** Finds card quads in `image` (RGB). Pure apart from OpenCV calls; frees every Mat. */
export function locateCards(cv: OpenCv, image: RgbImage, options: LocateOptions = {}, defaults = LOCATE_DEFAULTS): LocatedCard[] {
  const params = options.minAspect !== undefined && options.minAspect < defaults.minAspect ? { ...defaults, minAspect: Math.max(1, options.minAspect) } : defaults;
  const scale = options.scale ?? detectionScale(image.width, image.height, params);
  const dw = Math.max(1, Math.round(image.width * scale));
  const dh = Math.max(1, Math.round(image.height * scale));
  /** The calibrated card's short side in detection pixels, when known. */
  const knownWidth = options.cardWidthPx ? options.cardWidthPx * scale : undefined;
  /** The calibrated card's size where an outline lies (one width for the image without the table plane). */
  const sizer: CardSizer | undefined = knownWidth === undefined ? undefined : options.table ? planeSizer(options.table, scale, options.origin) : flatSizer(knownWidth, params.aspect);
  const rectQuad = (rect: Blob['rect']) => rectCorners(rect.center, rect.size, rect.angle) as Quad;
  const mats: Array<{ delete(): void }> = [];
  const track = <T extends { delete(): void }>(m: T): T => {
    mats.push(m);
    return m;
  };
  try {
    const src = track(cv.matFromArray(image.height, image.width, cv.CV_8UC3, image.data));
    const small = track(new cv.Mat());
    cv.resize(src, small, new cv.Size(dw, dh), 0, 0, cv.INTER_AREA);
    const hsv = track(new cv.Mat());
    cv.cvtColor(small, hsv, cv.COLOR_RGB2HSV);
    const channels = track(new cv.MatVector());
    cv.split(hsv, channels);
    const sat = track(channels.get(1));
    const val = track(channels.get(2));
    // Card white is bright and unsaturated even under warm light: score value − saturation.
    const whiteness = track(new cv.Mat());
    cv.subtract(val, sat, whiteness);
    const mask = track(new cv.Mat());
    const otsu = cv.threshold(whiteness, mask, 0, 255, cv.THRESH_BINARY + cv.THRESH_OTSU);
    const threshold = Math.min(params.maxWhiteness, Math.max(params.minWhiteness, otsu));
    cv.threshold(whiteness, mask, threshold, 255, cv.THRESH_BINARY);
    // On a pale cloth the global threshold takes the cloth too; also accept pixels clearly
    // whiter than their neighbourhood.
    const local = track(new cv.Mat());
    const block = 2 * Math.round((params.localWindow * Math.max(dw, dh)) / 2) + 1;
    cv.adaptiveThreshold(whiteness, local, 255, cv.ADAPTIVE_THRESH_MEAN_C, cv.THRESH_BINARY, block, -params.localContrast);
    const floor = track(new cv.Mat());
    cv.threshold(whiteness, floor, params.minWhiteness * 0.8, 255, cv.THRESH_BINARY);
    cv.bitwise_and(local, floor, local);
    if (threshold <= params.minWhiteness * 1.3 || otsu > params.maxWhiteness) cv.bitwise_and(mask, local, mask);
    const kernel = track(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(3, 3)));
    cv.morphologyEx(mask, mask, cv.MORPH_OPEN, kernel);
    // Without a known card size (photos, close views), hypotheses are checked against the mask
    // with each blob's holes filled: a card's pips and picture are not white, and a court card
    // lying on others falls short of the support. (At calibrated webcam size the pips are specks.)
    let maskBytes: Uint8Array;
    if (knownWidth) maskBytes = mask.data.slice();
    else {
      const filled = track(new cv.Mat(dh, dw, cv.CV_8UC1, new cv.Scalar(0)));
      const contours = track(new cv.MatVector());
      const hierarchy = track(new cv.Mat());
      cv.findContours(mask, contours, hierarchy, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
      cv.drawContours(filled, contours, -1, new cv.Scalar(255), -1);
      maskBytes = filled.data.slice();
    }
    // A second mask cut along edges separates a card from a pale cloth and from the card
    // beside or under it; used only where the plain mask gives no card-shaped blob, because
    // the cut also breaks up cards whose pips or picture come close to the border.
    const grey = track(new cv.Mat());
    cv.cvtColor(small, grey, cv.COLOR_RGB2GRAY);
    const greyEdges = track(new cv.Mat());
    cv.Canny(grey, greyEdges, params.cannyLow, params.cannyHigh);
    const edges = track(new cv.Mat());
    cv.dilate(greyEdges, edges, kernel);
    cv.bitwise_not(edges, edges);
    const cutMask = track(new cv.Mat());
    cv.bitwise_and(mask, edges, cutMask);

    const minArea = params.minCardSide * params.minCardSide * params.aspect;
    // Outer outlines (with RETR_CCOMP also those of blobs lying in another's hole: a white
    // table's darker rim holds everything on it).
    const blobsOf = (m: CvMat, smallest = minArea, mode = cv.RETR_EXTERNAL) => {
      const contours = track(new cv.MatVector());
      const hierarchy = track(new cv.Mat());
      cv.findContours(m, contours, hierarchy, mode, cv.CHAIN_APPROX_SIMPLE);
      const blobs: Blob[] = [];
      for (let i = 0; i < contours.size(); i++) {
        if (hierarchy.data32S[i * 4 + 3] !== -1) continue;
        const contour = track(contours.get(i));
        const area = cv.contourArea(contour);
        if (area < smallest) continue;
        blobs.push({ contour, area, rect: cv.minAreaRect(contour), shave: 0 });
      }
      return blobs;
    };
    const found: LocatedCard[] = [];
    const singleWidths: number[] = [];
    const isSingle = (blob: Blob): boolean => {
      const { width, height } = blob.rect.size;
      const short = Math.min(width, height);
      const long = Math.max(width, height);
      const fill = blob.area / Math.max(1, width * height);
      const aspect = long / Math.max(1, short);
      // With the card size known, a blob far wider than a card is several (or the table itself, on a pale plain one).
      const shares = sizer?.shares(rectQuad(blob.rect));
      const notTooBig = !shares || (shares.short <= params.maxSingleWidth && shares.area <= params.maxSingleArea);
      return fill >= params.singleFill && aspect > params.minAspect && aspect < params.maxAspect && short >= params.minCardSide && notTooBig;
    };
    const addSingle = (blob: Blob) => {
      const corners = orderCardQuad(rectCorners(blob.rect.center, blob.rect.size, blob.rect.angle));
      found.push({ corners: growQuad(corners, blob.shave), source: 'single', support: blob.area / (blob.rect.size.width * blob.rect.size.height) });
      singleWidths.push(Math.min(blob.rect.size.width, blob.rect.size.height) + 2 * blob.shave);
    };
    let merged: Blob[] = [];
    const plain = blobsOf(mask);
    const needsCut = plain.filter((b) => !isSingle(b));
    const singles = plain.filter(isSingle);
    singles.forEach(addSingle);
    // A card-shaped blob of an unlikely shape may be several cards: a row of overlapping cards
    // fills its rectangle too. It stays a card, and is split as well; the reading decides.
    merged.push(...singles.filter((b) => mayHoldSeveral(b.rect.size, sizer && localCardWidth(sizer, rectQuad(b.rect)), params)));
    // Brighter levels: the card is usually the whitest thing, so pale streaks of wood or cloth
    // that merged with it at the Otsu level fall away and leave a clean card-shaped blob.
    const level = track(new cv.Mat());
    for (const extra of [30, 60, 90]) {
      const t = threshold + extra;
      if (t > 235) break;
      cv.threshold(whiteness, level, t, 255, cv.THRESH_BINARY);
      cv.morphologyEx(level, level, cv.MORPH_OPEN, kernel);
      for (const blob of blobsOf(level)) {
        if (!isSingle(blob)) continue;
        const w = Math.min(blob.rect.size.width, blob.rect.size.height);
        const corners = orderCardQuad(rectCorners(blob.rect.center, blob.rect.size, blob.rect.angle));
        if (found.some((f) => sameCorners(f.corners, corners, w * 0.18))) continue;
        addSingle(blob);
      }
    }
    // Without a calibration (a photo): a card in shadow, far below the frame's card white but
    // far whiter than the table around it (a lamp lights one side of a photo).
    if (!knownWidth) {
      cv.adaptiveThreshold(whiteness, level, 255, cv.ADAPTIVE_THRESH_MEAN_C, cv.THRESH_BINARY, block, -params.shadowContrast);
      cv.threshold(whiteness, floor, params.shadowMinWhiteness, 255, cv.THRESH_BINARY);
      cv.bitwise_and(level, floor, level);
      cv.morphologyEx(level, level, cv.MORPH_OPEN, kernel);
      // Shadow leaves the card's white speckled: closed, its outline is a rectangle again.
      const side = 2 * Math.round(Math.max(dw, dh) / 200) + 1;
      cv.morphologyEx(level, level, cv.MORPH_CLOSE, track(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(side, side))));
      for (const blob of blobsOf(level)) {
        if (!isSingle(blob)) continue;
        const w = Math.min(blob.rect.size.width, blob.rect.size.height);
        const corners = orderCardQuad(rectCorners(blob.rect.center, blob.rect.size, blob.rect.angle));
        if (found.some((f) => sameCorners(f.corners, corners, w * 0.18))) continue;
        addSingle(blob);
      }
    }
    // Pale patterned cloth: every card merges with the cloth's white squares at every level.
    // Cards are far bigger than the squares, so after a closing (a card's pips and index) an
    // opening with a square under a card's width leaves blobs only where a card lies, in either
    // of two masks: the brightest pixels of all, and pixels whiter than the cloth's own white
    // squares around them (the cloth's white varies over the table: light falls off towards
    // the edges). At each blob a card outline of the known size is fitted: on the whiter-than-
    // cloth image where the blob is whiter than the cloth (fitOnWhiter), else on the frame as on
    // a Nerts pile (probe.ts).
    let ink: CvMat | null = null;
    if (knownWidth && options.cardWidthPx && options.paleCloth) {
      const widthPx = options.cardWidthPx;
      const cloth = clothWhiteMaps(cv, whiteness, knownWidth, params, track);
      const above = whiterThanCloth(cv, whiteness, knownWidth, params, track, cloth);
      // Seeds in detection pixels: those whiter than the cloth are fitted on that image, those
      // only among the brightest (cloth as white as the cards) on the frame itself.
      const seeds: Array<{ at: Point; whiter: boolean }> = [];
      const masks = [
        { mask: whiterThanClothMask(cv, above, knownWidth, params, track), whiter: true },
        { mask: brightestMask(cv, whiteness, threshold, knownWidth, params, track), whiter: false },
      ];
      for (const { mask, whiter } of masks) {
        // Half a card's width squared at least (a cloth square is gone), at most about a card.
        for (const { rect } of blobsOf(mask, (knownWidth * 0.5) ** 2)) {
          if (Math.max(rect.size.width, rect.size.height) > knownWidth * params.aspect * 1.3) continue;
          const at: Point = [rect.center.x, rect.center.y];
          if (!seeds.some((s) => Math.hypot(s.at[0] - at[0], s.at[1] - at[1]) < knownWidth * 0.2)) seeds.push({ at, whiter });
        }
      }
      // A white or cream plain table: cards show by their ink (pips, index, border), outlines fitted there first.
      if (options.plainTable) {
        ink = inkMask(cv, whiteness, knownWidth, params, track, cloth);
        const wholeCards = found.filter((f) => !offCalibratedSize(f.corners, sizer!, params)).map((f) => f.corners);
        for (const corners of inkBlobCards(ink, blobsOf(ink, (knownWidth * params.inkMinBlob) ** 2, cv.RETR_CCOMP), knownWidth, params, wholeCards)) {
          if (!found.some((f) => sameCorners(f.corners, corners, knownWidth * 0.25))) found.push({ corners, source: 'ink', support: 1 });
        }
      }
      const r = widthPx * 0.3;
      for (const { at, whiter } of seeds) {
        let corners = whiter ? fitOnWhiter(above, at, knownWidth, params) : null;
        if (!corners) {
          const [x, y] = [at[0] / scale, at[1] / scale];
          const quad = probePile(image, [[x - r, y - r], [x + r, y - r], [x + r, y + r], [x - r, y + r]], widthPx, { ...PROBE_DEFAULTS, minEdge: params.paleMinEdge });
          corners = quad && (quad.map(([qx, qy]) => [qx * scale, qy * scale] as Point) as Quad);
        }
        if (!corners || found.some((f) => sameCorners(f.corners, corners, knownWidth * 0.25))) continue;
        found.push({ corners: orderCardQuad(corners), source: 'probe', support: 1 });
      }
    }
    // The unexplained plain blobs themselves: a card glued to pale streaks keeps its own corners.
    for (const blob of needsCut) merged.push(blob);
    if (needsCut.length) {
      // Re-examine only the parts of the cut mask that lie inside the unexplained blobs.
      const inside = (b: Blob) => needsCut.some((m) => pointInContour(m.contour, b.rect.center.x, b.rect.center.y));
      for (const part of blobsOf(cutMask)) {
        if (!inside(part)) continue;
        part.shave = params.edgeShave;
        if (isSingle(part)) addSingle(part);
        else if (Math.min(part.rect.size.width, part.rect.size.height) >= params.minCardSide) merged.push(part);
      }
    }
    // Independent of brightness: closed edge outlines that are card-shaped quadrilaterals
    // (cards on pale cloth, where the masks fail).
    {
      const blurred = track(new cv.Mat());
      cv.GaussianBlur(grey, blurred, new cv.Size(5, 5), 0);
      const outline = track(new cv.Mat());
      cv.Canny(blurred, outline, params.cannyLow * 0.6, params.cannyHigh * 0.8);
      const sizes = sizer && { sizer, range: [0, params.maxSingleWidth] as [number, number], hull: params.grownBand };
      for (const { corners, support, width } of closedOutlines(cv, outline, minArea, sizes, params, track)) {
        if (sizer && sizer.shares(corners).area > params.maxSingleArea) continue;
        if (found.some((f) => sameCorners(f.corners, corners, width * 0.18))) continue;
        found.push({ corners, source: 'single', support });
        singleWidths.push(width);
      }
    }
    // Calibrated, when asked: the same in the colour edges (a back no brighter than the wood under it).
    if (sizer && options.colourEdges) {
      for (const { corners, support, width } of chromaOutlines(cv, small, sizer, minArea, params, track)) {
        if (!found.some((f) => sameCorners(f.corners, corners, width * 0.18))) found.push({ corners, source: 'chroma', support });
      }
      // And in the grey edges unblurred: a back whose white border is its only light part, on a
      // cloth as light as its middle (blue-grey backs on the blue gingham, dealt close together
      // at the sort), shows as the closed inner edge of its border; blurred, the edges above
      // merge it with the cloth and its neighbours (grownOutlines then adds the card about it).
      // (The cut mask's edges, before it dilated them; used here last, as closedOutlines dilates them.)
      for (const { corners, support, width } of closedOutlines(cv, greyEdges, minArea, { sizer, range: params.chromaSize }, params, track)) {
        if (!found.some((f) => sameCorners(f.corners, corners, width * 0.18))) found.push({ corners, source: 'chroma', support });
      }
    }
    // Calibrated, once every whole-card outline is in: the card about each one clearly too small.
    if (sizer) found.push(...grownOutlines(found, sizer, params));
    // Plain pale table, once every other outline is in: a calibrated-size card about each outline
    // of the wrong size, and lone marks no outline explains.
    if (ink && knownWidth && sizer) {
      found.push(...resizedOutlines(found, sizer, params));
      found.push(...loneMarkCards(cv, ink, found, knownWidth, params, (m) => blobsOf(m, (knownWidth * params.inkLoneBlob) ** 2, cv.RETR_CCOMP), track));
    }
    singleWidths.sort((a, b) => a - b);
    const medianSingle = singleWidths.length ? singleWidths[Math.floor(singleWidths.length / 2)] : undefined;
    // Many single cards of one size (a table seen whole) give the card size; a few outlines of
    // different sizes (a photo of two cards, with pips and picture frames outlined too) do not,
    // and merged blobs are then split with the sizes they suggest themselves.
    const sizeKnown = knownWidth !== undefined || agreeOnSize(singleWidths);
    // A merged part is only worth splitting when it can hold a card of the expected size.
    const blobWidth = (b: Blob) => (sizer ? sizer.widthAt([b.rect.center.x, b.rect.center.y]) : medianSingle);
    merged = merged.filter((b) => {
      const w = blobWidth(b);
      return w === undefined || Math.max(b.rect.size.width, b.rect.size.height) >= w * 0.9;
    });
    for (const blob of merged) {
      const blobShort = Math.min(blob.rect.size.width, blob.rect.size.height);
      const widths = sizer ? [blobWidth(blob)!] : sizeKnown ? [medianSingle!] : splitWidths(blobShort, medianSingle, params);
      const poly = track(new cv.Mat());
      cv.approxPolyDP(blob.contour, poly, 0.012 * cv.arcLength(blob.contour, true), true);
      const polygon = contourPoints(poly);
      const kept: LocatedCard[] = [];
      const blobBox = boundingRect(polygon);
      const hypotheses = widths.flatMap((w) => cornerHypotheses(polygon, w, w * params.aspect));
      if (!sizeKnown) hypotheses.push(...edgeSizedHypotheses(polygon, params));
      for (const quad of hypotheses) {
        const w = quadShortSide(quad);
        const box = boundingRect(quad);
        const support = maskSupport(maskBytes, dw, dh, quad);
        // Without a calibration a card may lie cut by the frame's edge: judged by the part that shows
        // (its support stays the whole quad's, so a twin inside the frame outranks it).
        let cut: Quad | undefined;
        if (support < params.minSupport) {
          // Only of the frame's usual card size: a blob of two cards side by side gives wider hypotheses.
          if (knownWidth || medianSingle === undefined || Math.abs(w - medianSingle) > 0.15 * medianSingle) continue;
          // The blob must reach the frame's edge where the card runs past it.
          if (!reachesEdgesCrossed(blobBox, box, dw, dh)) continue;
          const inFrame = inFrameSupport(maskBytes, dw, dh, quad);
          if (inFrame.shown < params.minCutShown || inFrame.shown > 0.97 || inFrame.support < params.minCutSupport) continue;
          cut = quad.map(([x, y]) => [Math.min(dw, Math.max(0, x)), Math.min(dh, Math.max(0, y))]) as Quad;
        }
        // One card is hypothesised from several corners and sizes: an outline nearly the same
        // as one already found or kept adds only another read of that card.
        const same = (other: Quad) => rectsOverlap(box, boundingRect(other)) && (sameCorners(other, quad, w * 0.18) || Math.min(shareInside(other, quad), shareInside(quad, other)) >= params.sameOverlap);
        if (found.some((f) => same(f.corners))) continue;
        const twin = kept.findIndex((k) => same(k.corners));
        const card: LocatedCard = { corners: quad, source: 'split', support, ...(cut ? { inFrame: cut } : {}) };
        if (twin >= 0) {
          if (kept[twin].support < support) kept[twin] = card;
        } else kept.push(card);
      }
      found.push(...kept.map((k) => ({ ...k, corners: growQuad(k.corners, blob.shave) })));
    }
    // Without a calibration (a photo, a close view): cards on a textured surface, by their straight
    // edges. Last, and as rivals of any outline of about the same place and size found already
    // (the surer reading stays): placed first they pre-empted split hypotheses that fit better.
    if (!knownWidth) {
      const plausible = plausibleLineCards(lineCards(cv, grey, params, track), sizeKnown ? medianSingle : undefined, params);
      const lines = plausible.map((corners): LocatedCard => ({ corners, source: 'lines', support: 1 }));
      found.splice(0, found.length, ...addAsRivals(found, lines));
    }
    const inv = 1 / scale;
    const unscale = (quad: Quad) => quad.map(([x, y]) => [x * inv, y * inv] as Point) as Quad;
    return found.map((card) => ({ ...card, corners: unscale(card.corners), ...(card.inFrame ? { inFrame: unscale(card.inFrame) } : {}) }));
  } finally {
    for (const m of mats) m.delete();
  }
}

/** What a calibration says of closed outlines' sizes (see closedOutlines), in card widths where each lies. */
interface OutlineSizes {
  sizer: CardSizer;
  range: [number, number];
  hull?: [number, number];
}

/** The width in pixels of a calibrated card lying where `quad` lies, the way `quad` lies. */
function localCardWidth(sizer: CardSizer, quad: Quad): number {
  return quadShortSide(quad) / sizer.shares(quad).short;
}

/**
 * Card-shaped closed outlines in an edge image (changed: it is dilated in place): contours at
 * least `minArea`, most of their rectangle filled (an index or pip touching the outline is
 * tolerated), a card's aspect and a short side of at least `minCardSide`. With `sizes` (a
 * calibration), the short side lies within `range` card widths where the outline lies, and one
 * within `hull` card widths needs only its convex hull to fill the rectangle (`hullFill`): a
 * back's pattern inside its border, whose middle motif reaches the border's inner edge, bounds a
 * region with a bite out of it. Duplicates are left to the caller.
 */
function closedOutlines(cv: OpenCv, edges: CvMat, minArea: number, sizes: OutlineSizes | undefined, params: typeof LOCATE_DEFAULTS, track: Track): Array<{ corners: Quad; support: number; width: number }> {
  const kernel = track(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(3, 3)));
  cv.dilate(edges, edges, kernel);
  const contours = track(new cv.MatVector());
  const hierarchy = track(new cv.Mat());
  cv.findContours(edges, contours, hierarchy, cv.RETR_LIST, cv.CHAIN_APPROX_SIMPLE);
  const outlines: Array<{ corners: Quad; support: number; width: number }> = [];
  for (let i = 0; i < contours.size(); i++) {
    const contour = track(contours.get(i));
    const area = cv.contourArea(contour);
    // (A bitten outline's own area may be half its hull's.)
    if (area < (sizes?.hull ? minArea / 2 : minArea)) continue;
    const rect = cv.minAreaRect(contour);
    const short = Math.min(rect.size.width, rect.size.height);
    const long = Math.max(rect.size.width, rect.size.height);
    const aspect = long / Math.max(1, short);
    if (short * long < minArea || aspect < params.minAspect || aspect > params.maxAspect || short < params.minCardSide) continue;
    const quad = rectCorners(rect.center, rect.size, rect.angle) as Quad;
    const share = sizes ? sizes.sizer.shares(quad).short : 1;
    if (sizes && (share < sizes.range[0] || share > sizes.range[1])) continue;
    let fill = area / Math.max(1, short * long);
    if (fill < 0.8 && sizes?.hull && share >= sizes.hull[0] && share <= sizes.hull[1]) {
      const hull = track(new cv.Mat());
      cv.convexHull(contour, hull, false, true);
      const hullFill = cv.contourArea(hull) / Math.max(1, short * long);
      if (hullFill >= params.hullFill) fill = hullFill;
    }
    if (fill < 0.8) continue;
    outlines.push({ corners: orderCardQuad(quad), support: fill, width: short });
  }
  return outlines;
}

/**
 * Calibrated frames: card-sized closed outlines in the colour edges (Canny of the blurred Lab a*
 * and b* channels, `chromaCanny`), a short side within `chromaSize` of the card's width. Finds a
 * back whose colour, not brightness, tells it from the table (see LOCATE_DEFAULTS.chromaCanny).
 */
export function chromaOutlines(cv: OpenCv, rgb: CvMat, sizer: CardSizer, minArea: number, params: typeof LOCATE_DEFAULTS, track: Track): Array<{ corners: Quad; support: number; width: number }> {
  const lab = track(new cv.Mat());
  cv.cvtColor(rgb, lab, cv.COLOR_RGB2Lab);
  const channels = track(new cv.MatVector());
  cv.split(lab, channels);
  const [low, high] = params.chromaCanny;
  const blurred = track(new cv.Mat());
  // Edges of a* (red–green) and of b* (yellow–blue), together.
  const [edges, bEdges] = [1, 2].map((index) => {
    cv.GaussianBlur(track(channels.get(index)), blurred, new cv.Size(5, 5), 0);
    const channelEdges = track(new cv.Mat());
    cv.Canny(blurred, channelEdges, low, high);
    return channelEdges;
  });
  cv.bitwise_or(edges, bEdges, edges);
  return closedOutlines(cv, edges, minArea, { sizer, range: params.chromaSize }, params, track);
}

/**
 * Whether a fitted straight-edge outline still has the shape its edges were paired for (LINE_DEFAULTS'
 * aspects): the fit may stretch an outline across the next card's edge. Photo IMG_2657's KD, paired
 * as 101 x 148 px, was fitted out to 133 x 148 over its KS neighbour, and read as the KD more
 * surely than the outline of its own size; the KS's strip beside it then took that width too.
 */
export function lineCardShaped(geometry: CardGeometry): boolean {
  const aspect = outlineAspect(geometry);
  return aspect >= LINE_DEFAULTS.minAspect && aspect <= LINE_DEFAULTS.maxAspect;
}

/**
 * Card outlines spanned by long straight edges (see lines.ts), on the detection-size grey image:
 * Canny on a blurred copy at thresholds a texture's own edges mostly miss (lineCanny), Hough
 * segments at least lineMinLength long, pairs of facing parallel segments, and of those quads the
 * ones whose four sides lie on edges (lineEdgeSide each, lineEdgeTotal together); the best
 * supported (at most lineMaxFits) fitted to the brightness step, kept from an inside/outside step
 * of lineMinEdge. Fits nearly the same are one (the one with the stronger step).
 */
export function lineCards(cv: OpenCv, grey: CvMat, params: typeof LOCATE_DEFAULTS, track: Track): Quad[] {
  const blurred = track(new cv.Mat());
  cv.GaussianBlur(grey, blurred, new cv.Size(5, 5), 0);
  const edges = track(new cv.Mat());
  cv.Canny(blurred, edges, params.cannyLow * params.lineCanny, params.cannyHigh * params.lineCanny);
  const lines = track(new cv.Mat());
  const minLength = Math.max(params.minCardSide, params.lineMinLength * Math.max(grey.cols, grey.rows));
  cv.HoughLinesP(edges, lines, 1, Math.PI / 180, Math.round(minLength * 0.6), minLength, 3);
  const segments: Segment[] = [];
  for (let i = 0; i < lines.rows; i++) segments.push([lines.data32S[i * 4], lines.data32S[i * 4 + 1], lines.data32S[i * 4 + 2], lines.data32S[i * 4 + 3]]);
  const kernel = track(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(5, 5)));
  cv.dilate(edges, edges, kernel);
  const edgeBytes = edges.data as Uint8Array;
  const g = { width: grey.cols, height: grey.rows, data: Float32Array.from(grey.data) };
  const kept: Array<{ corners: Quad; support: number }> = [];
  // Cheap first: the edge support of every hypothesis; then the best supported are fitted, each
  // once (hypotheses nearly the same as one tried are skipped), at most lineMaxFits of them: a
  // crowded table has thousands of parallel pairs.
  const supported = quadsFromSegments(joinCollinear(segments, minLength), params.minCardSide)
    .map((quad) => {
      const sides = sideSupport(edgeBytes, grey.cols, grey.rows, quad);
      return { corners: orderCardQuad(quad), weakest: Math.min(...sides), support: sides.reduce((a, b) => a + b) / 4 };
    })
    .filter(({ weakest, support }) => weakest >= params.lineEdgeSide && support >= params.lineEdgeTotal)
    .sort((a, b) => b.support - a.support);
  const tried: Quad[] = [];
  for (const { corners: start } of supported) {
    if (tried.length >= params.lineMaxFits) break;
    const w = quadShortSide(start);
    if (tried.some((t) => sameCorners(t, start, w * 0.05))) continue;
    tried.push(start);
    // The segments end short of a card's rounded corners: the outline is fitted to the brightness
    // step. The strongest straight edges on a court card are its picture's frame: a card about
    // the frame is fitted too (lineFrameGrowth); the reading picks among the rivals.
    const geometry = cardGeometry(start);
    const [growShort, growLong] = params.lineFrameGrowth;
    for (const from of [geometry, { ...geometry, short: geometry.short * growShort, long: geometry.long * growLong }]) {
      const fitted = refineGeometry(g, from, { ...REFINE_DEFAULTS, coarse: false });
      if (fitted.edge < params.lineMinEdge || !lineCardShaped(fitted)) continue;
      const corners = orderCardQuad(geometryQuad(fitted));
      const twin = kept.findIndex((k) => sameCorners(k.corners, corners, w * 0.2));
      if (twin < 0) kept.push({ corners, support: fitted.edge });
      else if (kept[twin].support < fitted.edge) kept[twin] = { corners, support: fitted.edge };
    }
  }
  return kept.map((k) => k.corners);
}

