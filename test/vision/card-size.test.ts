import { describe, expect, it } from 'vitest';
import { applyHomography, homographyFromPoints, quadCentre, quadShortSide } from '../../server/geometry';
import { CARD_ASPECT } from '../../server/vision/classes';
import { flatSizer, planeSizer, type TableMapping } from '../../server/vision/card-size';
import type { Point, Quad } from '../../server/vision/types';

/** A 1000 x 800 mm table seen obliquely: its far edge (y = 0) 500 px wide, its near edge 1100 px. */
const tableMm: Quad = [[0, 0], [1000, 0], [1000, 800], [0, 800]];
const imageCorners: Quad = [[390, 80], [890, 80], [1240, 700], [40, 700]];
const table: TableMapping = { imageToTable: homographyFromPoints(imageCorners, tableMm), tableToImage: homographyFromPoints(tableMm, imageCorners) };

/** A card of `w` x `h` mm centred at (x, y) on the table, in frame pixels. */
function cardOnTable(x: number, y: number, w: number, h: number): Quad {
  const mm: Quad = [[x - w / 2, y - h / 2], [x + w / 2, y - h / 2], [x + w / 2, y + h / 2], [x - w / 2, y + h / 2]];
  return mm.map(([a, b]) => applyHomography(table.tableToImage, a, b)) as Quad;
}

const near = (a: Point, b: Point, tolerance: number) => Math.hypot(a[0] - b[0], a[1] - b[1]) <= tolerance;

describe('flatSizer', () => {
  it('measures an outline against one card width, and puts the card of that width about it', () => {
    const sizer = flatSizer(30);
    const outline: Quad = [[0, 0], [24, 0], [24, 24 * CARD_ASPECT], [0, 24 * CARD_ASPECT]];
    expect(sizer.shares(outline).short).toBeCloseTo(0.8, 5);
    expect(sizer.shares(outline).area).toBeCloseTo(0.64, 5);
    const card = sizer.cardAbout(outline);
    expect(quadShortSide(card)).toBeCloseTo(30, 5);
    expect(near(quadCentre(card), quadCentre(outline), 1e-6)).toBe(true);
    expect(sizer.widthAt([500, 500])).toBe(30);
  });
});

describe('planeSizer', () => {
  it('sizes a card as one wherever it lies on an oblique table, near, far, or far and lengthwise (nearly square in the image)', () => {
    const sizer = planeSizer(table, 1);
    const nearCard = cardOnTable(500, 700, 63, 88);
    const farCard = cardOnTable(500, 100, 63, 88);
    const farLengthwise = cardOnTable(500, 100, 88, 63);
    // In the image they differ a lot...
    expect(quadShortSide(nearCard) / quadShortSide(farCard)).toBeGreaterThan(1.5);
    // ...on the table they are one card each.
    for (const card of [nearCard, farCard, farLengthwise]) {
      expect(sizer.shares(card).short).toBeCloseTo(1, 2);
      expect(sizer.shares(card).area).toBeCloseTo(1, 2);
    }
    // Twice the area: two cards side by side.
    expect(sizer.shares(cardOnTable(500, 400, 126, 88)).area).toBeCloseTo(2, 2);
    // The far card is narrower in the image than the near one.
    expect(sizer.widthAt(quadCentre(farCard))).toBeLessThan(sizer.widthAt(quadCentre(nearCard)) * 0.7);
  });

  it('puts the card of the calibrated size about an outline inside its border, as the camera sees it', () => {
    const sizer = planeSizer(table, 1);
    const inner = cardOnTable(300, 150, 48, 70);
    const card = sizer.cardAbout(inner);
    const truth = cardOnTable(300, 150, 63, 88);
    // Same corners, in some order.
    for (const corner of truth) expect(card.some((c) => near(c, corner, 0.5)), `corner ${corner}`).toBe(true);
  });

  it('works on a region of the frame at the detection scale', () => {
    const [scale, origin]: [number, Point] = [0.75, [200, 40]];
    const sizer = planeSizer(table, scale, origin);
    const frameCard = cardOnTable(400, 200, 63, 88);
    const detection = frameCard.map(([x, y]) => [(x - origin[0]) * scale, (y - origin[1]) * scale]) as Quad;
    expect(sizer.shares(detection).short).toBeCloseTo(1, 2);
    const about = sizer.cardAbout(detection);
    for (const corner of detection) expect(about.some((c) => near(c, corner, 0.5))).toBe(true);
    expect(sizer.widthAt(quadCentre(detection))).toBeCloseTo(planeSizer(table, 1).widthAt(quadCentre(frameCard)) * scale, 3);
  });
});
