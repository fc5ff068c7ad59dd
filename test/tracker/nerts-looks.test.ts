import { describe, expect, it } from 'vitest';
import { addLook, addName, cardsGoneByLook, DEFAULT_LOOK_TUNING, initialLooks, nameShowsAgain, takeBackLatest, type NertsLooks } from '../../server/tracker/nerts-looks';

/** A unit look pointing mostly along axis `k` of 8, with a little of `wobble` along the next axis. */
function look(k: number, wobble = 0): number[] {
  const v = new Array(8).fill(0);
  v[k] = 1;
  v[(k + 1) % 8] = wobble;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function feed(looks: number[][], start: NertsLooks = initialLooks(), at = (_: number): [number, number] => [300, 600], names: Array<string | undefined> = []): { state: NertsLooks; newCards: number } {
  let state = start;
  let newCards = 0;
  for (const [i, l] of looks.entries()) {
    const result = addLook(state, { look: l, at: at(i), cardLength: 80, name: names[i] });
    state = result.state;
    if (result.newCard) newCards++;
  }
  return { state, newCards };
}

describe('Nerts cards counted by look', () => {
  it('a drifting look of a card named surely the same is that card again (no card gone)', () => {
    // 7H's look moves (a hand rests over part of it) but the recogniser still names it 7H.
    const frames = [look(0), look(0), look(0), look(2), look(2), look(2)];
    const sure = feed(frames, initialLooks(), undefined, ['7H', '7H', '7H', '7H', undefined, '7H']);
    expect(sure.newCards).toBe(0);
    // The new look is kept as another look of the same card.
    expect(sure.state.topNames).toEqual(['7H', '7H']);
    expect(sure.state.topCards).toEqual([0, 0]);
    expect(cardsGoneByLook(sure.state)).toBe(0);
    // Named differently (the next card), or not surely named: a new card, as by look alone.
    expect(feed(frames, initialLooks(), undefined, ['7H', '7H', '7H', '9C', '9C', '9C']).newCards).toBe(1);
    expect(feed(frames, initialLooks(), undefined, ['7H', '7H', '7H', '7H', undefined, undefined]).newCards).toBe(1);
    // Two names in one steady window: no sure name, so the look decides.
    expect(feed(frames, initialLooks(), undefined, ['7H', '7H', '7H', '7H', '9C', '7H']).newCards).toBe(1);
  });
  it('a new look with no break on the pile (no moment without a face) is the same card', () => {
    let state = initialLooks();
    const add = (l: number[], open: boolean) => {
      const result = addLook(state, { look: l, at: [300, 600], cardLength: 80 }, DEFAULT_LOOK_TUNING, { open });
      state = result.state;
      return result.newCard;
    };
    // The first card, then its look drifts while it stays on the pile: no card gone.
    for (let i = 0; i < 3; i++) add(look(0), true);
    expect([add(look(2), false), add(look(2), false), add(look(2), false)]).toEqual([false, false, false]);
    expect(cardsGoneByLook(state)).toBe(0);
    // The drifted look comes back after a break: still that card (its look is known now).
    expect([add(look(2), true), add(look(2), true), add(look(2), true)]).toEqual([false, false, false]);
    // After a break, a new look is the next card.
    expect([add(look(4), true), add(look(4), true), add(look(4), true)]).toEqual([false, false, true]);
    expect(cardsGoneByLook(state)).toBe(1);
  });

  it('with mayReturn, the card before the latest showing steadily again takes the latest back', () => {
    let state = initialLooks();
    const add = (l: number[], mayReturn: boolean, name?: string) => {
      const result = addLook(state, { look: l, at: [300, 600], cardLength: 80, ...(name ? { name } : {}) }, DEFAULT_LOOK_TUNING, { mayReturn });
      state = result.state;
      return result;
    };
    for (let i = 0; i < 3; i++) add(look(0), false);
    for (let i = 0; i < 3; i++) add(look(2), false);
    expect(cardsGoneByLook(state)).toBe(1);
    // Look 0 again: without mayReturn nothing changes; with it, look 2 was card 0 too.
    for (let i = 0; i < 3; i++) expect(add(look(0), false).returned).toBeUndefined();
    expect(cardsGoneByLook(state)).toBe(1);
    add(look(1), true);
    add(look(0), true);
    add(look(0), true);
    expect(add(look(0), true).returned).toBe(true);
    expect(cardsGoneByLook(state)).toBe(0);
    expect(state.topCards).toEqual([0, 0]);
    // Look 2 once more is that same card now: no card gone.
    for (let i = 0; i < 3; i++) expect(add(look(2), true).newCard).toBe(false);
    expect(cardsGoneByLook(state)).toBe(0);
  });

  it('takes no look-alike twin for the card before coming back while the sightings mostly name it another card', () => {
    // As recorded (unseen art): the 2C, surely named, leaves; the 2S is turned, its look like the
    // 2C's, first-choice 2S unsurely in most frames and 2C in a few.
    const run = (guesses: string[]) => {
      let state = initialLooks();
      const add = (l: number[], mayReturn: boolean, extra: { name?: string; guess?: string }) => {
        const result = addLook(state, { look: l, at: [300, 600], cardLength: 80, ...extra }, DEFAULT_LOOK_TUNING, { mayReturn });
        state = result.state;
        return result;
      };
      for (let i = 0; i < 3; i++) add(look(0), false, { name: '2C', guess: '2C' });
      // The 2S's look, a little off the 2C's for its first frames (a new card), then as the 2C's.
      let returned = false;
      for (const [i, guess] of guesses.entries()) returned = add(i < 3 ? look(1) : look(0, 0.05), true, { guess }).returned === true || returned;
      return { returned, gone: cardsGoneByLook(state) };
    };
    expect(run(['2S', '2S', '2S', '2S', '2S', '2C', '2C', '2C', '2S', '2S'])).toEqual({ returned: false, gone: 1 });
    // Sightings that mostly name the card before: it did come back (a lost race), the latest is taken back.
    expect(run(['2S', '2S', '2S', '2C', '2C', '2C', '2C', '2C', '2C', '2C'])).toEqual({ returned: true, gone: 0 });
  });

  it('a look like a card gone two or more tops ago is a new card (3C after 3D at webcam size)', () => {
    // Cards 0, 1, 2 by look; then card 0's look again: card 0 cannot come back, so a look-alike.
    const { state, newCards } = feed([0, 0, 0, 2, 2, 2, 4, 4, 4, 0, 0, 0].map((k) => look(k)));
    expect(newCards).toBe(3);
    expect(cardsGoneByLook(state)).toBe(3);
    // The card just before the latest showing again is not counted (a lost race comes back).
    expect(feed([0, 0, 0, 2, 2, 2, 4, 4, 4, 2, 2, 2].map((k) => look(k))).newCards).toBe(2);
  });

  it('takes back nothing for a look-alike of the card before (two court cards in a row)', () => {
    let state = initialLooks();
    const add = (l: number[]) => (state = addLook(state, { look: l, at: [300, 600], cardLength: 80 }, DEFAULT_LOOK_TUNING, { mayReturn: true }).state);
    for (let i = 0; i < 3; i++) add(look(0));
    for (let i = 0; i < 3; i++) add(look(2));
    // Cosine 0.95 to card 0's look: the same card by sameCard, but not surely enough to take a card back.
    for (let i = 0; i < 3; i++) add(look(0, 0.33));
    expect(cardsGoneByLook(state)).toBe(1);
  });

  it('never takes back a latest card that was surely named', () => {
    let state = initialLooks();
    const add = (l: number[], name?: string) => (state = addLook(state, { look: l, at: [300, 600], cardLength: 80, ...(name ? { name } : {}) }, DEFAULT_LOOK_TUNING, { mayReturn: true }).state);
    for (let i = 0; i < 3; i++) add(look(0));
    for (let i = 0; i < 3; i++) add(look(2), '9C');
    for (let i = 0; i < 3; i++) add(look(0));
    expect(cardsGoneByLook(state)).toBe(1);
  });

  it('reads a state saved before tops had names', () => {
    const old: NertsLooks = { recent: [], tops: [look(0)] };
    const { state, newCards } = feed([look(5), look(5), look(5)], old, undefined, ['KD', 'KD', 'KD']);
    expect(newCards).toBe(1);
    expect(state.topNames).toEqual([null, 'KD']);
    expect(state.topCards).toEqual([0, 1]);
  });
  it('a steady look is the first top; a different steady look is a card gone', () => {
    const { state, newCards } = feed([look(0), look(0, 0.05), look(0), look(0), look(1), look(1, 0.05), look(1)]);
    expect(state.tops).toHaveLength(2);
    expect(newCards).toBe(1);
    expect(cardsGoneByLook(state)).toBe(1);
  });
  it('a look held for fewer frames than steadyFrames (a passing hand) counts nothing', () => {
    const frames = [look(0), look(0), look(0), look(3), look(4), look(0), look(0), look(0)];
    expect(DEFAULT_LOOK_TUNING.steadyFrames).toBe(3);
    const { state, newCards } = feed(frames);
    expect(state.tops).toHaveLength(1);
    expect(newCards).toBe(0);
  });
  it('with sighting times and steadyMs, two sightings far enough apart make a top (sparse frames)', () => {
    const timed = { ...DEFAULT_LOOK_TUNING, steadyMs: 100 };
    const add = (state: NertsLooks, l: number[], timeMs: number) => addLook(state, { look: l, at: [300, 600], cardLength: 80, timeMs }, timed);
    // 4 frames a second: the first card, then the next one seen twice 250 ms apart.
    let state = initialLooks();
    for (const t of [0, 250]) state = add(state, look(0), t).state;
    expect(state.tops).toHaveLength(1);
    state = add(state, look(1), 500).state;
    const second = add(state, look(1), 750);
    expect(second.newCard).toBe(true);
    expect(cardsGoneByLook(second.state)).toBe(1);
    // 30 frames a second: two sightings 33 ms apart are not enough, a third one is (as without times).
    let fast = initialLooks();
    for (const t of [0, 33, 67]) fast = add(fast, look(0), t).state;
    fast = add(fast, look(1), 100).state;
    const early = add(fast, look(1), 133);
    expect(early.newCard).toBe(false);
    expect(add(early.state, look(1), 167).newCard).toBe(true);
    // Without steadyMs the times change nothing: three sightings, as before.
    const untimed = addLook(addLook(initialLooks(), { look: look(0), at: [300, 600], cardLength: 80, timeMs: 0 }).state, { look: look(0), at: [300, 600], cardLength: 80, timeMs: 500 });
    expect(untimed.state.tops).toHaveLength(0);
  });

  it('a card carried over the pile (moving) is no top, however steady its look', () => {
    const frames = [look(0), look(0), look(0), look(6), look(6), look(6), look(6)];
    const { state } = feed(frames, initialLooks(), (i) => (i < 3 ? [300, 600] : [300 + 60 * i, 600]));
    expect(state.tops).toHaveLength(1);
  });
  it('a top that comes back to an earlier look (a card that lost a race) is not a new card', () => {
    const { state, newCards } = feed([look(0), look(0), look(0), look(1), look(1), look(1), look(0), look(0), look(0)]);
    expect(state.tops).toHaveLength(2);
    expect(newCards).toBe(1);
  });
  it('small frame-to-frame wobble of one card stays one card', () => {
    const frames = Array.from({ length: 30 }, (_, i) => look(2, 0.15 * Math.sin(i)));
    expect(feed(frames).state.tops).toHaveLength(1);
  });
  it('a new look with no break but surely named apart from the latest card is a new card (5S, then 3D turned at once)', () => {
    let state = initialLooks();
    const add = (l: number[], name: string) => addLook(state, { look: l, at: [300, 600], cardLength: 80, name }, DEFAULT_LOOK_TUNING, { open: false });
    for (let i = 0; i < 3; i++) state = add(look(0), '5S').state;
    const newCards = [0, 1, 2].map(() => {
      const result = add(look(2), '3D');
      state = result.state;
      return result.newCard;
    });
    expect(newCards).toEqual([false, false, true]);
    expect(cardsGoneByLook(state)).toBe(1);
  });

  it('a name the looks did not name names the latest card; a new name after a named card is a card the looks missed', () => {
    const timed = (l: number[], timeMs: number, name?: string) => ({ look: l, at: [300, 600] as [number, number], cardLength: 80, timeMs, ...(name ? { name } : {}) });
    let state = initialLooks();
    for (const t of [0, 100, 200]) state = addLook(state, timed(look(0), t, '2C')).state;
    // 5S lay on the pile too briefly for a steady look; the vote on names saw it.
    const missed = addName(state, '5S', 1000);
    expect(missed.newCard).toBe(true);
    expect(cardsGoneByLook(missed.state)).toBe(1);
    expect(missed.state.cardSinceMs).toEqual([0, 1000]);
    // Its look steadies later, named the same: that card, not another.
    state = missed.state;
    let result = addLook(state, timed(look(3), 1100, '5S'));
    for (const t of [1200, 1300]) result = addLook(result.state, timed(look(3), t, '5S'));
    expect(result.newCard).toBe(false);
    expect(cardsGoneByLook(result.state)).toBe(1);
    // The next card by look alone (JD at webcam size), after a break: one more gone.
    state = result.state;
    for (const t of [2000, 2100, 2200]) state = addLook(state, timed(look(5), t)).state;
    expect(cardsGoneByLook(state)).toBe(2);
    // Then the vote names it: the latest card gets the name, no card added; a known name adds nothing.
    const naming = addName(state, 'JD', 2500);
    expect(naming.newCard).toBe(false);
    expect(cardsGoneByLook(naming.state)).toBe(2);
    expect(naming.state.topNames?.at(-1)).toBe('JD');
    expect(addName(naming.state, '2C', 2600).state).toBe(naming.state);
    // Names alone (observations without looks) count cards too.
    let names = initialLooks();
    for (const [k, code] of ['3D', '9D', '8S'].entries()) names = addName(names, code, k * 1000).state;
    expect(cardsGoneByLook(names)).toBe(2);
  });

  it('a name differing from the latest card only by the look-alike suit renames it, unless the pile showed its back since', () => {
    let state = initialLooks();
    for (const [k, code] of ['3D', '6C'].entries()) state = addName(state, code, k * 1000).state;
    // 6S read surely after 6C (spades and clubs alike at webcam size), no back between: the same card.
    const renamed = addName(state, '6S', 5000);
    expect(renamed.newCard).toBe(false);
    expect(cardsGoneByLook(renamed.state)).toBe(1);
    expect(renamed.state.topNames).toEqual(['3D', '6S']);
    // With the back seen between them, the 6S is the next card; a card of another rank always is.
    expect(addName(state, '6S', 5000, true).newCard).toBe(true);
    expect(addName(state, '7S', 5000).newCard).toBe(true);
    expect(addName(state, '6H', 5000).newCard).toBe(true);
  });

  it('the card before the latest read surely again soon after the latest showed takes the latest back', () => {
    const timed = (l: number[], timeMs: number, name?: string) => ({ look: l, at: [300, 600] as [number, number], cardLength: 80, timeMs, ...(name ? { name } : {}) });
    let state = initialLooks();
    for (const t of [0, 100, 200]) state = addLook(state, timed(look(0), t, '8S')).state;
    // A look drift misread as 10C: a new card by look at 5000.
    for (const t of [5000, 5100, 5200]) state = addLook(state, timed(look(2), t, '10C')).state;
    expect(cardsGoneByLook(state)).toBe(1);
    // One sure 8S since then is not enough; readings before it showed do not count.
    expect(nameShowsAgain(state, '8S', [100, 200, 5300], 5000).returned).toBe(false);
    // Readings long after (8S read on a work pile beside the pile) do not count either.
    expect(nameShowsAgain(state, '8S', [10500, 10600], 5000).returned).toBe(false);
    const again = nameShowsAgain(state, '8S', [5300, 5400], 5000);
    expect(again.returned).toBe(true);
    expect(cardsGoneByLook(again.state)).toBe(0);
    // The contradicted name is dropped, so a real 10C later is a new card.
    expect(again.state.topNames).toEqual(['8S', null]);
    expect(addName(again.state, '10C', 20000).newCard).toBe(true);
    // A name two cards back changes nothing (that card cannot come back).
    for (const t of [8000, 8100, 8200]) state = addLook(state, timed(look(4), t, 'KS')).state;
    expect(nameShowsAgain(state, '8S', [8300, 8400], 5000).returned).toBe(false);
  });

  it("once the latest card is gone (the pile's back showed), any other top is a new card; that card come back is not", () => {
    const add = (state: NertsLooks, l: number[], gone: boolean, name?: string) => {
      let result = addLook(state, { look: l, at: [300, 600], cardLength: 80, ...(name ? { name } : {}) }, DEFAULT_LOOK_TUNING, { open: false, gone });
      for (let i = 0; i < 2; i++) result = addLook(result.state, { look: l, at: [300, 600], cardLength: 80, ...(name ? { name } : {}) }, DEFAULT_LOOK_TUNING, { open: false, gone });
      return result;
    };
    // Cards 0 (2C) and 1 (2S, a look-alike of 2C: cosine 0.95).
    const first = add(add(initialLooks(), look(0), false).state, look(2), true);
    expect(cardsGoneByLook(first.state)).toBe(1);
    // Gone: a look-alike of the card before is a new card (not closed by "no break" either).
    const alike = add(first.state, look(0, 0.33), true);
    expect(alike.newCard).toBe(true);
    expect(cardsGoneByLook(alike.state)).toBe(2);
    // Gone, but the latest card itself comes back (a lost race): no card.
    const back = add(first.state, look(2), true);
    expect(back.newCard).toBe(false);
    expect(cardsGoneByLook(back.state)).toBe(1);
    // A name with the latest card unnamed names it; once that card is gone, it is a new card.
    expect(addName(first.state, 'JD', 5000).newCard).toBe(false);
    expect(addName(first.state, 'JD', 5000, true).newCard).toBe(true);
  });

  it('takes the latest card back (a card misread in the hand), dropping its names', () => {
    let state = initialLooks();
    for (const [k, code] of ['3D', '8S', '10C'].entries()) state = addName(state, code, k * 1000).state;
    expect(cardsGoneByLook(state)).toBe(2);
    const taken = takeBackLatest(state);
    expect(cardsGoneByLook(taken)).toBe(1);
    expect(taken.topNames).toEqual(['3D', '8S', null]);
    expect(taken.cardSinceMs).toEqual([0, 1000]);
    // The next card by name is one more gone, as it should be.
    expect(cardsGoneByLook(addName(taken, '4H', 3000).state)).toBe(2);
    expect(takeBackLatest(initialLooks())).toEqual(initialLooks());
  });

  it('keeps plain JSON state (it is saved with the hand)', () => {
    const { state } = feed([look(0), look(0), look(0), look(5), look(5), look(5)]);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });
});
