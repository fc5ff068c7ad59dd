import { describe, expect, it } from 'vitest';
import { addHand, newMatch, scoreMatch, tournamentMovement, tournamentStandings, tournamentTableRecord } from '../../server/game/match';
import { type HandScore, type HandTally } from '../../server/game/scoring';
import { resolveVariant } from '../../server/game/variants';

const hand = (centre: Record<string, number>, nertsLeft: Record<string, number>, caller: string | null): HandTally => ({ centre, nertsLeft, caller });
const scored = (scores: Record<string, number>, callerEntity: string | null = null): HandScore => ({
  scores,
  lines: Object.fromEntries(Object.entries(scores).map(([k, v]) => [k, { centre: v, nertsLeft: 0, penalty: 0, bonus: 0, total: v }])),
  callerEntity,
});

describe('match', () => {
  it('[M1] hands accumulate into totals', () => {
    const rules = resolveVariant('nertz').scoring;
    const { match } = scoreMatch(rules, ['ann', 'bob'], [hand({ ann: 10, bob: 5 }, { ann: 0, bob: 3 }, 'ann'), hand({ ann: 4, bob: 12 }, { ann: 2, bob: 0 }, 'bob')]);
    expect(match.hands.map((h) => h.scores)).toEqual([{ ann: 10, bob: -1 }, { ann: 0, bob: 12 }]);
    expect(match.totals).toEqual({ ann: 10, bob: 11 });
    expect(match.ended).toBe(false);
    expect(match.winner).toBeNull();
  });

  it('[M2] snerts: the caller reaching the target wins even when not the highest', () => {
    const rules = resolveVariant('snerts').scoring;
    let match = newMatch(['ann', 'bob']);
    match = addHand(rules, match, scored({ ann: 90, bob: 95 }));
    match = addHand(rules, match, scored({ ann: 12, bob: 10 }, 'ann'));
    expect(match.totals).toEqual({ ann: 102, bob: 105 });
    expect(match.winner).toBe('ann');
    expect(match.ended).toBe(true);
  });

  it('[M2] snerts: a caller short of the target loses to the highest who reached it', () => {
    const rules = resolveVariant('snerts').scoring;
    let match = newMatch(['ann', 'bob', 'cy']);
    match = addHand(rules, match, scored({ ann: 90, bob: 95, cy: 50 }));
    match = addHand(rules, match, scored({ ann: 12, bob: 10, cy: 20 }, 'cy'));
    expect(match.winner).toBe('bob');
  });

  it('[M2] highest at target, ties play on; nuts needs to exceed the target', () => {
    const nertz = resolveVariant({ preset: 'nertz', handCap: null }).scoring;
    let match = newMatch(['ann', 'bob']);
    match = addHand(nertz, match, scored({ ann: 100, bob: 100 }));
    expect(match.ended).toBe(false);
    expect(match.tiedLeaders).toEqual(['ann', 'bob']);
    match = addHand(nertz, match, scored({ ann: 1, bob: 0 }));
    expect(match.winner).toBe('ann');

    const nuts = resolveVariant('nuts').scoring;
    let m2 = addHand(nuts, newMatch(['ann', 'bob']), scored({ ann: 100, bob: 20 }));
    expect(m2.ended).toBe(false);
    m2 = addHand(nuts, m2, scored({ ann: 1, bob: 0 }));
    expect(m2.winner).toBe('ann');

    const house = resolveVariant('house-150').scoring;
    const m3 = addHand(house, addHand(house, newMatch(['ann', 'bob']), scored({ ann: 100, bob: 120 })), scored({ ann: 60, bob: 31 }));
    expect(m3.winner).toBe('ann');
    expect(m3.totals).toEqual({ ann: 160, bob: 151 });
  });

  it('[M3] nertz hand cap: after 20 hands the highest total wins; a tie ends undecided', () => {
    const rules = resolveVariant('nertz').scoring;
    const twenty = Array.from({ length: 20 }, (_, i) => hand({ ann: 3, bob: i === 0 ? 4 : 3 }, { ann: 0, bob: 0 }, null));
    const { match } = scoreMatch(rules, ['ann', 'bob'], twenty);
    expect(match.hands).toHaveLength(20);
    expect(match).toMatchObject({ ended: true, winner: 'bob', endReason: 'hand-cap' });
    const tied = scoreMatch(rules, ['ann', 'bob'], Array.from({ length: 20 }, () => hand({ ann: 2, bob: 2 }, { ann: 0, bob: 0 }, null))).match;
    expect(tied).toMatchObject({ ended: true, winner: null, tiedLeaders: ['ann', 'bob'] });
    const extra = scoreMatch(rules, ['ann', 'bob'], [...twenty, hand({ ann: 1, bob: 1 }, { ann: 0, bob: 0 }, null)]);
    expect(extra.handsAfterEnd).toBe(1);
    expect(() => addHand(rules, match, scored({ ann: 1, bob: 1 }))).toThrow(/over/);
  });

  it('[P7] teams accumulate as one entity', () => {
    const rules = resolveVariant('house-150').scoring;
    const { match } = scoreMatch(rules, ['ann', 'bob', 'cy', 'dee'], [hand({ ann: 10, bob: 6, cy: 8, dee: 2 }, { ann: 0, bob: 3, cy: 5, dee: 1 }, 'ann')], { red: ['ann', 'bob'], blue: ['cy', 'dee'] });
    expect(match.entities).toEqual(['red', 'blue']);
    expect(match.totals).toEqual({ red: 20, blue: -2 });
  });
});

describe('tournament', () => {
  it('[T1] the table winner records 100, the others their score before the final hand', () => {
    const rules = resolveVariant('tournament').scoring;
    let match = newMatch(['A', 'B', 'C', 'D']);
    match = addHand(rules, match, scored({ A: 85, B: 93, C: 67, D: 80 }));
    expect(tournamentTableRecord(rules, match)).toBeNull();
    match = addHand(rules, match, scored({ A: 3, B: 2, C: 35, D: 1 }, 'C'));
    expect(match.winner).toBe('C');
    expect(tournamentTableRecord(rules, match)).toEqual({ A: 85, B: 93, C: 100, D: 80 });
  });

  it('[T2] the top two of each table move to the next lower-numbered table; ties cut cards, high card moves, ace low', () => {
    const plain = tournamentMovement([
      { table: 1, records: { A: 100, B: 90, C: 80, D: 70 } },
      { table: 2, records: { E: 100, F: 60, G: 75, H: 40 } },
    ]);
    expect(plain.moves).toEqual([
      { player: 'E', from: 2, to: 1 },
      { player: 'G', from: 2, to: 1 },
    ]);
    const tie = { table: 3, records: { E: 100, F: 75, G: 75, H: 40 } };
    expect(tournamentMovement([tie]).needsCut).toEqual([{ table: 3, players: ['F', 'G'] }]);
    const cut = tournamentMovement([tie], { F: 'AS', G: '2H' });
    expect(cut.moves.map((m) => m.player)).toEqual(['E', 'G']);
    const again = tournamentMovement([tie], { F: 'KS', G: 'KH' });
    expect(again.needsCut).toEqual([{ table: 3, players: ['F', 'G'] }]);
  });

  it('[T3] highest total over the tables wins; a tie for first needs a tie-breaker', () => {
    expect(tournamentStandings([{ A: 100, B: 80 }, { A: 70, B: 100 }, { A: 100, B: 60 }])).toMatchObject({ winner: 'A', totals: { A: 270, B: 240 } });
    expect(tournamentStandings([{ A: 100, B: 80 }, { A: 80, B: 100 }]).tieBreaker).toEqual(['A', 'B']);
  });
});

describe('handicaps', () => {
  it('[M4] a per-player Nerts pile size: dealt by the table model, counted by the referee, scored as usual', async () => {
    const { dealTable } = await import('../../server/game/table');
    const { replay } = await import('../../server/game/referee');
    const table = dealTable({ players: [{ id: 'pro', deckId: 'd1', backDesign: 'b1', nertsPileSize: 16 }, { id: 'kid', deckId: 'd2', backDesign: 'b2', nertsPileSize: 9 }], variant: resolveVariant('nertz'), seed: 11 });
    expect([table.players.pro.nertsPile.length, table.players.kid.nertsPile.length]).toEqual([16, 9]);
    expect(table.players.pro.stock.length).toBe(52 - 16 - 4);
    const state = replay([
      { type: 'hand-started', atMs: 0, variant: 'nertz', players: [{ id: 'pro', seat: 0, deckId: 'd1', backDesign: 'b1', nertsPileSize: 16 }, { id: 'kid', seat: 1, deckId: 'd2', backDesign: 'b2', nertsPileSize: 9 }] },
      { type: 'hand-scored', atMs: 1 },
    ]);
    expect(state.hand!.scores!.scores).toEqual({ pro: -32, kid: -18 });
  });
});
