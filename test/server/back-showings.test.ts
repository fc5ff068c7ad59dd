/**
 * When the simulated players show their backs (the demo, the referee benchmark and the recorder
 * all enrol from these moments), and how a deck's back views are kept.
 */
import { describe, expect, it } from 'vitest';
import { MAX_BACK_VIEWS } from '../../server/protocol';
import { withBackView } from '../../server/tables/live-table';
import { BackShowings } from '../../server/tables/sim-feed';

describe('BackShowings', () => {
  it('shows the backs on the first frame fed, then once a second for three seconds, never again', () => {
    const showings = new BackShowings();
    const taken: Array<[number, boolean]> = [];
    // Two hands at 10 frames a second: the second hand's clock starts again at 0.
    for (const hand of [0, 1]) {
      for (let frame = 0; frame < 60; frame++) {
        const handTimeMs = frame * 100;
        const showing = showings.take({ handTimeMs });
        if (showing) taken.push([hand * 100_000 + handTimeMs, showing.replace]);
      }
    }
    expect(taken).toEqual([
      [0, true],
      [1000, false],
      [2000, false],
      [3000, false],
    ]);
  });

  it('takes one showing a frame when frames come far apart (a paced feed that dropped some)', () => {
    const showings = new BackShowings();
    expect([0, 2500, 2600, 5000, 9000].map((handTimeMs) => showings.take({ handTimeMs })?.replace ?? null)).toEqual([true, false, false, false, null]);
  });
});

describe('withBackView', () => {
  const view = (k: number) => new Uint8Array([k]);

  it('keeps the newest views, dropping the oldest past the limit', () => {
    let views: Uint8Array[] | undefined;
    for (let k = 0; k < MAX_BACK_VIEWS + 2; k++) views = withBackView(views, view(k), false);
    expect(views!.map((v) => v[0])).toEqual([2, 3, 4, 5, 6]);
  });

  it('starts over from the new view on replace', () => {
    expect(withBackView([view(1), view(2)], view(3), true).map((v) => v[0])).toEqual([3]);
  });
});
