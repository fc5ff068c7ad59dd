import { describe, expect, it } from 'vitest';
import { initialPileWatch, watchPileLook, type PileLookWatch } from '../../server/tracker/pile-looks';

/** A unit look along axis `k` of 8. */
function look(k: number): number[] {
  const v = new Array(8).fill(0);
  v[k] = 1;
  return v;
}

const TUNING = { pileBreakMs: 200, lookSettleMs: 2500, lookLandingMs: 1200, lookNextShare: 0.5, lookLandingShift: 0.15 };

/** A frame of the pile: a look index, `null` (no face: a hand over it), `[look, name]`, or `{ look, hand: true }` (seen, with a hand moving over it). */
type Frame = number | null | [number, string] | { look: number; hand: true };

/**
 * Feeds one frame per 100 ms; `cards(t)` is how many cards the pile holds at t (its top is JH).
 * Returns the landings the watch reported.
 */
function play(frames: Frame[], cards: (t: number) => number = () => 5): { landings: number[]; watch: PileLookWatch } {
  let watch = initialPileWatch(0, cards(0));
  const landings: number[] = [];
  const seen = (k: number, name?: string) => ({ look: look(k), at: [500, 300] as [number, number], cardLength: 50, ...(name ? { name } : {}) });
  frames.forEach((frame, i) => {
    const t = (i + 1) * 100;
    const sighting = frame === null ? null : Array.isArray(frame) ? seen(frame[0], frame[1]) : typeof frame === 'number' ? seen(frame) : seen(frame.look);
    const touched = frame !== null && typeof frame === 'object' && !Array.isArray(frame);
    const result = watchPileLook(watch, { sighting, touched, cards: cards(t), top: 'JH', reading: { next: 0.3, top: 0.2, other: false } }, t, TUNING);
    watch = result.watch;
    if (result.landMs !== null) landings.push(result.landMs);
  });
  return { landings, watch };
}

const still = (k: number, n: number) => new Array<number>(n).fill(k);
const covered = (n: number) => new Array<null>(n).fill(null);

describe('cards landing unnamed on a centre pile, by look', () => {
  it('a covered pile that shows a steady new look took a card, reported when no reading named it in time', () => {
    const { landings } = play([...still(0, 5), ...covered(4), ...still(1, 20)]);
    // The pile shows again at 1000 ms; the new look is steady at 1200 ms and stands 1200 ms.
    expect(landings).toEqual([1000]);
  });

  it('a reading that adds the card meanwhile explains the new look: no second card', () => {
    // The votes add the card at 1500 ms (the pile goes from 5 to 6 cards).
    const { landings } = play([...still(0, 5), ...covered(4), ...still(1, 20)], (t) => (t >= 1500 ? 6 : 5));
    expect(landings).toEqual([]);
  });

  it('a new look with no cover before it is the same card drifting', () => {
    expect(play([...still(0, 5), ...still(1, 20)]).landings).toEqual([]);
  });

  it('a look that does not hold (a hand passing over) is no card', () => {
    expect(play([...still(0, 5), ...covered(3), 1, 2, 3, 1, 2, ...still(0, 20)]).landings).toEqual([]);
  });

  it('the old top again after a cover is no card, nor is a new look surely named as the top card', () => {
    expect(play([...still(0, 5), ...covered(4), ...still(0, 20)]).landings).toEqual([]);
    const named: Frame[] = [...still(0, 5), ...covered(4), ...still(1, 5), ...new Array(15).fill([1, 'JH'])];
    expect(play(named).landings).toEqual([]);
  });

  it('the replaced look coming back before the landing is taken calls it off (a card lifted off again)', () => {
    expect(play([...still(0, 5), ...covered(4), ...still(1, 6), ...covered(2), ...still(0, 20)]).landings).toEqual([]);
  });

  it('a hand moving over the pile is a cover too, though the card stays in view', () => {
    const hand: Frame[] = [{ look: 0, hand: true }, { look: 0, hand: true }];
    expect(play([...still(0, 5), ...hand, ...still(1, 20)]).landings).toEqual([700]);
  });

  it('a new look long after the last cover is the same card drifting', () => {
    expect(play([...still(0, 5), ...covered(4), ...still(0, 30), ...still(1, 20)]).landings).toEqual([]);
  });

  it('two cards put down one after the other are two landings', () => {
    const { landings } = play([...still(0, 5), ...covered(3), ...still(1, 15), ...covered(3), ...still(2, 15)]);
    expect(landings).toEqual([900, 2700]);
  });
});
