/**
 * Plane geometry shared by the renderer, the recogniser, the tracker and the web app:
 * four-point homographies and point-in-polygon tests. Pure numbers (no DOM, no OpenCV), so the
 * client bundle can import it too. Units are whatever the caller's points are in (pixels or
 * table millimetres).
 */

/** A point [x, y]. */
export type Point = [number, number];

/** Four points, in order (for cards and tables: top-left, top-right, bottom-right, bottom-left). */
export type Quad = [Point, Point, Point, Point];

/** A 3x3 homography, row-major, h[8] = 1: maps (x, y) to ((h0 x + h1 y + h2) / w, (h3 x + h4 y + h5) / w). */
export type Homography = [number, number, number, number, number, number, number, number, number];

/** The homography taking each `from[i]` onto `to[i]`, or null when the quads are degenerate (three points in a line). */
export function tryHomographyFromPoints(from: Quad, to: Quad): Homography | null {
  // Eight equations in h0..h7 (h8 = 1), solved by Gaussian elimination with partial pivoting.
  const rows: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i];
    const [u, v] = to[i];
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let r = col + 1; r < 8; r++) if (Math.abs(rows[r][col]) > Math.abs(rows[pivot][col])) pivot = r;
    if (Math.abs(rows[pivot][col]) < 1e-12) return null;
    [rows[col], rows[pivot]] = [rows[pivot], rows[col]];
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const factor = rows[r][col] / rows[col][col];
      if (factor === 0) continue;
      for (let c = col; c < 9; c++) rows[r][c] -= factor * rows[col][c];
    }
  }
  const h = rows.map((row, i) => row[8] / row[i]);
  if (h.some((value) => !Number.isFinite(value))) return null;
  return [h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1];
}

/** The homography taking each `from[i]` onto `to[i]`; throws on degenerate quads (a programmer or calibration error). */
export function homographyFromPoints(from: Quad, to: Quad): Homography {
  const h = tryHomographyFromPoints(from, to);
  if (!h) throw new Error('degenerate quad: cannot solve homography');
  return h;
}

/** Applies a homography to the point (x, y). */
export function applyHomography(h: Homography, x: number, y: number): Point {
  const w = h[6] * x + h[7] * y + h[8];
  return [(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w];
}

/** The centre of a quad (a card's outline): the mean of its four corners. */
export function quadCentre(corners: ReadonlyArray<readonly [number, number]>): Point {
  return [(corners[0][0] + corners[1][0] + corners[2][0] + corners[3][0]) / 4, (corners[0][1] + corners[1][1] + corners[2][1] + corners[3][1]) / 4];
}

/** `quad` scaled about its centre by `factor` (1.06: each side 6 % longer). */
export function scaleQuad(quad: Quad, factor: number): Quad {
  const [cx, cy] = quadCentre(quad);
  return quad.map(([x, y]) => [cx + (x - cx) * factor, cy + (y - cy) * factor]) as unknown as Quad;
}

/** The longest side of a quad (a card's outline: its long side, however the corners are ordered). */
export function quadLongSide(corners: ReadonlyArray<readonly [number, number]>): number {
  const side = (a: readonly [number, number], b: readonly [number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  return Math.max(side(corners[0], corners[1]), side(corners[1], corners[2]), side(corners[2], corners[3]), side(corners[3], corners[0]));
}

/** The shortest side of a quad (a card's outline: its width, however the corners are ordered). */
export function quadShortSide(corners: ReadonlyArray<readonly [number, number]>): number {
  const side = (a: readonly [number, number], b: readonly [number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  return Math.min(side(corners[0], corners[1]), side(corners[1], corners[2]), side(corners[2], corners[3]), side(corners[3], corners[0]));
}

/** How far `point` lies from the segment from `a` to `b` (from `a` where the segment has no length). */
export function distanceToSegment(point: readonly [number, number], a: readonly [number, number], b: readonly [number, number]): number {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((point[0] - a[0]) * dx + (point[1] - a[1]) * dy) / length2));
  return Math.hypot(point[0] - (a[0] + t * dx), point[1] - (a[1] + t * dy));
}

/** The area of a polygon (shoelace formula; either winding). */
export function polygonArea(polygon: ReadonlyArray<readonly [number, number]>): number {
  let twice = 0;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) twice += polygon[j][0] * polygon[i][1] - polygon[i][0] * polygon[j][1];
  return Math.abs(twice) / 2;
}

/** Even-odd test: is (x, y) inside the polygon (any winding, not necessarily convex)? */
export function pointInPolygon(polygon: ReadonlyArray<readonly [number, number]>, x: number, y: number): boolean {
  // Indexed reads, not destructuring: this runs millions of times a minute on live frames, and
  // destructuring went through the array iterator (about 5 MB of garbage a frame).
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const xi = polygon[i][0];
    const yi = polygon[i][1];
    const xj = polygon[j][0];
    const yj = polygon[j][1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Share of quad `a` (sampled on a grid) that lies inside quad `b`. */
export function shareInside(a: Quad, b: Quad, steps = 8): number {
  let inside = 0;
  for (let i = 0; i < steps; i++) {
    for (let j = 0; j < steps; j++) {
      const p = pointOfQuad(a, (i + 0.5) / steps, (j + 0.5) / steps);
      if (pointInPolygon(b, p[0], p[1])) inside++;
    }
  }
  return inside / (steps * steps);
}

/** The point at (u, v) of a quad (TL TR BR BL), u across and v along the card, both 0..1. */
export function pointOfQuad(q: Quad, u: number, v: number): Point {
  return [
    (1 - v) * ((1 - u) * q[0][0] + u * q[1][0]) + v * ((1 - u) * q[3][0] + u * q[2][0]),
    (1 - v) * ((1 - u) * q[0][1] + u * q[1][1]) + v * ((1 - u) * q[3][1] + u * q[2][1]),
  ];
}

/**
 * Whether two quads lie in the same place: every corner of `a` within `tolerance` pixels of some
 * corner of `b` (as point sets: one outline may start at another corner than the other). Loops
 * and squared distances: trackers and localisers call this for every card against many others.
 */
export function sameCorners(a: Quad, b: Quad, tolerance: number): boolean {
  const limit = tolerance * tolerance;
  for (let i = 0; i < a.length; i++) {
    let near = false;
    for (let j = 0; j < b.length && !near; j++) {
      const dx = a[i][0] - b[j][0];
      const dy = a[i][1] - b[j][1];
      near = dx * dx + dy * dy <= limit;
    }
    if (!near) return false;
  }
  return true;
}
