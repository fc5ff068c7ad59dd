/**
 * Plane-to-plane homographies from four point pairs (the table rectangle seen by the camera),
 * solved directly with an 8x8 linear system. Pure numbers: no DOM, no OpenCV in the bundle.
 */

/** A 3x3 homography, row-major, h[8] = 1. Maps (x, y) to (X/W, Y/W). */
export type Homography = [number, number, number, number, number, number, number, number, number];

/** A point [x, y]. */
export type Pt = [number, number];

/** Solves A x = b by Gaussian elimination with partial pivoting; null when singular. */
function solveLinear(matrix: number[][], rhs: number[]): number[] | null {
  const n = rhs.length;
  const a = matrix.map((row, i) => [...row, rhs[i]]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) if (Math.abs(a[row][col]) > Math.abs(a[pivot][col])) pivot = row;
    if (Math.abs(a[pivot][col]) < 1e-10) return null;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    for (let row = 0; row < n; row++) {
      if (row === col) continue;
      const factor = a[row][col] / a[col][col];
      for (let k = col; k <= n; k++) a[row][k] -= factor * a[col][k];
    }
  }
  return a.map((row, i) => row[n] / row[i]);
}

/** The homography taking each `from[i]` to `to[i]` (four pairs); null for degenerate input (three points in a line). */
export function homographyFrom(from: [Pt, Pt, Pt, Pt], to: [Pt, Pt, Pt, Pt]): Homography | null {
  const matrix: number[][] = [];
  const rhs: number[] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i];
    const [X, Y] = to[i];
    matrix.push([x, y, 1, 0, 0, 0, -x * X, -y * X]);
    rhs.push(X);
    matrix.push([0, 0, 0, x, y, 1, -x * Y, -y * Y]);
    rhs.push(Y);
  }
  const solution = solveLinear(matrix, rhs);
  if (!solution || solution.some((value) => !Number.isFinite(value))) return null;
  return [...solution, 1] as Homography;
}

/** Applies a homography to a point; null when the point maps to infinity. */
export function applyHomography(h: Homography, [x, y]: Pt): Pt | null {
  const w = h[6] * x + h[7] * y + h[8];
  if (Math.abs(w) < 1e-12) return null;
  return [(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w];
}
