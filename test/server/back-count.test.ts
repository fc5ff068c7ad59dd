import { describe, expect, it } from 'vitest';
import { addBackFrame, addPlayFrame, backCheck, backCountOf, DEFAULT_BACK_COUNT_TUNING, initialBackCountState, isSortArea, tallyBacks, type BackCountState } from '../../server/tables/back-count';
import type { CardObservation, Quad } from '../../server/vision/types';

/** A back of deck `backId` centred at (x, y) pixels in `zone`. */
function back(backId: string | undefined, x: number, zone: string | undefined = 'centre', confidence = 0.9): CardObservation {
  const corners: Quad = [[x - 30, 300], [x + 30, 300], [x + 30, 384], [x - 30, 384]];
  return { kind: 'back', ...(backId ? { backId } : {}), confidence, corners, ...(zone ? { zone } : {}) };
}

/** `count` backs of `backId` spread along the centre. */
function spread(backId: string, count: number, from = 0): CardObservation[] {
  return Array.from({ length: count }, (_, i) => back(backId, 100 + (from + i) * 70));
}

/** A counter fed these per-frame cards, frames 100 ms apart. */
function fed(framesCards: CardObservation[][], startMs = 10_000): BackCountState {
  return framesCards.reduce((state, cards, i) => addBackFrame(state, startMs + i * 100, cards), initialBackCountState());
}

describe('score-sort back count', () => {
  it('counts confident backs with a known design in the centre or outside the seats, not in a seat’s own piles', () => {
    expect(isSortArea('centre')).toBe(true);
    expect(isSortArea(undefined)).toBe(true);
    expect(isSortArea('seat-0/stock')).toBe(false);
    expect(isSortArea('seat-0/nerts')).toBe(false);
    // Cards dealt out in the free space in front of a player (inside the seat's area, on an empty work pile's place) count.
    expect(isSortArea('seat-1')).toBe(true);
    expect(isSortArea('seat-1/work-2')).toBe(true);
    const tally = tallyBacks(
      [
        back('deck-ann', 100),
        back('deck-ann', 170, undefined),
        back('deck-ann', 240, 'seat-0/stock'), // Ann's own stock: not a centre card
        back('deck-bob', 310),
        back('deck-bob', 380, 'centre', 0.1), // too unsure
        back(undefined, 450), // a back the recogniser could not match to a deck
        { kind: 'face', code: 'AS', confidence: 0.9, corners: [[0, 0], [60, 0], [60, 84], [0, 84]], zone: 'centre' },
      ],
      0.35,
    );
    expect(tally).toEqual({ 'deck-ann': 2, 'deck-bob': 1 });
  });

  it('counts two outlines of one card once (the surer reading), and cards dealt a little apart each', () => {
    const tally = tallyBacks([back('deck-ann', 100, 'centre', 0.97), back('deck-ann', 102, 'centre', 0.99), back('deck-bob', 104, 'centre', 0.5), back('deck-ann', 170)], 0.35);
    expect(tally).toEqual({ 'deck-ann': 2 });
  });

  it('counts an outline lying half over a counted back as that card, though its centre is beyond half a card width', () => {
    // As on the unseen-art sort: a second outline 20 px along a 31 x 44 px back (55 % of it over the card).
    const at = (x: number, y: number, confidence: number): CardObservation => ({ kind: 'back', backId: 'deck-bob', confidence, corners: [[x - 15.5, y - 22], [x + 15.5, y - 22], [x + 15.5, y + 22], [x - 15.5, y + 22]], zone: 'centre' });
    expect(tallyBacks([at(724, 358, 0.99), at(726, 378, 0.79)], 0.35)).toEqual({ 'deck-bob': 1 });
    // Cards dealt 12 mm (6 px) apart do not overlap: each counts.
    expect(tallyBacks([at(724, 358, 0.99), at(724, 408, 0.79), at(761, 358, 0.9)], 0.35)).toEqual({ 'deck-bob': 3 });
  });

  it('a hand hiding cards for a frame does not lower the count; one misread frame does not raise it', () => {
    const ann = (count: number) => spread('deck-ann', count);
    const state = fed([ann(7), ann(7), ann(3), ann(7), ann(9), ann(7)]);
    expect(backCountOf(state, 'deck-ann')).toBe(7);
    expect(backCountOf(state, 'deck-bob')).toBe(0);
  });

  it('counts every still card seen in two frames, though no two frames saw them all (a hard back design read now and then)', () => {
    // Session 34, the 6-player sort: nine near-black backs, each read surely in some frames only.
    const [a, b, c, d] = [back('deck-ann', 100), back('deck-ann', 170), back('deck-ann', 240), back('deck-ann', 310)];
    const state = fed([[a, b], [c, d], [a, c], [b, d], [a]]);
    expect(backCountOf(state, 'deck-ann')).toBe(4);
    // A place seen once is no card yet.
    expect(backCountOf(fed([[a, b], [a, b, c]]), 'deck-ann')).toBe(2);
  });

  it('names each place by the design most frames saw there', () => {
    const ann = back('deck-ann', 100);
    const misread = back('deck-bob', 101);
    const state = fed([[ann], [misread], [ann], [ann]]);
    expect(backCountOf(state, 'deck-ann')).toBe(1);
    expect(backCountOf(state, 'deck-bob')).toBe(0);
  });

  it('follows a real change once two frames agree, and forgets frames older than the window', () => {
    let state = fed([spread('deck-ann', 5), spread('deck-ann', 5)]);
    expect(backCountOf(state, 'deck-ann')).toBe(5);
    // A sixth card joins the pile: one frame is not enough, two are.
    state = addBackFrame(state, 10_200, spread('deck-ann', 6));
    expect(backCountOf(state, 'deck-ann')).toBe(5);
    state = addBackFrame(state, 10_300, spread('deck-ann', 6));
    expect(backCountOf(state, 'deck-ann')).toBe(6);
    // Cards picked up: after the 2 s window only the new frames count.
    state = addBackFrame(state, 12_400, spread('deck-ann', 2));
    state = addBackFrame(state, 12_500, spread('deck-ann', 2));
    expect(state.frames.map((frame) => frame.timeMs)).toEqual([12_400, 12_500]);
    expect(backCountOf(state, 'deck-ann')).toBe(2);
  });

  it('counts by the frames read whole when there are any: the newest and one of the three before it however long they took, or the newest surely, and cards dealt since', () => {
    // Session 55, 3 players seed 2: whole reads of the sort 2.3-2.5 s apart; the tracked frames between them lose a pale design's dealt backs.
    const dealt = spread('deck-ann', 5);
    const unsure = (cards: CardObservation[]) => cards.map((card) => ({ ...card, confidence: 0.6 }));
    const slow = (wholeRead: boolean) => {
      let state = addBackFrame(initialBackCountState(), 10_000, unsure(dealt), { wholeRead });
      for (let t = 10_100; t < 12_500; t += 100) state = addBackFrame(state, t, unsure(dealt.slice(0, 2)));
      return addBackFrame(state, 12_500, unsure(dealt), { wholeRead });
    };
    expect(backCountOf(slow(true), 'deck-ann')).toBe(5);
    expect(backCountOf(slow(false), 'deck-ann')).toBe(2);
    // A back one whole read imagined on the cloth (unsure), carried on by the tracked frames after it, is no card.
    const cloth = back('deck-ann', 900, 'centre', 0.5);
    let state = addBackFrame(slow(true), 13_000, [...unsure(dealt), cloth], { wholeRead: true });
    for (let t = 13_100; t < 14_000; t += 100) state = addBackFrame(state, t, [...unsure(dealt), cloth]);
    expect(backCountOf(state, 'deck-ann')).toBe(5);
    // The newest must see a spot: the stack the centre was gathered into, seen by two whole reads
    // and gone by the newest, is gone; so is an unsure card the newest missed.
    const stack = back('deck-ann', 1100, 'centre', 0.98);
    state = addBackFrame(addBackFrame(state, 14_000, [...unsure(dealt), stack], { wholeRead: true }), 15_000, [...unsure(dealt), stack], { wholeRead: true });
    expect(backCountOf(state, 'deck-ann')).toBe(6);
    state = addBackFrame(state, 16_000, unsure(dealt.slice(1)), { wholeRead: true });
    expect(state.frames.filter((frame) => frame.wholeRead).map((frame) => frame.timeMs)).toEqual([13_000, 14_000, 15_000, 16_000]);
    expect(backCountOf(state, 'deck-ann')).toBe(4);
    // A card the newest whole read saw surely counts at once (the hold after the deal is short).
    const dealtLast = back('deck-ann', 1000, 'centre', 0.95);
    state = addBackFrame(state, 17_000, [...unsure(dealt.slice(1)), dealtLast], { wholeRead: true });
    expect(backCountOf(state, 'deck-ann')).toBe(5);
    // A card dealt since the newest whole read, outlined and read afresh by two tracked frames, counts before the next whole read.
    const dealtSince = unsure([back('deck-ann', 1200)]);
    const since = addBackFrame(state, 17_100, [...unsure(dealt.slice(1)), dealtLast, ...dealtSince]);
    expect(backCountOf(since, 'deck-ann')).toBe(5);
    expect(backCountOf(addBackFrame(since, 17_200, [...unsure(dealt.slice(1)), dealtLast, ...dealtSince]), 'deck-ann')).toBe(6);
    // Whole reads older than wholeReadReachMs behind the newest frame are dropped.
    state = addBackFrame(state, 16_000 + DEFAULT_BACK_COUNT_TUNING.wholeReadReachMs, []);
    expect(state.frames.filter((frame) => frame.wholeRead).map((frame) => frame.timeMs)).toEqual([17_000]);
  });

  it('lets only the last four whole reads vote, however close together (a fast day: five in the 2 s window)', () => {
    const dealt = spread('deck-ann', 3);
    const unsure = { ...back('deck-ann', 1100, 'centre'), confidence: 0.6 };
    let state = addBackFrame(initialBackCountState(), 10_000, [...dealt, unsure], { wholeRead: true });
    for (const t of [10_400, 10_800, 11_200]) state = addBackFrame(state, t, dealt, { wholeRead: true });
    state = addBackFrame(state, 11_600, [...dealt, unsure], { wholeRead: true });
    expect(state.frames.filter((frame) => frame.wholeRead)).toHaveLength(5);
    expect(backCountOf(state, 'deck-ann')).toBe(3);
    // One read later the first is out of the window too; the newest and the one three before it count it.
    expect(backCountOf(addBackFrame(state, 12_000, [...dealt, unsure], { wholeRead: true }), 'deck-ann')).toBe(4);
  });

  it('keeps a back the newest whole read missed where older ones saw it and the table does not look bare there', () => {
    // Session 56, 3 players seed 2: p1's pale back read 0.91 and 0.76, then missed by the newest whole read.
    const dealt = spread('deck-ann', 3);
    const missed = back('deck-ann', 1100, 'centre', 0.8);
    const stack = back('deck-ann', 1300, 'centre', 0.9);
    const lyingAt = (x: number) => (corners: Quad) => Math.abs((corners[0][0] + corners[1][0]) / 2 - x) < 5;
    let state = addBackFrame(initialBackCountState(), 10_000, [...dealt, missed, stack], { wholeRead: true });
    state = addBackFrame(state, 13_000, [...dealt, missed, stack], { wholeRead: true });
    // Without the bare-table check (no calibration) a missed spot is gone.
    expect(backCountOf(addBackFrame(state, 16_000, dealt, { wholeRead: true }), 'deck-ann')).toBe(3);
    // With it: the missed card still covers the cloth, the stack's place is bare again.
    const checked = addBackFrame(state, 16_000, dealt, { wholeRead: true, lies: lyingAt(1100) });
    expect(checked.frames.at(-1)?.stillThere?.map((spot) => spot.centre)).toEqual([[1100, 342]]);
    expect(backCountOf(checked, 'deck-ann')).toBe(4);
    // One older read is enough only if it was sure (6 players seed 1, session 56: p5's dark back read 0.83 once, then missed).
    const once = (confidence: number) => addBackFrame(addBackFrame(initialBackCountState(), 10_000, dealt, { wholeRead: true }), 13_000, [...dealt, { ...missed, confidence }], { wholeRead: true });
    expect(backCountOf(addBackFrame(once(0.7), 16_000, dealt, { wholeRead: true, lies: lyingAt(1100) }), 'deck-ann')).toBe(3);
    expect(backCountOf(addBackFrame(once(0.83), 16_000, dealt, { wholeRead: true, lies: lyingAt(1100) }), 'deck-ann')).toBe(4);
    expect(backCountOf(addBackFrame(once(0.83), 16_000, dealt, { wholeRead: true, lies: lyingAt(9999) }), 'deck-ann')).toBe(3);
  });

  it('counts an unsure back the newest whole read saw and the one before the last, the middle one missing it', () => {
    // Session 56, 3 players seed 2: p1's pale back at a dealt row's end, read 0.69, 0.70, missed, 0.63.
    const dealt = spread('deck-ann', 3);
    const rowEnd = { ...back('deck-ann', 1100, 'centre'), confidence: 0.65 };
    let state = addBackFrame(initialBackCountState(), 10_000, [...dealt, rowEnd], { wholeRead: true });
    state = addBackFrame(state, 12_400, dealt, { wholeRead: true });
    expect(backCountOf(state, 'deck-ann')).toBe(3);
    state = addBackFrame(state, 14_800, [...dealt, rowEnd], { wholeRead: true });
    expect(backCountOf(state, 'deck-ann')).toBe(4);
  });

  it('drops the oldest tracked frames past maxFrames, not the whole reads', () => {
    const tuning = { ...DEFAULT_BACK_COUNT_TUNING, maxFrames: 4 };
    let state = addBackFrame(initialBackCountState(), 10_000, spread('deck-ann', 3), { wholeRead: true, tuning });
    for (let t = 10_050; t <= 10_500; t += 50) state = addBackFrame(state, t, spread('deck-ann', 1), { tuning });
    expect(state.frames.map((frame) => frame.timeMs)).toEqual([10_000, 10_400, 10_450, 10_500]);
  });

  it('does not count the players’ own stocks: backs lying where backs lay in the last seconds of play', () => {
    const annStock = back('deck-ann', 100, 'seat-0');
    const bobStock = back('deck-bob', 800, 'seat-1');
    // Play: both stocks seen, Bob's hidden by his hand in the latest frames, a card in flight once.
    let state = initialBackCountState();
    state = addPlayFrame(state, 1_000, [annStock, bobStock]);
    state = addPlayFrame(state, 1_100, [annStock]); // closer than the sampling step: skipped
    expect(state.playFrames).toHaveLength(1);
    state = addPlayFrame(state, 4_000, [annStock]);
    state = addPlayFrame(state, 5_500, [annStock, back('deck-bob', 450, 'centre', 0.2)]); // unsure: not a pile
    expect(state.playFrames.map((frame) => frame.timeMs)).toEqual([1_000, 4_000, 5_500]);
    // The sort: both stocks still lie there; Ann deals two cards beside hers (one in her seat's area), Bob one.
    const sort = [annStock, bobStock, back('deck-ann', 100 + 61), back('deck-ann', 300, 'seat-0'), back('deck-bob', 700)];
    state = addBackFrame(state, 6_000, sort);
    state = addBackFrame(state, 6_100, sort);
    expect(state.ownBacks?.map((spot) => spot.centre)).toEqual([[100, 342], [800, 342], [100, 342], [100, 342]]);
    expect(backCountOf(state, 'deck-ann')).toBe(2);
    expect(backCountOf(state, 'deck-bob')).toBe(1);
    // A card of another design dealt where a back lay during play is another card: it counts (session 56, a set-aside pile's place).
    const onBobs = [...sort, back('deck-ann', 800)];
    expect(backCountOf(addBackFrame(addBackFrame(state, 6_200, onBobs), 6_300, onBobs), 'deck-ann')).toBe(3);
    // Frozen at the first sort frame: play frames are no longer looked at.
    expect(addBackFrame(state, 6_200, sort).ownBacks).toBe(state.ownBacks);
    // Play frames older than the window mark nothing.
    const late = addPlayFrame(addPlayFrame(initialBackCountState(), 1_000, [bobStock]), 1_000 + DEFAULT_BACK_COUNT_TUNING.ownBacksWindowMs + 1, []);
    expect(late.playFrames).toHaveLength(1);
    expect(backCountOf(addBackFrame(addBackFrame(late, 7_000, [bobStock]), 7_100, [bobStock]), 'deck-bob')).toBe(1);
  });

  it('counts a back that lay on a completed foundation during play (set aside face down: centre cards), not other centre backs', () => {
    const aside = back('deck-bob', 450, 'centre');
    const cloth = back('deck-ann', 900, 'centre', 0.7); // a patterned cloth's outline read as a back
    const completed = [{ centre: [450, 342] as [number, number], radius: 88 }];
    let state = initialBackCountState();
    state = addPlayFrame(state, 1_000, [aside, cloth], completed);
    state = addPlayFrame(state, 4_000, [aside, cloth], completed);
    expect(state.playFrames.map((frame) => frame.backs.map((spot) => spot.centre[0]))).toEqual([[900], [900]]);
    // The sort deals the pile out and its last card stays where it lay; the cloth still reads as a back.
    state = addBackFrame(state, 6_000, [aside, cloth]);
    state = addBackFrame(state, 6_100, [aside, cloth]);
    expect(backCountOf(state, 'deck-bob')).toBe(1);
    expect(backCountOf(state, 'deck-ann')).toBe(0);
  });

  it('restarts the window when the camera clock jumps back', () => {
    const state = addBackFrame(fed([spread('deck-ann', 8), spread('deck-ann', 8)]), 500, spread('deck-ann', 3));
    expect(state.frames).toHaveLength(1);
    expect(backCountOf(state, 'deck-ann')).toBe(3);
  });

  it('compares each player’s backs with their credited centre cards, and says nothing before any back is seen', () => {
    const players = [
      { id: 'ann', deckId: 'deck-ann', centreCards: 4 },
      { id: 'bob', deckId: 'deck-bob', centreCards: 2 },
    ];
    expect(backCheck(initialBackCountState(), players)).toBeNull();
    expect(backCheck(fed([[], []]), players)).toBeNull();
    const frame = [...spread('deck-ann', 4), ...spread('deck-bob', 1, 4)];
    const check = backCheck(fed([frame, frame, frame]), players);
    expect(check).toEqual({
      frames: 3,
      players: [
        { player: 'ann', deckId: 'deck-ann', backsSeen: 4, centreCards: 4, agrees: true },
        { player: 'bob', deckId: 'deck-bob', backsSeen: 1, centreCards: 2, agrees: false },
      ],
    });
  });
});
