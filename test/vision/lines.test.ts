import { beforeAll, describe, expect, it } from 'vitest';
import { joinCollinear, quadsFromSegments, sideSupport, type Segment } from '../../server/vision/lines';
import { addAsRivals, dropLinesHoldingCards, dropOversizeHoldingCards, LOCATE_DEFAULTS, lineCardShaped, lineCards, locateCards, plausibleLineCards, type LocatedCard } from '../../server/vision/locate';
import { loadOpenCv, type OpenCv } from '../../server/vision/opencv';
import type { Point, Quad } from '../../server/vision/types';
import { paintCards } from './painted-cards';

const centre = (q: Quad): Point => [q.reduce((s, p) => s + p[0], 0) / 4, q.reduce((s, p) => s + p[1], 0) / 4];
const sides = (q: Quad) => q.map((p, i) => Math.hypot(q[(i + 1) % 4][0] - p[0], q[(i + 1) % 4][1] - p[1])).sort((a, b) => a - b);

describe('quadsFromSegments', () => {
  it('spans a card between two facing parallel edges', () => {
    // A card 100 across and 140 along, its long sides found.
    const quads = quadsFromSegments([[50, 20, 50, 160], [150, 20, 150, 160]], 14);
    expect(quads.length).toBeGreaterThan(0);
    const q = quads[0];
    expect(centre(q)[0]).toBeCloseTo(100, 5);
    expect(centre(q)[1]).toBeCloseTo(90, 5);
    const [s0, , , s3] = sides(q);
    expect(s0).toBeCloseTo(100, 5);
    expect(s3).toBeCloseTo(140, 5);
  });

  it('tries a card-shaped length from either end when an edge runs on past the corner', () => {
    // The left edge runs on 60 pixels below the card (a shadow line): the joint extent is 200
    // long for 100 across, no card; a 140-long card from the top ends is among the hypotheses.
    const quads = quadsFromSegments([[50, 20, 50, 220], [150, 20, 150, 160]], 14);
    expect(quads.some((q) => Math.abs(centre(q)[1] - 90) < 1 && Math.abs(sides(q)[3] - 140) < 1)).toBe(true);
    expect(quads.every((q) => sides(q)[3] / sides(q)[0] <= 1.65)).toBe(true);
  });

  it('pairs no crossing, square or tiny pairs', () => {
    expect(quadsFromSegments([[50, 20, 50, 160], [60, 20, 200, 60]], 14)).toEqual([]); // not parallel
    // 100 apart and 100 long: never a square (a tile), only card shapes for the side support to check.
    const tile = quadsFromSegments([[50, 20, 50, 120], [150, 20, 150, 120]], 14);
    expect(tile.every((q) => sides(q)[3] / sides(q)[0] >= 1.2)).toBe(true);
    expect(quadsFromSegments([[50, 20, 50, 34], [60, 20, 60, 34]], 14)).toEqual([]); // 10 across
    expect(quadsFromSegments([[50, 20, 50, 160], [150, 200, 150, 340]], 14)).toEqual([]); // not facing
  });
});

describe('joinCollinear', () => {
  it('joins pieces of one line across a small gap, not parallel lines beside it', () => {
    const pieces: Segment[] = [[10, 100, 80, 100], [84, 101, 160, 101], [10, 140, 160, 140]];
    const joined = joinCollinear(pieces, 10);
    expect(joined.length).toBe(2);
    const long = joined.find((s) => Math.abs(s[1] - 100) < 2)!;
    expect(Math.min(long[0], long[2])).toBeCloseTo(10, 0);
    expect(Math.max(long[0], long[2])).toBeCloseTo(160, 0);
    // Too far apart along the line: two segments.
    expect(joinCollinear([[10, 100, 50, 100], [90, 100, 130, 100]], 10).length).toBe(2);
  });
});

describe('sideSupport', () => {
  it('measures each side of a quad on an edge mask', () => {
    const [w, h] = [60, 60];
    const edges = new Uint8Array(w * h);
    // Edges on the left and top sides of the square (10,10)-(50,50) only.
    for (let i = 10; i <= 50; i++) {
      edges[10 * w + i] = 255;
      edges[i * w + 10] = 255;
    }
    const [top, right, bottom, left] = sideSupport(edges, w, h, [[10, 10], [50, 10], [50, 50], [10, 50]]);
    expect(top).toBe(1);
    expect(left).toBe(1);
    expect(right).toBe(0);
    expect(bottom).toBe(0);
  });
});

describe('addAsRivals', () => {
  const card = (cx: number, cy: number, w: number, rivalGroup?: number): LocatedCard => ({
    corners: [[cx - w / 2, cy - w * 0.7], [cx + w / 2, cy - w * 0.7], [cx + w / 2, cy + w * 0.7], [cx - w / 2, cy + w * 0.7]],
    source: 'single',
    support: 1,
    ...(rivalGroup === undefined ? {} : { rivalGroup }),
  });
  it('makes an extra outline the rival of the one at about the same place and size, else adds it alone', () => {
    const out = addAsRivals([card(100, 100, 60), card(300, 100, 60, -3)], [{ ...card(110, 96, 70), source: 'lines' }, { ...card(310, 100, 70), source: 'lines' }, { ...card(500, 100, 60), source: 'lines' }]);
    expect(out.length).toBe(5);
    // A new group below the lowest one in use; an existing group is joined.
    expect(out[0].rivalGroup).toBe(-4);
    expect(out[2].rivalGroup).toBe(-4);
    expect(out[3].rivalGroup).toBe(-3);
    expect(out[4].rivalGroup).toBeUndefined();
    // The same outline again (corners within 0.15 of a short side) is only another read of it.
    const again = addAsRivals([card(100, 100, 60)], [{ ...card(102, 101, 60), source: 'lines' }]);
    expect(again.length).toBe(1);
    expect(again[0].rivalGroup).toBeUndefined();
  });
});

describe('straight-edge outlines that are no card', () => {
  const square = (cx: number, cy: number, w: number): Quad => [[cx - w / 2, cy - w * 0.7], [cx + w / 2, cy - w * 0.7], [cx + w / 2, cy + w * 0.7], [cx - w / 2, cy + w * 0.7]];
  it('keeps those of the card size where the single cards agree on one, all otherwise', () => {
    const lines = [square(100, 100, 60), square(300, 300, 300)];
    expect(plausibleLineCards(lines, 62, LOCATE_DEFAULTS)).toEqual([lines[0]]);
    expect(plausibleLineCards(lines, undefined, LOCATE_DEFAULTS)).toEqual(lines);
  });

  it('drops one that holds two surely read smaller cards (a stretch of table), not one holding faint pips', () => {
    const at = (corners: Quad, source: LocatedCard['source'], sure: boolean) => ({ corners, source, support: 1, sure });
    const table = at(square(300, 300, 300), 'lines', false);
    const card = at(square(600, 300, 100), 'lines', false);
    const cards = [table, card, at(square(250, 250, 60), 'single', true), at(square(350, 350, 60), 'split', true), at(square(590, 290, 20), 'split', false), at(square(610, 310, 20), 'split', false)];
    const kept = dropLinesHoldingCards(cards, (c) => c.sure);
    expect(kept).not.toContain(table);
    expect(kept).toContain(card);
    expect(kept.length).toBe(5);
    // With the frame's card size known (its sure cards'), any outline clearly wider holding two sure cards goes, whatever found it.
    const board = at(square(300, 300, 300), 'single', false);
    expect(dropLinesHoldingCards([board, ...cards.slice(2)], (c) => c.sure)).toContain(board);
    expect(dropLinesHoldingCards([board, ...cards.slice(2)], (c) => c.sure, 60)).not.toContain(board);
    // A card-sized outline is no board: it stays even holding two small sure things.
    const big = at(square(300, 300, 70), 'single', true);
    expect(dropLinesHoldingCards([big, at(square(290, 290, 20), 'split', true), at(square(310, 310, 20), 'split', true)], (c) => c.sure, 60)).toContain(big);
  });

  it('with a calibration, drops an outline clearly wider than a card holding two surely read cards (two cards side by side outlined as one)', () => {
    const at = (corners: Quad, sure: boolean) => ({ corners, source: 'single' as const, support: 1, sure });
    const pair = at([[60, 80], [140, 80], [140, 130], [60, 130]], true); // two 36-px cards 8 px apart, one outline
    const left = at(square(80, 105, 36), true);
    const right = at(square(120, 105, 36), true);
    const lone = at(square(300, 105, 36), true);
    expect(dropOversizeHoldingCards([pair, left, right, lone], (c) => c.sure, 36)).toEqual([left, right, lone]);
    // Only one sure card inside (the other unread or faint): the wide outline stays, as does a card-sized one.
    expect(dropOversizeHoldingCards([pair, left, { ...right, sure: false }], (c) => c.sure, 36)).toContain(pair);
    expect(dropOversizeHoldingCards([left, right], (c) => c.sure, 36)).toEqual([left, right]);
  });
});

describe('lineCardShaped: a fitted straight-edge outline keeps a card\'s shape', () => {
  it('takes a card lying either way and foreshortened a little, not a fit stretched over the next card', () => {
    const at = (short: number, long: number) => ({ cx: 0, cy: 0, angle: 0, short, long });
    expect(lineCardShaped(at(100, 140))).toBe(true);
    expect(lineCardShaped(at(140, 100))).toBe(true);
    expect(lineCardShaped(at(100, 125))).toBe(true);
    // Photo IMG_2657's KD fitted out to 133 x 148 px over its neighbour; a fit as long as two cards.
    expect(lineCardShaped(at(133, 148))).toBe(false);
    expect(lineCardShaped(at(148, 133))).toBe(false);
    expect(lineCardShaped(at(100, 190))).toBe(false);
  });
});

describe('locateCards: a card on a textured surface half in shadow', () => {
  let cv: OpenCv;
  beforeAll(async () => {
    ({ cv } = await loadOpenCv());
  });

  /** Sand-coloured speckle, sunlit above the diagonal and shaded below it; the card is shaded the same way. */
  function sandInShade(width: number, height: number): Uint8Array {
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const card = { cx: 190, cy: 150, w: 90, h: 126, angle: 0.45 };
    const data = paintCards(width, height, [card], (u, v) => {
      const mark = u < -card.w / 2 + 18 && u > -card.w / 2 + 6 && v < -card.h / 2 + 24 && v > -card.h / 2 + 8;
      return mark ? [20, 20, 20] : [245, 245, 240];
    });
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 3;
        const shade = x + y > 340 ? 0.75 : 1;
        const onCard = data[i] !== 70 || data[i + 1] !== 45;
        if (onCard) {
          for (let k = 0; k < 3; k++) data[i + k] = Math.round(data[i + k] * shade);
          continue;
        }
        // Coarse speckle (2x2 grains) of sand-coloured carpet.
        const grain = ((x >> 1) * 7919 + (y >> 1) * 104729) % 7 === 0 ? random() : random() * 0.5 + 0.5;
        const v = (110 + 80 * grain) * shade;
        data.set([v, v * 0.86, v * 0.68].map(Math.round), i);
      }
    return data;
  }

  it('finds it by its straight edges (lineCards), used when the card size is not known', () => {
    const [width, height] = [400, 300];
    const data = sandInShade(width, height);
    const mats: Array<{ delete(): void }> = [];
    const track = <T extends { delete(): void }>(m: T): T => (mats.push(m), m);
    const rgb = track(cv.matFromArray(height, width, cv.CV_8UC3, data));
    const grey = track(new cv.Mat());
    cv.cvtColor(rgb, grey, cv.COLOR_RGB2GRAY);
    const quads = lineCards(cv, grey, LOCATE_DEFAULTS, track);
    for (const m of mats) m.delete();
    const hit = quads.filter((q) => Math.hypot(centre(q)[0] - 190, centre(q)[1] - 150) < 8);
    expect(hit.length).toBe(1);
    const [short, , , long] = sides(hit[0]);
    expect(Math.abs(short - 90)).toBeLessThan(9);
    expect(Math.abs(long - 126)).toBeLessThan(13);
    // locateCards without a calibration finds the card; with one (a live table) it keeps to its own paths.
    expect(locateCards(cv, { data, width, height }).some((f) => Math.hypot(centre(f.corners)[0] - 190, centre(f.corners)[1] - 150) < 8)).toBe(true);
    expect(locateCards(cv, { data, width, height }, { cardWidthPx: 90 }).some((f) => f.source === 'lines')).toBe(false);
  });
});
