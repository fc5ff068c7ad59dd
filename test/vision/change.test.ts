import { describe, expect, it } from 'vitest';
import { changedRegion, cropRegion, greyThumb } from '../../server/vision/change';

function frame(width: number, height: number, paint?: { x: number; y: number; w: number; h: number }): { data: Uint8Array; width: number; height: number } {
  const data = new Uint8Array(width * height * 3).fill(60);
  if (paint)
    for (let y = paint.y; y < paint.y + paint.h; y++) for (let x = paint.x; x < paint.x + paint.w; x++) data.set([250, 250, 250], (y * width + x) * 3);
  return { data, width, height };
}

describe('change detection', () => {
  it('reports nothing for identical frames', () => {
    expect(changedRegion(greyThumb(frame(640, 360)), greyThumb(frame(640, 360)), 20)).toBeNull();
  });
  it('bounds the changed area, grown by the margin', () => {
    const region = changedRegion(greyThumb(frame(640, 360)), greyThumb(frame(640, 360, { x: 300, y: 100, w: 40, h: 60 })), 20);
    expect(region).not.toBeNull();
    const r = region as NonNullable<typeof region>;
    expect(r.x).toBeLessThanOrEqual(300 - 20);
    expect(r.x + r.width).toBeGreaterThanOrEqual(340 + 20);
    expect(r.width).toBeLessThan(200);
    expect(r.height).toBeLessThan(200);
  });
  it('treats a new frame size as a full change', () => {
    expect(changedRegion(greyThumb(frame(320, 180)), greyThumb(frame(640, 360)), 0)).toEqual({ x: 0, y: 0, width: 640, height: 360 });
  });
  it('crops a region row by row', () => {
    const src = frame(8, 4, { x: 2, y: 1, w: 2, h: 2 });
    const out = cropRegion(src, { x: 2, y: 1, width: 2, height: 2 });
    expect(Array.from(out.data)).toEqual(new Array(12).fill(250));
  });
});
