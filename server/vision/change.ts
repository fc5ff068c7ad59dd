/**
 * Change detection between frames, for tracking: a small grey copy of each frame, compared cell
 * by cell, tells which part of the table changed, so only that part is re-localised and only
 * the cards there are re-identified.
 */
import type { RgbImage } from './crop';

/** Grey thumbnail size used for change detection, pixels. */
export const CHANGE_WIDTH = 160;
export const CHANGE_HEIGHT = 90;
/** Side of a comparison cell, thumbnail pixels. */
const CELL = 8;
/** Mean absolute grey difference (0..255) above which a cell counts as changed. */
export const CELL_CHANGE_THRESHOLD = 6;

/** A grey thumbnail of a frame. */
export interface GreyThumb {
  data: Float32Array;
  sourceWidth: number;
  sourceHeight: number;
}

/** Box-averaged grey thumbnail (CHANGE_WIDTH x CHANGE_HEIGHT) of an RGB image. */
export function greyThumb(image: RgbImage): GreyThumb {
  const out = new Float32Array(CHANGE_WIDTH * CHANGE_HEIGHT);
  const counts = new Float32Array(CHANGE_WIDTH * CHANGE_HEIGHT);
  const { data, width, height } = image;
  // Subsample source pixels on a stride: plenty for change detection and ~1 ms at 1280x720.
  const step = Math.max(1, Math.floor(Math.min(width / CHANGE_WIDTH, height / CHANGE_HEIGHT) / 2));
  for (let y = 0; y < height; y += step) {
    const ty = Math.min(CHANGE_HEIGHT - 1, Math.floor((y * CHANGE_HEIGHT) / height));
    for (let x = 0; x < width; x += step) {
      const tx = Math.min(CHANGE_WIDTH - 1, Math.floor((x * CHANGE_WIDTH) / width));
      const i = (y * width + x) * 3;
      out[ty * CHANGE_WIDTH + tx] += 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
      counts[ty * CHANGE_WIDTH + tx]++;
    }
  }
  for (let i = 0; i < out.length; i++) out[i] /= counts[i] || 1;
  return { data: out, sourceWidth: width, sourceHeight: height };
}

/** A rectangle in frame pixels. */
export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * What changed between two thumbnails of one frame size: each group of touching (8-connected)
 * changed cells, as cell indices of a grid `columns` wide. Null when the frame size changed
 * (everything changed). The recogniser compares once a frame and reads both the regions to
 * re-localise (regionsOf) and what moved (blobsOf) from it.
 */
export interface ThumbChange {
  columns: number;
  groups: number[][];
}

export function compareThumbs(previous: GreyThumb, current: GreyThumb): ThumbChange | null {
  if (previous.sourceWidth !== current.sourceWidth || previous.sourceHeight !== current.sourceHeight) return null;
  const columns = Math.ceil(CHANGE_WIDTH / CELL);
  const rows = Math.ceil(CHANGE_HEIGHT / CELL);
  const changed = new Uint8Array(columns * rows);
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      let diff = 0;
      let n = 0;
      for (let y = row * CELL; y < Math.min(CHANGE_HEIGHT, (row + 1) * CELL); y++)
        for (let x = column * CELL; x < Math.min(CHANGE_WIDTH, (column + 1) * CELL); x++) {
          diff += Math.abs(current.data[y * CHANGE_WIDTH + x] - previous.data[y * CHANGE_WIDTH + x]);
          n++;
        }
      if (diff / n > CELL_CHANGE_THRESHOLD) changed[row * columns + column] = 1;
    }
  }
  // Flood-fill each group of changed cells.
  const seen = new Uint8Array(changed.length);
  const groups: number[][] = [];
  const stack: number[] = [];
  for (let start = 0; start < changed.length; start++) {
    if (changed[start] !== 1 || seen[start]) continue;
    seen[start] = 1;
    stack.push(start);
    const group: number[] = [];
    while (stack.length) {
      const cell = stack.pop()!;
      group.push(cell);
      const column = cell % columns;
      const row = (cell - column) / columns;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const [c, r] = [column + dx, row + dy];
          if (c < 0 || r < 0 || c >= columns || r >= rows || changed[r * columns + c] !== 1 || seen[r * columns + c]) continue;
          seen[r * columns + c] = 1;
          stack.push(r * columns + c);
        }
    }
    groups.push(group);
  }
  return { columns, groups };
}

/**
 * The parts of the frame that changed (frame pixels), each grown by `margin` pixels. Empty when
 * nothing changed; the whole frame when the frame size changed. Three hands moving over a table
 * are three small regions, not the one big rectangle around all of them; and an arm reaching
 * diagonally across the table, or a hand dealing from the middle out to a seat, is a few
 * rectangles along it, not the box that holds it (see coverCells). Regions may overlap where
 * they were not worth merging: the localiser keeps each card from the region that holds its
 * centre deepest (deepestRegion).
 */
export function changedRegions(previous: GreyThumb, current: GreyThumb, margin: number): PixelRect[] {
  return regionsOf(compareThumbs(previous, current), current.sourceWidth, current.sourceHeight, margin);
}

/** changedRegions from a comparison already made (see compareThumbs), for a `width` x `height` frame. */
export function regionsOf(change: ThumbChange | null, width: number, height: number, margin: number): PixelRect[] {
  if (!change) return [{ x: 0, y: 0, width, height }];
  const sx = width / CHANGE_WIDTH;
  const sy = height / CHANGE_HEIGHT;
  const regions = change.groups.flatMap((group) =>
    coverCells(group.map((cell) => [cell % change.columns, Math.floor(cell / change.columns)]), margin / (CELL * Math.min(sx, sy))).map(([c0, r0, c1, r1]) => {
      const x0 = Math.max(0, Math.floor(c0 * CELL * sx - margin));
      const y0 = Math.max(0, Math.floor(r0 * CELL * sy - margin));
      const x1 = Math.min(width, Math.ceil(Math.min(CHANGE_WIDTH, (c1 + 1) * CELL) * sx + margin));
      const y1 = Math.min(height, Math.ceil(Math.min(CHANGE_HEIGHT, (r1 + 1) * CELL) * sy + margin));
      return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
    }),
  );
  return mergeThrifty(regions);
}

/**
 * Boxes (first and last column and row, inclusive) covering a group of changed cells, chosen so
 * that the area searched, each box grown by `marginCells` on every side, is least: the group's
 * bounding box, or its two halves (cut across the longer side at the middle cell) each covered
 * the same way, whichever searches less. A compact hand stays one box; an arm or a hand's path
 * reaching diagonally across the table becomes boxes along it.
 */
export function coverCells(cells: ReadonlyArray<readonly [number, number]>, marginCells: number): Array<[number, number, number, number]> {
  return cover(cells, marginCells).boxes;
}

function cover(cells: ReadonlyArray<readonly [number, number]>, margin: number): { boxes: Array<[number, number, number, number]>; area: number } {
  let [c0, c1, r0, r1] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const [c, r] of cells) [c0, c1, r0, r1] = [Math.min(c0, c), Math.max(c1, c), Math.min(r0, r), Math.max(r1, r)];
  const [w, h] = [c1 - c0 + 1, r1 - r0 + 1];
  const whole = { boxes: [[c0, r0, c1, r1] as [number, number, number, number]], area: (w + 2 * margin) * (h + 2 * margin) };
  if (cells.length === w * h || (w === 1 && h === 1)) return whole;
  const [axis, cut] = w >= h ? [0, c0 + Math.floor(w / 2)] : [1, r0 + Math.floor(h / 2)];
  const before = cells.filter((cell) => cell[axis] < cut);
  const after = cells.filter((cell) => cell[axis] >= cut);
  if (before.length === 0 || after.length === 0) return whole;
  const [a, b] = [cover(before, margin), cover(after, margin)];
  return a.area + b.area < whole.area ? { boxes: [...a.boxes, ...b.boxes], area: a.area + b.area } : whole;
}

/**
 * Two overlapping regions become their bounding box only if it is at most this share of their two
 * areas: the localiser's work grows with the area it searches, overlaps searched twice.
 */
const MERGE_SLACK = 1;

/**
 * Merges overlapping rectangles into their bounding box where that searches no more area than
 * the two apart (MERGE_SLACK), until no such pair is left; rectangles whose box would be mostly
 * new area stay apart, overlapping.
 */
export function mergeThrifty(rects: PixelRect[]): PixelRect[] {
  const out = [...rects];
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++)
      for (let j = i + 1; j < out.length && !merged; j++) {
        if (!rectsOverlap(out[i], out[j])) continue;
        const [a, b] = [out[i], out[j]];
        const box = boundingRect([[a.x, a.y], [a.x + a.width, a.y + a.height], [b.x, b.y], [b.x + b.width, b.y + b.height]]);
        if (box.width * box.height > MERGE_SLACK * (out[i].width * out[i].height + out[j].width * out[j].height)) continue;
        out[i] = box;
        out.splice(j, 1);
        merged = true;
      }
  }
  return out;
}

/**
 * Of `regions`, the one holding `point` deepest (farthest from its nearest edge), or -1 when
 * none holds it. Regions may overlap (regionsOf); a card found in several is kept from this one,
 * where it lies whole most surely.
 */
export function deepestRegion(regions: readonly PixelRect[], [x, y]: readonly [number, number]): number {
  let best = -1;
  let bestDepth = -Infinity;
  regions.forEach((r, i) => {
    if (!rectContains(r, [x, y])) return;
    const depth = Math.min(x - r.x, y - r.y, r.x + r.width - x, r.y + r.height - y);
    if (depth > bestDepth) [best, bestDepth] = [i, depth];
  });
  return best;
}

/**
 * What moved between two thumbnails: each group of touching changed cells, as the centres of
 * its cells in frame pixels, with the cells' size (frame pixels). A hand carrying a card to the
 * centre and the arm behind it are one group reaching back to the player's side of the table.
 * Empty when the frame size changed.
 */
export function movingBlobs(previous: GreyThumb, current: GreyThumb): MovingBlobs {
  return blobsOf(compareThumbs(previous, current), current.sourceWidth, current.sourceHeight);
}

/** movingBlobs from a comparison already made (see compareThumbs), for a `width` x `height` frame. */
export function blobsOf(change: ThumbChange | null, width: number, height: number): MovingBlobs {
  const sx = width / CHANGE_WIDTH;
  const sy = height / CHANGE_HEIGHT;
  const cellSizePx: [number, number] = [CELL * sx, CELL * sy];
  if (!change) return { cellSizePx, blobs: [] };
  const blobs = change.groups.map((group) =>
    group.map((cell): [number, number] => {
      const column = cell % change.columns;
      const row = Math.floor(cell / change.columns);
      return [Math.min(width, (column + 0.5) * CELL * sx), Math.min(height, (row + 0.5) * CELL * sy)];
    }),
  );
  return { cellSizePx, blobs };
}

/** Moving groups of cells (see movingBlobs). */
export interface MovingBlobs {
  cellSizePx: [number, number];
  blobs: Array<Array<[number, number]>>;
}

/** The smallest rectangle holding `points` (pixels). */
export function boundingRect(points: ReadonlyArray<readonly [number, number]>): PixelRect {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** `rect` grown left and up to start on a multiple of `step` (its right and bottom edges stay). */
export function alignedRect(rect: PixelRect, step: number): PixelRect {
  const x = Math.floor(rect.x / step) * step;
  const y = Math.floor(rect.y / step) * step;
  return { x, y, width: rect.width + rect.x - x, height: rect.height + rect.y - y };
}

/** Whether `rect` holds the point (its left and top edges included, its right and bottom not). */
export function rectContains(rect: PixelRect, [x, y]: readonly [number, number]): boolean {
  return x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height;
}

/** Whether two rectangles share any area. */
export function rectsOverlap(a: PixelRect, b: PixelRect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** `rect` grown by `by` pixels on every side, its edges rounded outwards to whole pixels. */
export function grownRect(rect: PixelRect, by: number): PixelRect {
  const [x0, y0] = [Math.floor(rect.x - by), Math.floor(rect.y - by)];
  const [x1, y1] = [Math.ceil(rect.x + rect.width + by), Math.ceil(rect.y + rect.height + by)];
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** The rectangle two rectangles share, or null when they share no area (integer pixels in, integer pixels out). */
export function rectIntersection(a: PixelRect, b: PixelRect): PixelRect | null {
  const [x0, y0] = [Math.max(a.x, b.x), Math.max(a.y, b.y)];
  const [x1, y1] = [Math.min(a.x + a.width, b.x + b.width), Math.min(a.y + a.height, b.y + b.height)];
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

/** The grid of refresh tiles, columns x rows. */
export const REFRESH_GRID = [4, 3] as const;

/**
 * Refresh tile number `k` (taken modulo the grid's size) of a `width` x `height` frame: a cell
 * of the 4x3 grid grown by half a card length on each side, so every card lies whole in some
 * tile. Tracking re-localises one tile a frame, whatever changed.
 */
export function refreshTile(k: number, width: number, height: number, cardLength: number): PixelRect {
  const [columns, rows] = REFRESH_GRID;
  const cell = k % (columns * rows);
  const [column, row] = [cell % columns, Math.floor(cell / columns)];
  const grow = cardLength * 0.6;
  const x0 = Math.max(0, Math.floor((column * width) / columns - grow));
  const y0 = Math.max(0, Math.floor((row * height) / rows - grow));
  const x1 = Math.min(width, Math.ceil(((column + 1) * width) / columns + grow));
  const y1 = Math.min(height, Math.ceil(((row + 1) * height) / rows + grow));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Area of some rectangles, square pixels (overlaps counted twice: an upper bound). */
export function totalArea(rects: readonly PixelRect[]): number {
  return rects.reduce((sum, r) => sum + r.width * r.height, 0);
}

/** The rectangle an image covers, its own pixels. */
export function imageRect(image: { width: number; height: number }): PixelRect {
  return { x: 0, y: 0, width: image.width, height: image.height };
}

/** Copies a rectangle out of an RGB image. */
export function cropRegion(image: RgbImage, rect: PixelRect): RgbImage {
  const data = new Uint8Array(rect.width * rect.height * 3);
  for (let y = 0; y < rect.height; y++) {
    const from = ((rect.y + y) * image.width + rect.x) * 3;
    data.set(image.data.subarray(from, from + rect.width * 3), y * rect.width * 3);
  }
  return { data, width: rect.width, height: rect.height };
}
