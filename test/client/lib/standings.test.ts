import { describe, expect, it } from 'vitest';
import { chartLayout, chartPoint, normalizeHistory, totalsPath, yTicks } from '../../../client/src/lib/standings';
import { parseOverlayParams } from '../../../client/src/lib/overlayParams';
import { correctionsOf, penaltyOf } from '../../../client/src/lib/scoreSort';

const history = {
  matches: [
    {
      id: 'm1',
      target: 100,
      winner: null,
      hands: [
        { hand: 1, caller: 'ann', scores: [{ player: 'ann', handScore: 17, total: 17 }, { player: 'bob', handScore: 1, total: 1 }] },
        { hand: 2, scores: [{ player: 'ann', handScore: -4, total: 13 }, { player: 'bob', handScore: 20, total: 21 }] },
      ],
    },
  ],
};

describe('standings', () => {
  it('normalises the history and keeps running totals', () => {
    const [match] = normalizeHistory(history);
    expect(match.ids).toEqual(['ann', 'bob']);
    expect(match.hands.map((h) => h.totals)).toEqual([{ ann: 17, bob: 1 }, { ann: 13, bob: 21 }]);
    expect(match.hands[0].caller).toBe('ann');
    expect(match.target).toBe(100);
  });
  it('computes totals when the server leaves them out, and uses team ids', () => {
    const [match] = normalizeHistory([{ hands: [{ rows: [{ player: 'a', team: 't1', handScore: 5 }, { player: 'b', team: 't1', handScore: 5 }] }, { rows: [{ team: 't1', handScore: 3 }] }] }]);
    expect(match.ids).toEqual(['t1']);
    expect(match.hands.map((h) => h.totals.t1)).toEqual([5, 8]);
  });
  it('gives an empty history for unexpected JSON', () => {
    expect(normalizeHistory(null)).toEqual([]);
    expect(normalizeHistory({ matches: 'x' })).toEqual([]);
    expect(normalizeHistory({ matches: [{ hands: [42] }] })[0].hands).toEqual([]);
  });
  it('fits totals and the target into the chart', () => {
    const [match] = normalizeHistory(history);
    const layout = chartLayout(match, 100);
    expect(layout.maxY).toBeGreaterThanOrEqual(100);
    expect(layout.minY).toBeLessThanOrEqual(0);
    const [, yTarget] = chartPoint(layout, 0, 100);
    const [, yZero] = chartPoint(layout, 0, 0);
    expect(yTarget).toBeLessThan(yZero);
    expect(totalsPath(layout, match, 'ann').split(' ')).toHaveLength(3);
    const ticks = yTicks(layout);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks).toContain(0);
  });
});

describe('overlay params', () => {
  it('defaults and clamps', () => {
    expect(parseOverlayParams(new URLSearchParams(''))).toEqual({ layout: 'bar', theme: 'dark', ticker: true, totals: true, scale: 1, tickerLength: 6 });
    const p = parseOverlayParams(new URLSearchParams('layout=column&theme=light&ticker=0&scale=9&plays=50&totals=off'));
    expect(p).toEqual({ layout: 'column', theme: 'light', ticker: false, totals: false, scale: 3, tickerLength: 20 });
    expect(parseOverlayParams(new URLSearchParams('layout=<script>&scale=-1')).layout).toBe('bar');
  });
});

describe('score sort', () => {
  it('derives the penalty from the row', () => {
    expect(penaltyOf({ player: 'b', centreCards: 9, nertsLeft: 4, bonus: 0, handScore: 1, total: 1, rank: 2 })).toBe(8);
    expect(penaltyOf({ player: 'a', centreCards: 17, nertsLeft: 0, bonus: 10, handScore: 27, total: 27, rank: 1 })).toBe(0);
  });
  it('lists corrections from several logs once, newest first', () => {
    const c = (seq: number) => ({ seq, hand: 1, timeMs: 0, event: { type: 'correction' as const, player: 'a', centreCards: seq, reason: 'r' }, violations: [] });
    expect(correctionsOf([c(1), c(3)], [c(3), c(4)]).map((x) => x.seq)).toEqual([4, 3, 1]);
  });
});

describe('standings from a flat hand list', () => {
  it('groups hands by their match and skips unscored hands', () => {
    const matches = normalizeHistory({
      target: 100,
      hands: [
        { match: 1, hand: 1, scores: [{ player: 'a', handScore: 10, total: 10 }] },
        { match: 1, hand: 2, scores: null },
        { match: 2, hand: 3, scores: [{ player: 'a', handScore: 4, total: 4 }] },
      ],
    });
    expect(matches.map((m) => [m.id, m.hands.length, m.target])).toEqual([['1', 1, 100], ['2', 1, 100]]);
  });
});
