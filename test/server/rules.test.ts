import { describe, expect, it } from 'vitest';
import { applyRules, initialRulesState, toView, variantInput, type RulesContext, type RulesState } from '../../server/tables/rules';
import type { TableEvent } from '../../server/protocol';

const context: RulesContext = {
  tableId: 't',
  players: [
    { id: 'ann', name: 'Ann', seat: 0, deckId: 'deck-ann', nertsPileSize: 13 },
    { id: 'bob', name: 'Bob', seat: 1, deckId: 'deck-bob', nertsPileSize: 13 },
  ],
  variant: variantInput('nertz', {}, 100),
};

function play(events: Array<[number, TableEvent]>, start: RulesState = initialRulesState(), firstSeq = 0) {
  let state = start;
  let seq = firstSeq;
  const log: Array<{ event: TableEvent; violations: string[] }> = [];
  const queue = [...events];
  while (queue.length > 0) {
    const [timeMs, event] = queue.shift()!;
    const step = applyRules(state, event, timeMs, seq++, context);
    state = step.state;
    log.push({ event, violations: step.violations.map((v) => v.code) });
    for (const followUp of step.followUps) queue.unshift([timeMs, followUp]);
  }
  return { state, log, seq };
}

describe('rules bridge: log entries → referee reducer → view', () => {
  it('counts plays per owner, rejects illegal ones and scores the hand', () => {
    const { state, log } = play([
      [0, { type: 'hand-started', hand: 1 }],
      [1000, { type: 'card-played', player: 'ann', card: 'AS', foundationId: 'f1', newPile: true }],
      [2000, { type: 'card-played', player: 'bob', card: '2S', foundationId: 'f1', newPile: false }],
      [3000, { type: 'card-played', player: 'bob', card: '4H', foundationId: 'f1', newPile: false }],
      [4000, { type: 'nerts-count', player: 'ann', left: 0 }],
      [4500, { type: 'call', player: 'ann', manual: false }],
      [6000, { type: 'card-played', player: 'bob', card: '3S', foundationId: 'f1', newPile: false }],
      [7000, { type: 'hand-ended' }],
    ]);
    expect(log[3].violations).toEqual(['foundation/wrong-suit']);
    expect(log[6].violations).toEqual(['hand/play-after-call']);
    const view = toView(state, context);
    expect(view.phase).toBe('scored');
    expect(view.calledBy).toBe('ann');
    expect(view.players.map((p) => [p.id, p.centreCards, p.nertsLeft])).toEqual([
      ['ann', 1, 0],
      ['bob', 1, 13],
    ]);
    const ann = view.scores!.find((row) => row.player === 'ann')!;
    const bob = view.scores!.find((row) => row.player === 'bob')!;
    expect(ann.handScore).toBeGreaterThan(bob.handScore);
    expect(view.violations.map((v) => v.seq)).toEqual([3, 6]);
  });

  it('a revised pile takes its new suit and gives the cards the camera re-owned to their new owners', () => {
    const { state } = play([
      [0, { type: 'hand-started', hand: 1 }],
      [1000, { type: 'card-played', player: 'ann', card: 'AS', foundationId: 'f1', newPile: true }],
      [2000, { type: 'card-played', player: 'ann', card: 'AC', foundationId: 'f2', newPile: true }],
      [3000, { type: 'pile-revised', foundationId: 'f2', suit: 'S', reason: '2S was read surely on it', owners: [{ card: 'AS', player: 'bob' }] }],
      [4000, { type: 'card-played', player: 'bob', card: '2S', foundationId: 'f2', newPile: false }],
    ]);
    const plays = state.referee.hand!.plays.filter((p) => p.status === 'on-foundation').map((p) => [p.foundationId, p.card, p.owner]);
    expect(plays).toEqual([
      ['f1', 'AS', 'ann'],
      ['f2', 'AS', 'bob'],
      ['f2', '2S', 'bob'],
    ]);
    expect(toView(state, context).players.map((p) => [p.id, p.centreCards])).toEqual([
      ['ann', 1],
      ['bob', 2],
    ]);
  });

  it('a reversed race keeps the other racer\'s card: the dispute is ruled again, and the card returned may be played later', () => {
    const { state, log } = play([
      [0, { type: 'hand-started', hand: 1 }],
      [1000, { type: 'card-played', player: 'ann', card: 'AS', foundationId: 'f1', newPile: true }],
      [2000, { type: 'card-played', player: 'ann', card: '2S', foundationId: 'f1', newPile: false, ownerBy: 'track' }],
      [2050, { type: 'card-played', player: 'bob', card: '2S', foundationId: 'f1', newPile: false, ownerBy: 'race' }],
      [3000, { type: 'race-reversed', foundationId: 'f1', card: '2S', winner: 'bob', loser: 'ann', reason: "ann took their 2S back off the pile; bob's stayed" }],
      // Ann plays her 2S, taken home, on another spade pile.
      [4000, { type: 'card-played', player: 'bob', card: 'AS', foundationId: 'f2', newPile: true }],
      [5000, { type: 'card-played', player: 'ann', card: '2S', foundationId: 'f2', newPile: false }],
    ]);
    expect(log.flatMap((entry) => entry.violations)).toEqual([]);
    const view = toView(state, context);
    expect(view.disputes).toEqual([expect.objectContaining({ first: { player: 'ann', card: '2S' }, second: { player: 'bob', card: '2S' }, winner: 'bob', by: 'auto' })]);
    const onPiles = state.referee.hand!.plays.filter((p) => p.status === 'on-foundation').map((p) => [p.foundationId, p.card, p.owner]);
    expect(onPiles).toEqual([
      ['f1', 'AS', 'ann'],
      ['f1', '2S', 'bob'],
      ['f2', 'AS', 'bob'],
      ['f2', '2S', 'ann'],
    ]);
  });

  it('an owner revised moves the centre card to the other player, and the first owner may play their copy later', () => {
    const { state, log } = play([
      [0, { type: 'hand-started', hand: 1 }],
      [1000, { type: 'card-played', player: 'ann', card: 'AS', foundationId: 'f1', newPile: true }],
      [2000, { type: 'card-played', player: 'bob', card: '2S', foundationId: 'f1', newPile: false, ownerBy: 'track' }],
      [4000, { type: 'owner-revised', foundationId: 'f1', card: '2S', from: 'bob', to: 'ann', reason: "bob's 2S lies at home in their seat, so the one on the pile is ann's" }],
      // Not on the pile, or not bob's: nothing to revise.
      [4100, { type: 'owner-revised', foundationId: 'f1', card: '3S', from: 'bob', to: 'ann', reason: 'no such play' }],
      [4200, { type: 'owner-revised', foundationId: 'f1', card: '2S', from: 'bob', to: 'ann', reason: 'already revised' }],
      [5000, { type: 'card-played', player: 'bob', card: 'AS', foundationId: 'f2', newPile: true }],
      // Bob's own 2S, taken home, is no second copy from his deck.
      [6000, { type: 'card-played', player: 'bob', card: '2S', foundationId: 'f2', newPile: false }],
    ]);
    expect(log.flatMap((entry) => entry.violations)).toEqual([]);
    const onPiles = state.referee.hand!.plays.filter((p) => p.status === 'on-foundation').map((p) => [p.foundationId, p.card, p.owner]);
    expect(onPiles).toEqual([
      ['f1', 'AS', 'ann'],
      ['f1', '2S', 'ann'],
      ['f2', 'AS', 'bob'],
      ['f2', '2S', 'bob'],
    ]);
    expect(toView(state, context).players.map((p) => [p.id, p.centreCards])).toEqual([
      ['ann', 2],
      ['bob', 2],
    ]);
  });

  it('a withdrawn play leaves the centre: the pile drops back and the card may be played again', () => {
    const { state, log } = play([
      [0, { type: 'hand-started', hand: 1 }],
      [1000, { type: 'card-played', player: 'ann', card: 'AS', foundationId: 'f1', newPile: true }],
      [2000, { type: 'card-played', player: 'bob', card: '2S', foundationId: 'f1', newPile: false }],
      [2100, { type: 'card-played', player: 'ann', card: '3S', foundationId: 'f1', newPile: false }],
      [5000, { type: 'play-withdrawn', foundationId: 'f1', card: '3S', reason: 'f1 showed 2S on top again' }],
      [5100, { type: 'play-withdrawn', foundationId: 'f1', card: 'KD', reason: 'no such play' }],
      [8000, { type: 'card-played', player: 'bob', card: '3S', foundationId: 'f1', newPile: false }],
    ]);
    expect(log.flatMap((entry) => entry.violations)).toEqual([]);
    const view = toView(state, context);
    expect(view.foundations).toEqual([expect.objectContaining({ id: 'f1', top: '3S', count: 3 })]);
    expect(view.players.map((p) => [p.id, p.centreCards])).toEqual([
      ['ann', 1],
      ['bob', 2],
    ]);
  });

  it('a Nerts count the camera revises upwards is a correction, not a rising count to flag', () => {
    const { state, log } = play([
      [0, { type: 'hand-started', hand: 1 }],
      [1000, { type: 'nerts-count', player: 'ann', left: 12 }],
      [1500, { type: 'nerts-count', player: 'ann', left: 13, revised: 'the top before showed again' }],
      [2000, { type: 'nerts-count', player: 'bob', left: 12 }],
      [2500, { type: 'nerts-count', player: 'bob', left: 13 }],
    ]);
    expect(log.map((entry) => entry.violations)).toEqual([[], [], [], [], ['nerts/count-increased']]);
    expect(toView(state, context).players.map((p) => [p.id, p.nertsLeft])).toEqual([
      ['ann', 13],
      ['bob', 13],
    ]);
  });

  it('a rival copy opens a dispute (first stays), logged with a follow-up; a referee can overrule', () => {
    const { state, log, seq } = play([
      [0, { type: 'hand-started', hand: 1 }],
      [1000, { type: 'card-played', player: 'ann', card: 'AH', foundationId: 'f1', newPile: true }],
      [2000, { type: 'card-played', player: 'ann', card: '2H', foundationId: 'f1', newPile: false }],
      [2300, { type: 'card-played', player: 'bob', card: '2H', foundationId: 'f1', newPile: false }],
    ]);
    expect(log.map((entry) => entry.event.type)).toEqual(['hand-started', 'card-played', 'card-played', 'card-played', 'dispute-opened']);
    const view = toView(state, context);
    expect(view.disputes).toHaveLength(1);
    expect(view.disputes[0]).toMatchObject({ first: { player: 'ann', card: '2H' }, second: { player: 'bob', card: '2H' }, winner: 'ann', by: 'auto' });
    expect(view.players.map((p) => p.centreCards)).toEqual([2, 0]);

    const overruled = play([[3000, { type: 'dispute-resolved', disputeId: view.disputes[0].id, winner: 'bob', by: 'referee' }]], state, seq);
    const after = toView(overruled.state, context);
    expect(after.disputes[0]).toMatchObject({ winner: 'bob', by: 'referee' });
    expect(after.players.map((p) => p.centreCards)).toEqual([1, 1]);
    const bad = play([[3100, { type: 'dispute-resolved', disputeId: 'nope', winner: 'bob', by: 'referee' }]], overruled.state, overruled.seq);
    expect(bad.log[0].violations).toEqual(['dispute/unknown']);
  });

  it('a first racer reported after the card was given to the loser (timed a moment before it) wins the race', () => {
    // The tracker gave bob the 2H, then saw his copy come home: ann's hand had put it down (ownerCameHome).
    const { state } = play([
      [0, { type: 'hand-started', hand: 1 }],
      [1000, { type: 'card-played', player: 'ann', card: 'AH', foundationId: 'f1', newPile: true }],
      [2000, { type: 'card-played', player: 'bob', card: '2H', foundationId: 'f1', newPile: false }],
      [1999, { type: 'card-played', player: 'ann', card: '2H', foundationId: 'f1', newPile: false, ownerBy: 'hand' }],
    ]);
    const view = toView(state, context);
    expect(view.disputes).toHaveLength(1);
    expect(view.disputes[0]).toMatchObject({ first: { player: 'ann', card: '2H' }, second: { player: 'bob', card: '2H' }, winner: 'ann' });
    expect(view.players.map((p) => p.centreCards)).toEqual([2, 0]);
  });

  it('score-sort corrections: Nerts count directly, centre counts by moving ownership, or as counted', () => {
    const { state, seq } = play([
      [0, { type: 'hand-started', hand: 1 }],
      [1000, { type: 'card-played', player: 'ann', card: 'AD', foundationId: 'f1', newPile: true }],
      [2000, { type: 'card-played', player: 'ann', card: '2D', foundationId: 'f1', newPile: false }],
      [3000, { type: 'hand-ended' }],
    ]);
    const fixed = play(
      [
        [4000, { type: 'correction', player: 'ann', centreCards: 1, reason: 'the 2D has a red back: Bob\'s' }],
        [4100, { type: 'correction', player: 'bob', centreCards: 1, nertsLeft: 9, reason: 'sorted' }],
      ],
      state,
      seq,
    );
    const view = toView(fixed.state, context);
    expect(fixed.log.every((entry) => entry.violations.length === 0)).toBe(true);
    expect(view.players.map((p) => [p.centreCards, p.nertsLeft])).toEqual([
      [1, 13],
      [1, 9],
    ]);
    expect(view.scores!.find((row) => row.player === 'bob')!.nertsLeft).toBe(9);
    // More than the recorded plays can give (cards the camera never saw land): the count stands as counted.
    const counted = play([[5000, { type: 'correction', player: 'bob', centreCards: 5, reason: 'counted at the sort' }]], fixed.state, fixed.seq);
    expect(counted.log[0].violations).toEqual([]);
    expect(toView(counted.state, context).players.map((p) => p.centreCards)).toEqual([1, 5]);
    const nobody = play([[5000, { type: 'correction', player: 'eve', centreCards: 5, reason: 'miscount' }]], fixed.state, fixed.seq);
    expect(nobody.log[0].violations).toContain('correction/bad-target');
  });

  it('counts the centre cards the camera guessed the owner of, and a lowered count takes those first', () => {
    const { state, seq } = play([
      [0, { type: 'hand-started', hand: 1 }],
      [1000, { type: 'card-played', player: 'ann', card: 'AD', foundationId: 'f1', newPile: true, ownerBy: 'left-seat' }],
      [2000, { type: 'card-played', player: 'ann', card: '2D', foundationId: 'f1', newPile: false, ownerBy: 'guess' }],
      [3000, { type: 'card-played', player: 'ann', card: '3D', foundationId: 'f1', newPile: false, ownerBy: 'hand' }],
      [3500, { type: 'card-played', player: 'bob', card: '4D', foundationId: 'f1', newPile: false }],
      [4000, { type: 'hand-ended' }],
    ]);
    const before = toView(state, context);
    expect(before.players.map((p) => [p.id, p.centreCards, p.unsureCards])).toEqual([
      ['ann', 3, ['2D']],
      ['bob', 1, []],
    ]);
    // Ann's back count is 2: the guessed 2D loses its owner, not her latest card (the 3D).
    const fixed = play([[5000, { type: 'correction', player: 'ann', centreCards: 2, reason: 'sorted' }]], state, seq);
    const plays = fixed.state.referee.hand!.plays.map((p) => [p.card, p.owner]);
    expect(plays).toEqual([
      ['AD', 'ann'],
      ['2D', null],
      ['3D', 'ann'],
      ['4D', 'bob'],
    ]);
    expect(toView(fixed.state, context).players.map((p) => p.unsureCards)).toEqual([[], []]);
  });

  it('replaying the log reproduces the view exactly', () => {
    const events: Array<[number, TableEvent]> = [
      [0, { type: 'hand-started', hand: 1 }],
      [1000, { type: 'card-played', player: 'bob', card: 'AC', foundationId: 'f1', newPile: true }],
      [1500, { type: 'stall', sinceMs: 1000 }],
      [2000, { type: 'nerts-count', player: 'bob', left: 12 }],
    ];
    expect(toView(play(events).state, context)).toEqual(toView(play(events).state, context));
    expect(toView(play(events).state, context).stalledSinceMs).toBe(1000);
  });
});
