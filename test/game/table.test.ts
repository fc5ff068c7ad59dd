import { describe, expect, it } from 'vitest';
import { ALL_CARD_CODES } from '../../server/game/cards';
import { applyMove, cardsByDeck, dealTable, everyoneStuck, isStuck, legalMoves, type Move, type TableModel } from '../../server/game/table';
import { resolveVariant } from '../../server/game/variants';
import { type TableauSpec, tableWith } from './helpers';

const players = [
  { id: 'ann', deckId: 'red', backDesign: 'bicycle-red' },
  { id: 'bob', deckId: 'blue', backDesign: 'bicycle-blue' },
];

function ok(table: TableModel, move: Move): TableModel {
  const result = applyMove(table, move);
  expect(result.violations).toEqual([]);
  return result.table;
}

function codeOf(table: TableModel, move: Move) {
  return applyMove(table, move).violations.map((v) => v.code);
}

describe('deal', () => {
  it('[D1] deals a 13-card Nerts pile with the top face up, [D2] four work piles of one card, [D3] the rest to stock', () => {
    const table = dealTable({ players, variant: resolveVariant('nertz'), seed: 42 });
    for (const id of ['ann', 'bob']) {
      const t = table.players[id];
      expect(t.nertsPile).toHaveLength(13);
      expect(t.workPiles.map((p) => p.length)).toEqual([1, 1, 1, 1]);
      expect(t.stock).toHaveLength(35);
      expect(t.waste).toEqual([]);
    }
    expect(table.foundations).toEqual([]);
  });

  it('[K2] every deck holds its own 52 distinct cards owned by its player', () => {
    const table = dealTable({ players, variant: resolveVariant('nertz'), seed: 7 });
    const decks = cardsByDeck(table);
    expect(decks.red.slice().sort()).toEqual(ALL_CARD_CODES.slice().sort());
    expect(decks.blue.slice().sort()).toEqual(ALL_CARD_CODES.slice().sort());
    expect(table.players.ann.stock.every((c) => c.owner === 'ann' && c.deckId === 'red')).toBe(true);
  });

  it('[D1v] the same seed gives the same deal; another seed another; 10-card piles and handicaps', () => {
    const a = dealTable({ players, variant: resolveVariant('nertz'), seed: 5 });
    const b = dealTable({ players, variant: resolveVariant('nertz'), seed: 5 });
    const c = dealTable({ players, variant: resolveVariant('nertz'), seed: 6 });
    expect(a).toEqual(b);
    expect(a.players.ann.stock).not.toEqual(c.players.ann.stock);
    const ten = dealTable({ players, variant: resolveVariant({ nertsPileSize: 10 }), seed: 5 });
    expect(ten.players.ann.nertsPile).toHaveLength(10);
    const handicap = dealTable({ players: [{ ...players[0], nertsPileSize: 15 }, players[1]], variant: resolveVariant('nertz'), seed: 5 });
    expect(handicap.players.ann.nertsPile).toHaveLength(15);
    expect(handicap.players.bob.nertsPile).toHaveLength(13);
  });

  it('[K3] rejects fewer than two or more than six tableaux, shared decks and duplicate ids', () => {
    const variant = resolveVariant('nertz');
    expect(() => dealTable({ players: [players[0]], variant, seed: 1 })).toThrow(/2 to 6/);
    const seven = Array.from({ length: 7 }, (_, i) => ({ id: `p${i}`, deckId: `d${i}`, backDesign: 'x' }));
    expect(() => dealTable({ players: seven, variant, seed: 1 })).toThrow(/2 to 6/);
    expect(() => dealTable({ players: [players[0], { ...players[1], deckId: 'red' }], variant, seed: 1 })).toThrow(/own deck/);
    expect(() => dealTable({ players: [players[0], { ...players[1], id: 'ann' }], variant, seed: 1 })).toThrow(/duplicate/);
  });
});

describe('foundations on the table', () => {
  it('[F1] any ace starts a new foundation, ids f1, f2 in order; [F6] from the Nerts top, waste top or a work top', () => {
    let table = tableWith({ ann: { nerts: ['AH'], waste: ['AS'], work: [['AD']] }, bob: { nerts: ['AH'] } });
    table = ok(table, { type: 'to-foundation', player: 'ann', from: { kind: 'nerts' }, foundationId: null });
    table = ok(table, { type: 'to-foundation', player: 'bob', from: { kind: 'nerts' }, foundationId: null });
    table = ok(table, { type: 'to-foundation', player: 'ann', from: { kind: 'waste' }, foundationId: null });
    table = ok(table, { type: 'to-foundation', player: 'ann', from: { kind: 'work', pile: 0, index: 0 }, foundationId: null });
    expect(table.foundations.map((f) => [f.id, f.suit, f.cards[0].owner])).toEqual([
      ['f1', 'H', 'ann'],
      ['f2', 'H', 'bob'],
      ['f3', 'S', 'ann'],
      ['f4', 'D', 'ann'],
    ]);
  });

  it('[F1] only an ace starts a foundation', () => {
    const table = tableWith({ ann: { nerts: ['2H'] }, bob: {} });
    expect(codeOf(table, { type: 'to-foundation', player: 'ann', from: { kind: 'nerts' }, foundationId: null })).toEqual(['foundation/must-start-with-ace']);
  });

  it('[F2] builds up in suit one rank at a time; [F3] any player may play on any foundation', () => {
    let table = tableWith({ ann: { nerts: ['3H', 'AH'], waste: ['3S'] }, bob: { nerts: ['4H', '2H'] } });
    table = ok(table, { type: 'to-foundation', player: 'ann', from: { kind: 'nerts' }, foundationId: null });
    expect(codeOf(table, { type: 'to-foundation', player: 'ann', from: { kind: 'nerts' }, foundationId: 'f1' })).toEqual(['foundation/wrong-rank']);
    table = ok(table, { type: 'to-foundation', player: 'bob', from: { kind: 'nerts' }, foundationId: 'f1' });
    expect(codeOf(table, { type: 'to-foundation', player: 'ann', from: { kind: 'waste' }, foundationId: 'f1' })).toEqual(['foundation/wrong-suit']);
    table = ok(table, { type: 'to-foundation', player: 'ann', from: { kind: 'nerts' }, foundationId: 'f1' });
    expect(table.foundations[0].cards.map((c) => `${c.code}:${c.owner}`)).toEqual(['AH:ann', '2H:bob', '3H:ann']);
  });

  it('[F4] a king completes the foundation and nothing more may go on it', () => {
    const codes = ['AS', '2S', '3S', '4S', '5S', '6S', '7S', '8S', '9S', '10S', 'JS', 'QS', 'KS'] as const;
    let table = tableWith({ ann: { waste: [...codes].reverse() }, bob: { nerts: ['AS'] } });
    table = ok(table, { type: 'to-foundation', player: 'ann', from: { kind: 'waste' }, foundationId: null });
    for (let i = 1; i < 13; i++) table = ok(table, { type: 'to-foundation', player: 'ann', from: { kind: 'waste' }, foundationId: 'f1' });
    expect(table.foundations[0].completed).toBe(true);
    expect(table.foundations[0].cards).toHaveLength(13);
    const after = applyMove(table, { type: 'to-foundation', player: 'bob', from: { kind: 'nerts' }, foundationId: 'f1' });
    expect(after.violations.map((v) => v.code)).toEqual(['foundation/completed']);
    expect(legalMoves(table, 'bob').some((m) => m.type === 'to-foundation' && m.foundationId === 'f1')).toBe(false);
  });

  it('[F5] no move takes a card out of a foundation, and an illegal move leaves the table unchanged', () => {
    let table = tableWith({ ann: { nerts: ['AH'] }, bob: {} });
    table = ok(table, { type: 'to-foundation', player: 'ann', from: { kind: 'nerts' }, foundationId: null });
    const moves = legalMoves(table, 'ann');
    expect(moves.every((m) => !('from' in m) || ['nerts', 'waste', 'work'].includes(m.from.kind))).toBe(true);
    const bad = applyMove(table, { type: 'to-work', player: 'ann', from: { kind: 'nerts' }, pile: 0 });
    expect(bad.table).toBe(table);
    expect(bad.violations[0].code).toBe('source/empty');
  });
});

describe('work piles', () => {
  it('[W1] builds down in alternating colour', () => {
    const table = tableWith({ ann: { waste: ['6H'], work: [['7S'], ['7D'], ['8C']] }, bob: {} });
    expect(codeOf(table, { type: 'to-work', player: 'ann', from: { kind: 'waste' }, pile: 0 })).toEqual([]);
    expect(codeOf(table, { type: 'to-work', player: 'ann', from: { kind: 'waste' }, pile: 1 })).toEqual(['work/wrong-colour']);
    expect(codeOf(table, { type: 'to-work', player: 'ann', from: { kind: 'waste' }, pile: 2 })).toEqual(['work/wrong-rank']);
  });

  it('[W2] moving a card moves the cards on it: runs move whole, never split', () => {
    let table = tableWith({ ann: { work: [['9S', '8H', '7C'], ['9C']] }, bob: {} });
    table = ok(table, { type: 'to-work', player: 'ann', from: { kind: 'work', pile: 0, index: 1 }, pile: 1 });
    expect(table.players.ann.workPiles[0].map((c) => c.code)).toEqual(['9S']);
    expect(table.players.ann.workPiles[1].map((c) => c.code)).toEqual(['9C', '8H', '7C']);
    // Only the top card of a work pile is exposed for a foundation.
    const t2 = tableWith({ ann: { work: [['2S', 'AS']] }, bob: {} });
    expect(codeOf(t2, { type: 'to-foundation', player: 'ann', from: { kind: 'work', pile: 0, index: 0 }, foundationId: null })).toEqual(['source/not-exposed']);
  });

  it('[W3] a player moves only on their own tableau', () => {
    const table = tableWith({ ann: { waste: ['6H'] }, bob: { work: [['7S']] } });
    // 6H would fit on bob's 7S, but ann's moves only ever name her own tableau.
    expect(legalMoves(table, 'ann').every((m) => !('player' in m) || m.player === 'ann')).toBe(true);
    expect(legalMoves(table, 'ann').filter((m) => m.type === 'to-work').map((m) => m.type === 'to-work' && table.players.ann.workPiles[m.pile].length)).toEqual([0, 0, 0, 0]);
    expect(codeOf(table, { type: 'to-work', player: 'zed', from: { kind: 'waste' }, pile: 0 })).toEqual(['player/unknown']);
  });

  it('[W4] an empty space takes any available card (nertz) or only the Nerts top card (snerts, gnerts)', () => {
    const spec = { ann: { nerts: ['5C'], waste: ['6H'], work: [[], ['9S']] }, bob: {} } as const;
    const anyFill = tableWith({ ann: { nerts: ['5C'], waste: ['6H'], work: [[], ['9S']] }, bob: {} }, 'nertz');
    expect(codeOf(anyFill, { type: 'to-work', player: 'ann', from: { kind: 'waste' }, pile: 0 })).toEqual([]);
    for (const preset of ['snerts', 'gnerts'] as const) {
      const nertsFill = tableWith({ ann: { nerts: ['5C'], waste: ['6H'], work: [[], ['9S']] }, bob: {} }, preset);
      expect(codeOf(nertsFill, { type: 'to-work', player: 'ann', from: { kind: 'waste' }, pile: 0 })).toEqual(['work/empty-space-rule']);
      expect(codeOf(nertsFill, { type: 'to-work', player: 'ann', from: { kind: 'nerts' }, pile: 0 })).toEqual([]);
    }
    expect(spec.ann.nerts).toEqual(['5C']);
  });

  it('[W5] snerts: Nerts cards go only to empty spaces or foundations', () => {
    const snerts = tableWith({ ann: { nerts: ['10H'], work: [['JS'], []] }, bob: {} }, 'snerts');
    expect(codeOf(snerts, { type: 'to-work', player: 'ann', from: { kind: 'nerts' }, pile: 0 })).toEqual(['nerts/only-to-empty-or-foundation']);
    const nertz = tableWith({ ann: { nerts: ['10H'], work: [['JS'], []] }, bob: {} }, 'nertz');
    expect(codeOf(nertz, { type: 'to-work', player: 'ann', from: { kind: 'nerts' }, pile: 0 })).toEqual([]);
  });

  it('[W6] snerts: with an empty space, a card one higher and opposite colour slides under a pile', () => {
    let table = tableWith({ ann: { nerts: ['QC'], work: [['JH', '10S'], []] }, bob: {} }, 'snerts');
    table = ok(table, { type: 'slide-under', player: 'ann', from: { kind: 'nerts' }, pile: 0 });
    expect(table.players.ann.workPiles[0].map((c) => c.code)).toEqual(['QC', 'JH', '10S']);
    const noSpace = tableWith({ ann: { nerts: ['QC'], work: [['JH'], ['2C'], ['3C'], ['4C']] }, bob: {} }, 'snerts');
    expect(codeOf(noSpace, { type: 'slide-under', player: 'ann', from: { kind: 'nerts' }, pile: 0 })).toEqual(['slide-under/no-empty-pile']);
    const off = tableWith({ ann: { nerts: ['QC'], work: [['JH'], []] }, bob: {} }, 'nertz');
    expect(codeOf(off, { type: 'slide-under', player: 'ann', from: { kind: 'nerts' }, pile: 0 })).toEqual(['slide-under/not-allowed']);
    const wrong = tableWith({ ann: { nerts: ['QH'], work: [['JH'], []] }, bob: {} }, 'snerts');
    expect(codeOf(wrong, { type: 'slide-under', player: 'ann', from: { kind: 'nerts' }, pile: 0 })).toEqual(['slide-under/wrong-card']);
  });
});

describe('Nerts pile, stock and waste', () => {
  it('[N1] only the Nerts top card plays; the next one becomes the top', () => {
    let table = tableWith({ ann: { nerts: ['2H', 'AS'] }, bob: {} });
    table = ok(table, { type: 'to-foundation', player: 'ann', from: { kind: 'nerts' }, foundationId: null });
    expect(table.players.ann.nertsPile.map((c) => c.code)).toEqual(['2H']);
  });

  it('[ST1] turns three at a time keeping order: the third card from the top of the stock lands on top', () => {
    // Stock is bottom..top: 'AS' is the top card.
    let table = tableWith({ ann: { stock: ['9C', '5D', '4D', '3D', '2D', 'AS'] }, bob: {} });
    table = ok(table, { type: 'turn-stock', player: 'ann' });
    expect(table.players.ann.waste.map((c) => c.code)).toEqual(['AS', '2D', '3D']);
    expect(table.players.ann.stock.map((c) => c.code)).toEqual(['9C', '5D', '4D']);
  });

  it('[ST2] only the top waste card is playable', () => {
    const table = tableWith({ ann: { waste: ['AS', '2D', '3D'] }, bob: {} });
    const fromWaste = legalMoves(table, 'ann').filter((m) => m.type === 'to-foundation');
    expect(fromWaste).toEqual([]);
  });

  it('[ST3] the last one or two cards go onto the waste, then the waste turns over into a new stock', () => {
    let table = tableWith({ ann: { stock: ['KC', '2C', '3C', '4C', '5C'] }, bob: {} });
    table = ok(table, { type: 'turn-stock', player: 'ann' });
    table = ok(table, { type: 'turn-stock', player: 'ann' });
    expect(table.players.ann.stock).toEqual([]);
    expect(table.players.ann.waste.map((c) => c.code)).toEqual(['5C', '4C', '3C', '2C', 'KC']);
    table = ok(table, { type: 'turn-stock', player: 'ann' });
    expect(table.players.ann.waste).toEqual([]);
    // Turned over as a whole: the first card turned is the top of the new stock again.
    expect(table.players.ann.stock.map((c) => c.code)).toEqual(['KC', '2C', '3C', '4C', '5C']);
    const empty = tableWith({ ann: {}, bob: {} });
    expect(codeOf(empty, { type: 'turn-stock', player: 'ann' })).toEqual(['stock/empty']);
  });
});

describe('the call', () => {
  it('[C1] only a player with an empty Nerts pile may call; [C2] play stops at once after the call', () => {
    const table = tableWith({ ann: { nerts: ['5C'] }, bob: { waste: ['AS'] } });
    expect(codeOf(table, { type: 'call', player: 'ann' })).toEqual(['call/nerts-pile-not-empty']);
    const bobCalls = ok(table, { type: 'call', player: 'bob' });
    expect(bobCalls.called).toBe('bob');
    expect(bobCalls.ended).toBe(true);
    expect(codeOf(bobCalls, { type: 'to-foundation', player: 'bob', from: { kind: 'waste' }, foundationId: null })).toEqual(['hand/play-after-call']);
    expect(legalMoves(bobCalls, 'ann')).toEqual([]);
  });

  it('[C3] a player may keep playing with an empty Nerts pile before calling', () => {
    let table = tableWith({ ann: { waste: ['AS'] }, bob: {} });
    expect(legalMoves(table, 'ann').some((m) => m.type === 'call')).toBe(true);
    table = ok(table, { type: 'to-foundation', player: 'ann', from: { kind: 'waste' }, foundationId: null });
    expect(table.ended).toBe(false);
  });
});

describe('getting stuck', () => {
  // Neither player can move: same-colour work piles, unplayable Nerts cards. Ann's stock (bottom..top)
  // hides AS where turning by three never reaches it until the stock is rotated.
  const stuckSpec = (annStock: TableauSpec['stock']) =>
    tableWith({
      ann: { nerts: ['5C'], work: [['9H'], ['9D'], ['8H'], ['8D']], stock: annStock },
      bob: { nerts: ['5H'], work: [['9H'], ['9D'], ['8H'], ['8D']] },
    });

  it('[S1] when everyone is stuck, each turns the waste into stock and moves the top stock card to the bottom', () => {
    let table = stuckSpec(['KD', 'QD', 'AS', 'JD']);
    expect(everyoneStuck(table)).toBe(true);
    expect(legalMoves(table, 'bob')).toContainEqual({ type: 'stuck-rotation' });
    table = ok(table, { type: 'turn-stock', player: 'ann' });
    table = ok(table, { type: 'stuck-rotation' });
    expect(table.rotations).toBe(1);
    expect(table.players.ann.waste).toEqual([]);
    expect(table.players.ann.stock.map((c) => c.code)).toEqual(['JD', 'KD', 'QD', 'AS']);
    table = ok(table, { type: 'stuck-rotation' });
    // Now turning reaches the ace: ann is no longer stuck.
    expect(isStuck(table, 'ann')).toBe(false);
  });

  it('[S2] a stuck player waits for everyone: rotating while someone can play is refused unless all agree', () => {
    const table = tableWith({ ann: { nerts: ['5C'], work: [['9H'], ['9D'], ['8H'], ['8D']] }, bob: { nerts: ['AH'] } });
    expect(isStuck(table, 'ann')).toBe(true);
    expect(isStuck(table, 'bob')).toBe(false);
    expect(codeOf(table, { type: 'stuck-rotation' })).toEqual(['hand/not-stuck']);
    expect(legalMoves(table, 'ann').some((m) => m.type === 'stuck-rotation')).toBe(false);
    expect(codeOf(table, { type: 'stuck-rotation', agreed: true })).toEqual([]);
  });

  it('[S3] G\'NERTS: after three rotations the next standstill ends the round', () => {
    let table = { ...stuckSpec(['KD', 'QD', 'AS', 'JD']), variant: resolveVariant('gnerts') };
    table = { ...table, rotations: 3 };
    const end = ok(table, { type: 'stuck-rotation' });
    expect(end).toMatchObject({ ended: true, endReason: 'rotation-limit', rotations: 3 });
  });

  it('[S4] everyone stuck and no stock card can play: the hand ends', () => {
    const table = stuckSpec(['KD', 'QD', 'JD', '10C']);
    const end = ok(table, { type: 'stuck-rotation' });
    expect(end).toMatchObject({ ended: true, endReason: 'standstill', called: null });
    expect(codeOf(end, { type: 'turn-stock', player: 'ann' })).toEqual(['hand/ended']);
  });
});

describe('partnerships on the table', () => {
  it('[K4] two players share one tableau: either may move on it, and its cards belong to the team', () => {
    let table = dealTable({
      players: [
        { id: 'reds', deckId: 'red', backDesign: 'r', members: ['ann', 'amy'] },
        { id: 'bob', deckId: 'blue', backDesign: 'b' },
      ],
      variant: resolveVariant('nuts'),
      seed: 3,
    });
    expect(Object.keys(table.players)).toEqual(['reds', 'bob']);
    expect(table.players.reds.members).toEqual(['reds', 'ann', 'amy']);
    table = ok(table, { type: 'turn-stock', player: 'amy' });
    expect(table.players.reds.waste).toHaveLength(3);
    expect(table.players.reds.waste.every((c) => c.owner === 'reds')).toBe(true);
    expect(legalMoves(table, 'ann').length).toBeGreaterThan(0);
  });
});
