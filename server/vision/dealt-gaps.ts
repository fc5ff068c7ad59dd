/**
 * Gaps in the score sort's dealt rows, and what may show in them. Pure.
 *
 * At the score sort each player deals their centre cards out face down, in rows, apart from each
 * other (back-count.ts counts them). On a pale cloth a pale back can lose its outline where the
 * cloth's checks run along its edges (the 3-player gingham table: p1's blue-grey backs, 24 of 26
 * found in a whole read), while its neighbours in the row are found. Between two backs of one
 * design lying in a row (the same angle, in line along one of their axes) a whole number n of
 * pitches apart, the n − 1 places between are where dealt cards of that row lie, or a gap the
 * player left: each is looked at (see Recognizer's fillDealtGaps) and kept only when it reads
 * surely as a back of that same design.
 *
 * Only between, never beyond: growing the rows outwards from every back found (session 50) put
 * 30 backs on bare cloth for 2 found. Since session 53 also between two backs of different
 * designs lying in a row (the 6-player gingham sort: a pale back lost between a neighbour's back
 * and its own), kept where either design reads there surely; a place where an outline read as no
 * card lies is looked at too (a misfit round a pale back), and a place read as no card or an unsure
 * face is a back when both embeddings put it close to one of the two designs (gapShowsDesign).
 * bench:sort 549 → 554 of 562, none more named as another deck or reported elsewhere.
 */
import { cardGeometry, type CardGeometry } from './locator';
import type { Quad } from './types';

export const DEALT_GAPS = {
  /** Two backs whose long axes differ by more than this (radians) lie in no one row. */
  maxAngle: 0.09,
  /** ... nor two whose centres lie further than this share of a short side off the row's line. */
  maxOffRow: 0.25,
  /** The pitch (centre to centre of neighbours in a row) in card lengths along each axis lies within these. */
  pitchRange: [0.95, 1.6] as [number, number],
  /** A pair is n pitches apart within this share of a card side; n at most `maxPlaces` + 1. */
  pitchSlack: 0.12,
  maxPlaces: 2,
  /** A place within this share of a short side of an outline already found is no gap. */
  takenWithin: 0.45,
  /** Whether two backs of different designs lying in a row bound gaps too (of whichever design reads there). */
  anyDesign: true,
};

/** A back found in a frame read whole, with the design it was named. */
export interface DealtBack {
  corners: Quad;
  design: string;
}

/** A place between two backs in a row where a dealt card would lie: of the `designs` of those two (one design, or either of two). */
export interface DealtGap {
  geometry: CardGeometry;
  designs: string[];
}

/** The half-turn-folded difference of two long-axis angles (radians). */
function angleApart(a: number, b: number): number {
  const d = Math.abs(a - b) % Math.PI;
  return Math.min(d, Math.PI - d);
}

/**
 * The places between pairs of `backs` lying in a row (see the file's comment), where none of
 * `taken` (the outlines read as cards) lies. The pitch along each axis (a card's long side,
 * its short side) is the median distance between neighbours in a row, measured on these backs.
 */
export function dealtGaps(backs: readonly DealtBack[], taken: readonly Quad[], params = DEALT_GAPS): DealtGap[] {
  const cards = backs.map((back) => ({ design: back.design, g: cardGeometry(back.corners) }));
  type Pair = { a: CardGeometry; designs: string[]; dx: number; dy: number; along: number; across: number };
  const pairs: Pair[] = [];
  for (const a of cards)
    for (const b of cards) {
      if (a === b || (a.design !== b.design && !params.anyDesign) || angleApart(a.g.angle, b.g.angle) > params.maxAngle) continue;
      const dx = b.g.cx - a.g.cx;
      const dy = b.g.cy - a.g.cy;
      const [ux, uy] = [Math.cos(a.g.angle), Math.sin(a.g.angle)];
      pairs.push({ a: a.g, designs: a.design === b.design ? [a.design] : [a.design, b.design], dx, dy, along: dx * ux + dy * uy, across: -dx * uy + dy * ux });
    }
  // Each axis: the distance along it, the distance off it, and the card's side along it.
  const axes = [(p: Pair) => [p.along, p.across, p.a.long], (p: Pair) => [p.across, p.along, p.a.short]];
  const pitches = axes.map((axis) => {
    const ratios = pairs.flatMap((p) => {
      const [d, off, side] = axis(p);
      const ratio = d / side;
      return d > 0 && Math.abs(off) <= params.maxOffRow * p.a.short && ratio >= params.pitchRange[0] && ratio <= params.pitchRange[1] ? [ratio] : [];
    });
    ratios.sort((x, y) => x - y);
    return ratios.length ? ratios[Math.floor(ratios.length / 2)] : null;
  });
  // Every outline found, and each gap once taken.
  const placed = taken.map((quad) => cardGeometry(quad));
  const gaps: DealtGap[] = [];
  const free = (x: number, y: number, short: number) => !placed.some((c) => Math.hypot(c.cx - x, c.cy - y) < params.takenWithin * short);
  for (const p of pairs) {
    axes.forEach((axis, k) => {
      const pitchRatio = pitches[k];
      const [d, off, side] = axis(p);
      if (pitchRatio === null || d <= 0 || Math.abs(off) > params.maxOffRow * p.a.short) return;
      const pitch = side * pitchRatio;
      const n = Math.round(d / pitch);
      if (n < 2 || n > params.maxPlaces + 1 || Math.abs(d / n - pitch) > params.pitchSlack * side) return;
      for (let j = 1; j < n; j++) {
        const [cx, cy] = [p.a.cx + (p.dx * j) / n, p.a.cy + (p.dy * j) / n];
        if (!free(cx, cy, p.a.short)) continue;
        const geometry = { ...p.a, cx, cy };
        gaps.push({ geometry, designs: p.designs });
        placed.push(geometry);
      }
    });
  }
  return gaps;
}

/**
 * A place between two backs of one design read as an unsure face or no card is still that
 * design's back when both embeddings put it this close to the design's views (`minLook` by the
 * back-look model, `minWhole` by the whole-card model) and no other design's views lie nearer by
 * the back look. The row says which design to expect, so this asks less than a lone outline's
 * rescue (LOOK_RESCUE's 0.15 margin): the 6-player gingham sort's pale p6 backs, at their true
 * places, read as faces at 0.29–0.40 with looks 0.97–1.00 (the next design 0.88–0.94) and whole
 * 0.97–0.99; bare cloth there came to at most 0.87 and 0.90.
 */
export const GAP_LOOK = { minLook: 0.95, minWhole: 0.95, maxFace: 0.8 } as const;

/** Whether a gap read as no card or a face under `maxFace` shows `design`'s back (see GAP_LOOK); `looks` and `whole` map each enrolled design to its nearest view's similarity. */
export function gapShowsDesign(design: string, looks: ReadonlyMap<string, number>, whole: ReadonlyMap<string, number>, rule = GAP_LOOK): boolean {
  const look = looks.get(design) ?? 0;
  if (look < rule.minLook || (whole.get(design) ?? 0) < rule.minWhole) return false;
  return [...looks].every(([other, similarity]) => other === design || similarity <= look);
}
