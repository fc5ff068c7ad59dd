import { beforeAll, describe, expect, it } from 'vitest';
import { CARD_ASPECT, INDEX_REGION } from '../../server/vision/classes';
import { agreeOnSize, cornerHypotheses, dropFragments, FRAGMENT_BACK_SHARE, FRAGMENT_FACE_SHARE, OVERSIZE_BACK_SHARE, dropFrameOutlines, dropRepeatedOutlines, wholesOfPieces, REPEATED_OUTLINE_OVERLAP, edgeSizedHypotheses, fillDarkCells, LOCATE_DEFAULTS, locateCards, mayHoldSeveral, oneOutlinePerNertsPile, orderCardQuad, paleTableShare, reachesEdgesCrossed, splitWidths, suppressNested, visiblePart, fitOnWhiter, keepSurestRivals, regionRivalGroup, resizedOutlines, grownOutlines, whiterThanCloth, whiterThanClothMask, withCutCards, squatOutline, quarterTurned, SQUAT_OUTLINE_ASPECT, type LocatedCard } from '../../server/vision/locate';
import { applyHomography, homographyFromPoints, polygonArea, shareInside } from '../../server/geometry';
import { flatSizer } from '../../server/vision/card-size';
import { loadOpenCv, type OpenCv } from '../../server/vision/opencv';
import type { Point, Quad } from '../../server/vision/types';
import { paintCards, type PaintedCard } from './painted-cards';

function quadShort(q: Quad): number {
  return Math.min(...q.map((p, i) => Math.hypot(q[(i + 1) % 4][0] - p[0], q[(i + 1) % 4][1] - p[1])));
}

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

  it('finds a card in deep shadow, far below the lit cards’ white but far whiter than the cloth round it (no card size known)', () => {
    // cam_image44: a lamp lights the right of the table; the 9S on the left is grey on near-black.
    const cards = [
      { cx: 110, cy: 135, w: 63, h: 88, angle: 0.05 },
      { cx: 260, cy: 135, w: 63, h: 88, angle: 0 },
      { cx: 380, cy: 135, w: 63, h: 88, angle: -0.1 },
    ];
    // Its edges are soft (a ramp over 8 pixels, too gentle for the edge outlines) and its white speckled.
    const shaded = (u: number, v: number, c: PaintedCard): [number, number, number] => {
      const ramp = Math.min(1, (c.w / 2 - Math.abs(u)) / 8, (c.h / 2 - Math.abs(v)) / 8);
      const speckle = (Math.round(u * 7 + v * 13) % 5) * 4;
      return [22 + (58 - speckle) * ramp, 16 + (62 - speckle) * ramp, 12 + (63 - speckle) * ramp];
    };
    const data = paintCards(480, 270, cards, (u, v, c) => (c === cards[0] ? shaded(u, v, c) : [245, 245, 240]));
    for (let y = 0; y < 270; y++) for (let x = 0; x < 170; x++) if (!(Math.abs(x - 110) < 36 && Math.abs(y - 135) < 48)) data.set([22, 16, 12], (y * 480 + x) * 3);
    const image = { data, width: 480, height: 270 };
    const at = (found: LocatedCard[], c: (typeof cards)[number]) => found.some((f) => Math.hypot(centre(f.corners)[0] - c.cx, centre(f.corners)[1] - c.cy) < 5);
    const found = locateCards(cv, image);
    expect(cards.every((c) => at(found, c))).toBe(true);
    // Without the shadow pass only the lit cards are found.
    const unlit = locateCards(cv, image, {}, { ...LOCATE_DEFAULTS, shadowContrast: 255 });
    expect(at(unlit, cards[0])).toBe(false);
    expect(at(unlit, cards[1]) && at(unlit, cards[2])).toBe(true);
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

  it('outlines each card of a row of overlapping court cards that makes one card-shaped blob (no card size known)', () => {
    // Three cards fanned in a row: together a 165x88 rectangle that fills its outline like one
    // landscape card. Each has a thin grey border and a dark picture, as a court card.
    const cards = [
      { cx: 120, cy: 135, w: 63, h: 88, angle: 0 },
      { cx: 171, cy: 135, w: 63, h: 88, angle: 0 },
      { cx: 222, cy: 135, w: 63, h: 88, angle: 0 },
    ];
    const data = paintCards(360, 270, cards, (u, v, c) => {
      if (Math.abs(u) > c.w / 2 - 1.5 || Math.abs(v) > c.h / 2 - 1.5) return [150, 150, 150];
      if (Math.abs(u) < c.w * 0.3 && Math.abs(v) < c.h * 0.3) return [150, 30, 40];
      return [245, 245, 240];
    });
    const found = locateCards(cv, { data, width: 360, height: 270 });
    // The top card (the last painted) and the bottom one's visible corners give whole cards.
    for (const c of [cards[0], cards[2]]) {
      expect(found.some((f) => Math.hypot(centre(f.corners)[0] - c.cx, centre(f.corners)[1] - c.cy) < 6 && Math.abs(quadShort(f.corners) - 63) < 8)).toBe(true);
    }
  });

  it('finds cards on a pale gingham by their size, where the whiteness mask merges them with the cloth', () => {
    // A pale gingham (white squares as white as a card, 9-pixel checks) under small cards, as a
    // whole-table webcam sees them (20x28 pixels), with a few dark pips.
    const cards = [
      { cx: 100, cy: 90, w: 20, h: 28, angle: 0.3 },
      { cx: 200, cy: 150, w: 20, h: 28, angle: -0.6 },
      { cx: 320, cy: 110, w: 20, h: 28, angle: 1.1 },
      { cx: 400, cy: 200, w: 20, h: 28, angle: 0 },
    ];
    const width = 480;
    const height = 270;
    const data = paintCards(width, height, cards, (u, v) => (Math.abs(u) < 2.5 && Math.abs(v) < 4 ? [30, 30, 30] : [244, 244, 240]));
    const painted = new Set<number>();
    for (const c of cards) for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
      const u = (x - c.cx) * Math.cos(c.angle) + (y - c.cy) * Math.sin(c.angle);
      const w = -(x - c.cx) * Math.sin(c.angle) + (y - c.cy) * Math.cos(c.angle);
      if (Math.abs(u) <= c.w / 2 && Math.abs(w) <= c.h / 2) painted.add(y * width + x);
    }
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
      if (painted.has(y * width + x)) continue;
      const bands = (Math.floor(x / 9) % 2) + (Math.floor(y / 9) % 2);
      data.set(bands === 0 ? [242, 242, 238] : bands === 1 ? [196, 222, 198] : [160, 205, 168], (y * width + x) * 3);
    }
    const image = { data, width, height };
    const table: Quad = [[0, 0], [width, 0], [width, height], [0, height]];
    expect(paleTableShare(image, table)).toBeGreaterThanOrEqual(LOCATE_DEFAULTS.paleShare);
    const near = (found: LocatedCard[]) => cards.filter((c) => found.some((f) => Math.hypot(centre(f.corners)[0] - c.cx, centre(f.corners)[1] - c.cy) < 5 && Math.abs(quadShort(f.corners) - c.w) < 4)).length;
    const plain = near(locateCards(cv, image, { cardWidthPx: 20 }));
    const pale = near(locateCards(cv, image, { cardWidthPx: 20, paleCloth: true }));
    expect(pale).toBeGreaterThan(plain);
    expect(pale).toBeGreaterThanOrEqual(3);
    // A dark cloth is not pale.
    expect(paleTableShare({ data: paint(width, height, cards), width, height }, table)).toBeLessThan(0.1);
  });

  it('takes no table for a card: with the card size known, a white blob far wider than a card is not one', () => {
    // A white table (300x220, the shape of a card) on a dark floor, seen whole, cards 20 pixels wide.
    const [width, height] = [400, 300];
    const data = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
      const onTable = x >= 50 && x < 350 && y >= 40 && y < 260;
      data.set(onTable ? [236, 236, 232] : [40, 34, 30], (y * width + x) * 3);
    }
    const found = locateCards(cv, { data, width, height }, { cardWidthPx: 20 });
    expect(found.filter((f) => quadShort(f.corners) > 20 * LOCATE_DEFAULTS.maxSingleWidth)).toEqual([]);
  });

  it('takes no pair of cards for one: two landscape cards one above the other make a card-shaped outline of two cards\' area', () => {
    // As on the 2-player table: a Nerts pile's top lying sideways and the work-pile card just
    // below it, 3 pixels apart. Their union, 60 x 91, has a card's aspect and is only 1.4 card
    // widths wide, but it covers two cards.
    const pair: PaintedCard[] = [
      { cx: 120, cy: 100, w: 44, h: 60, angle: Math.PI / 2 },
      { cx: 120, cy: 147, w: 44, h: 60, angle: Math.PI / 2 },
    ];
    const [width, height] = [240, 240];
    const data = paint(width, height, pair);
    const found = locateCards(cv, { data, width, height }, { cardWidthPx: 44, scale: 1 });
    const cardArea = 44 * 44 * LOCATE_DEFAULTS.aspect;
    expect(found.filter((f) => polygonArea(f.corners) > cardArea * LOCATE_DEFAULTS.maxSingleArea), 'an outline round both').toEqual([]);
    for (const card of pair) {
      const near = found.filter((f) => Math.hypot(centre(f.corners)[0] - card.cx, centre(f.corners)[1] - card.cy) < 6);
      expect(near.some((f) => Math.abs(quadShort(f.corners) - 44) <= 4), `the card at ${card.cx},${card.cy}`).toBe(true);
    }
    // The limit itself: two cards' area is over it, 1.6 cards' (a card near an oblique camera) is not.
    const outlineOf = (cards: number): Quad => [[0, 0], [44, 0], [44, 44 * LOCATE_DEFAULTS.aspect * cards], [0, 44 * LOCATE_DEFAULTS.aspect * cards]];
    expect(flatSizer(44).shares(outlineOf(2)).area).toBeGreaterThan(LOCATE_DEFAULTS.maxSingleArea);
    expect(flatSizer(44).shares(outlineOf(1.6)).area).toBeLessThanOrEqual(LOCATE_DEFAULTS.maxSingleArea);
  });

  it("takes a nearly square outline for a card where the calibration says cards look so (an oblique camera's far side), and only there", () => {
    // A card lying lengthwise far from an oblique camera: 38 x 40 pixels (its 88 mm side foreshortened).
    const far: PaintedCard[] = [{ cx: 100, cy: 90, w: 38, h: 40, angle: 0 }];
    const data = paint(200, 180, far);
    const found = (minAspect?: number) => locateCards(cv, { data, width: 200, height: 180 }, { cardWidthPx: 36, scale: 1, ...(minAspect ? { minAspect } : {}) });
    const atCard = (cards: LocatedCard[]) => cards.filter((f) => Math.hypot(centre(f.corners)[0] - 100, centre(f.corners)[1] - 90) < 5);
    expect(atCard(found()), 'by default a square is no card').toEqual([]);
    expect(atCard(found(1.0)).length).toBeGreaterThan(0);
    // A table seen from above (cards look 1.4 everywhere) never loosens the default.
    expect(atCard(found(1.36))).toEqual([]);
  });

  it('finds backs no brighter than the cloth by their colour edges when asked, cards a few pixels apart each on its own (calibrated only)', () => {
    // Blue backs on brown cloth of the same brightness (their thin pale border blurs away at
    // webcam size): no brightness edge and nothing white, but a strong colour edge. Dealt in an L.
    const backs = [
      { cx: 100, cy: 80, w: 30, h: 42, angle: 0 },
      { cx: 135, cy: 80, w: 30, h: 42, angle: 0 },
      { cx: 100, cy: 127, w: 30, h: 42, angle: 0 },
    ];
    const data = paintCards(260, 200, backs, () => [20, 45, 150]);
    const found = locateCards(cv, { data, width: 260, height: 200 }, { cardWidthPx: 30, colourEdges: true });
    for (const back of backs) {
      const near = found.filter((f) => Math.hypot(centre(f.corners)[0] - back.cx, centre(f.corners)[1] - back.cy) < 6);
      expect(near.length, `a card at ${back.cx},${back.cy}`).toBeGreaterThan(0);
      expect(near.some((f) => Math.abs(quadShort(f.corners) - 30) <= 4)).toBe(true);
    }
    expect(found.filter((f) => f.source === 'chroma').length).toBeGreaterThan(0);
    // Not asked for (live frames: it costs), or without a calibration (photos have their straight-edge path): no colour pass.
    expect(locateCards(cv, { data, width: 260, height: 200 }, { cardWidthPx: 30 })).toEqual([]);
    expect(locateCards(cv, { data, width: 260, height: 200 }, { colourEdges: true }).filter((f) => f.source === 'chroma')).toEqual([]);
  });

  it("outlines a dark back whose pale oval reaches its border's inner edge (calibrated): the dark field is bitten, its hull is not", () => {
    // As on the 5-player sort: near-black checked backs with a thin cream border and a pale oval
    // ring reaching the border on one side, dealt a few pixels apart on dark wood. The dark field
    // inside the border is then a C round the oval (fill 0.36), its hull a card's inner rectangle.
    const backs: PaintedCard[] = [
      { cx: 60, cy: 60, w: 31, h: 44, angle: 0 },
      { cx: 97, cy: 60, w: 31, h: 44, angle: 0 },
      { cx: 60, cy: 108, w: 31, h: 44, angle: 0 },
    ];
    const design = (u: number, v: number, c: PaintedCard): [number, number, number] => {
      if (Math.abs(u) > c.w / 2 - 1.2 || Math.abs(v) > c.h / 2 - 1.2) return [225, 215, 190];
      const r = Math.hypot((u + 3) / (c.w / 2 - 4), v / (c.h * 0.3));
      if (r > 0.8 && r <= 1) return [225, 215, 190];
      if (r <= 0.8) return [15, 15, 20];
      return (Math.floor(u / 3) + Math.floor(v / 3)) % 2 === 0 ? [30, 30, 35] : [75, 75, 80];
    };
    const data = paintCards(160, 150, backs, design);
    const cardSized = (found: LocatedCard[], back: PaintedCard) =>
      found.some((f) => Math.hypot(centre(f.corners)[0] - back.cx, centre(f.corners)[1] - back.cy) < 4 && Math.abs(quadShort(f.corners) - 31) <= 3);
    const found = locateCards(cv, { data, width: 160, height: 150 }, { cardWidthPx: 31, scale: 1 });
    for (const back of backs) expect(cardSized(found, back), `the back at ${back.cx},${back.cy}`).toBe(true);
    // Without the hull (a bitten outline must fill its own rectangle) the backs are lost.
    const strict = locateCards(cv, { data, width: 160, height: 150 }, { cardWidthPx: 31, scale: 1 }, { ...LOCATE_DEFAULTS, hullFill: 1.01 });
    expect(backs.filter((back) => !cardSized(strict, back)).length).toBeGreaterThan(0);
  });

  it('sizes each outline on the table where it lies under an oblique camera: the card about a back\'s pattern is grown to the size a card has there', () => {
    // The oblique simulated camera over the 3-player table (1435 x 1209 mm): a card lying
    // lengthwise is 33 x 30 px far away (its 88 mm side foreshortened) and 49 x 64 px near.
    const tableMm: Quad = [[0, 0], [1435, 0], [1435, 1209], [0, 1209]];
    const imageCorners: Quad = [[271.83, 122.38], [1008.17, 122.38], [1250.51, 754.02], [29.49, 754.02]];
    const table = { imageToTable: homographyFromPoints(imageCorners, tableMm), tableToImage: homographyFromPoints(tableMm, imageCorners) };
    const projectedCard = (x: number, y: number, w: number, h: number): PaintedCard => {
      const corners = ([[x - w / 2, y - h / 2], [x + w / 2, y - h / 2], [x + w / 2, y + h / 2], [x - w / 2, y + h / 2]] as Quad).map(([a, b]) => applyHomography(table.tableToImage, a, b)) as Quad;
      const [cx, cy] = centre(corners);
      const side = (i: number) => Math.hypot(corners[i + 1][0] - corners[i][0], corners[i + 1][1] - corners[i][1]);
      return { cx, cy, w: side(0), h: side(1), angle: 0 };
    };
    // Backs whose border reads as table: only their violet pattern, 0.8 of the card, shows.
    const places: Point[] = [[717, 120], [717, 1050]];
    const patterns = places.map(([x, y]) => projectedCard(x, y, 63 * 0.8, 88 * 0.8));
    const cards = places.map(([x, y]) => projectedCard(x, y, 63, 88));
    const [width, height] = [1280, 720];
    const data = paintCards(width, height, patterns, () => [150, 90, 200]);
    const median = 42;
    const cardSized = (found: LocatedCard[], card: PaintedCard) =>
      found.some((f) => Math.hypot(centre(f.corners)[0] - card.cx, centre(f.corners)[1] - card.cy) < 4 && Math.abs(quadShort(f.corners) / Math.min(card.w, card.h) - 1) < 0.1);
    const withTable = locateCards(cv, { data, width, height }, { cardWidthPx: median, table, scale: 1 });
    for (const card of cards) expect(cardSized(withTable, card), `the card ${card.w.toFixed(0)} x ${card.h.toFixed(0)} px at ${card.cx.toFixed(0)},${card.cy.toFixed(0)}`).toBe(true);
    // One width for the whole table takes the far pattern for a fragment and the near one for a card.
    const oneWidth = locateCards(cv, { data, width, height }, { cardWidthPx: median, scale: 1 });
    expect(cards.filter((card) => cardSized(oneWidth, card)).length).toBeLessThan(2);
  });

  it("grows a colour outline of a back's field inside its border to the card (calibrated, colour edges)", () => {
    // A red back whose thin border reads as the cloth: only its field, two thirds of the card, shows by colour.
    const field: PaintedCard[] = [{ cx: 80, cy: 80, w: 36 * 0.66, h: 50 * 0.66, angle: 0 }];
    const data = paintCards(170, 160, field, () => [120, 22, 35]); // as dark as the cloth: no brightness edge
    const found = locateCards(cv, { data, width: 170, height: 160 }, { cardWidthPx: 36, scale: 1, colourEdges: true });
    const card = found.filter((f) => Math.hypot(centre(f.corners)[0] - 80, centre(f.corners)[1] - 80) < 4 && Math.abs(quadShort(f.corners) - 36) <= 2);
    expect(card.map((f) => f.source)).toContain('grown');
  });

  it('hypothesises a card cut by the frame\'s edge from its one corner that shows, at the frame\'s card size (photo IMG_2613: a QS at the right edge)', () => {
    const inside = [
      { cx: 80, cy: 80, w: 63, h: 88, angle: 0.1 },
      { cx: 200, cy: 80, w: 63, h: 88, angle: -0.2 },
      { cx: 80, cy: 200, w: 63, h: 88, angle: 0 },
      { cx: 200, cy: 200, w: 63, h: 88, angle: 0.3 },
    ];
    // Turned 50 degrees, its centre 5 pixels past the right edge: one corner and a wedge show.
    const cut = { cx: 485, cy: 135, w: 63, h: 88, angle: 0.87 };
    const image = { data: paint(480, 270, [...inside, cut]), width: 480, height: 270 };
    const near = (f: LocatedCard) => Math.hypot(centre(f.corners)[0] - cut.cx, centre(f.corners)[1] - cut.cy) < 8;
    const found = locateCards(cv, image).filter(near);
    expect(found.length).toBeGreaterThan(0);
    for (const card of found) {
      expect(Math.abs(quadShort(card.corners) - 63)).toBeLessThan(8);
      // Reported by the part in the frame.
      expect(Math.max(...card.inFrame!.map(([x]) => x))).toBeLessThanOrEqual(480);
    }
    // Judged by the whole card's support, the wedge is no card.
    expect(locateCards(cv, image, {}, { ...LOCATE_DEFAULTS, minCutShown: 1.1 }).filter(near)).toEqual([]);
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
  it('sizes corner hypotheses by the outline when the card size is unknown', () => {
    // The L of two cards: at (0, 0) the outline's edges are a whole card's sides (63 and 88).
    const polygon: Point[] = [[0, 0], [63, 0], [63, 40], [126, 40], [126, 128], [63, 128], [63, 88], [0, 88]];
    const quads = edgeSizedHypotheses(polygon);
    expect(quads.some((q) => Math.hypot(centre(q)[0] - 31.5, centre(q)[1] - 44) < 1 && Math.abs(quadShort(q) - 63) < 1)).toBe(true);
    // At (126, 128) one edge (88 long) is a whole long side; the card's short side follows from it.
    expect(quads.some((q) => Math.hypot(centre(q)[0] - 94.5, centre(q)[1] - 84) < 1 && Math.abs(quadShort(q) - 63) < 1)).toBe(true);
  });
  it('splits a card-shaped blob of an unlikely shape too, and tries the widths the blob suggests', () => {
    expect(mayHoldSeveral({ width: 63, height: 88 }, undefined)).toBe(false);
    expect(mayHoldSeveral({ width: 165, height: 88 }, undefined)).toBe(true); // a row of three
    expect(mayHoldSeveral({ width: 80, height: 88 }, undefined)).toBe(true); // squat: two side by side
    // IMG_2648's fan of three (AH, 10C, QS): 287x220, aspect 1.30 against a card's 1.40.
    expect(mayHoldSeveral({ width: 287, height: 220 }, undefined)).toBe(true);
    expect(mayHoldSeveral({ width: 63, height: 92 }, undefined)).toBe(false); // a card a little foreshortened
    expect(mayHoldSeveral({ width: 66, height: 88 }, 63)).toBe(false);
    expect(mayHoldSeveral({ width: 88, height: 130 }, 63)).toBe(true);
    // The median single card's width, the blob's short side, and that side as a long side.
    expect(splitWidths(88, 63).map(Math.round)).toEqual([63, 88]);
    expect(splitWidths(88, 30).map(Math.round)).toEqual([30, 88, 63]);
    expect(splitWidths(88, undefined).map(Math.round)).toEqual([88, 63]);
  });
  it('keeps a Nerts pile\'s whole top and drops split outlines over it, nothing elsewhere', () => {
    const card = (x: number, y: number, source: LocatedCard['source'], id: string) => ({ corners: [[x, y], [x + 28, y], [x + 28, y + 39], [x, y + 39]] as Quad, source, support: 1, id });
    const pileOf = (c: { corners: Quad }) => (centre(c.corners)[0] < 100 ? 'seat-0/nerts' : c.corners[0][0] < 200 ? 'seat-1/nerts' : undefined);
    const cards = [
      card(10, 10, 'single', 'top'), // the top, found whole
      card(14, 13, 'split', 'stack edge'), // a split outline a few pixels off it: goes
      card(60, 10, 'split', 'neighbour'), // a split on the same pile's zone, a card's width away: stays
      card(110, 10, 'split', 'other pile'), // another pile with no whole card: its splits stay
      card(113, 12, 'split', 'other pile 2'),
      card(300, 10, 'split', 'work pile'), // no Nerts pile: untouched
      card(302, 12, 'single', 'work pile top'),
    ];
    expect(oneOutlinePerNertsPile(cards, pileOf).map((c) => c.id)).toEqual(['top', 'neighbour', 'other pile', 'other pile 2', 'work pile', 'work pile top']);
    // No whole card on any pile: everything stays.
    expect(oneOutlinePerNertsPile(cards.filter((c) => c.source === 'split'), pileOf)).toHaveLength(5);
  });
  it('keeps the surest of outlines that repeat one card, and copies of a face lying apart', () => {
    const card = (x: number, source: LocatedCard['source'], code: string, confidence: number) => ({
      corners: [[x, 0], [x + 63, 0], [x + 63, 88], [x, 88]] as Quad,
      source,
      support: 1,
      code,
      confidence,
    });
    const a = card(0, 'single', 'QH', 0.9);
    const again = card(4, 'split', 'QH', 0.95); // the same card outlined again, a little off
    const apart = card(70, 'single', 'QH', 0.8); // a second deck's QH beside it
    const other = card(8, 'split', 'KS', 0.7); // another face overlapping: not a repeat
    expect(shareInside(a.corners, again.corners)).toBeGreaterThan(0.8);
    expect(shareInside(a.corners, apart.corners)).toBe(0);
    const kept = dropRepeatedOutlines([a, again, apart, other], (c) => c.code, (c) => c.confidence);
    expect(kept).toEqual([again, apart, other]);
  });
  it('keeps a card outlined whole over its two halves read alike, the surer half notwithstanding', () => {
    const quad = (x0: number, y0: number, x1: number, y1: number): Quad => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
    const read = (corners: Quad, code: string, confidence: number) => ({ corners, source: 'split' as const, support: 1, code, confidence });
    // IMG_2456's 10D: the whole card at 0.98, its top and bottom halves stretched to a card's shape at 0.99 and 0.78.
    const whole = read(quad(0, 0, 63, 88), '10D', 0.98);
    const top = read(quad(2, 2, 61, 45), '10D', 0.99);
    const bottom = read(quad(2, 44, 61, 86), '10D', 0.78);
    const key = (c: { code: string }) => c.code;
    const sureness = (c: { confidence: number }) => c.confidence;
    expect(wholesOfPieces([whole, top, bottom], key, sureness)).toEqual([0]);
    expect(dropRepeatedOutlines([whole, top, bottom], key, sureness)).toEqual([whole]);
    // One piece alone is no evidence: the surer outline stays, as before.
    expect(dropRepeatedOutlines([whole, top], key, sureness)).toEqual([top]);
    // Halves read as another face, or a whole the caller rules out (wider than a calibrated card), change nothing.
    const otherHalf = { ...bottom, code: '10H' };
    expect(wholesOfPieces([whole, top, otherHalf], key, sureness)).toEqual([]);
    expect(dropRepeatedOutlines([whole, top, bottom], key, sureness, REPEATED_OUTLINE_OVERLAP, () => false)).toEqual([top, bottom]);
    // A whole read unsurely (an outline round the card and half its neighbour) is no evidence either.
    const unsure = { ...whole, confidence: 0.65 };
    expect(wholesOfPieces([unsure, top, bottom], key, sureness)).toEqual([]);
    // Two outlines of nearly one piece are repeats of each other, not two pieces.
    const topAgain = read(quad(3, 3, 61, 47), '10D', 0.9);
    expect(wholesOfPieces([whole, top, topAgain], key, sureness)).toEqual([]);
  });
  it('finds the strip of a card that shows from under others, and whether an index corner shows whole', () => {
    const card: Quad = [[0, 0], [63, 0], [63, 88], [0, 88]];
    const rightOfIt: Quad = [[20, 0], [83, 0], [83, 88], [20, 88]];
    const strip = visiblePart(card, [rightOfIt], INDEX_REGION);
    expect(strip.share).toBeCloseTo(5 / 16, 5); // the left 20 of 63 pixels, on a 16x16 grid
    expect(strip.quad![1][0]).toBeCloseTo((63 * 5) / 16, 5);
    expect(strip.quad![2][1]).toBeCloseTo(88, 5);
    expect(strip.indexShows).toBe(true); // the top-left index
    // Covered from the top down to 70 of 88: the top-left index is hidden, and the bottom-right one cut.
    const below: Quad = [[0, -10], [63, -10], [63, 70], [0, 70]];
    expect(visiblePart(card, [below], INDEX_REGION).indexShows).toBe(false);
    expect(visiblePart(card, [card], INDEX_REGION)).toEqual({ share: 0, quad: null, indexShows: false });
  });
  it('drops backs a fraction of the size of the surely read faces (a wood-grain sliver) or far bigger (a page), and only with faces to size them by', () => {
    const at = (x: number, w: number, h: number, kind: 'face' | 'back', confidence: number) => ({
      corners: [[x, 0], [x + w, 0], [x + w, h], [x, h]] as Quad,
      source: 'single' as const,
      support: 1,
      kind,
      confidence,
    });
    const face = at(0, 230, 310, 'face', 0.99);
    const sliver = at(232, 55, 35, 'back', 0.6); // 3 % of the face's area
    const stock = at(300, 220, 300, 'back', 0.7); // a whole back, about a card's size
    const faint = at(600, 230, 310, 'face', 0.4); // not sure enough to size the cards by
    const isBack = (c: { kind: string }) => c.kind === 'back';
    const sure = (c: { kind: string; confidence: number }) => c.kind === 'face' && c.confidence >= 0.9;
    expect(dropFragments([face, sliver, stock, faint], isBack, sure, FRAGMENT_BACK_SHARE)).toEqual([face, stock, faint]);
    expect(dropFragments([sliver, stock, faint], isBack, sure, FRAGMENT_BACK_SHARE)).toEqual([sliver, stock, faint]);
    // Nor far bigger than a card: a page of a book outlined whole and read as a back (IMG_2507).
    const page = at(600, 400, 560, 'back', 0.86); // 3.1 times the face's area
    expect(dropFragments([face, stock, page], isBack, sure, FRAGMENT_BACK_SHARE, 1, OVERSIZE_BACK_SHARE)).toEqual([face, stock]);
    expect(dropFragments([stock, page], isBack, sure, FRAGMENT_BACK_SHARE, 1, OVERSIZE_BACK_SHARE)).toEqual([stock, page]);
  });
  it('drops an unsure face far smaller than the sure ones (a speck of wood grain read as a 10C), not a far-off card', () => {
    const at = (x: number, w: number, h: number, confidence: number) => ({
      corners: [[x, 0], [x + w, 0], [x + w, h], [x, h]] as Quad,
      source: 'net' as const,
      support: 1,
      confidence,
    });
    const king = at(0, 240, 300, 0.99);
    const speck = at(400, 24, 30, 0.68); // 1 % of the king's area
    const farOff = at(600, 150, 190, 0.7); // 40 %: a card further from the camera
    const sureSpeck = at(800, 24, 30, 0.95); // read surely: kept
    const unsure = (c: { confidence: number }) => c.confidence < 0.9;
    const sure = (c: { confidence: number }) => c.confidence >= 0.9;
    expect(dropFragments([king, speck, farOff, sureSpeck], unsure, sure, FRAGMENT_FACE_SHARE)).toEqual([king, farOff, sureSpeck]);
    // Nothing sure to size the cards by: nothing is dropped.
    expect(dropFragments([speck, farOff], unsure, sure, FRAGMENT_FACE_SHARE)).toEqual([speck, farOff]);
  });
  it('drops a quad nested in a bigger card but keeps equal-size overlaps', () => {
    const big: LocatedCard = { corners: [[0, 0], [63, 0], [63, 88], [0, 88]], source: 'single', support: 1 };
    const frame: LocatedCard = { corners: [[15, 15], [48, 15], [48, 70], [15, 70]], source: 'single', support: 1 };
    const overlap: LocatedCard = { corners: [[0, 20], [63, 20], [63, 108], [0, 108]], source: 'split', support: 1 };
    expect(suppressNested([big, frame, overlap])).toEqual([big, overlap]);
    // A card that may not suppress (a faint reading round two cards) hides nothing inside it.
    expect(suppressNested([big, frame], (card) => card !== big)).toEqual([big, frame]);
    // The rule may look at the pair: here the bigger card spares only this nested one.
    const pip: LocatedCard = { corners: [[20, 30], [40, 30], [40, 55], [20, 55]], source: 'single', support: 1 };
    expect(suppressNested([big, frame, pip], (_, nested) => nested !== frame)).toEqual([big, frame]);
  });
  it('takes a card past the frame\'s edge only where its blob reaches that edge', () => {
    const blob = { x: 300, y: 40, width: 78, height: 100 };
    expect(reachesEdgesCrossed(blob, { x: 290, y: 30, width: 150, height: 120 }, 378, 504)).toBe(true);
    // A blob of cards lying clear of the top edge (IMG_2632) holds no card running past it.
    expect(reachesEdgesCrossed({ x: 110, y: 45, width: 210, height: 185 }, { x: 110, y: -60, width: 210, height: 290 }, 378, 504)).toBe(false);
    expect(reachesEdgesCrossed(blob, { x: 300, y: 40, width: 60, height: 90 }, 378, 504)).toBe(true);
  });

  it('drops the frame itself taken for a card (an even carpet passes as one white blob), but not a card near one corner', () => {
    const frameOutline: LocatedCard = { corners: [[1, 0], [377, 2], [378, 503], [0, 501]], source: 'single', support: 1 };
    const card: LocatedCard = { corners: [[94, 183], [214, 173], [229, 339], [109, 350]], source: 'single', support: 1 };
    const cornerCard: LocatedCard = { corners: [[0, 0], [120, 0], [120, 170], [0, 170]], source: 'single', support: 1 };
    // Three corners at the frame's, one not: a card filling most of a close-up, kept.
    const closeUp: LocatedCard = { corners: [[0, 0], [378, 0], [378, 504], [60, 440]], source: 'single', support: 1 };
    expect(dropFrameOutlines([frameOutline, card, cornerCard, closeUp], 378, 504)).toEqual([card, cornerCard, closeUp]);
  });
  it('grows a card cut by the frame\'s edge across it, both ways round, as rivals of its in-frame outline (render_0003: a 6D at the bottom)', () => {
    // 59 pixels wide, 39 seen above the bottom edge of a 1280x720 frame.
    const cut: LocatedCard = { corners: [[336, 680], [395, 680], [395, 719], [336, 719]], source: 'single', support: 0.95 };
    const inside: LocatedCard = { corners: [[600, 300], [663, 300], [663, 388], [600, 388]], source: 'single', support: 1 };
    const out = withCutCards([cut, inside], 1280, 720);
    const grown = out.filter((card) => card.inFrame);
    // The cut side as the card's short side (grown to 59 x 82) or its long side (59 x 42 is no taller than seen: skipped).
    expect(grown).toHaveLength(1);
    expect(quadShort(grown[0].corners)).toBeCloseTo(59, 0);
    expect(Math.max(...grown[0].corners.map(([, y]) => y))).toBeCloseTo(680 + 59 * CARD_ASPECT, 0);
    expect(grown[0]).toMatchObject({ source: 'split', inFrame: cut.corners });
    expect(grown[0].rivalGroup).toBeDefined();
    expect(out.find((card) => card.corners === cut.corners || card.corners[0][1] === 680 && !card.inFrame)?.rivalGroup).toBe(grown[0].rivalGroup);
    // A card inside the frame, and an outline from edge to edge (a table's edge), grow nothing.
    const across: LocatedCard = { corners: [[0, 600], [1279, 600], [1279, 719], [0, 719]], source: 'single', support: 1 };
    expect(withCutCards([inside, across], 1280, 720).filter((card) => card.inFrame)).toEqual([]);
    // A net card kept for its sureness though its edge is faint grows a card as faint (read only as a sure face).
    const faint = withCutCards([{ ...cut, source: 'net', faintEdge: true }], 1280, 720).filter((card) => card.inFrame);
    expect(faint).toHaveLength(1);
    expect(faint[0].faintEdge).toBe(true);
    expect(grown[0].faintEdge).toBeUndefined();
  });
});

describe('whiterThanClothMask', () => {
  let cv: OpenCv;
  beforeAll(async () => {
    ({ cv } = await loadOpenCv());
  });

  it('marks cards on a pale gingham lit unevenly, where no one level of whiteness separates them from the cloth', () => {
    // Whiteness (value − saturation) of a gingham whose white squares fall from 228 on the left
    // to 178 on the right as the light falls off, blurred a little as a webcam does. Each card
    // is 20 levels whiter than the cloth around it, with a dark pip; a hand lies beside one.
    const width = 480;
    const height = 240;
    const cards = [
      { cx: 70, cy: 80, w: 24, h: 33, angle: 0.3 },
      { cx: 230, cy: 150, w: 24, h: 33, angle: -0.6 },
      { cx: 400, cy: 70, w: 24, h: 33, angle: 1.1 },
      { cx: 420, cy: 180, w: 24, h: 33, angle: 0 },
    ];
    const light = (x: number) => 228 - (50 * x) / width;
    const raw = new Float32Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
      const white = light(x);
      const card = cards.find((c) => {
        const u = (x - c.cx) * Math.cos(c.angle) + (y - c.cy) * Math.sin(c.angle);
        const v = -(x - c.cx) * Math.sin(c.angle) + (y - c.cy) * Math.cos(c.angle);
        return Math.abs(u) <= c.w / 2 && Math.abs(v) <= c.h / 2;
      });
      const bands = (Math.floor(x / 9) % 2) + (Math.floor(y / 9) % 2);
      let value = card ? (Math.hypot(x - card.cx, y - card.cy) < 3 ? 40 : white + 20) : [white, white - 25, white - 45][bands];
      if (Math.hypot(x - 260, y - 150) < 22) value = 30; // a hand beside the second card
      raw[y * width + x] = value;
    }
    const data = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
      let sum = 0;
      let n = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const [xx, yy] = [Math.min(width - 1, Math.max(0, x + dx)), Math.min(height - 1, Math.max(0, y + dy))];
        sum += raw[yy * width + xx];
        n++;
      }
      data[y * width + x] = Math.round(sum / n);
    }
    // The cards on the right are darker than the cloth's white squares on the left.
    expect(light(420) + 20).toBeLessThan(light(0));
    const mats: Array<{ delete(): void }> = [];
    const track = <T extends { delete(): void }>(m: T): T => {
      mats.push(m);
      return m;
    };
    const whiteness = track(cv.matFromArray(height, width, cv.CV_8UC1, data));
    const mask = whiterThanClothMask(cv, whiterThanCloth(cv, whiteness, 24, LOCATE_DEFAULTS, track), 24, LOCATE_DEFAULTS, track);
    const on = (x: number, y: number) => mask.data[Math.round(y) * width + Math.round(x)] > 0;
    for (const c of cards) expect(on(c.cx + 6 * Math.sin(c.angle), c.cy - 6 * Math.cos(c.angle))).toBe(true);
    // Nothing else: every marked pixel lies on a card.
    let stray = 0;
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (on(x, y) && !cards.some((c) => Math.hypot(x - c.cx, y - c.cy) < Math.hypot(c.w, c.h) / 2 + 2)) stray++;
    expect(stray).toBe(0);
    for (const m of mats) m.delete();
  });
});

describe('fitOnWhiter', () => {
  let cv: OpenCv;
  beforeAll(async () => {
    ({ cv } = await loadOpenCv());
  });

  it('fits a turned card of the known size to the whiter-than-cloth image, not to the axis of the checks', () => {
    // A card 30 pixels wide, turned 25 degrees, 18 levels whiter than the cloth, its border 2 px
    // softer; the cloth is at its own white (0) with checks 4 levels above it here and there.
    const [width, height] = [120, 120];
    const card = { cx: 58, cy: 63, w: 30, h: 42, angle: (25 * Math.PI) / 180 };
    const data = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
      const u = (x - card.cx) * Math.cos(card.angle) + (y - card.cy) * Math.sin(card.angle);
      const v = -(x - card.cx) * Math.sin(card.angle) + (y - card.cy) * Math.cos(card.angle);
      const inside = Math.min(card.w / 2 - Math.abs(u), card.h / 2 - Math.abs(v));
      data[y * width + x] = inside >= 2 ? 18 : inside >= 0 ? 6 : (Math.floor(x / 9) + Math.floor(y / 9)) % 2 === 0 ? 4 : 0;
    }
    const above = cv.matFromArray(height, width, cv.CV_8UC1, data);
    const quad = fitOnWhiter(above, [62, 60], 30, LOCATE_DEFAULTS);
    above.delete();
    expect(quad).not.toBeNull();
    const [cx, cy] = centre(quad!);
    expect(Math.hypot(cx - card.cx, cy - card.cy)).toBeLessThan(1.5);
    expect(quadShort(quad!)).toBeCloseTo(30, 0);
    // The long side's direction is the card's (its long axis is turned 25 degrees from vertical).
    const [p, q] = [quad![1], quad![2]];
    const along = Math.atan2(q[1] - p[1], q[0] - p[0]);
    const turn = Math.abs(Math.abs(((along - card.angle - Math.PI / 2) % Math.PI) + Math.PI) % Math.PI);
    expect(Math.min(turn, Math.PI - turn)).toBeLessThan((4 * Math.PI) / 180);
  });

  it('finds no card where the cloth is only its own white', () => {
    const data = new Uint8Array(100 * 100).map((_, i) => ((Math.floor((i % 100) / 9) + Math.floor(i / 900)) % 2 === 0 ? 3 : 0));
    const above = cv.matFromArray(100, 100, cv.CV_8UC1, data);
    expect(fitOnWhiter(above, [50, 50], 30, LOCATE_DEFAULTS)).toBeNull();
    above.delete();
  });
});

describe('fillDarkCells', () => {
  it('gives cells with no cloth in them the cloth white of the rest', () => {
    const cells = Uint8Array.from([210, 40, 214, 0, 212, 250, 90]);
    fillDarkCells(cells, 170);
    // Pale cells sorted: 210 212 214 250; their median (the upper middle) 214.
    expect([...cells]).toEqual([210, 214, 214, 214, 212, 250, 214]);
  });

  it('leaves a map with no pale cell alone', () => {
    const cells = Uint8Array.from([10, 20, 30]);
    fillDarkCells(cells, 170);
    expect([...cells]).toEqual([10, 20, 30]);
  });
});

describe('agreeOnSize', () => {
  it('trusts the single cards for the card size only when many agree', () => {
    expect(agreeOnSize([40, 41, 41, 42, 42, 43])).toBe(true); // a table seen whole
    expect(agreeOnSize([20, 41, 63])).toBe(false); // too few
    expect(agreeOnSize([12, 18, 30, 63, 64])).toBe(false); // pips, picture frames and a card
  });
});

describe('a plain white table (cards show only by their ink)', () => {
  let cv: OpenCv;
  beforeAll(async () => {
    ({ cv } = await loadOpenCv());
  });

  // A white laminate (242) on a dark floor; cards exactly as white, with a thin grey printed border,
  // a few dark pips and two index marks; the ace has no border at all, only its pip and indices.
  const W = 28;
  const table: PaintedCard = { cx: 240, cy: 135, w: 400, h: 240, angle: 0 };
  const four: PaintedCard = { cx: 130, cy: 100, w: W, h: W * 1.4, angle: 0.3 };
  const pair: PaintedCard[] = [
    { cx: 250, cy: 100, w: W, h: W * 1.4, angle: -0.1 },
    { cx: 254, cy: 140, w: W, h: W * 1.4, angle: 0.05 },
  ];
  const ace: PaintedCard = { cx: 360, cy: 170, w: W, h: W * 1.4, angle: 0.5 };
  const cards = [table, four, ...pair, ace];
  const image = () => {
    const data = paintCards(480, 270, cards, (u, v, c) => {
      if (c === table) return [242, 242, 240];
      const [hw, hh] = [c.w / 2, c.h / 2];
      const dot = (pu: number, pv: number, r: number) => Math.abs(u - pu) <= r && Math.abs(v - pv) <= r;
      const index = dot(-hw + 4, -hh + 5, 1.5) || dot(hw - 4, hh - 5, 1.5);
      if (c === ace) return dot(0, 0, 3) || index ? [25, 25, 25] : [242, 242, 240];
      const border = Math.min(hw - Math.abs(u), hh - Math.abs(v)) < 1.2;
      const pips = [-1, 1].some((su) => [-1, 1].some((sv) => dot((su * c.w) / 4, (sv * c.h) / 4, 2)));
      return pips || index ? [30, 30, 30] : border ? [190, 190, 190] : [242, 242, 240];
    });
    return { data, width: 480, height: 270 };
  };
  const near = (found: LocatedCard[], c: PaintedCard, tolerance = 4) => found.filter((f) => Math.hypot(centre(f.corners)[0] - c.cx, centre(f.corners)[1] - c.cy) < tolerance);

  it('finds cards by their ink, each of the calibrated size, and touching cards one by one', () => {
    const found = locateCards(cv, image(), { cardWidthPx: W, scale: 1, paleCloth: true, plainTable: true });
    for (const c of [four, ...pair]) {
      const hits = near(found, c);
      expect(hits.length).toBeGreaterThan(0);
      expect(quadShort(hits[0].corners)).toBeCloseTo(W, 0);
    }
    // Without the plain-table path the pale-cloth one sees nothing whiter than the table.
    const pale = locateCards(cv, image(), { cardWidthPx: W, scale: 1, paleCloth: true });
    expect([four, ...pair].filter((c) => near(pale, c).length > 0).length).toBeLessThan(3);
  });

  it('tries a card at six angles where only lone marks show (an ace), as one rival group', () => {
    const found = locateCards(cv, image(), { cardWidthPx: W, scale: 1, paleCloth: true, plainTable: true });
    const tries = near(found, ace, 5);
    expect(tries.length).toBe(6);
    expect(new Set(tries.map((t) => t.rivalGroup)).size).toBe(1);
    expect(tries[0].rivalGroup).toBeLessThan(0);
    // One of them lies within 15 degrees of the ace's own angle.
    const angleOf = (q: Quad) => Math.atan2(q[1][1] - q[0][1], q[1][0] - q[0][0]);
    const off = (t: LocatedCard) => {
      const d = Math.abs(angleOf(t.corners) - ace.angle) % Math.PI;
      return Math.min(d, Math.PI - d);
    };
    expect(Math.min(...tries.map(off))).toBeLessThan((15.5 * Math.PI) / 180);
    // The floor round the table is no card.
    expect(found.every((f) => centre(f.corners)[0] > 40 && centre(f.corners)[0] < 440)).toBe(true);
  });
});

describe('grownOutlines', () => {
  const single = (cx: number, cy: number, w: number, source: LocatedCard['source'] = 'single'): LocatedCard => ({
    corners: [[cx - w / 2, cy - 0.7 * w], [cx + w / 2, cy - 0.7 * w], [cx + w / 2, cy + 0.7 * w], [cx - w / 2, cy + 0.7 * w]],
    source,
    support: 1,
  });

  it('adds the calibrated card about an outline clearly smaller than a card (a back outlined inside its border)', () => {
    const added = grownOutlines([single(100, 100, 27)], 36, LOCATE_DEFAULTS);
    expect(added).toHaveLength(1);
    expect(added[0].source).toBe('grown');
    expect(centre(added[0].corners)[0]).toBeCloseTo(100, 5);
    expect(centre(added[0].corners)[1]).toBeCloseTo(100, 5);
    expect(quadShort(added[0].corners)).toBeCloseTo(36, 5);
    // Just inside the border (0.87 of the width; a green back on green felt read 'other' so), the outline itself not taken for the card found.
    expect(grownOutlines([single(100, 100, 31.3)], 36, LOCATE_DEFAULTS)).toHaveLength(1);
    // A colour-edge outline on a purple back's pattern too (a dealt back read as no card).
    expect(grownOutlines([single(100, 100, 29, 'chroma')], 36, LOCATE_DEFAULTS)).toHaveLength(1);
  });

  it('adds nothing for outlines of about a card, far too small ones (pips, index strips), bigger ones, other sources, or where the card is found', () => {
    expect(grownOutlines([single(100, 100, 33)], 36, LOCATE_DEFAULTS)).toHaveLength(0);
    expect(grownOutlines([single(100, 100, 15)], 36, LOCATE_DEFAULTS)).toHaveLength(0);
    expect(grownOutlines([single(100, 100, 45)], 36, LOCATE_DEFAULTS)).toHaveLength(0);
    expect(grownOutlines([single(100, 100, 27, 'split')], 36, LOCATE_DEFAULTS)).toHaveLength(0);
    expect(grownOutlines([single(100, 100, 27), single(101, 100, 35)], 36, LOCATE_DEFAULTS)).toHaveLength(0);
    // Two outlines inside one card give it once.
    expect(grownOutlines([single(100, 100, 27), single(101, 100, 28)], 36, LOCATE_DEFAULTS)).toHaveLength(1);
  });
});

describe('resizedOutlines', () => {
  const single = (cx: number, cy: number, w: number): LocatedCard => ({
    corners: [[cx - w / 2, cy - 0.7 * w], [cx + w / 2, cy - 0.7 * w], [cx + w / 2, cy + 0.7 * w], [cx - w / 2, cy + 0.7 * w]],
    source: 'single',
    support: 1,
  });

  it('adds the card of the calibrated size about an outline of the wrong size', () => {
    const added = resizedOutlines([single(100, 100, 34)], 28, LOCATE_DEFAULTS);
    expect(added).toHaveLength(1);
    expect(centre(added[0].corners)[0]).toBeCloseTo(100, 5);
    expect(quadShort(added[0].corners)).toBeCloseTo(28, 5);
  });

  it('adds nothing where a card of about the right size is found, nor for right-sized or probed outlines', () => {
    expect(resizedOutlines([single(100, 100, 34), single(101, 100, 28)], 28, LOCATE_DEFAULTS)).toHaveLength(0);
    expect(resizedOutlines([single(100, 100, 29)], 28, LOCATE_DEFAULTS)).toHaveLength(0);
    expect(resizedOutlines([{ ...single(100, 100, 34), source: 'probe' }], 28, LOCATE_DEFAULTS)).toHaveLength(0);
  });
});

describe('regionRivalGroup', () => {
  it("gives each region's lone-mark groups their own numbers and leaves the learned locator's alone", () => {
    expect(regionRivalGroup(-1000, -1)).toBe(-1001);
    expect(regionRivalGroup(-2000, -1)).toBe(-2001);
    expect(regionRivalGroup(-2000, 7)).toBe(7);
    expect(regionRivalGroup(-2000, undefined)).toBeUndefined();
    // Two regions' first groups, renumbered, stay two groups: each keeps its surest outline.
    const card = (group: number, confidence: number) => ({ corners: [[0, 0], [1, 0], [1, 1], [0, 1]] as Quad, source: 'probe' as const, support: 1, rivalGroup: group, confidence });
    const cards = [card(regionRivalGroup(-1000, -1)!, 0.4), card(regionRivalGroup(-1000, -1)!, 0.9), card(regionRivalGroup(-2000, -1)!, 0.5)];
    expect(keepSurestRivals(cards, (c) => c.confidence).map((c) => c.confidence)).toEqual([0.9, 0.5]);
  });
  it('keeps a whole whose pieces were outlined too over a rival read a hair more surely (photo IMG_2610: a JD)', () => {
    const quad = (x0: number, y0: number, x1: number, y1: number): Quad => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
    const at = (corners: Quad, confidence: number, rivalGroup?: number) => ({ corners, source: 'split' as const, support: 1, confidence, code: 'JD', ...(rivalGroup === undefined ? {} : { rivalGroup }) });
    const whole = at(quad(0, 0, 110, 165), 0.992, -3);
    const short = at(quad(2, 17, 108, 165), 0.993, -3); // straight edges, 17 px short at the top
    const upper = at(quad(5, 2, 85, 122), 0.994); // the card's halves, outlined on their own
    const lower = at(quad(25, 50, 105, 163), 0.973);
    const cards = [whole, short, upper, lower];
    const wholes = new Set(wholesOfPieces(cards, (c) => c.code, (c) => c.confidence).map((i) => cards[i]));
    expect([...wholes]).toEqual([whole]);
    expect(keepSurestRivals(cards, (c) => c.confidence)).toEqual([short, upper, lower]);
    const kept = keepSurestRivals(cards, (c) => c.confidence, wholes);
    expect(kept).toEqual([whole, upper, lower]);
    // Then the halves are the whole's repeats: one JD.
    expect(dropRepeatedOutlines(kept, (c) => c.code, (c) => c.confidence)).toEqual([whole]);
  });
});

describe('squat outlines of far cards under a tilted camera', () => {
  const rect = (w: number, h: number): Quad => orderCardQuad([[100, 100], [100 + w, 100], [100 + w, 100 + h], [100, 100 + h]]);
  const sides = (q: Quad) => [Math.hypot(q[1][0] - q[0][0], q[1][1] - q[0][1]), Math.hypot(q[2][0] - q[1][0], q[2][1] - q[1][1])];

  it('tells card-shaped outlines, either way they lie, from squat ones', () => {
    expect(squatOutline(rect(60, 84))).toBe(false);
    expect(squatOutline(rect(84, 60))).toBe(false);
    expect(squatOutline(rect(60, 60 * SQUAT_OUTLINE_ASPECT + 1))).toBe(false);
    // A portrait card 60 px wide seen at a slant: its length shows as 47 px, less than its width.
    expect(squatOutline(rect(60, 47))).toBe(true);
    expect(squatOutline(rect(50, 55))).toBe(true);
  });

  it('turns an outline a quarter: the same corners, cut with the other side across the card', () => {
    const far = rect(60, 47);
    const turned = quarterTurned(far);
    expect(sides(far)[0]).toBeCloseTo(47);
    expect(sides(turned)[0]).toBeCloseTo(60);
    expect(new Set(turned.map(String))).toEqual(new Set(far.map(String)));
    expect(quarterTurned(quarterTurned(quarterTurned(quarterTurned(far))))).toEqual(far);
  });
});
