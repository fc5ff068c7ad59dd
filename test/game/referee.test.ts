import { describe, expect, it } from 'vitest';
import { apply, initialRefereeState, type RefereeEvent, type RefereePlayer, type RefereeState, replay } from '../../server/game/referee';

const players: RefereePlayer[] = [
  { id: 'ann', seat: 0, deckId: 'red', backDesign: 'red-back' },
  { id: 'bob', seat: 1, deckId: 'blue', backDesign: 'blue-back' },
];
type HandVariant = Extract<RefereeEvent, { type: 'hand-started' }>['variant'];
const start = (variant: HandVariant = 'nertz', who = players): RefereeEvent => ({ type: 'hand-started', atMs: 0, players: who, variant });
const play = (card: string, deckId: string, foundationId: string, atMs: number, extra: Partial<Extract<RefereeEvent, { type: 'card-played' }>> = {}): RefereeEvent =>
  ({ type: 'card-played', atMs, card, deckId, foundationId, ...extra }) as RefereeEvent;

function run(events: RefereeEvent[]): RefereeState {
  return replay(events);
}
const codes = (state: RefereeState) => state.violations.map((v) => v.code);

describe('referee: foundations', () => {
  it('[F1] an ace starts a pile under the tracker\'s id; anything else is must-start-with-ace', () => {
    const s = run([start(), play('AH', 'red', 'c1', 10), play('5S', 'blue', 'c2', 20)]);
    expect(s.hand!.foundations.map((f) => [f.id, f.suit, f.topCard, f.height])).toEqual([['c1', 'H', 'AH', 1]]);
    expect(codes(s)).toEqual(['foundation/must-start-with-ace']);
  });

  it('[F2] up in suit one rank at a time; [F3] anyone may build on anyone\'s pile; each card keeps its owner', () => {
    const s = run([start(), play('AH', 'red', 'c1', 10), play('2H', 'blue', 'c1', 2000), play('3S', 'red', 'c1', 4000), play('4H', 'red', 'c1', 5000), play('3H', 'red', 'c1', 6000)]);
    expect(codes(s)).toEqual(['foundation/wrong-suit', 'foundation/wrong-rank']);
    expect(s.hand!.foundations[0].cards.map((c) => `${c.code}:${c.owner}`)).toEqual(['AH:ann', '2H:bob', '3H:ann']);
    expect(s.hand!.playerStates.ann.centre).toBe(2);
    expect(s.hand!.playerStates.bob.centre).toBe(1);
    // Illegal plays stay in the log as rejected plays, out of the centre.
    expect(s.hand!.plays.filter((p) => p.status === 'rejected').map((p) => p.rejectedFor)).toEqual(['foundation/wrong-suit', 'foundation/wrong-rank']);
  });

  it('[F4] a king completes the pile and nothing more may go on it', () => {
    const ranks = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
    const events = [start(), ...ranks.map((r, i) => play(`${r}C`, 'red', 'c1', 2000 * (i + 1))), play('AC', 'blue', 'c1', 99_000)];
    const s = run(events);
    expect(s.hand!.foundations[0]).toMatchObject({ completed: true, height: 13, topCard: 'KC' });
    expect(codes(s)).toEqual(['foundation/completed']);
  });

  it('[F5] no event moves a card off a foundation except a dispute ruling or a correction', () => {
    const s = run([start(), play('AH', 'red', 'c1', 10), { type: 'nerts-count', atMs: 20, player: 'ann', count: 12 }, { type: 'stuck-rotation', atMs: 30 }]);
    expect(s.hand!.foundations[0].cards).toHaveLength(1);
  });

  it('[K2] a second copy of a card from the same deck is deck/duplicate-card; [R2] illegal plays are values, not exceptions', () => {
    const s = run([start(), play('AH', 'red', 'c1', 10), play('AH', 'red', 'c2', 3000), play('AS', 'green', 'c3', 4000)]);
    expect(codes(s)).toEqual(['deck/duplicate-card', 'deck/unknown-deck']);
    // The unknown deck's ace still starts a pile (the card is real), owned by nobody.
    expect(s.hand!.unknownCentre).toBe(1);
    expect(s.hand!.foundations.map((f) => f.id)).toEqual(['c1', 'c3']);
  });

  it('[K4] partners sharing a tableau: either member\'s plays, counts and call go to the partnership', () => {
    const pair: RefereePlayer[] = [{ id: 'reds', seat: 0, deckId: 'red', backDesign: 'r', members: ['ann', 'amy'] }, players[1]];
    const s = run([start('nuts', pair), { type: 'card-played', atMs: 1, card: 'AH', owner: 'amy', foundationId: 'c1' }, { type: 'nerts-count', atMs: 2, player: 'ann', count: 0 }, { type: 'call', atMs: 3, player: 'amy' }, { type: 'hand-scored', atMs: 4 }]);
    expect(codes(s)).toEqual([]);
    expect(s.hand!.foundations[0].cards[0]).toMatchObject({ owner: 'reds', deckId: 'red' });
    expect(s.hand!.call!.player).toBe('reds');
    expect(s.hand!.scores!.scores).toEqual({ reds: 1, bob: -26 });
  });

  it('[K2] the owner comes from the deck\'s back, or is given directly', () => {
    const s = run([start(), play('AH', 'blue', 'c1', 10), { type: 'card-played', atMs: 20, card: 'AS', owner: 'ann', foundationId: 'c2' }]);
    expect(s.hand!.foundations.map((f) => [f.cards[0].owner, f.cards[0].deckId])).toEqual([
      ['bob', 'blue'],
      ['ann', 'red'],
    ]);
  });
});

describe('referee: disputes', () => {
  it('[X1] two copies racing for one slot: the first played stays, the other goes back', () => {
    const s = run([start(), play('AH', 'red', 'c1', 0), play('2H', 'red', 'c1', 1000, { playId: 'annTwo' }), play('2H', 'blue', 'c1', 1200, { playId: 'bobTwo' })]);
    expect(codes(s)).toEqual([]);
    const dispute = s.hand!.disputes[0];
    expect(dispute).toMatchObject({ id: 'd1', foundationId: 'c1', card: '2H', kept: ['annTwo'], returned: ['bobTwo'], ruledBy: 'referee' });
    expect(s.hand!.foundations[0].cards.map((c) => c.owner)).toEqual(['ann', 'ann']);
    expect(s.hand!.playerStates.bob.centre).toBe(0);
    // Bob may play his returned 2H later (it went back to his tableau): no duplicate.
    const later = run([start(), play('AH', 'red', 'c1', 0), play('2H', 'red', 'c1', 1000), play('2H', 'blue', 'c1', 1200), play('AH', 'blue', 'c9', 5000), play('2H', 'blue', 'c9', 6000)]);
    expect(codes(later)).toEqual([]);
  });

  it('[X1] copies with unrecognised backs racing for one slot are a race too (first stays)', () => {
    const s = run([start(), play('AH', 'red', 'c1', 0), { type: 'card-played', atMs: 1000, card: '2H', foundationId: 'c1' }, { type: 'card-played', atMs: 1100, card: '2H', foundationId: 'c1' }]);
    expect(codes(s)).toEqual([]);
    expect(s.hand!.disputes).toHaveLength(1);
    expect(s.hand!.unknownCentre).toBe(1);
  });

  it('[X1] outside the dispute window a second copy is simply the wrong rank', () => {
    const s = run([start(), play('AH', 'red', 'c1', 0), play('2H', 'red', 'c1', 1000), play('2H', 'blue', 'c1', 5000)]);
    expect(codes(s)).toEqual(['foundation/wrong-rank']);
    expect(s.hand!.disputes).toEqual([]);
  });

  it('[X2] a tie that cannot be resolved keeps both', () => {
    const s = run([start(), play('AH', 'red', 'c1', 0), play('2H', 'red', 'c1', 1000), play('2H', 'blue', 'c1', 1000, { tie: true }), play('3H', 'red', 'c1', 3000)]);
    expect(s.hand!.disputes[0].ruling).toEqual({ kind: 'all-stay' });
    expect(s.hand!.foundations[0].cards.map((c) => `${c.code}:${c.owner}`)).toEqual(['AH:ann', '2H:ann', '2H:bob', '3H:ann']);
    expect(s.hand!.playerStates.bob.centre).toBe(1);
  });

  it('[X3] an official overrules: keep the later play instead; a bad ruling is a violation', () => {
    const base = [start(), play('AH', 'red', 'c1', 0), play('2H', 'red', 'c1', 1000, { playId: 'a2' }), play('2H', 'blue', 'c1', 1100, { playId: 'b2' })];
    const s = run([...base, { type: 'dispute-ruled', atMs: 9000, disputeId: 'd1', ruling: { kind: 'keep', playIds: ['b2'] }, by: 'official', reason: 'video shows bob first' }]);
    expect(s.hand!.disputes[0]).toMatchObject({ kept: ['b2'], returned: ['a2'], ruledBy: 'official', reason: 'video shows bob first' });
    expect(s.hand!.foundations[0].cards.map((c) => c.owner)).toEqual(['ann', 'bob']);
    const bad = run([...base, { type: 'dispute-ruled', atMs: 9000, disputeId: 'd1', ruling: { kind: 'keep', playIds: ['zz'] }, by: 'official', reason: '?' }, { type: 'dispute-ruled', atMs: 9000, disputeId: 'd7', ruling: { kind: 'first-stays' }, by: 'official', reason: '?' }]);
    expect(codes(bad)).toEqual(['dispute/bad-ruling', 'dispute/unknown']);
  });

  it('[X1] an explicit play-disputed event opens a dispute ruled first-stays', () => {
    // Two aces of hearts from different decks on different piles are not a race; two 2H on one pile, logged as legal + rejected, are.
    const s = run([start(), play('AH', 'red', 'c1', 0), play('2H', 'blue', 'c1', 3000, { playId: 'b' }), play('2H', 'red', 'c1', 6000, { playId: 'a' }), { type: 'play-disputed', atMs: 7000, playIds: ['a', 'b'], by: 'official', reason: 'both slapped down' }]);
    expect(s.hand!.disputes[0]).toMatchObject({ kept: ['b'], returned: ['a'], openedBy: 'official' });
    expect(s.hand!.plays.find((p) => p.playId === 'a')!.status).toBe('returned');
  });
});

describe('referee: call, counts, stuck', () => {
  it('[C1] a call with cards left is flagged but stops play; [R4] a second call is already-called', () => {
    const s = run([start(), { type: 'call', atMs: 10, player: 'ann' }, { type: 'call', atMs: 20, player: 'bob' }]);
    expect(codes(s)).toEqual(['call/nerts-pile-not-empty', 'hand/already-called']);
    expect(s.hand!.call).toEqual({ player: 'ann', atMs: 10 });
    expect(s.hand!.phase).toBe('ended');
  });

  it('[C2] cards in the air within the grace land; later plays are play-after-call (nertz: no grace)', () => {
    const events = (variant: 'snerts' | 'nertz'): RefereeEvent[] => [
      start(variant),
      play('AH', 'red', 'c1', 0),
      { type: 'nerts-count', atMs: 100, player: 'ann', count: 0 },
      { type: 'call', atMs: 1000, player: 'ann' },
      play('2H', 'blue', 'c1', 1500),
      play('AS', 'blue', 'c2', 2500),
    ];
    const snerts = run(events('snerts'));
    expect(codes(snerts)).toEqual(['hand/play-after-call']);
    expect(snerts.hand!.playerStates.bob.centre).toBe(1);
    const nertz = run(events('nertz'));
    expect(codes(nertz)).toEqual(['hand/play-after-call', 'hand/play-after-call']);
  });

  it('[C3] a player may keep playing with an empty Nerts pile before calling', () => {
    const s = run([start(), { type: 'nerts-count', atMs: 5, player: 'ann', count: 0 }, play('AH', 'red', 'c1', 10), play('2H', 'red', 'c1', 20)]);
    expect(codes(s)).toEqual([]);
    expect(s.hand!.phase).toBe('playing');
  });

  it('[R3] Nerts counts: start at the pile size (handicaps too), bad counts and rising counts are flagged', () => {
    const withHandicap = [{ ...players[0], nertsPileSize: 10 }, players[1]];
    const s = run([start('nertz', withHandicap), { type: 'nerts-count', atMs: 1, player: 'ann', count: 9 }, { type: 'nerts-count', atMs: 2, player: 'ann', count: 10 }, { type: 'nerts-count', atMs: 3, player: 'bob', count: 14 }, { type: 'nerts-count', atMs: 4, player: 'zed', count: 1 }]);
    expect(s.hand!.playerStates.ann).toMatchObject({ nertsLeft: 10, nertsPileSize: 10 });
    expect(s.hand!.playerStates.bob.nertsLeft).toBe(13);
    expect(codes(s)).toEqual(['nerts/count-increased', 'nerts/bad-count', 'player/unknown']);
  });

  it('[S1] stuck rotations are counted; [S3] gnerts: a fourth is flagged and the next standstill ends with rotation-limit', () => {
    const rot = { type: 'stuck-rotation', atMs: 1 } as const;
    const s = run([start('gnerts'), rot, rot, rot, { type: 'standstill', atMs: 2 }]);
    expect(s.hand!.endReason).toBe('rotation-limit');
    expect(codes(run([start('gnerts'), rot, rot, rot, rot]))).toEqual(['hand/rotation-limit']);
  });

  it('[S4] a standstill ends the hand; [P3] scored with no caller everyone takes the penalty', () => {
    const s = run([start('snerts'), play('AH', 'red', 'c1', 1), { type: 'standstill', atMs: 2 }, play('2H', 'red', 'c1', 3), { type: 'hand-scored', atMs: 4 }]);
    expect(codes(s)).toEqual(['hand/ended']);
    expect(s.hand!.endReason).toBe('standstill');
    expect(s.hand!.scores!.scores).toEqual({ ann: 1 - 13, bob: -13 });
  });
});

describe('referee: corrections, scoring, log', () => {
  it('[R5] a misread suit is corrected: the pile and its cards take the suit, rejected plays keep what was read', () => {
    const s = run([
      start(),
      play('AC', 'red', 'c1', 1),
      play('2C', 'blue', 'c1', 2000),
      play('3S', 'red', 'c1', 4000),
      { type: 'correction', atMs: 4100, by: 'camera', reason: '3S read surely on it', fix: { kind: 'set-suit', foundationId: 'c1', suit: 'S' } },
      play('3S', 'red', 'c1', 4200),
      { type: 'correction', atMs: 4300, by: 'camera', reason: 'no such pile', fix: { kind: 'set-suit', foundationId: 'c9', suit: 'S' } },
    ]);
    const pile = s.hand!.foundations.find((f) => f.id === 'c1')!;
    expect(pile).toMatchObject({ suit: 'S', topCard: '3S', height: 3 });
    expect(pile.cards.map((c) => `${c.code}:${c.owner}`)).toEqual(['AS:ann', '2S:bob', '3S:ann']);
    expect(s.hand!.plays.find((p) => p.status === 'rejected')!.card).toBe('3S');
    expect(codes(s)).toEqual(['foundation/wrong-suit', 'correction/bad-target']);
  });

  it('[R5] corrections carry who and why: remove a misread play, fix an owner, set a count, dismiss a violation, undo a call', () => {
    const s = run([
      start(),
      play('AH', 'red', 'c1', 1, { playId: 'x' }),
      play('AS', 'blue', 'c2', 2, { playId: 'y' }),
      play('7D', 'blue', 'c1', 3),
      { type: 'call', atMs: 4, player: 'bob' },
      { type: 'correction', atMs: 5, by: 'official', reason: 'misread: it was a club', fix: { kind: 'remove-play', playId: 'x' } },
      { type: 'correction', atMs: 6, by: 'official', reason: 'back misread', fix: { kind: 'set-owner', playId: 'y', owner: 'ann' } },
      { type: 'correction', atMs: 7, by: 'ann', reason: 'counted', fix: { kind: 'set-nerts-count', player: 'ann', count: 4 } },
      { type: 'correction', atMs: 8, by: 'official', reason: 'camera glitch', fix: { kind: 'dismiss-violation', index: 0 } },
      { type: 'correction', atMs: 9, by: 'official', reason: 'false call', fix: { kind: 'undo-call' } },
      { type: 'correction', atMs: 10, by: 'official', reason: 'missed', fix: { kind: 'add-play', foundationId: 'c2', card: '2S', owner: 'bob' } },
    ]);
    const hand = s.hand!;
    expect(hand.foundations.find((f) => f.id === 'c1')!.cards).toEqual([]);
    expect(hand.foundations.find((f) => f.id === 'c2')!.cards.map((c) => `${c.code}:${c.owner}`)).toEqual(['AS:ann', '2S:bob']);
    expect(hand.playerStates.ann).toMatchObject({ centre: 1, nertsLeft: 4 });
    expect(hand.call).toBeNull();
    expect(hand.phase).toBe('playing');
    expect(hand.corrections.map((c) => c.by)).toEqual(['official', 'official', 'ann', 'official', 'official', 'official']);
    expect(s.violations[0].dismissed).toEqual({ by: 'official', reason: 'camera glitch' });
    // A correction without who or why is malformed, and a bad target is flagged.
    const bad = run([start(), { type: 'correction', atMs: 1, by: '', reason: 'x', fix: { kind: 'undo-call' } } as RefereeEvent, { type: 'correction', atMs: 2, by: 'o', reason: 'r', fix: { kind: 'remove-play', playId: 'nope' } }]);
    expect(codes(bad)).toEqual(['event/malformed', 'correction/bad-target']);
  });

  it('[R6] hand-scored scores the hand into the match; the next hand continues the match; teams pool', () => {
    const four: RefereePlayer[] = [
      { id: 'ann', seat: 0, deckId: 'd1', backDesign: 'b1', team: 'red' },
      { id: 'bob', seat: 1, deckId: 'd2', backDesign: 'b2', team: 'blue' },
      { id: 'cy', seat: 2, deckId: 'd3', backDesign: 'b3', team: 'red' },
      { id: 'dee', seat: 3, deckId: 'd4', backDesign: 'b4', team: 'blue' },
    ];
    const handEvents: RefereeEvent[] = [
      start('house-150', four),
      play('AH', 'd1', 'c1', 1),
      play('2H', 'd3', 'c1', 2),
      { type: 'nerts-count', atMs: 3, player: 'ann', count: 0 },
      { type: 'call', atMs: 4, player: 'ann' },
      { type: 'hand-scored', atMs: 5 },
    ];
    const s = run([...handEvents, ...handEvents]);
    expect(s.hand!.scores!.scores).toEqual({ red: 2 - 26 + 10, blue: -52 });
    expect(s.match!.hands).toHaveLength(2);
    expect(s.match!.totals).toEqual({ red: -28, blue: -104 });
    expect(s.hand!.number).toBe(2);
    expect(s.matchesStarted).toBe(1);
    expect(codes(run([...handEvents, { type: 'hand-scored', atMs: 6 }]))).toEqual(['hand/ended']);
  });

  /** A two-card hand (ann's AH, bob's 2H), ann calls, scored. */
  const scoredHand = (): RefereeEvent[] => [
    start('nertz'),
    play('AH', 'red', 'c1', 1),
    play('2H', 'blue', 'c1', 2),
    { type: 'nerts-count', atMs: 3, player: 'ann', count: 0 },
    { type: 'call', atMs: 4, player: 'ann' },
    { type: 'hand-scored', atMs: 5 },
  ];

  it('[R5] a correction after the hand was scored re-scores the hand and the match totals', () => {
    const events = scoredHand();
    const before = run([...events, ...events]);
    expect(before.hand!.scores!.scores).toEqual({ ann: 1, bob: 1 - 26 });
    expect(before.match!.totals).toEqual({ ann: 2, bob: -50 });
    // The score sort finds bob had only 9 cards left, and one more of his cards in the centre.
    const after = run([
      ...events,
      ...events,
      { type: 'correction', atMs: 6, by: 'official', reason: 'counted at the score sort', fix: { kind: 'set-nerts-count', player: 'bob', count: 9 } },
      { type: 'correction', atMs: 7, by: 'official', reason: 'found under the ace', fix: { kind: 'add-play', foundationId: 'c1', card: '3H', owner: 'bob' } },
    ]);
    expect(after.hand!.scores!.scores).toEqual({ ann: 1, bob: 2 - 18 });
    expect(after.match!.hands).toHaveLength(2);
    expect(after.match!.hands[0].scores).toEqual({ ann: 1, bob: -25 });
    expect(after.match!.totals).toEqual({ ann: 2, bob: -25 - 16 });
    expect(after.match!.totalsBeforeLastHand).toEqual({ ann: 1, bob: -25 });
  });

  it('[R5] a centre count taken at the score sort overrides the plays, re-scores, and is checked', () => {
    const events = scoredHand();
    // The camera saw one card of bob's land; the sort counts three (two it never saw).
    const counted = run([...events, { type: 'correction', atMs: 6, by: 'official', reason: 'camera back count', fix: { kind: 'set-centre-count', player: 'bob', count: 3 } }]);
    expect(counted.hand!.playerStates.bob.centre).toBe(3);
    expect(counted.hand!.scores!.scores).toEqual({ ann: 1, bob: 3 - 26 });
    expect(counted.hand!.foundations[0].cards).toHaveLength(2);
    // A later change of the plays does not move a counted player; a new count does.
    const again = run([
      ...events,
      { type: 'correction', atMs: 6, by: 'official', reason: 'camera back count', fix: { kind: 'set-centre-count', player: 'bob', count: 3 } },
      { type: 'correction', atMs: 7, by: 'official', reason: 'found', fix: { kind: 'add-play', foundationId: 'c1', card: '3H', owner: 'bob' } },
      { type: 'correction', atMs: 8, by: 'official', reason: 'recounted', fix: { kind: 'set-centre-count', player: 'bob', count: 2 } },
    ]);
    expect(again.hand!.playerStates.bob.centre).toBe(2);
    expect(codes(run([...events, { type: 'correction', atMs: 6, by: 'official', reason: 'x', fix: { kind: 'set-centre-count', player: 'bob', count: 53 } }]))).toEqual(['correction/bad-target']);
    expect(codes(run([...events, { type: 'correction', atMs: 6, by: 'official', reason: 'x', fix: { kind: 'set-centre-count', player: 'eve', count: 1 } }]))).toEqual(['correction/bad-target']);
  });

  it('[R6] a match that ended takes no more hands: the next hand starts a new match', () => {
    const quick = (n: number): RefereeEvent[] => [
      start({ preset: 'nertz', target: 2 }),
      play('AH', 'red', `a${n}`, 1),
      play('2H', 'red', `a${n}`, 2),
      { type: 'nerts-count', atMs: 3, player: 'ann', count: 0 },
      { type: 'nerts-count', atMs: 3, player: 'bob', count: 0 },
      { type: 'call', atMs: 4, player: 'ann' },
      { type: 'hand-scored', atMs: 5 },
    ];
    const s = run(quick(1));
    expect(s.match).toMatchObject({ ended: true, winner: 'ann' });
    const s2 = run([...quick(1), ...quick(2)]);
    expect(s2.matchesStarted).toBe(2);
    expect(s2.match!.hands).toHaveLength(1);
  });

  it('[R1] apply is pure and replay reproduces the state exactly', () => {
    const events: RefereeEvent[] = [start(), play('AH', 'red', 'c1', 1), play('2S', 'red', 'c1', 2), { type: 'call', atMs: 3, player: 'bob' }, { type: 'hand-scored', atMs: 4 }];
    let state = initialRefereeState();
    const snapshots: string[] = [];
    for (const event of events) {
      const before = JSON.stringify(state);
      const next = apply(state, event).state;
      expect(JSON.stringify(state)).toBe(before);
      snapshots.push(JSON.stringify(next));
      state = next;
    }
    expect(replay(events)).toEqual(state);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(state.eventCount).toBe(5);
  });

  it('[R7] malformed events are violations, not crashes', () => {
    const junk = [null, 42, { type: 'dance', atMs: 1 }, { type: 'card-played', atMs: 1, card: '1Z', foundationId: 'c1' }, { type: 'call' }, { type: 'hand-started', atMs: 0, players: 'me', variant: 'nertz' }] as unknown as RefereeEvent[];
    const s = run([start(), ...junk, { type: 'hand-started', atMs: 0, players: [players[0]], variant: 'nertz' }, { type: 'hand-started', atMs: 0, players, variant: 'poker' } as unknown as RefereeEvent]);
    expect(codes(s)).toEqual(Array(8).fill('event/malformed'));
    expect(run([play('AH', 'red', 'c1', 1)]).violations.map((v) => v.code)).toEqual(['hand/not-started']);
  });
});
