/**
 * When the simulated players show their backs (the demo, the referee benchmark and the recorder
 * all enrol from these moments), and how a deck's back views are kept.
 */
import { describe, expect, it } from 'vitest';
import { MAX_BACK_VIEWS } from '../../server/protocol';
import { withBackView } from '../../server/tables/live-table';
import sharp from 'sharp';
import type { CardTruth } from '../../server/sim/render/index';
import { BackShowings, ShownBacks } from '../../server/tables/sim-feed';

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

describe('ShownBacks', () => {
  it("collects each deck's views at the showings, cropped from the frame, the newest kept", async () => {
    const jpeg = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#2060c0' } }).jpeg().toBuffer();
    const card = (deckId: string, faceUp: boolean, visibleFraction = 1): CardTruth => ({
      id: `${deckId}-1`, code: 'AS', deckId, owner: deckId, backDesign: 'x', faceUp, visibleFraction, indexVisibleFraction: visibleFraction, zone: { kind: 'stock', seat: 0 }, faceStyle: 'x',
      corners: [[100, 40], [140, 40], [140, 96], [100, 96]],
    });
    // Ann's stock shows its back; Bob's only card is face up; Cyd's back is mostly covered.
    const truth = [card('ann', false), card('bob', true), card('cyd', false, 0.5)];
    const shown = new ShownBacks();
    const at = async (handTimeMs: number) => (await shown.take({ handTimeMs, truth, jpeg })).map(([deck, views]) => [deck, views.length]);
    expect(await at(0)).toEqual([['ann', 1]]);
    expect(await at(500)).toEqual([]);
    expect(await at(1000)).toEqual([['ann', 2]]);
    const [[, views]] = await shown.take({ handTimeMs: 2000, truth, jpeg });
    // Each view is the card's outline warped upright (40 x 56 pixels).
    expect(await sharp(views[2]).metadata()).toMatchObject({ width: 40, height: 56 });
  });
});
