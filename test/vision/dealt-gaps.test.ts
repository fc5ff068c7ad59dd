import { describe, expect, it } from 'vitest';
import { DEALT_GAPS, dealtGaps, type DealtBack } from '../../server/vision/dealt-gaps';
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
    expect(gaps[0].design).toBe('p1');
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
    expect(between[0].design).toBeNull();
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
