import { describe, expect, it } from 'vitest';
import type { LoggedEvent } from '../../../server/protocol';
import { describeEntry, feedLines, formatDuration, seatColour, SEAT_COLOURS } from '../../../client/src/lib/format';
import { cardFace, cardName, cardShort } from '../../../client/src/lib/cardNames';
import { handElapsedMs, handStartMs } from '../../../client/src/lib/handClock';

const names = new Map([['ann', 'Ann'], ['bob', 'Bob']]);
const logged = (seq: number, event: LoggedEvent['event'], violations: LoggedEvent['violations'] = []): LoggedEvent => ({ seq, hand: 1, timeMs: seq * 1000, event, violations });

describe('format', () => {
  it('formats durations', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(65_400)).toBe('1:05');
    expect(formatDuration(3_725_000)).toBe('1:02:05');
    expect(formatDuration(-5)).toBe('0:00');
  });
  it('cycles seat colours', () => {
    expect(seatColour(0)).toBe(SEAT_COLOURS[0]);
    expect(seatColour(SEAT_COLOURS.length)).toBe(SEAT_COLOURS[0]);
    expect(seatColour(-1)).toBe(SEAT_COLOURS[SEAT_COLOURS.length - 1]);
  });
  it('names cards', () => {
    expect(cardName('QH')).toBe('queen of hearts');
    expect(cardShort('10S')).toBe('10♠');
    expect(cardFace('KD')).toEqual({ rank: 'K', suit: 'D', symbol: '♦', colour: 'red' });
    expect(cardFace('ZZ')).toBeNull();
  });
  it('describes plays with names and violations as their own lines', () => {
    const lines = describeEntry(
      logged(3, { type: 'card-played', player: 'ann', card: '2H', foundationId: 'f1', newPile: false }, [
        { code: 'foundation/wrong-suit', message: 'wrong suit', player: 'ann' },
      ]),
      names,
    );
    expect(lines.map((l) => [l.kind, l.text])).toEqual([
      ['play', 'Ann played 2♥'],
      ['violation', 'Ann: wrong suit [foundation/wrong-suit]'],
    ]);
  });
  it('says when the camera only guessed who played a card', () => {
    const line = (ownerBy: 'guess' | 'nerts-pile' | 'hand') => describeEntry(logged(4, { type: 'card-played', player: 'ann', card: '7H', foundationId: 'f1', newPile: false, ownerBy }), names)[0].text;
    expect(line('guess')).toBe('Ann played 7♥ (player unsure)');
    expect(line('nerts-pile')).toBe('Ann played 7♥ (player unsure)');
    expect(line('hand')).toBe('Ann played 7♥');
  });
  it('says when the camera gives a centre card to another player', () => {
    const [line] = describeEntry(logged(5, { type: 'owner-revised', foundationId: 'f1', card: '2S', from: 'bob', to: 'ann', reason: "bob's 2S lies at home in their seat" }), names);
    expect([line.kind, line.text]).toEqual(['info', "2♠ on pile f1 is Ann's, not Bob's: bob's 2S lies at home in their seat"]);
  });
  it('feeds newest first, filtered and limited', () => {
    const events = [
      logged(1, { type: 'hand-started', hand: 1 }),
      logged(2, { type: 'card-played', player: 'ann', card: 'AS', foundationId: 'f1', newPile: true }),
      logged(3, { type: 'call', player: 'bob', manual: false }),
    ];
    expect(feedLines(events, names, 10).map((l) => l.seq)).toEqual([3, 2, 1]);
    expect(feedLines(events, names, 10, ['play']).map((l) => l.text)).toEqual(['Ann played A♠ (new pile)']);
    expect(feedLines(events, names, 1)).toHaveLength(1);
  });
  it('times the hand from its start, frozen when play stops', () => {
    const events = [logged(1, { type: 'hand-started', hand: 1 }), logged(5, { type: 'stuck-rotation' })];
    const start = handStartMs(events, 1);
    expect(start).toBe(1000);
    const anchor = { tableMs: 5000, localMs: 100 };
    expect(handElapsedMs(start, anchor, 2100, true)).toBe(6000);
    expect(handElapsedMs(start, anchor, 2100, false)).toBe(4000);
    expect(handElapsedMs(null, anchor, 0, true)).toBeNull();
  });
});

describe('hand clock anchor', () => {
  it('uses the server clock when table time is wall time, else the newest event', async () => {
    const { chooseAnchor } = await import('../../../client/src/lib/handClock');
    const server = { tableMs: 1_700_000_060_000, localMs: 5 };
    expect(chooseAnchor(1_700_000_000_000, 1, server)).toBe(server);
    expect(chooseAnchor(42_000, 1, server)).toEqual({ tableMs: 42_000, localMs: 1 }); // simulated session time
    expect(chooseAnchor(null, 1, server)).toBeNull();
    expect(chooseAnchor(1_700_000_000_000, 1, null)).toEqual({ tableMs: 1_700_000_000_000, localMs: 1 });
  });
});
