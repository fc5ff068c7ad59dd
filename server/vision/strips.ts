/**
 * Strips beside sure cards: where a card lies under another in a fan or a cascade, the part that
 * shows is a strip along one of the top card's sides. Pure image geometry.
 *
 * The classical localiser splits a merged blob at the frame's usual single-card width; on a
 * photo of two or three cards that width can be wrong (IMG_2601's only lone blob is a 17-pixel
 * pip, so a QC's strip beside a 10D was hypothesised 20 pixels wide and read as no card). A card
 * read surely shows the size of the cards under it. Beyond each side of such a card, this walks
 * outwards along lines parallel to that side while they are mostly card-white (a court card's
 * picture leaves its white border above and below) to where the table shows; where the strip
 * ends, or at a thin dark line across it (one card's edge on the next), at least `minShare` and
 * at most `maxShare` of a card from the side, a card of the sure card's size may lie under it,
 * shifted by that width. The reader decides whether one is a card (its index corner must show
 * and name it; see coveredCards), and which of a strip's candidate ends is right (its surest
 * reading).
 */
import { CARD_ASPECT } from './classes';
import type { GreyImage } from './refine';
import type { Point, Quad } from './types';

export const STRIP_LOOK = {
  /** A strip narrower than this share of the card across it is the sure card's own edge or shadow... */
  minShare: 0.12,
  /** ...and one wider than this is no card lying under it (a card beside it, paper, a pale cloth). */
  maxShare: 0.85,
  /** A line is card-white where at least this share of its samples is that bright... */
  whiteShare: 0.2,
  /** ...which is this share of the sure card's own margin's brightness. */
  whiteOfMargin: 0.8,
  /** A strip ends where lines stop being card-white for this share of the card across (or 3 pixels). */
  endRun: 0.06,
  /** The strip must start within this many pixels of the sure card's side (its edge line, a shadow). */
  startWithin: 4,
  /**
   * Within the white run, a line this much darker (grey levels) than the brightest lines within
   * `dipReach` pixels on both sides is a thin line across it: where one card's edge lies on the
   * next one's (a strip between two cards), or a court card's picture frame. Each is a candidate
   * end of the strip, as is the end of the white run; at most `candidates` per side, deepest first.
   */
  dipDepth: 10,
  dipReach: 4,
  candidates: 3,
  /** Samples along each line, over the side's length less this share at each end. */
  samples: 32,
  endMargin: 0.03,
};

/**
 * A card hypothesised under a sure card: its outline; which sure card (index into `sure`) it lies
 * under; and its side, the same for each candidate end of one strip.
 */
export interface StripCard {
  corners: Quad;
  under: number;
  side: number;
}

/**
 * Cards lying under each of `sure` (quads ordered as orderCardQuad orders them: p0→p1 a short
 * side) whose strip shows beside it in `grey`: for each side, one card per candidate end of the
 * strip (the reader's surest reading among them stands). Where `sides[k]` is given, only that
 * side of `sure[k]` is looked beyond: the next card down a cascade lies on the side the card
 * above it was found (see the recogniser's lookForStrips).
 */
export function stripHypotheses(grey: GreyImage, sure: readonly Quad[], params = STRIP_LOOK, sides?: ReadonlyArray<number | undefined>): StripCard[] {
  const out: StripCard[] = [];
  sure.forEach((quad, under) => {
    const only = sides?.[under];
    for (let side = 0; side < 4; side++) {
      if (only !== undefined && side !== only) continue;
      const strip = stripEnds(grey, quad, side, params);
      if (strip === null) continue;
      const [nx, ny] = strip.normal;
      for (const width of strip.widths) out.push({ corners: quad.map(([x, y]) => [x + nx * width, y + ny * width]) as Quad, under, side });
    }
  });
  return out;
}

/**
 * The strip beyond side `side` (from corner `side` to the next) of `quad`: the candidate widths
 * of a card lying under it there (pixels), and the outward normal; null where no card-white
 * strip starts at that side.
 */
export function stripEnds(grey: GreyImage, quad: Quad, side: number, params = STRIP_LOOK): { widths: number[]; normal: Point } | null {
  const a = quad[side];
  const b = quad[(side + 1) % 4];
  const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
  // The card's extent across this side: the length of the next side.
  const c = quad[(side + 2) % 4];
  const across = Math.hypot(c[0] - b[0], c[1] - b[1]);
  if (length < 8 || across < 8) return null;
  const ux = (b[0] - a[0]) / length;
  const uy = (b[1] - a[1]) / length;
  // Outward: away from the quad's centre.
  const cx = (quad[0][0] + quad[1][0] + quad[2][0] + quad[3][0]) / 4;
  const cy = (quad[0][1] + quad[1][1] + quad[2][1] + quad[3][1]) / 4;
  let normal: Point = [uy, -ux];
  if ((a[0] - cx) * normal[0] + (a[1] - cy) * normal[1] < 0) normal = [-uy, ux];
  const lineAt = (t: number): Array<number | null> => {
    const values: Array<number | null> = [];
    for (let k = 0; k < params.samples; k++) {
      const f = params.endMargin + ((1 - 2 * params.endMargin) * (k + 0.5)) / params.samples;
      values.push(valueAt(grey, a[0] + ux * length * f + normal[0] * t, a[1] + uy * length * f + normal[1] * t));
    }
    return values;
  };
  // The sure card's own margin, just inside this side.
  const margin = median(lineAt(-Math.max(2, 0.04 * across)).filter((v): v is number => v !== null));
  if (margin === null || margin <= 0) return null;
  const bright = margin * params.whiteOfMargin;
  const endRun = Math.max(3, params.endRun * across);
  const limit = Math.ceil(across * params.maxShare + endRun);
  // Mean grey of each line (index t), while the lines are card-white.
  const means: number[] = [0];
  let last = 0;
  let dark = 0;
  for (let t = 1; t <= limit; t++) {
    const values = lineAt(t);
    if (values.some((v) => v === null)) return null;
    const white = values.filter((v) => v! >= bright).length / values.length >= params.whiteShare;
    means.push(values.reduce<number>((sum, v) => sum + v!, 0) / values.length);
    if (white) {
      last = t;
      dark = 0;
    } else if (last === 0 && t > params.startWithin) return null;
    else if (++dark > endRun) break;
  }
  if (last < params.minShare * across) return null;
  const candidates: Array<{ width: number; depth: number }> = [];
  // The strip's far edge lies past its last white line (as a card's side lies past its last pixel).
  if (last <= params.maxShare * across) candidates.push({ width: last + 1, depth: Infinity });
  const lo = Math.ceil(params.minShare * across);
  const hi = Math.min(last, Math.floor(params.maxShare * across)) - 1;
  for (let t = lo; t <= hi; t++) {
    if (means[t] > means[t - 1] || means[t] > means[t + 1]) continue;
    const before = Math.max(...means.slice(Math.max(1, t - params.dipReach), t));
    const after = Math.max(...means.slice(t + 1, Math.min(means.length, t + 1 + params.dipReach)));
    const depth = Math.min(before, after) - means[t];
    if (depth >= params.dipDepth) candidates.push({ width: t, depth });
  }
  if (candidates.length === 0) return null;
  candidates.sort((x, y) => y.depth - x.depth);
  return { widths: candidates.slice(0, params.candidates).map((candidate) => candidate.width), normal };
}

/** Grey at a point (nearest pixel), or null outside the image. */
function valueAt(grey: GreyImage, x: number, y: number): number | null {
  const xi = Math.round(x);
  const yi = Math.round(y);
  if (xi < 0 || yi < 0 || xi >= grey.width || yi >= grey.height) return null;
  return grey.data[yi * grey.width + xi];
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = values.slice().sort((x, y) => x - y);
  return sorted[sorted.length >> 1];
}

/**
 * A card-shaped outline at each end of a squat outline (one far from a card's `aspect`), for each
 * way the card may lie in it: the outline kept along one side and cut across the other to the
 * card's shape. A cascade outlined whole with its top card (its strips run on past the card's
 * edge in one white run) is such an outline: its top card lies at one end, the strips at the
 * other. Each keeps the outline's corner order.
 */
export function cardShapedEnds(quad: Quad, aspect = CARD_ASPECT): Quad[] {
  const out: Quad[] = [];
  const at = (a: Point, b: Point, t: number): Point => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
  for (let turn = 0; turn < 2; turn++) {
    // Sides p0→p1 and p2→p3 are kept; p1→p2 and p3→p0 are cut to the card's shape.
    const [p0, p1, p2, p3] = [0, 1, 2, 3].map((k) => quad[(k + turn) % 4]);
    const kept = (Math.hypot(p1[0] - p0[0], p1[1] - p0[1]) + Math.hypot(p3[0] - p2[0], p3[1] - p2[1])) / 2;
    const cut = (Math.hypot(p2[0] - p1[0], p2[1] - p1[1]) + Math.hypot(p0[0] - p3[0], p0[1] - p3[1])) / 2;
    // The kept side is the card's long side or its short one, whichever leaves a card inside the outline.
    const want = kept * aspect <= cut ? kept * aspect : kept / aspect;
    if (want >= cut || want <= 0) continue;
    const t = want / cut;
    const ends: Quad[] = [
      [p0, p1, at(p1, p2, t), at(p0, p3, t)],
      [at(p3, p0, t), at(p2, p1, t), p2, p3],
    ];
    for (const end of ends) out.push(turn === 0 ? end : ([end[3], end[0], end[1], end[2]] as Quad));
  }
  return out;
}
