import { beforeAll, describe, expect, it } from 'vitest';
import { cornerHypotheses, dropFrameOutlines, locateCards, orderCardQuad, suppressNested, type LocatedCard } from '../../server/vision/locate';
import { loadOpenCv, type OpenCv } from '../../server/vision/opencv';
import type { Point, Quad } from '../../server/vision/types';
import { paintCards, type PaintedCard } from './painted-cards';

/** Paints white cards (with a black index mark) on a dark brown cloth. */
function paint(width: number, height: number, cards: PaintedCard[]): Uint8Array {
  return paintCards(width, height, cards, (u, v, c) => {
    // A card-like face: white with a dark index mark near the top-left.
    const mark = u < -c.w / 2 + c.w * 0.2 && u > -c.w / 2 + c.w * 0.08 && v < -c.h / 2 + c.h * 0.2 && v > -c.h / 2 + c.h * 0.06;
    return mark ? [20, 20, 20] : [245, 245, 240];
  });
}

function centre(q: Quad): Point {
  return [q.reduce((s, p) => s + p[0], 0) / 4, q.reduce((s, p) => s + p[1], 0) / 4];
}

describe('locateCards', () => {
  let cv: OpenCv;
  beforeAll(async () => {
    ({ cv } = await loadOpenCv());
  });

  it('finds separate rotated cards with corners within tolerance (golden)', () => {
    const cards = [
      { cx: 120, cy: 130, w: 63, h: 88, angle: 0.2 },
      { cx: 300, cy: 140, w: 63, h: 88, angle: -0.5 },
    ];
    const found = locateCards(cv, { data: paint(480, 270, cards), width: 480, height: 270 });
    expect(found.length).toBe(2);
    for (const c of cards) {
      const hit = found.find((f) => Math.hypot(centre(f.corners)[0] - c.cx, centre(f.corners)[1] - c.cy) < 4);
      expect(hit).toBeDefined();
      const q = (hit as LocatedCard).corners;
      const short = Math.hypot(q[1][0] - q[0][0], q[1][1] - q[0][1]);
      const long = Math.hypot(q[2][0] - q[1][0], q[2][1] - q[1][1]);
      expect(short).toBeGreaterThan(58);
      expect(short).toBeLessThan(70);
      expect(long).toBeGreaterThan(83);
      expect(long).toBeLessThan(96);
    }
  });

  it('splits a cascade of overlapping cards into one quad per card', () => {
    const cards = [
      { cx: 200, cy: 110, w: 63, h: 88, angle: 0 },
      { cx: 200, cy: 135, w: 63, h: 88, angle: 0 },
      { cx: 360, cy: 140, w: 63, h: 88, angle: 0.1 },
    ];
    const found = locateCards(cv, { data: paint(480, 270, cards), width: 480, height: 270 });
    for (const c of cards.slice(0, 2)) {
      expect(found.some((f) => Math.hypot(centre(f.corners)[0] - c.cx, centre(f.corners)[1] - c.cy) < 8)).toBe(true);
    }
  });

  it('finds nothing on an empty cloth', () => {
    expect(locateCards(cv, { data: paint(320, 200, []), width: 320, height: 200 })).toEqual([]);
  });
});

describe('quad helpers', () => {
  it('orders a card quad clockwise with the short side first', () => {
    const q = orderCardQuad([[0, 88], [63, 0], [0, 0], [63, 88]]);
    const first = Math.hypot(q[1][0] - q[0][0], q[1][1] - q[0][1]);
    expect(first).toBeCloseTo(63, 5);
    const cross = (q[1][0] - q[0][0]) * (q[2][1] - q[1][1]) - (q[1][1] - q[0][1]) * (q[2][0] - q[1][0]);
    expect(cross).toBeGreaterThan(0);
  });
  it('hypothesises a card at each convex right-angle corner of an L-shaped blob', () => {
    // Two cards side by side in an L: polygon of their union.
    const polygon: Point[] = [[0, 0], [63, 0], [63, 40], [126, 40], [126, 128], [63, 128], [63, 88], [0, 88]];
    const quads = cornerHypotheses(polygon, 63, 88);
    expect(quads.length).toBeGreaterThan(0);
    expect(quads.some((q) => Math.hypot(centre(q)[0] - 31.5, centre(q)[1] - 44) < 1)).toBe(true);
  });
  it('drops a quad nested in a bigger card but keeps equal-size overlaps', () => {
    const big: LocatedCard = { corners: [[0, 0], [63, 0], [63, 88], [0, 88]], source: 'single', support: 1 };
    const frame: LocatedCard = { corners: [[15, 15], [48, 15], [48, 70], [15, 70]], source: 'single', support: 1 };
    const overlap: LocatedCard = { corners: [[0, 20], [63, 20], [63, 108], [0, 108]], source: 'split', support: 1 };
    expect(suppressNested([big, frame, overlap])).toEqual([big, overlap]);
    // A card that may not suppress (a faint reading round two cards) hides nothing inside it.
    expect(suppressNested([big, frame], (card) => card !== big)).toEqual([big, frame]);
  });
  it('drops the frame itself taken for a card (an even carpet passes as one white blob), but not a card near one corner', () => {
    const frameOutline: LocatedCard = { corners: [[1, 0], [377, 2], [378, 503], [0, 501]], source: 'single', support: 1 };
    const card: LocatedCard = { corners: [[94, 183], [214, 173], [229, 339], [109, 350]], source: 'single', support: 1 };
    const cornerCard: LocatedCard = { corners: [[0, 0], [120, 0], [120, 170], [0, 170]], source: 'single', support: 1 };
    // Three corners at the frame's, one not: a card filling most of a close-up, kept.
    const closeUp: LocatedCard = { corners: [[0, 0], [378, 0], [378, 504], [60, 440]], source: 'single', support: 1 };
    expect(dropFrameOutlines([frameOutline, card, cornerCard, closeUp], 378, 504)).toEqual([card, cornerCard, closeUp]);
  });
});
