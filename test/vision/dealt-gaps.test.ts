import { describe, expect, it } from 'vitest';
import { DEALT_GAPS, dealtGaps, gapShowsDesign, GAP_LOOK, type DealtBack } from '../../server/vision/dealt-gaps';
import { geometryQuad } from '../../server/vision/locator';

/** A dealt back of 40 x 56 px lying upright (long axis down) at (cx, cy). */
const back = (cx: number, cy: number, design: string): DealtBack => ({ corners: geometryQuad({ cx, cy, short: 40, long: 56, angle: Math.PI / 2 }), design });

describe('dealtGaps', () => {
  // A row of p1's backs 46 px apart (a card's width and a gap), one missing at x = 192; below
  // it a row of p2's, 64 px apart in the other direction too.
  const row = [100, 146, 238, 284].map((x) => back(x, 100, 'p1'));
  const other = [100, 146, 192].map((x) => back(x, 164, 'p2'));

  it('finds the place between two backs of one design a whole number of pitches apart in a row', () => {
    const gaps = dealtGaps([...row, ...other], [...row, ...other].map((b) => b.corners));
    expect(gaps).toHaveLength(1);
    expect(gaps[0].designs).toEqual(['p1']);
    expect(gaps[0].geometry.cx).toBeCloseTo(192, 0);
    expect(gaps[0].geometry.cy).toBeCloseTo(100, 0);
    expect(gaps[0].geometry.short).toBeCloseTo(40, 0);
  });

  it('looks only between backs: never beyond a row, nor where an outline lies; between two designs, for either', () => {
    // Nothing missing: no gap (the rows are not grown outwards).
    const full = [100, 146, 192, 238].map((x) => back(x, 100, 'p1'));
    expect(dealtGaps(full, full.map((b) => b.corners))).toEqual([]);
    // The two backs about the gap are of two designs (the 6-player gingham sort: a pale back
    // lost between a neighbour's and its own): the place is looked at for whichever design reads there.
    const mixed = [back(100, 100, 'p1'), back(146, 100, 'p1'), back(238, 100, 'p2'), back(284, 100, 'p2')];
    const between = dealtGaps(mixed, mixed.map((b) => b.corners));
    expect(between).toHaveLength(1);
    expect([...between[0].designs].sort()).toEqual(['p1', 'p2']);
    expect(between[0].geometry.cx).toBeCloseTo(192, 0);
    expect(dealtGaps(mixed, mixed.map((b) => b.corners), { ...DEALT_GAPS, anyDesign: false })).toEqual([]);
    // An outline already lies in the gap (read as something else): not looked at again.
    const taken = [...row.map((b) => b.corners), back(192, 100, 'x').corners];
    expect(dealtGaps(row, taken)).toEqual([]);
  });

  it('takes no pair at an odd spacing or off the row for a row', () => {
    // 1.5 pitches apart, and one lying half a card lower: no whole number of pitches in line.
    const odd = [back(100, 100, 'p1'), back(146, 100, 'p1'), back(215, 100, 'p1'), back(330, 130, 'p1')];
    expect(dealtGaps(odd, odd.map((b) => b.corners))).toEqual([]);
  });
});

describe('gapShowsDesign', () => {
  const map = (entries: Record<string, number>) => new Map(Object.entries(entries));
  it("takes a gap read as no card for the row's design when both embeddings put it close, that design nearest by its look", () => {
    // The 6-player gingham sort: a pale p6 back at its true place read as a face at 0.32.
    expect(gapShowsDesign('p6', map({ p6: 0.99, p1: 0.92, p5: 0.4 }), map({ p6: 0.98, p1: 0.95 }))).toBe(true);
    // Bare cloth there: at most 0.87 by its look and 0.90 whole.
    expect(gapShowsDesign('p6', map({ p6: 0.85, p1: 0.83 }), map({ p6: 0.76 }))).toBe(false);
    // Another design nearer by its look: not this row's back.
    expect(gapShowsDesign('p6', map({ p6: 0.96, p1: 0.97 }), map({ p6: 0.97 }))).toBe(false);
    // Close by its look but not whole.
    expect(gapShowsDesign('p6', map({ p6: 0.99 }), map({ p6: GAP_LOOK.minWhole - 0.01 }))).toBe(false);
  });
});
