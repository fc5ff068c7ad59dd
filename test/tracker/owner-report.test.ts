/**
 * The owner report (server/tables/owner-report.ts): each centre card of a recording beside the
 * player the tracker credited and the cue that named them, and its command-line tool.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HandTruth } from '../../server/sim/bots/engine';
import { openRecording } from '../../server/tables/recording';
import { matchOwners, ownerReport, tallyByCue } from '../../server/tables/owner-report';
import { recordCleanHand } from './observations';

/** A truth play of `code` to a foundation from `tableau`'s tableau, landing at `landMs`. */
function truthPlay(index: number, code: 'AS' | '2S' | '3S', tableau: string, landMs: number): HandTruth['plays'][number] {
  return { index, player: tableau, tableau, seat: 0, move: { type: 'to-foundation', player: tableau, from: { kind: 'waste' }, foundationId: 'f1' }, cards: [{ code, deckId: `deck-${tableau}` }] as never, pickupMs: landMs - 500, landMs, nertsLeft: 13 };
}

describe('owner report', () => {
  it('matches each truth play to the tracker play of its card nearest in time, leaving out race losers', () => {
    const truth = {
      plays: [truthPlay(0, 'AS', 'ann', 1000), truthPlay(1, '2S', 'bob', 5000), truthPlay(2, '3S', 'ann', 9000)],
      disputes: [{ foundationId: 'f1', code: '2S', winner: { player: 'bob', deckId: 'deck-bob', landMs: 5000, playIndex: 1 }, loser: { player: 'ann', deckId: 'deck-ann', landMs: 5200, returnedMs: 6000, from: { kind: 'waste' } }, marginMs: 200 }],
    } as unknown as HandTruth;
    const played = (player: string, card: 'AS' | '2S' | '3S', timeMs: number, ownerBy: 'track' | 'hand' | 'race') => ({ timeMs, event: { type: 'card-played' as const, player, card, foundationId: 'f1', newPile: card === 'AS', ownerBy } });
    const rows = matchOwners(truth, [played('ann', 'AS', 900, 'track'), played('ann', '2S', 5300, 'race'), played('ann', '2S', 5100, 'hand'), played('ann', 'AS', 20_000, 'track')]);
    expect(rows).toEqual([
      { card: 'AS', truthOwner: 'ann', landMs: 1000, seenOwner: 'ann', cue: 'track' },
      { card: '2S', truthOwner: 'bob', landMs: 5000, seenOwner: 'ann', cue: 'hand', race: { winner: 'bob', loser: 'ann', marginMs: 200 } },
      { card: '3S', truthOwner: 'ann', landMs: 9000, seenOwner: null, cue: 'unseen' },
    ]);
    expect(tallyByCue(rows)).toEqual({ track: { right: 1, wrong: 0 }, hand: { right: 0, wrong: 1 }, unseen: { right: 0, wrong: 1 } });
  });

  it('matches two copies of a card landing at once (two aces starting two piles) each to the play crediting its player', () => {
    // 4 players seed 1 on truth observations: p1's and p4's AH landed 10 ms apart and the tracker
    // credited each right, but matched by time alone the report swapped them (two wrong rows).
    const truth = { plays: [truthPlay(0, 'AS', 'ann', 1370), truthPlay(1, 'AS', 'bob', 1380)], disputes: [] } as unknown as HandTruth;
    const played = (player: string, timeMs: number) => ({ timeMs, event: { type: 'card-played' as const, player, card: 'AS' as const, foundationId: `f-${player}`, newPile: true, ownerBy: 'track' as const } });
    const rows = matchOwners(truth, [played('bob', 1372), played('ann', 1378)]);
    expect(rows.map((row) => [row.truthOwner, row.seenOwner])).toEqual([['ann', 'ann'], ['bob', 'bob']]);
  });

  it("reports a recorded hand's centre cards by owner, and the command prints them", async () => {
    const { file, truth } = await recordCleanHand('owner-report-');
    const { meta, frames } = await openRecording(file);
    const [hand] = await ownerReport(meta, frames);
    const centrePlays = truth.plays.filter((play) => play.move.type === 'to-foundation');
    expect(hand.rows).toHaveLength(centrePlays.length);
    expect(hand.rows.map((row) => row.card)).toEqual(centrePlays.map((play) => play.cards[0].code));
    // Clean observations of two players: every card is credited to the player who played it.
    expect(hand.rows.filter((row) => row.seenOwner !== row.truthOwner)).toEqual([]);
    const printed = execFileSync('npx', ['tsx', 'server/cli/owner-report.ts', file], { encoding: 'utf8' });
    expect(printed).toMatch(new RegExp(`^hand 0: ${centrePlays.length} of ${centrePlays.length} centre cards credited right`));
    expect(JSON.parse(printed.trim().split('\n').at(-1)!)).toMatchObject({ plays: centrePlays.length, right: centrePlays.length });
    const bad = join(mkdtempSync(join(tmpdir(), 'owner-report-')), 'bad.jsonl');
    writeFileSync(bad, 'not json\n');
    expect(() => execFileSync('npx', ['tsx', 'server/cli/owner-report.ts', bad], { encoding: 'utf8', stdio: 'pipe' })).toThrow(/not a nerts-observations\/1 recording/);
  }, 60_000);
});
