import { describe, expect, it } from 'vitest';
import { alignedRect, changedRegions, coverCells, cropRegion, deepestRegion, greyThumb, grownRect, mergeThrifty, rectIntersection, movingBlobs, REFRESH_GRID, refreshTile, totalArea } from '../../server/vision/change';

type Paint = { x: number; y: number; w: number; h: number };

function frame(width: number, height: number, ...paints: Paint[]): { data: Uint8Array; width: number; height: number } {
  const data = new Uint8Array(width * height * 3).fill(60);
  for (const paint of paints)
    for (let y = paint.y; y < paint.y + paint.h; y++) for (let x = paint.x; x < paint.x + paint.w; x++) data.set([250, 250, 250], (y * width + x) * 3);
  return { data, width, height };
}

describe('change detection', () => {
  it('gives each moving thing as one blob of cell centres: an arm from the edge to the centre is one, a hand elsewhere another', () => {
    const before = greyThumb(frame(1280, 720));
    // An arm reaching from the left edge to the middle, and a hand at the bottom right.
    const after = greyThumb(frame(1280, 720, { x: 0, y: 330, w: 640, h: 60 }, { x: 1100, y: 600, w: 80, h: 80 }));
    const { cellSizePx, blobs } = movingBlobs(before, after);
    expect(cellSizePx).toEqual([64, 64]);
    expect(blobs).toHaveLength(2);
    const arm = blobs.find((cells) => cells.some(([x]) => x < 64))!;
    expect(arm.some(([x, y]) => Math.abs(x - 608) <= 32 && Math.abs(y - 352) <= 64)).toBe(true);
    expect(arm.every(([, y]) => y > 256 && y < 448)).toBe(true);
    expect(movingBlobs(before, greyThumb(frame(1280, 720))).blobs).toEqual([]);
  });
  it('reports nothing for identical frames', () => {
    expect(changedRegions(greyThumb(frame(640, 360)), greyThumb(frame(640, 360)), 20)).toEqual([]);
  });
  it('bounds the changed area, grown by the margin', () => {
    const regions = changedRegions(greyThumb(frame(640, 360)), greyThumb(frame(640, 360, { x: 300, y: 100, w: 40, h: 60 })), 20);
    expect(regions).toHaveLength(1);
    const [r] = regions;
    expect(r.x).toBeLessThanOrEqual(300 - 20);
    expect(r.x + r.width).toBeGreaterThanOrEqual(340 + 20);
    expect(r.y).toBeLessThanOrEqual(100 - 20);
    expect(r.y + r.height).toBeGreaterThanOrEqual(160 + 20);
    expect(r.width).toBeLessThan(200);
    expect(r.height).toBeLessThan(200);
  });
  it('keeps changes far apart as separate regions, far smaller than their bounding box', () => {
    const before = greyThumb(frame(1280, 720));
    const after = greyThumb(frame(1280, 720, { x: 100, y: 80, w: 60, h: 80 }, { x: 1100, y: 560, w: 60, h: 80 }, { x: 600, y: 600, w: 60, h: 80 }));
    const regions = changedRegions(before, after, 40);
    expect(regions).toHaveLength(3);
    expect(totalArea(regions)).toBeLessThan(0.15 * 1280 * 720);
    for (const [x, y] of [[130, 120], [1130, 600], [630, 640]])
      expect(regions.filter((r) => x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height)).toHaveLength(1);
  });
  it('covers an arm reaching diagonally across the table with a few regions along it, not its bounding box', () => {
    // A diagonal band of 12 squares from the top left towards the middle (a hand dealing out from the centre).
    const squares = Array.from({ length: 12 }, (_, i) => ({ x: 100 + i * 45, y: 60 + i * 40, w: 50, h: 50 }));
    const regions = changedRegions(greyThumb(frame(1280, 720)), greyThumb(frame(1280, 720, ...squares)), 60);
    expect(regions.length).toBeGreaterThan(1);
    const box = { x0: Math.min(...regions.map((r) => r.x)), y0: Math.min(...regions.map((r) => r.y)), x1: Math.max(...regions.map((r) => r.x + r.width)), y1: Math.max(...regions.map((r) => r.y + r.height)) };
    expect(totalArea(regions)).toBeLessThan(0.75 * (box.x1 - box.x0) * (box.y1 - box.y0));
    // Every square's middle lies in some region, a margin inside it (or at the frame's edge).
    for (const s of squares) {
      const [x, y] = [s.x + s.w / 2, s.y + s.h / 2];
      expect(regions.some((r) => x >= r.x + 60 && y >= r.y + 60 && x < r.x + r.width - 60 && y < r.y + r.height - 60)).toBe(true);
    }
  });
  it('covers a compact group of cells with one box, a diagonal with boxes along it that search less', () => {
    expect(coverCells([[0, 0], [1, 0], [0, 1], [1, 1], [2, 1]], 1)).toEqual([[0, 0, 2, 1]]);
    const diagonal = Array.from({ length: 8 }, (_, i) => [i, i] as [number, number]);
    const boxes = coverCells(diagonal, 1);
    expect(boxes.length).toBeGreaterThan(1);
    for (const [c, r] of diagonal) expect(boxes.filter(([c0, r0, c1, r1]) => c >= c0 && c <= c1 && r >= r0 && r <= r1)).toHaveLength(1);
    const searched = boxes.reduce((sum, [c0, r0, c1, r1]) => sum + (c1 - c0 + 3) * (r1 - r0 + 3), 0);
    expect(searched).toBeLessThan(10 * 10);
  });
  it('merges overlapping rectangles only where their box adds little area, and finds the region holding a point deepest', () => {
    const a = { x: 0, y: 0, width: 100, height: 100 };
    expect(mergeThrifty([a, { x: 50, y: 0, width: 100, height: 100 }])).toEqual([{ x: 0, y: 0, width: 150, height: 100 }]);
    const corner = { x: 90, y: 90, width: 100, height: 100 };
    expect(mergeThrifty([a, corner])).toEqual([a, corner]);
    expect(deepestRegion([a, corner], [97, 97])).toBe(1);
    expect(deepestRegion([a, corner], [50, 50])).toBe(0);
    expect(deepestRegion([a, corner], [300, 300])).toBe(-1);
  });
  it('merges regions that overlap once grown into one where the box adds little area', () => {
    const regions = changedRegions(greyThumb(frame(640, 360)), greyThumb(frame(640, 360, { x: 100, y: 100, w: 30, h: 30 }, { x: 180, y: 100, w: 30, h: 30 })), 40);
    expect(regions).toHaveLength(1);
    expect(regions[0].x).toBeLessThanOrEqual(60);
    expect(regions[0].x + regions[0].width).toBeGreaterThanOrEqual(250);
  });
  it('cycles refresh tiles that hold every card-sized box whole within one cycle', () => {
    const [width, height, cardLength] = [1280, 720, 60];
    const cycle = REFRESH_GRID[0] * REFRESH_GRID[1];
    const tiles = Array.from({ length: cycle }, (_, k) => refreshTile(k, width, height, cardLength));
    expect(refreshTile(cycle + 2, width, height, cardLength)).toEqual(tiles[2]);
    for (let y = 0; y + cardLength <= height; y += 17)
      for (let x = 0; x + cardLength <= width; x += 23) {
        const whole = tiles.some((t) => x >= t.x && y >= t.y && x + cardLength <= t.x + t.width && y + cardLength <= t.y + t.height);
        expect(whole, `card at ${x},${y}`).toBe(true);
      }
    for (const t of tiles) expect(t.width * t.height).toBeLessThan(0.15 * width * height);
  });
  it('treats a new frame size as a full change', () => {
    expect(changedRegions(greyThumb(frame(320, 180)), greyThumb(frame(640, 360)), 0)).toEqual([{ x: 0, y: 0, width: 640, height: 360 }]);
  });
  it('crops a region row by row', () => {
    const src = frame(8, 4, { x: 2, y: 1, w: 2, h: 2 });
    const out = cropRegion(src, { x: 2, y: 1, width: 2, height: 2 });
    expect(Array.from(out.data)).toEqual(new Array(12).fill(250));
  });
});

describe('alignedRect', () => {
  it('grows a rectangle left and up onto a grid, keeping its right and bottom edges', () => {
    expect(alignedRect({ x: 213, y: 40, width: 854, height: 680 }, 32)).toEqual({ x: 192, y: 32, width: 875, height: 688 });
    expect(alignedRect({ x: 64, y: 0, width: 10, height: 10 }, 32)).toEqual({ x: 64, y: 0, width: 10, height: 10 });
  });
});

describe('grownRect and rectIntersection', () => {
  it('grows a rectangle on every side to whole pixels', () => {
    expect(grownRect({ x: 10.5, y: 20, width: 30, height: 40.2 }, 5)).toEqual({ x: 5, y: 15, width: 41, height: 51 });
  });

  it('gives the area two rectangles share, or null when they only touch or lie apart', () => {
    expect(rectIntersection({ x: 0, y: 0, width: 100, height: 50 }, { x: 60, y: 20, width: 100, height: 100 })).toEqual({ x: 60, y: 20, width: 40, height: 30 });
    expect(rectIntersection({ x: 0, y: 0, width: 100, height: 50 }, { x: 10, y: 10, width: 5, height: 5 })).toEqual({ x: 10, y: 10, width: 5, height: 5 });
    expect(rectIntersection({ x: 0, y: 0, width: 100, height: 50 }, { x: 100, y: 0, width: 10, height: 10 })).toBeNull();
    expect(rectIntersection({ x: 0, y: 0, width: 100, height: 50 }, { x: 0, y: 80, width: 10, height: 10 })).toBeNull();
  });
});
