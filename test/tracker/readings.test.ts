import { describe, expect, it } from 'vitest';
import { pilePrior, readWithPrior } from '../../server/tracker/readings';
import { DEFAULT_TRACKER_TUNING, flushPending, initialTrackerState, step, type TimedEvent, type TrackerConfig } from '../../server/tracker/tracker';
import type { CardCode } from '../../server/game/cards';
import type { CardObservation, FrameObservations } from '../../server/vision/types';
import { face, frames, played } from './observations';

const tuning = { unexpectedCardPrior: 0.1, alternativeMinShare: 0.05, jumpPriors: [0.3, 0.1] as [number, number] };

/** A face read as the first of `alternatives` (code, share), at confidence `confidence`. */
function unsure(alternatives: Array<[CardCode, number]>, x: number, y: number, zone: string, confidence = 0.6): CardObservation {
  return { ...face(alternatives[0][0], x, y, zone, confidence), alternatives: alternatives.map(([code, p]) => ({ code, p })) };
}

/** Steps the tracker through `sequence`: the events decided while it ran, and those the hand's end decides. */
function track(sequence: FrameObservations[], config: TrackerConfig) {
  let state = initialTrackerState(config);
  const during: TimedEvent[] = [];
  for (const f of sequence) {
    const result = step(state, f, config);
    state = result.state;
    during.push(...result.events);
  }
  return { during: during.map((e) => e.event), atEnd: flushPending(state, config).events.map((e) => e.event) };
}

describe('readings: what the game expects where a card lies', () => {
  it('gives the top and the next in suit prior 1, cards further ahead less, anything else the small prior', () => {
    expect(pilePrior('6H', '6H', tuning)).toBe(1);
    expect(pilePrior('6H', '7H', tuning)).toBe(1);
    expect(pilePrior('6H', '8H', tuning)).toBeCloseTo(0.3);
    expect(pilePrior('6H', '7D', tuning)).toBe(0.1);
    expect(pilePrior(undefined, 'AC', tuning)).toBe(1);
    expect(pilePrior(undefined, '9C', tuning)).toBe(0.1);
  });

  it('reads a near miss as the card the pile expects, and scales its confidence by its share', () => {
    const card = unsure([['7D', 0.6], ['7H', 0.3], ['6D', 0.1]], 0, 0, 'centre', 0.6);
    const read = readWithPrior(card, (code) => pilePrior('6H', code, tuning), tuning);
    expect(read.code).toBe('7H');
    expect(read.confidence).toBeCloseTo(0.3);
  });

  it('keeps a clear reading of a card the pile does not expect (an illegal play stays visible)', () => {
    const clear = unsure([['7D', 0.94], ['7H', 0.04]], 0, 0, 'centre', 0.9);
    expect(readWithPrior(clear, (code) => pilePrior('6H', code, tuning), tuning).code).toBe('7D');
    const strong = unsure([['9C', 0.9], ['7H', 0.08]], 0, 0, 'centre', 0.9);
    expect(readWithPrior(strong, (code) => pilePrior('6H', code, tuning), tuning).code).toBe('9C');
    const plain = face('7D', 0, 0, 'centre');
    expect(readWithPrior(plain, (code) => pilePrior('6H', code, tuning), tuning)).toBe(plain);
  });
});

/** Ann (seat 0, whose Nerts pile holds `annPile` cards) and Bob (seat 1, 13), default tuning. */
function annAndBob(annPile: number): TrackerConfig {
  return {
    ...DEFAULT_TRACKER_TUNING,
    players: [
      { seat: 0, playerId: 'ann', nertsPileSize: annPile },
      { seat: 1, playerId: 'bob', nertsPileSize: 13 },
    ],
  };
}

describe('tracker: readings weighed by the pile', () => {
  const config = annAndBob(13);
  const run = (sequence: FrameObservations[]) => {
    const { during, atEnd } = track(sequence, config);
    return [...during, ...atEnd];
  };
  const CENTRE = { x: 640, y: 360 };

  it('takes a 7H misread as 7D on the 6H pile as the 7H, not an illegal play', () => {
    const pile = (['AH', '2H', '3H', '4H', '5H', '6H'] as const).flatMap((code, i) => frames(i * 600, 5, 100, () => [face(code, CENTRE.x, CENTRE.y, 'centre')]));
    const sequence = [
      ...pile,
      ...frames(3600, 3, 100, () => [face('7H', 200, 650, 'seat-0/work')]),
      ...frames(4000, 6, 100, () => [unsure([['7D', 0.55], ['7H', 0.35], ['7C', 0.1]], CENTRE.x, CENTRE.y, 'centre')]),
    ];
    const events = run(sequence);
    expect(events).toContainEqual(played('ann', '7H', 'f1', false));
    expect(events.some((e) => e.type === 'card-played' && e.card === '7D')).toBe(false);
  });

  it('revises a young pile whose ace was misread when its next card reads surely in the true suit', () => {
    // Ann's AS reads as AC (spades a close second); bob's 2S then reads surely as 2S.
    const sequence = [
      ...frames(0, 3, 100, () => [face('AC', 300, 620, 'seat-0/nerts', 0.7)]),
      ...frames(300, 6, 100, () => [unsure([['AC', 0.6], ['AS', 0.4]], CENTRE.x, CENTRE.y, 'centre', 0.7)]),
      ...frames(2000, 3, 100, () => [face('2S', 1000, 120, 'seat-1/waste', 0.95)]),
      ...frames(2400, 6, 100, () => [face('2S', CENTRE.x, CENTRE.y, 'centre', 0.95)]),
    ];
    const events = run(sequence);
    expect(events).toContainEqual(played('ann', 'AC', 'f1', true));
    expect(events).toContainEqual(expect.objectContaining({ type: 'pile-revised', foundationId: 'f1', suit: 'S' }));
    expect(events).toContainEqual(played('bob', '2S', 'f1', false));
  });

  it('gives a revised card to the other player when its owner already has that card in the centre', () => {
    // Ann's AS lands on one pile; Bob's AS, read as AC (Ann's seat showed an AC, a misread), on
    // another and goes to Ann. A sure 2S on it shows that pile is spades: Ann cannot hold two AS.
    const OTHER = { x: 900, y: 360 };
    const sequence = [
      ...frames(0, 3, 100, () => [face('AS', 300, 620, 'seat-0/nerts')]),
      ...frames(300, 6, 100, () => [face('AS', OTHER.x, OTHER.y, 'centre')]),
      ...frames(2000, 3, 100, () => [face('AC', 300, 620, 'seat-0/work', 0.7)]),
      ...frames(2300, 6, 100, () => [face('AS', OTHER.x, OTHER.y, 'centre'), unsure([['AC', 0.6], ['AS', 0.4]], CENTRE.x, CENTRE.y, 'centre', 0.7)]),
      ...frames(4000, 3, 100, () => [face('AS', OTHER.x, OTHER.y, 'centre'), face('2S', 1000, 120, 'seat-1/waste', 0.95)]),
      ...frames(4400, 6, 100, () => [face('AS', OTHER.x, OTHER.y, 'centre'), face('2S', CENTRE.x, CENTRE.y, 'centre', 0.95)]),
    ];
    const events = run(sequence);
    expect(events).toContainEqual(played('ann', 'AS', 'f1', true));
    expect(events).toContainEqual(played('ann', 'AC', 'f2', true));
    expect(events).toContainEqual(expect.objectContaining({ type: 'pile-revised', foundationId: 'f2', suit: 'S', owners: [{ card: 'AS', player: 'bob' }] }));
    // With a third player and no seat that showed an AS, nothing says whose it is: Ann keeps it
    // (a card taken from her to nobody would be lost to every count).
    const threePlayers = { ...config, players: [...config.players, { seat: 2, playerId: 'cy', nertsPileSize: 13 }] };
    const { during, atEnd } = track(sequence, threePlayers);
    const revised = [...during, ...atEnd].find((e) => e.type === 'pile-revised');
    expect(revised).toMatchObject({ foundationId: 'f2', suit: 'S' });
    expect(revised).not.toHaveProperty('owners');
  });

  it('counts a faint reading of the card a pile expects next, but no faint card the pile does not expect', () => {
    const faint = { ...config, minConfidence: 0.35, expectedCardMinConfidence: 0.15 };
    const pile = (['AH', '2H', '3H'] as const).flatMap((code, i) => frames(i * 600, 5, 100, () => [face(code, CENTRE.x, CENTRE.y, 'centre')]));
    const played = (events: ReturnType<typeof track>) => [...events.during, ...events.atEnd].filter((e) => e.type === 'card-played').map((e) => (e as { card: string }).card);
    // The 4H reads at 0.2 only (a court card at webcam size reads this faintly): it is the next card.
    const fourH = [...pile, ...frames(1800, 6, 100, () => [face('4H', CENTRE.x, CENTRE.y, 'centre', 0.2)])];
    expect(played(track(fourH, faint))).toEqual(['AH', '2H', '3H', '4H']);
    // With the faint floor at the ordinary one, that reading is ignored as before.
    expect(played(track(fourH, { ...faint, expectedCardMinConfidence: 0.35 }))).toEqual(['AH', '2H', '3H']);
    // A faint card the pile does not expect (an illegal play), or a faint ace where no pile lies, is not taken.
    const nineC = [...pile, ...frames(1800, 6, 100, () => [face('9C', CENTRE.x, CENTRE.y, 'centre', 0.2)])];
    expect(played(track(nineC, faint))).toEqual(['AH', '2H', '3H']);
    const aceElsewhere = [...pile, ...frames(1800, 6, 100, () => [face('3H', CENTRE.x, CENTRE.y, 'centre'), face('AS', CENTRE.x + 200, CENTRE.y, 'centre', 0.2)])];
    expect(played(track(aceElsewhere, faint))).toEqual(['AH', '2H', '3H']);
  });

  it('never starts more piles of a suit than there are decks: a third ace of clubs with two players is the ace of spades', () => {
    // Two club piles lie (one per deck); a third ace reads as AC, spades a close second.
    const sequence = [
      ...frames(0, 5, 100, () => [face('AC', CENTRE.x - 200, CENTRE.y, 'centre', 0.95)]),
      ...frames(600, 5, 100, () => [face('AC', CENTRE.x - 200, CENTRE.y, 'centre', 0.95), face('AC', CENTRE.x, CENTRE.y, 'centre', 0.95)]),
      ...frames(1200, 6, 100, () => [
        face('AC', CENTRE.x - 200, CENTRE.y, 'centre', 0.95),
        face('AC', CENTRE.x, CENTRE.y, 'centre', 0.95),
        unsure([['AC', 0.55], ['AS', 0.4]], CENTRE.x + 200, CENTRE.y, 'centre', 0.7),
      ]),
      // Its next card keeps reading as a club: on a spade pile that is the two of spades.
      ...frames(2000, 6, 100, () => [
        face('AC', CENTRE.x - 200, CENTRE.y, 'centre', 0.95),
        face('AC', CENTRE.x, CENTRE.y, 'centre', 0.95),
        unsure([['2C', 0.55], ['2S', 0.4]], CENTRE.x + 200, CENTRE.y, 'centre', 0.7),
      ]),
    ];
    const plays = run(sequence).filter((e) => e.type === 'card-played');
    expect(plays.map((e) => [e.card, e.foundationId])).toEqual([
      ['AC', 'f1'],
      ['AC', 'f2'],
      ['AS', 'f3'],
      ['2S', 'f3'],
    ]);
    // With three players, a third club pile is possible: the ace stays a club.
    const three = { ...config, players: [...config.players, { seat: 2, playerId: 'cy', nertsPileSize: 13 }] };
    const { during, atEnd } = track(sequence, three);
    expect([...during, ...atEnd].filter((e) => e.type === 'card-played').map((e) => (e as { card: string }).card)).toEqual(['AC', 'AC', 'AC', '2C']);
  });

  it('takes a reading lower than the top for a card under it misread, not an illegal play', () => {
    // The 7C under the 8C shows (the 8C pushed aside a little) and reads surely as the 7S.
    const clubs = ['AC', '2C', '3C', '4C', '5C', '6C', '7C', '8C'] as const;
    const pile = clubs.flatMap((code, i) => frames(i * 600, 5, 100, () => [face(code, CENTRE.x, CENTRE.y, 'centre', 0.95)]));
    const events = run([...pile, ...frames(4800, 30, 100, () => [face('7S', CENTRE.x, CENTRE.y, 'centre', 0.95)])]);
    expect(events.filter((e) => e.type === 'card-played').map((e) => (e as { card: string }).card)).toEqual([...clubs]);
  });

  it('takes a reading of the top card in another suit for the top misread, not an illegal play', () => {
    const sequence = [
      ...frames(0, 6, 100, () => [face('AH', CENTRE.x, CENTRE.y, 'centre', 0.95)]),
      ...frames(600, 6, 100, () => [face('AD', CENTRE.x, CENTRE.y, 'centre', 0.9)]),
    ];
    const plays = run(sequence).filter((e) => e.type === 'card-played');
    expect(plays).toEqual([played('ann', 'AH', 'f1', true)]);
  });

  it('gives a card lying between two close piles to the one it follows, not to the one it would skip ahead on', () => {
    // Two heart piles half a card apart: f1 shows 2H, f2 (below it) AH. A 3H lands on f1, its
    // outline a little nearer f2's centre.
    const below = { x: CENTRE.x, y: CENTRE.y + 40 };
    const sequence = [
      ...frames(0, 5, 100, () => [face('AH', CENTRE.x, CENTRE.y, 'centre')]),
      ...frames(500, 5, 100, () => [face('2H', CENTRE.x, CENTRE.y, 'centre')]),
      ...frames(1000, 5, 100, () => [face('2H', CENTRE.x, CENTRE.y, 'centre'), face('AH', below.x, below.y, 'centre')]),
      ...frames(1500, 8, 100, () => [face('3H', CENTRE.x, CENTRE.y + 22, 'centre'), face('AH', below.x, below.y, 'centre')]),
    ];
    const plays = run(sequence).filter((e) => e.type === 'card-played').map((e) => (e.type === 'card-played' ? `${e.card}@${e.foundationId}` : ''));
    expect(plays).toEqual(['AH@f1', '2H@f1', 'AH@f2', '3H@f1']);
  });

  it('withdraws cards a pile never had: its old top reads surely and steadily again', () => {
    const pile = (['AH', '2H', '3H', '4H', '5H', '6H'] as const).flatMap((code, i) => frames(i * 600, 5, 100, () => [face(code, CENTRE.x, CENTRE.y, 'centre')]));
    // The 6H reads surely as 8H for a second (two ahead: 7H and 8H are taken), then as itself for 3 s.
    const sequence = [
      ...pile,
      ...frames(3600, 10, 100, () => [face('8H', CENTRE.x, CENTRE.y, 'centre', 0.95)]),
      ...frames(4600, 30, 100, () => [face('6H', CENTRE.x, CENTRE.y, 'centre', 0.95)]),
    ];
    const events = run(sequence);
    const played = events.filter((e) => e.type === 'card-played').map((e) => (e as { card: string }).card);
    expect(played).toEqual(['AH', '2H', '3H', '4H', '5H', '6H', '7H', '8H']);
    expect(events.filter((e) => e.type === 'play-withdrawn')).toEqual([
      { type: 'play-withdrawn', foundationId: 'f1', card: '8H', reason: 'f1 showed 6H on top again: 8H was not there' },
      { type: 'play-withdrawn', foundationId: 'f1', card: '7H', reason: 'f1 showed 6H on top again: 7H was not there' },
    ]);
    // The pile goes on from the 6H: a real 7H is its next card (the 8H, read again, would have to hold).
    const after = run([...sequence, ...frames(7600, 6, 100, () => [face('7H', CENTRE.x, CENTRE.y, 'centre', 0.95)])]);
    expect(after.filter((e) => e.type === 'card-played').map((e) => (e as { card: string }).card)).toEqual([...played, '7H']);
  });

  it('reopens a pile taken for completed when its queen reads surely and steadily again: the king was never there', () => {
    const codes = ['AH', '2H', '3H', '4H', '5H', '6H', '7H', '8H', '9H', '10H', 'JH', 'QH'] as const;
    const pile = codes.flatMap((code, i) => frames(i * 600, 5, 100, () => [face(code, CENTRE.x, CENTRE.y, 'centre')]));
    // A KH is read on the queen for a second (carried over it and back), then the QH for 3 s.
    const sequence = [
      ...pile,
      ...frames(7200, 10, 100, () => [face('KH', CENTRE.x, CENTRE.y, 'centre', 0.95)]),
      ...frames(8200, 30, 100, () => [face('QH', CENTRE.x, CENTRE.y, 'centre', 0.95)]),
    ];
    const events = run(sequence);
    expect(events.filter((e) => e.type === 'card-played').map((e) => (e as { card: string }).card)).toEqual([...codes, 'KH']);
    expect(events.filter((e) => e.type === 'foundation-completed')).toEqual([{ type: 'foundation-completed', foundationId: 'f1' }]);
    // Not a new pile of a queen (a must-start-with-ace alarm): the king leaves the centre.
    expect(events.filter((e) => e.type === 'play-withdrawn')).toEqual([{ type: 'play-withdrawn', foundationId: 'f1', card: 'KH', reason: 'f1 showed QH on top again: KH was not there' }]);
    // The pile is open again: the real king completes it (read again after its withdrawal, it must hold a while).
    const after = run([...sequence, ...frames(11200, 20, 100, () => [face('KH', CENTRE.x, CENTRE.y, 'centre', 0.95)])]);
    expect(after.filter((e) => e.type === 'card-played').map((e) => (e as { card: string }).card)).toEqual([...codes, 'KH', 'KH']);
    expect(after.filter((e) => e.type === 'foundation-completed')).toHaveLength(2);
    // A queen seen only a moment, or unsurely, leaves the king be.
    const brief = run([...pile, ...frames(7200, 10, 100, () => [face('KH', CENTRE.x, CENTRE.y, 'centre', 0.95)]), ...frames(8200, 10, 100, () => [face('QH', CENTRE.x, CENTRE.y, 'centre', 0.95)])]);
    const unsureQueen = run([...pile, ...frames(7200, 10, 100, () => [face('KH', CENTRE.x, CENTRE.y, 'centre', 0.95)]), ...frames(8200, 40, 100, () => [face('QH', CENTRE.x, CENTRE.y, 'centre', 0.5)])]);
    for (const events of [brief, unsureQueen]) {
      expect(events.some((e) => e.type === 'play-withdrawn')).toBe(false);
      expect(events.filter((e) => e.type === 'card-played' && e.newPile).map((e) => (e as { card: string }).card)).toEqual(['AH']);
    }
  });

  it('keeps a card whose pile shows the card under it only for a moment, or unsurely', () => {
    const pile = (['AH', '2H', '3H', '4H', '5H', '6H', '7H'] as const).flatMap((code, i) => frames(i * 600, 5, 100, () => [face(code, CENTRE.x, CENTRE.y, 'centre')]));
    const brief = [...pile, ...frames(4200, 10, 100, () => [face('6H', CENTRE.x, CENTRE.y, 'centre', 0.95)]), ...frames(5200, 10, 100, () => [face('7H', CENTRE.x, CENTRE.y, 'centre', 0.95)])];
    expect(run(brief).some((e) => e.type === 'play-withdrawn')).toBe(false);
    const unsureOld = [...pile, ...frames(4200, 40, 100, () => [face('6H', CENTRE.x, CENTRE.y, 'centre', 0.5)])];
    expect(run(unsureOld).some((e) => e.type === 'play-withdrawn')).toBe(false);
    // A card four below the top is no misread top: another pile's card (at most three go back).
    const farBelow = [...pile, ...frames(4200, 40, 100, () => [face('3H', CENTRE.x, CENTRE.y, 'centre', 0.95)])];
    expect(run(farBelow).some((e) => e.type === 'play-withdrawn')).toBe(false);
  });

  it('drops a withdrawn card still waiting for its owner unheard, and needs a steady reading to take it again', () => {
    const quick = { ...config, withdrawSteadyMs: 300 };
    const pile = (['AH', '2H', '3H', '4H', '5H', '6H'] as const).flatMap((code, i) => frames(i * 600, 5, 100, () => [face(code, CENTRE.x, CENTRE.y, 'centre')]));
    const misread = [...pile, ...frames(3600, 4, 100, () => [face('7H', CENTRE.x, CENTRE.y, 'centre', 0.95)]), ...frames(4000, 8, 100, () => [face('6H', CENTRE.x, CENTRE.y, 'centre', 0.95)])];
    const { during, atEnd } = track(misread, quick);
    const events = [...during, ...atEnd];
    expect(events.some((e) => e.type === 'card-played' && e.card === '7H')).toBe(false);
    expect(events.some((e) => e.type === 'play-withdrawn')).toBe(false);
    // The same misreading again for half a second is not taken; held for two seconds (even unsurely), it is.
    const again = (ms: number) => {
      const { during: d, atEnd: a } = track([...misread, ...frames(4800, ms / 100, 100, () => [face('7H', CENTRE.x, CENTRE.y, 'centre', 0.5)])], quick);
      return [...d, ...a].some((e) => e.type === 'card-played' && e.card === '7H');
    };
    expect(again(500)).toBe(false);
    expect(again(2000)).toBe(true);
  });

  it('counts a card that lands unnamed by its new look (a queen at webcam size reads as the jack under it)', () => {
    // Each card its own look; a hand covers the pile for 200–300 ms as each lands.
    const look = (k: number) => Array.from({ length: 16 }, (_, i) => (i === k ? 1 : 0));
    const codes = ['AH', '2H', '3H', '4H', '5H', '6H', '7H', '8H', '9H', '10H', 'JH'] as const;
    const pile = codes.flatMap((code, i) => frames(i * 700, 5, 100, () => [{ ...face(code, CENTRE.x, CENTRE.y, 'centre'), look: look(i) }]));
    // The queen lands, then reads JH 0.23 / QH 0.21 at 0.22 (under every floor).
    const queen = (k: number) => ({ ...unsure([['JH', 0.23], ['QH', 0.21], ['QD', 0.15]], CENTRE.x, CENTRE.y, 'centre', 0.22), look: look(k) });
    const sequence = (k: number) => [...pile, ...frames(8000, 30, 100, () => [queen(k)])];
    const played = (k: number) => run(sequence(k)).filter((e) => e.type === 'card-played').map((e) => (e as { card: string }).card);
    expect(played(11)).toEqual([...codes, 'QH']);
    // The jack's own look again after the hand: no card.
    expect(played(10)).toEqual([...codes]);
  });

  /** A pile of `ranks` cards, each read in frames 600 ms apart with `read(rank)`'s shares. */
  const pileOf = (ranks: string[], read: (rank: string) => Array<[CardCode, number]>) =>
    ranks.flatMap((rank, i) => frames(i * 600, 5, 100, () => [unsure(read(rank), CENTRE.x, CENTRE.y, 'centre', read(rank)[0][1])]));
  const FIVE = ['A', '2', '3', '4', '5'];

  it('revises an older pile to its look-alike suit when its cards lean that way and a card ahead reads surely in it', () => {
    // The ace reads as clubs, the rest as spades first: the pile's prior made them clubs. The 6S
    // then reads surely: five cards on, the young-pile rule no longer applies, but the pile's
    // readings together say spades, so it is no illegal play.
    const leaning = pileOf(FIVE, (rank) => (rank === 'A' ? [['AC', 0.6], ['AS', 0.38]] : [[`${rank}S` as CardCode, 0.55], [`${rank}C` as CardCode, 0.42]]));
    const events = run([...leaning, ...frames(3000, 20, 100, () => [face('6S', CENTRE.x, CENTRE.y, 'centre', 0.95)])]);
    // Plays already out keep their code (the pile-revised event corrects them); those still
    // waiting for their owner go out in the new suit.
    const cards = events.filter((e) => e.type === 'card-played').map((e) => (e as { card: string }).card);
    expect(cards.map((card) => card.slice(0, -1))).toEqual(['A', '2', '3', '4', '5', '6']);
    expect(cards.at(-1)).toBe('6S');
    expect(events).toContainEqual(expect.objectContaining({ type: 'pile-revised', foundationId: 'f1', suit: 'S' }));
  });

  it('weighs readings the pile prior would drop: a sure spade on an older pile taken for clubs turns it to spades', () => {
    // The ace reads as clubs, 2-4 as spades first (the prior made them clubs). On that "clubs"
    // pile a 5S read at 0.86 (5C 0.10) becomes, by the prior, a 5C at 0.1: under every floor, so
    // it never votes and the pile would stall; the recogniser's own reading still counts.
    const leaning = pileOf(['A', '2', '3', '4'], (rank) => (rank === 'A' ? [['AC', 0.6], ['AS', 0.38]] : [[`${rank}S` as CardCode, 0.6], [`${rank}C` as CardCode, 0.38]]));
    const fiveS = frames(2400, 10, 100, () => [unsure([['5S', 0.86], ['5C', 0.1]], CENTRE.x, CENTRE.y, 'centre', 0.86)]);
    const events = run([...leaning, ...fiveS]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'pile-revised', foundationId: 'f1', suit: 'S' }));
    expect(events.filter((e) => e.type === 'card-played').map((e) => (e as { card: string }).card).at(-1)).toBe('5S');
  });

  it('keeps an older pile whose cards read as its own suit: a sure card of the look-alike suit is an illegal play', () => {
    const clubs = pileOf(FIVE, (rank) => [[`${rank}C` as CardCode, 0.6], [`${rank}S` as CardCode, 0.38]]);
    const events = run([...clubs, ...frames(3000, 25, 100, () => [face('6S', CENTRE.x, CENTRE.y, 'centre', 0.95)])]);
    expect(events.some((e) => e.type === 'pile-revised')).toBe(false);
    // Reported once, as a play onto the 5C pile (the rules engine calls it illegal).
    expect(events.filter((e) => e.type === 'card-played' && e.card === '6S')).toHaveLength(1);
  });

  it('revises a pile whose readings lean strongly to the look-alike suit over several cards, with no sure reading at all', () => {
    // Every card reads spades two to one, yet never surely enough to beat the clubs prior alone.
    const spades = pileOf([...FIVE, '6'], (rank) => (rank === 'A' ? [['AC', 0.5], ['AS', 0.45]] : [[`${rank}S` as CardCode, 0.62], [`${rank}C` as CardCode, 0.2]]));
    const events = run(spades);
    expect(events).toContainEqual(expect.objectContaining({ type: 'pile-revised', foundationId: 'f1', suit: 'S' }));
    const cards = events.filter((e) => e.type === 'card-played').map((e) => (e as { card: string }).card);
    expect(cards).toHaveLength(6);
    expect(cards.at(-1)).toBe('6S');
  });

  it('keeps a pile whose suit was read surely: a card of another suit on it is an illegal play', () => {
    const sequence = [
      ...frames(0, 3, 100, () => [face('AH', 300, 620, 'seat-0/nerts', 0.95)]),
      ...frames(300, 6, 100, () => [face('AH', CENTRE.x, CENTRE.y, 'centre', 0.95)]),
      ...frames(2000, 3, 100, () => [face('2D', 1000, 120, 'seat-1/waste', 0.9)]),
      ...frames(2400, 20, 100, () => [face('2D', CENTRE.x, CENTRE.y, 'centre', 0.9)]),
    ];
    const events = run(sequence);
    expect(events.some((e) => e.type === 'pile-revised')).toBe(false);
    expect(events).toContainEqual(played('bob', '2D', 'f1', false));
  });

  it('weighs only cards lying on a pile for its suit: diamonds carried over an AH pile leave it hearts', () => {
    // 4 players seed 2: 2D, 3D and 4D were carried over the AH pile (hiding it) to a diamond pile
    // beside it; read surely as diamonds, they had outweighed 700 sure readings of the AH itself.
    const overPass = (code: CardCode, startMs: number) =>
      frames(startMs, 6, 100, (i) => [unsure([[code, 0.92], [`${code[0]}H` as CardCode, 0.04]], CENTRE.x - 25 + 10 * i, CENTRE.y, 'centre', 0.92)]);
    const sequence = [
      ...frames(0, 3, 100, () => [face('AH', 300, 620, 'seat-0/nerts', 0.95)]),
      ...frames(300, 30, 100, () => [face('AH', CENTRE.x, CENTRE.y, 'centre', 0.95)]),
      ...overPass('2D', 3300),
      ...frames(3900, 5, 100, () => [face('AH', CENTRE.x, CENTRE.y, 'centre', 0.95)]),
      ...overPass('3D', 4400),
      ...frames(5000, 5, 100, () => [face('AH', CENTRE.x, CENTRE.y, 'centre', 0.95)]),
      ...overPass('4D', 5500),
      ...frames(6100, 30, 100, () => [face('AH', CENTRE.x, CENTRE.y, 'centre', 0.95)]),
    ];
    const events = run(sequence);
    expect(events.filter((e) => e.type === 'pile-revised')).toEqual([]);
    expect(events).toContainEqual(played('ann', 'AH', 'f1', true));
  });

  it('gives a play nobody was seen holding to the seat whose Nerts pile just lost its (unnamed) top', () => {
    // Bob's Nerts tops cannot be named (only told apart by look): the first goes (a break, then
    // the next shows), and a 2S nobody was seen holding lands.
    const BOB_NERTS = { x: 980, y: 100 };
    const unit = (k: number) => Array.from({ length: 8 }, (_, i) => (i === k ? 1 : 0));
    const bobTop = (k: number) => ({ ...face('KH', BOB_NERTS.x, BOB_NERTS.y, 'seat-1/nerts', 0.15), look: unit(k) });
    const sequence = [
      ...frames(0, 3, 100, () => [face('AS', 200, 650, 'seat-0/work'), bobTop(0)]),
      ...frames(300, 20, 100, () => [face('AS', CENTRE.x, CENTRE.y, 'centre'), bobTop(0)]),
      ...frames(2300, 3, 100, () => [face('AS', CENTRE.x, CENTRE.y, 'centre')]),
      ...frames(2600, 5, 100, () => [face('AS', CENTRE.x, CENTRE.y, 'centre'), bobTop(1)]),
      ...frames(3100, 6, 100, () => [face('2S', CENTRE.x, CENTRE.y, 'centre'), bobTop(1)]),
    ];
    const events = run(sequence);
    expect(events).toContainEqual(played('ann', 'AS', 'f1', true));
    expect(events).toContainEqual({ type: 'nerts-count', player: 'bob', left: 12 });
    expect(events).toContainEqual(played('bob', '2S', 'f1', false, 'nerts-pile'));
  });

  it('gives a play nobody was seen holding to the player whose arm reached the pile as it landed', () => {
    // Bob's hand (seat 1, top of the image) comes down to the pile with the 2S: a moving blob from
    // his side to the centre. Nobody was seen holding a 2S.
    const arm = { seats: [1], cells: [0, 1, 2, 3, 4, 5].map((k): [number, number] => [CENTRE.x, CENTRE.y - k * 64]), cellSize: 64 };
    const withMotion = (f: FrameObservations, moving: boolean): FrameObservations => (moving ? { ...f, motion: [arm] } : f);
    const sequence = (moving: boolean) => [
      ...frames(0, 3, 100, () => [face('AS', 200, 650, 'seat-0/work')]),
      ...frames(300, 10, 100, () => [face('AS', CENTRE.x, CENTRE.y, 'centre')]),
      ...frames(1300, 4, 100, () => []).map((f) => withMotion(f, moving)), // the hand covers the pile as it puts the card down
      ...frames(1700, 6, 100, () => [face('2S', CENTRE.x, CENTRE.y, 'centre')]).map((f, i) => withMotion(f, moving && i < 2)),
    ];
    expect(run(sequence(true))).toContainEqual(played('bob', '2S', 'f1', false, 'hand'));
    // Without the arm nothing points anywhere: the play is reported as a guess.
    expect(run(sequence(false))).toContainEqual(played('ann', '2S', 'f1', false, 'guess'));
  });

  it('does not credit a card filled in under the one seen to the hand that put the seen one down', () => {
    // Bob's hand lays his 3S on the AS pile; the 2S under it was never seen landing (the camera
    // missed it), so Bob's hand over the pile says nothing of who played the 2S.
    const arm = { seats: [1], cells: [0, 1, 2, 3, 4, 5].map((k): [number, number] => [CENTRE.x, CENTRE.y - k * 64]), cellSize: 64 };
    const sequence = [
      ...frames(0, 3, 100, () => [face('AS', 200, 650, 'seat-0/work')]),
      ...frames(300, 10, 100, () => [face('AS', CENTRE.x, CENTRE.y, 'centre'), face('3S', 1000, 120, 'seat-1/waste')]),
      ...frames(1300, 4, 100, () => [] as CardObservation[]).map((f) => ({ ...f, motion: [arm] })),
      ...frames(1700, 40, 100, () => [face('3S', CENTRE.x, CENTRE.y, 'centre')]),
    ];
    const events = run(sequence);
    expect(events).toContainEqual(played('bob', '3S', 'f1', false));
    const two = events.find((e) => e.type === 'card-played' && e.card === '2S');
    expect(two).toMatchObject({ type: 'card-played', card: '2S', foundationId: 'f1' });
    expect(two).not.toMatchObject({ ownerBy: 'hand' });
  });

  it('never gives a play to a seat whose copy of the card still lies there after it landed, while a hand points elsewhere', () => {
    // Ann's 2S lies in her work pile; her own hand covers it for a moment just as a 2S lands (so
    // it could have been the one that flew), then it shows again. Bob's 2S is never read (his deck
    // reads badly), but his hand reached the pile as the 2S landed.
    const arm = { seats: [1], cells: [0, 1, 2, 3, 4, 5].map((k): [number, number] => [CENTRE.x, CENTRE.y - k * 64]), cellSize: 64 };
    const annTwo = face('2S', 200, 650, 'seat-0/work');
    const pile = (code: 'AS' | '2S') => face(code, CENTRE.x, CENTRE.y, 'centre');
    const sequence = (reaching: boolean) => [
      ...frames(0, 10, 100, () => [pile('AS'), annTwo]),
      ...frames(1000, 4, 100, () => []).map((f) => (reaching ? { ...f, motion: [arm] } : f)),
      ...frames(1400, 6, 100, () => [pile('2S')]),
      ...frames(2000, 20, 100, () => [pile('2S'), annTwo]),
    ];
    expect(run(sequence(true))).toContainEqual(played('bob', '2S', 'f1', false, 'hand'));
    // With no other sign, the seat it had left (and showed again) stays the owner, as a guess.
    expect(run(sequence(false))).toContainEqual(played('ann', '2S', 'f1', false, 'guess'));
  });

  it('gives a play nobody surely held to the seat where it was read as a likely runner-up', () => {
    // Bob's waste shows the 2S, read as 2C (2S a close second); nobody was seen holding a 2S.
    const sequence = [
      ...frames(0, 5, 100, () => [face('AS', CENTRE.x, CENTRE.y, 'centre')]),
      ...frames(500, 4, 100, () => [face('AS', CENTRE.x, CENTRE.y, 'centre'), unsure([['2C', 0.5], ['2S', 0.4]], 1000, 120, 'seat-1/waste')]),
      ...frames(1000, 6, 100, () => [face('2S', CENTRE.x, CENTRE.y, 'centre')]),
    ];
    expect(run(sequence)).toContainEqual(played('bob', '2S', 'f1', false, 'look-alike'));
  });
});

describe('tracker: a Nerts pile bare at the hand end', () => {
  const small = annAndBob(6);
  const NERTS = { x: 300, y: 620 };
  const run = (sequence: FrameObservations[]) => track(sequence, small);

  it('is emptied when the count stalled on its last few cards, and its player called', () => {
    // Two tops read (5 left counted), then the pile lies bare for three seconds until the hand ends.
    const sequence = [
      ...frames(0, 4, 100, () => [face('QC', NERTS.x, NERTS.y, 'seat-0/nerts')]),
      ...frames(400, 2, 100, () => []),
      ...frames(600, 4, 100, () => [face('JD', NERTS.x, NERTS.y, 'seat-0/nerts')]),
      ...frames(1000, 30, 100, () => [face('9C', 900, 100, 'seat-1/nerts')]),
    ];
    const { during, atEnd } = run(sequence);
    expect(during.some((e) => e.type === 'call')).toBe(false);
    expect(atEnd).toContainEqual({ type: 'nerts-count', player: 'ann', left: 0 });
    expect(atEnd).toContainEqual({ type: 'call', player: 'ann', manual: false });
  });

  it('is emptied whatever its count when it is the only pile bare at the end (the hand ended, so someone went out)', () => {
    // Ann's count stalled at 12 (her later tops were never told apart); her pile lies bare to the end.
    const sequence = [
      ...frames(0, 4, 100, () => [face('QC', NERTS.x, NERTS.y, 'seat-0/nerts'), face('9C', 900, 100, 'seat-1/nerts')]),
      ...frames(400, 2, 100, () => [face('9C', 900, 100, 'seat-1/nerts')]),
      ...frames(600, 4, 100, () => [face('JD', NERTS.x, NERTS.y, 'seat-0/nerts'), face('9C', 900, 100, 'seat-1/nerts')]),
      ...frames(1000, 30, 100, () => [face('9C', 900, 100, 'seat-1/nerts')]),
    ];
    const { during, atEnd } = track(sequence, annAndBob(13));
    expect(during).toContainEqual({ type: 'nerts-count', player: 'ann', left: 12 });
    expect(atEnd).toContainEqual({ type: 'nerts-count', player: 'ann', left: 0 });
    expect(atEnd).toContainEqual({ type: 'call', player: 'ann', manual: false });
    // Two piles bare with counts far from empty: nothing tells which went out, so neither is guessed.
    const both = [
      ...frames(0, 4, 100, () => [face('QC', NERTS.x, NERTS.y, 'seat-0/nerts'), face('9C', 900, 100, 'seat-1/nerts')]),
      ...frames(400, 30, 100, () => []),
    ];
    expect(track(both, annAndBob(13)).atEnd).toEqual([]);
  });

  it('is left alone when a face shows on it again before the end (a hand had covered it)', () => {
    const sequence = [
      ...frames(0, 4, 100, () => [face('QC', NERTS.x, NERTS.y, 'seat-0/nerts')]),
      ...frames(400, 2, 100, () => []),
      ...frames(600, 4, 100, () => [face('JD', NERTS.x, NERTS.y, 'seat-0/nerts')]),
      ...frames(1000, 20, 100, () => []),
      ...frames(3000, 4, 100, () => [face('JD', NERTS.x, NERTS.y, 'seat-0/nerts')]),
    ];
    expect(run(sequence).atEnd).toEqual([]);
  });
});
