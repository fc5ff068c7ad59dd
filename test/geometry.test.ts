import { describe, expect, it } from 'vitest';
import { applyHomography, homographyFromPoints, pointInPolygon, polygonArea, quadCentre, quadLongSide, quadShortSide, scaleQuad, type Quad, tryHomographyFromPoints } from '../server/geometry';

describe('plane geometry', () => {
  it('measures a polygon’s area in either winding, a turned card included', () => {
    const card: Quad = [[0, 0], [63, 0], [63, 88], [0, 88]];
    expect(polygonArea(card)).toBe(63 * 88);
    expect(polygonArea([...card].reverse())).toBe(63 * 88);
    const c = Math.cos(0.6);
    const s = Math.sin(0.6);
    const turned = card.map(([x, y]) => [x * c - y * s, x * s + y * c] as [number, number]);
    expect(polygonArea(turned)).toBeCloseTo(63 * 88, 6);
  });

  const square: Quad = [[0, 0], [100, 0], [100, 100], [0, 100]];
  const seen: Quad = [[210, 95], [420, 120], [400, 330], [190, 300]]; // a table seen at an angle

  it('a four-point homography maps each corner onto its partner, and its inverse maps back', () => {
    const h = homographyFromPoints(square, seen);
    const back = homographyFromPoints(seen, square);
    square.forEach(([x, y], i) => {
      const [u, v] = applyHomography(h, x, y);
      expect(u).toBeCloseTo(seen[i][0], 6);
      expect(v).toBeCloseTo(seen[i][1], 6);
    });
    const [cx, cy] = applyHomography(h, 50, 50);
    const [x, y] = applyHomography(back, cx, cy);
    expect(x).toBeCloseTo(50, 6);
    expect(y).toBeCloseTo(50, 6);
  });

  it('degenerate quads (three points in a line) have no homography', () => {
    const line: Quad = [[0, 0], [50, 0], [100, 0], [0, 100]];
    expect(tryHomographyFromPoints(line, seen)).toBeNull();
    expect(() => homographyFromPoints(line, seen)).toThrow(/degenerate/);
  });

  it('point in polygon handles concave shapes', () => {
    const ell: Array<[number, number]> = [[0, 0], [100, 0], [100, 40], [40, 40], [40, 100], [0, 100]];
    expect(pointInPolygon(ell, 20, 80)).toBe(true);
    expect(pointInPolygon(ell, 80, 20)).toBe(true);
    expect(pointInPolygon(ell, 80, 80)).toBe(false);
    expect(pointInPolygon(ell, -1, 50)).toBe(false);
  });

  it('measures a card outline\'s short and long sides, whichever corner it starts at', () => {
    const card: Quad = [[0, 0], [63, 0], [63, 88], [0, 88]];
    const turned: Quad = [card[1], card[2], card[3], card[0]];
    for (const quad of [card, turned]) {
      expect(quadShortSide(quad)).toBe(63);
      expect(quadLongSide(quad)).toBe(88);
    }
  });

  it('scales an outline about its centre, keeping the corner order', () => {
    const card: Quad = [[10, 20], [110, 20], [110, 160], [10, 160]];
    const wider = scaleQuad(card, 1.1);
    [[5, 13], [115, 13], [115, 167], [5, 167]].forEach(([x, y], i) => {
      expect(wider[i][0]).toBeCloseTo(x, 9);
      expect(wider[i][1]).toBeCloseTo(y, 9);
    });
    expect(quadCentre(wider)).toEqual(quadCentre(card));
    expect(scaleQuad(card, 1)).toEqual(card);
  });
});
