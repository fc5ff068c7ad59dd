import { describe, expect, it } from 'vitest';
import { applyHomography, cropCard, homographyFromPoints, multiplyHomography, rectQuad, warpInto } from '../../server/vision/crop';
import type { Quad } from '../../server/vision/types';

describe('homography', () => {
  it('maps the four source points onto the targets', () => {
    const from: Quad = [[10, 20], [110, 25], [105, 160], [5, 150]];
    const to = rectQuad(64, 96);
    const h = homographyFromPoints(from, to);
    from.forEach((p, i) => {
      const [u, v] = applyHomography(h, p[0], p[1]);
      expect(u).toBeCloseTo(to[i][0], 6);
      expect(v).toBeCloseTo(to[i][1], 6);
    });
  });
  it('rejects a degenerate quad', () => {
    expect(() => homographyFromPoints([[0, 0], [0, 0], [0, 0], [0, 0]], rectQuad(2, 2))).toThrow(/degenerate/);
  });
  it('composes like matrices', () => {
    const a = homographyFromPoints(rectQuad(1, 1), [[0, 0], [2, 0], [2, 2], [0, 2]]);
    const b = homographyFromPoints(rectQuad(1, 1), [[1, 1], [2, 1], [2, 2], [1, 2]]);
    const [x, y] = applyHomography(multiplyHomography(a, b), 0.5, 0.5);
    expect(x).toBeCloseTo(3, 6);
    expect(y).toBeCloseTo(3, 6);
  });
});

describe('warp and crop', () => {
  // 4x4 image: left half red, right half blue.
  const data = new Uint8Array(4 * 4 * 3);
  for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) data.set(x < 2 ? [255, 0, 0] : [0, 0, 255], (y * 4 + x) * 3);
  const image = { data, width: 4, height: 4 };

  it('identity warp reproduces the image (golden)', () => {
    const out = new Float32Array(4 * 4 * 3);
    warpInto(image, homographyFromPoints(rectQuad(4, 4), rectQuad(4, 4)), 4, 4, out);
    expect(Array.from(out.slice(0, 3))).toEqual([1, 0, 0]);
    expect(Array.from(out.slice(9, 12))).toEqual([0, 0, 1]);
  });
  it('a quad turned 180 degrees flips left and right', () => {
    const out = new Float32Array(4 * 4 * 3);
    const q = rectQuad(4, 4);
    cropCard(image, [q[2], q[3], q[0], q[1]], 4, 4, out);
    expect(out[0]).toBeCloseTo(0, 5);
    expect(out[2]).toBeCloseTo(1, 5);
  });
  it('fills outside the source with the fill colour', () => {
    const out = new Float32Array(3);
    warpInto(image, homographyFromPoints(rectQuad(1, 1), [[10, 10], [11, 10], [11, 11], [10, 11]]), 1, 1, out, 0, [0.25, 0.5, 0.75]);
    expect(Array.from(out)).toEqual([0.25, 0.5, 0.75]);
  });
  it('supersamples big sources (mean colour kept)', () => {
    const big = new Uint8Array(400 * 400 * 3).fill(100);
    const out = new Float32Array(8 * 12 * 3);
    cropCard({ data: big, width: 400, height: 400 }, [[0, 0], [300, 0], [300, 390], [0, 390]], 8, 12, out);
    for (const v of out) expect(v).toBeCloseTo(100 / 255, 4);
  });
});
