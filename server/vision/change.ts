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
 * The parts of the frame that changed (frame pixels): each group of touching changed cells is
 * one rectangle, grown by `margin` pixels, and rectangles that then overlap are merged, so the
 * result never overlaps. Empty when nothing changed; the whole frame when the frame size
 * changed. Three hands moving over a table are three small regions, not the one big rectangle
 * around all of them.
 */
export function changedRegions(previous: GreyThumb, current: GreyThumb, margin: number): PixelRect[] {
  return regionsOf(compareThumbs(previous, current), current.sourceWidth, current.sourceHeight, margin);
}

/** changedRegions from a comparison already made (see compareThumbs), for a `width` x `height` frame. */
export function regionsOf(change: ThumbChange | null, width: number, height: number, margin: number): PixelRect[] {
  if (!change) return [{ x: 0, y: 0, width, height }];
  const sx = width / CHANGE_WIDTH;
  const sy = height / CHANGE_HEIGHT;
  const regions = change.groups.map((group) => {
    const columnsOf = group.map((cell) => cell % change.columns);
    const rowsOf = group.map((cell) => Math.floor(cell / change.columns));
    const x0 = Math.max(0, Math.floor(Math.min(...columnsOf) * CELL * sx - margin));
    const y0 = Math.max(0, Math.floor(Math.min(...rowsOf) * CELL * sy - margin));
    const x1 = Math.min(width, Math.ceil(Math.min(CHANGE_WIDTH, (Math.max(...columnsOf) + 1) * CELL) * sx + margin));
    const y1 = Math.min(height, Math.ceil(Math.min(CHANGE_HEIGHT, (Math.max(...rowsOf) + 1) * CELL) * sy + margin));
    return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  });
  return mergeOverlapping(regions);
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

/** Whether two rectangles share any area. */
export function rectsOverlap(a: PixelRect, b: PixelRect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Replaces overlapping rectangles by their bounding box until none overlap. */
export function mergeOverlapping(rects: PixelRect[]): PixelRect[] {
  const out = [...rects];
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++)
      for (let j = i + 1; j < out.length && !merged; j++) {
        if (!rectsOverlap(out[i], out[j])) continue;
        const [a, b] = [out[i], out[j]];
        const x = Math.min(a.x, b.x);
        const y = Math.min(a.y, b.y);
        out[i] = { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
        out.splice(j, 1);
        merged = true;
      }
  }
  return out;
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

/** Area of some rectangles that do not overlap, square pixels. */
export function totalArea(rects: readonly PixelRect[]): number {
  return rects.reduce((sum, r) => sum + r.width * r.height, 0);
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
