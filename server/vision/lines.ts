/**
 * Card outlines from straight edges (pure geometry; the OpenCV line detection is in locate.ts).
 *
 * A card lying alone on a textured surface (sand-coloured carpet, stone, a wood grain in sun
 * and shade) is missed by the whiteness masks: half the card is in shadow and darker than the
 * sunlit surface, and the surface's own edges touch the card's outline everywhere, so no closed
 * contour is card-shaped. Its border is still two pairs of long straight edges, and nothing in
 * such a texture is that long and that straight. Two parallel edges facing each other, as far
 * apart as a card's width (or length) and spanning its length (or width) together, make a card
 * hypothesis; the edge support of all four sides (checked by the caller) and the reading decide.
 */
import { CARD_ASPECT } from './classes';
import type { Point, Quad } from './types';

/** A straight edge segment, image pixels: [x1, y1, x2, y2]. */
export type Segment = readonly [number, number, number, number];

export const LINE_DEFAULTS = {
  /** Segments this close in angle are parallel, degrees. */
  parallelDeg: 4,
  /** Two facing segments overlap along their direction by at least this share of the shorter one. */
  minFacing: 0.5,
  /** Long / short side of a hypothesis: a 63x88 mm card is 1.40; a tilted camera foreshortens one side. */
  minAspect: 1.2,
  maxAspect: 1.65,
  /** Pieces of one line (joinCollinear): this close in angle (degrees), their ends this close to the line (pixels). */
  joinDeg: 2,
  joinOffset: 2.5,
  /** A card's own long / short side (63x88 mm). */
  cardAspect: CARD_ASPECT,
  /** At most this many of the longest segments are paired (the pairing is quadratic). */
  maxSegments: 160,
};

const segmentLength = (s: Segment) => Math.hypot(s[2] - s[0], s[3] - s[1]);

/** The segment's direction (unit) and its normal. */
function frame(s: Segment): { u: Point; n: Point } {
  const len = segmentLength(s) || 1;
  const u: Point = [(s[2] - s[0]) / len, (s[3] - s[1]) / len];
  return { u, n: [-u[1], u[0]] };
}

const dot = (a: Point, b: readonly [number, number]) => a[0] * b[0] + a[1] * b[1];

/** Angle between two segments' lines, degrees, 0..90. */
export function segmentAngleDeg(a: Segment, b: Segment): number {
  const ua = frame(a).u;
  const ub = frame(b).u;
  const c = Math.min(1, Math.abs(dot(ua, ub)));
  return (Math.acos(c) * 180) / Math.PI;
}

/**
 * Joins segments that lie on one line with at most `maxGap` between them (a card's border is
 * often found in pieces, broken where a pip or the index comes close to it). Longest first; a
 * joined segment keeps the direction of its longest piece.
 */
export function joinCollinear(segments: readonly Segment[], maxGap: number, params = LINE_DEFAULTS): Segment[] {
  const joined: Array<{ u: Point; n: Point; offset: number; lo: number; hi: number }> = [];
  const sorted = [...segments].sort((a, b) => segmentLength(b) - segmentLength(a));
  for (const s of sorted) {
    const ends: Point[] = [[s[0], s[1]], [s[2], s[3]]];
    const line = joined.find((j) => {
      if (segmentAngleDeg(s, toSegment(j)) > params.joinDeg) return false;
      if (ends.some((p) => Math.abs(dot(j.n, p) - j.offset) > params.joinOffset)) return false;
      const [p0, p1] = ends.map((p) => dot(j.u, p));
      return Math.max(p0, p1) >= j.lo - maxGap && Math.min(p0, p1) <= j.hi + maxGap;
    });
    if (line) {
      for (const p of ends) {
        line.lo = Math.min(line.lo, dot(line.u, p));
        line.hi = Math.max(line.hi, dot(line.u, p));
      }
    } else {
      const { u, n } = frame(s);
      const [p0, p1] = ends.map((p) => dot(u, p));
      joined.push({ u, n, offset: dot(n, ends[0]), lo: Math.min(p0, p1), hi: Math.max(p0, p1) });
    }
  }
  return joined.map(toSegment);
}

function toSegment(j: { u: Point; n: Point; offset: number; lo: number; hi: number }): Segment {
  const at = (t: number): Point => [j.u[0] * t + j.n[0] * j.offset, j.u[1] * t + j.n[1] * j.offset];
  const [a, b] = [at(j.lo), at(j.hi)];
  return [a[0], a[1], b[0], b[1]];
}

/**
 * Card-shaped quads spanned by pairs of parallel, facing segments (see the file comment):
 * between the two lines across, over the two segments' joint extent along them. Quads start
 * anywhere; callers order them (orderCardQuad). Smaller than `minSide` across is no card.
 */
export function quadsFromSegments(segments: readonly Segment[], minSide: number, params = LINE_DEFAULTS): Quad[] {
  const longest = [...segments]
    .map((s) => ({ s, len: segmentLength(s) }))
    .sort((a, b) => b.len - a.len)
    .slice(0, params.maxSegments);
  const quads: Quad[] = [];
  for (let i = 0; i < longest.length; i++) {
    const a = longest[i];
    const { u, n } = frame(a.s);
    const a0 = dot(u, [a.s[0], a.s[1]]);
    const a1 = dot(u, [a.s[2], a.s[3]]);
    const offsetA = dot(n, [a.s[0], a.s[1]]);
    for (let j = i + 1; j < longest.length; j++) {
      const b = longest[j];
      if (segmentAngleDeg(a.s, b.s) > params.parallelDeg) continue;
      // b's midpoint across from a's line; b's ends along a's direction.
      const offsetB = dot(n, [(b.s[0] + b.s[2]) / 2, (b.s[1] + b.s[3]) / 2]);
      const across = Math.abs(offsetB - offsetA);
      if (across < minSide) continue;
      const [lo, hi] = [Math.min(a0, a1), Math.max(a0, a1)];
      const b0 = dot(u, [b.s[0], b.s[1]]);
      const b1 = dot(u, [b.s[2], b.s[3]]);
      const [blo, bhi] = [Math.min(b0, b1), Math.max(b0, b1)];
      const facing = Math.min(hi, bhi) - Math.max(lo, blo);
      if (facing < params.minFacing * Math.min(hi - lo, bhi - blo)) continue;
      // The card's length along the lines: the two segments' joint extent when card-shaped,
      // else a card's shape from the distance across (a segment may run on past the card's
      // corner, along a shadow or another card). Each length is tried from either segment's
      // ends; the edge support of the end sides picks among them.
      const union: [number, number] = [Math.min(lo, blo), Math.max(hi, bhi)];
      const along = union[1] - union[0];
      const lengths = [along, across * params.cardAspect, across / params.cardAspect].filter((length, k) => {
        const aspect = Math.max(length, across) / Math.min(length, across);
        return length >= minSide && aspect >= params.minAspect && aspect <= params.maxAspect && (k === 0 || Math.abs(length - along) > 0.05 * along);
      });
      const at = (t: number, o: number): Point => [u[0] * t + n[0] * o, u[1] * t + n[1] * o];
      for (const length of lengths) {
        const starts = new Set([union[0], union[1] - length, lo, hi - length, blo, bhi - length].map(Math.round));
        for (const from of starts) {
          const to = from + length;
          // Each segment lies mostly on the card's side.
          const inside = (l: number, h: number) => Math.min(h, to) - Math.max(l, from) >= params.minFacing * Math.min(h - l, length);
          if (!inside(lo, hi) || !inside(blo, bhi)) continue;
          quads.push([at(from, offsetA), at(to, offsetA), at(to, offsetB), at(from, offsetB)]);
        }
      }
    }
  }
  return quads;
}

/**
 * Share of points sampled along each side of `quad` that lie on an edge pixel of `edges`
 * (a width x height mask, non-zero = edge; dilate it first to tolerate a pixel or two).
 */
export function sideSupport(edges: Uint8Array, width: number, height: number, quad: Quad, steps = 16): [number, number, number, number] {
  const shares = [0, 1, 2, 3].map((k) => {
    const [p, q] = [quad[k], quad[(k + 1) % 4]];
    let on = 0;
    for (let i = 0; i < steps; i++) {
      const t = (i + 0.5) / steps;
      const x = Math.round(p[0] + (q[0] - p[0]) * t);
      const y = Math.round(p[1] + (q[1] - p[1]) * t);
      if (x >= 0 && y >= 0 && x < width && y < height && edges[y * width + x]) on++;
    }
    return on / steps;
  });
  return shares as [number, number, number, number];
}
