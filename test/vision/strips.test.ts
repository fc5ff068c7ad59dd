import { describe, expect, it } from 'vitest';
import type { GreyImage } from '../../server/vision/refine';
import { CARD_ASPECT } from '../../server/vision/classes';
import { cardShapedEnds, stripEnds, stripHypotheses } from '../../server/vision/strips';
import type { Quad } from '../../server/vision/types';

/** A 400 x 300 grey image of dark cloth (40) with the given rectangles painted in order (later ones on top). */
function table(rects: Array<{ x0: number; y0: number; x1: number; y1: number; value: number }>): GreyImage {
  const width = 400;
  const height = 300;
  const data = new Float32Array(width * height).fill(40);
  for (const { x0, y0, x1, y1, value } of rects) for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data[y * width + x] = value;
  return { width, height, data };
}

/** An upright card's quad (p0→p1 the top short side), as orderCardQuad orders it. */
const card = (x0: number, y0: number, x1: number, y1: number): Quad => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
];

describe('stripHypotheses', () => {
  // A sure card 100 x 140 at x 150..250; a card under it shows a 40-pixel strip on its right.
  const sure = card(150, 80, 250, 220);
  const under = { x0: 190, y0: 84, x1: 290, y1: 224, value: 225 };
  const top = { x0: 150, y0: 80, x1: 250, y1: 220, value: 230 };

  it('hypothesises the card under a sure card, of its size, shifted by the strip that shows', () => {
    const strips = stripHypotheses(table([under, top]), [sure]);
    expect(strips).toHaveLength(1);
    expect(strips[0].under).toBe(0);
    expect(strips[0].side).toBe(1);
    const xs = strips[0].corners.map(([x]) => x);
    expect(Math.min(...xs)).toBeCloseTo(190, -0.5);
    expect(Math.max(...xs)).toBeCloseTo(290, -0.5);
    // Its size is the sure card's.
    expect(strips[0].corners[1][0] - strips[0].corners[0][0]).toBeCloseTo(100, 6);
    expect(strips[0].corners[3][1] - strips[0].corners[0][1]).toBeCloseTo(140, 6);
  });

  it('finds no strip beside a card lying alone, nor a card-wide one (a card beside it, paper)', () => {
    expect(stripHypotheses(table([top]), [sure])).toEqual([]);
    // A neighbour touching it, a whole card wide: no card lies under the sure one there.
    expect(stripHypotheses(table([{ x0: 250, y0: 80, x1: 350, y1: 220, value: 225 }, top]), [sure])).toEqual([]);
    // A sliver of the sure card's own shadow or edge: too narrow for a card.
    expect(stripHypotheses(table([{ x0: 250, y0: 80, x1: 256, y1: 220, value: 225 }, top]), [sure])).toEqual([]);
  });

  it('keeps going through a court card picture that leaves the strip white above and below', () => {
    // The strip's middle 70 % is a dark picture, its top and bottom white border remain.
    const picture = { x0: 256, y0: 110, x1: 284, y1: 200, value: 70 };
    const strips = stripHypotheses(table([under, top, picture]), [sure]);
    expect(strips.map((s) => Math.round(Math.max(...s.corners.map(([x]) => x))))).toContain(290);
  });

  it('looks beyond only the side asked for (the next card down a cascade lies on the side its strip showed)', () => {
    // The card under the sure one is looked beyond on its right: the third card's strip shows there.
    const third = { x0: 230, y0: 88, x1: 330, y1: 228, value: 220 };
    const image = table([third, under, top]);
    const second = card(190, 84, 290, 224);
    const right = stripHypotheses(image, [second], undefined, [1]);
    expect(right.length).toBeGreaterThan(0);
    expect(right.every((strip) => strip.side === 1)).toBe(true);
    expect(right.map((s) => Math.round(Math.max(...s.corners.map(([x]) => x))))).toContain(330);
    // Unasked, the sure card on top of it shows beyond its left side as a strip too; asked for one side, the others are not looked at.
    expect(stripHypotheses(image, [second]).some((strip) => strip.side === 3)).toBe(true);
    expect(stripHypotheses(image, [second], undefined, [2])).toEqual([]);
  });

  it('offers the thin dark line where the strip meets the next card as a candidate end', () => {
    // The card under the sure one shows 40 pixels, then lies on a third card whose white runs on;
    // a one-pixel shadow line marks the covered card's edge at x = 290.
    const third = { x0: 200, y0: 80, x1: 340, y1: 220, value: 225 };
    const shadow = { x0: 290, y0: 84, x1: 291, y1: 224, value: 120 };
    const ends = stripEnds(table([third, under, shadow, top]), sure, 1);
    expect(ends).not.toBeNull();
    expect(ends!.widths).toContain(40);
    expect(ends!.normal[0]).toBeCloseTo(1, 6);
  });
});

describe('cardShapedEnds', () => {
  it('cuts a squat outline to a card at either end, for each way the card may lie in it', () => {
    // A cascade outlined whole: 88 wide, 91 tall (a card lying sideways, 88 x 63, and strips below it).
    const ends = cardShapedEnds(card(0, 0, 88, 91));
    const boxes = ends.map((q) => [Math.min(...q.map(([x]) => x)), Math.min(...q.map(([, y]) => y)), Math.max(...q.map(([x]) => x)), Math.max(...q.map(([, y]) => y))].map((v) => Math.round(v)));
    // Sideways: full width, the card's short side tall, at the top or at the bottom.
    expect(boxes).toContainEqual([0, 0, 88, 63]);
    expect(boxes).toContainEqual([0, 28, 88, 91]);
    // Upright: full height can't be a card's long side with 88 across (91 / 1.4 = 65 wide), at the left or the right.
    expect(boxes).toContainEqual([0, 0, 65, 91]);
    expect(boxes).toContainEqual([23, 0, 88, 91]);
    expect(ends).toHaveLength(4);
  });

  it('leaves an outline of a card\'s shape as it is, give or take a pixel', () => {
    const outline = card(0, 0, 63, 63 * CARD_ASPECT + 1);
    const ends = cardShapedEnds(outline);
    // Only cut along its length (across, the card would not fit), and by the pixel it was too long.
    expect(ends).toHaveLength(2);
    for (const end of ends) end.forEach(([x, y], k) => expect(Math.hypot(x - outline[k][0], y - outline[k][1])).toBeLessThanOrEqual(1.001));
  });
});
