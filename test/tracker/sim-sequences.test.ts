/**
 * The tracker and the rules bridge on recorded simulated hands: observation sequences built from
 * the simulator's ground truth (server/tracker/sim-observations.ts), clean and with seeded noise,
 * compared with the hand's truth. Seeds print on failure; a seed that once failed stays here.
 */
import { describe, expect, it } from 'vitest';
import { createSimTable } from '../../server/sim/live';
import { refereeFromTruth } from '../../server/tables/truth-referee';
import type { HandTruth } from '../../server/sim/bots/engine';
import type { TableView } from '../../server/protocol';
import type { Noise } from '../../server/tracker/sim-observations';

async function refereeSimulatedHand(players: number, seed: number, noise: Noise): Promise<{ truth: HandTruth; view: TableView }> {
  const sim = await createSimTable({ players, seed, fps: 10, render: false, hands: 1 });
  const [hand] = await refereeFromTruth(sim, noise, seed * 31 + players);
  return hand;
}

describe('tracker on simulated hands (ground-truth observations)', () => {
  for (const { players, seed } of [
    { players: 3, seed: 1 },
    { players: 2, seed: 3 },
  ]) {
    it(`clean observations, ${players} players, seed ${seed}: Nerts counts and the caller exact, centre counts close`, async () => {
      const { truth, view } = await refereeSimulatedHand(players, seed, { drop: 0, misread: 0 });
      const label = `players ${players} seed ${seed}`;
      for (const player of view.players) {
        expect(player.nertsLeft, `${label}: ${player.id} Nerts left`).toBe(truth.nertsLeft[player.id]);
        expect(Math.abs(player.centreCards - truth.centre[player.id]), `${label}: ${player.id} centre ${player.centreCards} vs ${truth.centre[player.id]}`).toBeLessThanOrEqual(2);
      }
      if (truth.endReason === 'call') expect(view.calledBy, label).toBe(truth.caller);
      const centreTruth = Object.values(truth.centre).reduce((a, b) => a + b, 0);
      const centreSeen = view.players.reduce((sum, p) => sum + p.centreCards, 0);
      expect(Math.abs(centreSeen - centreTruth), `${label}: centre total`).toBeLessThanOrEqual(2);
    });
  }

  it('30 fps, 3 players, seed 1: a card carried across the centre starts no pile (only cards lying still vote)', async () => {
    // Failed before: at 30 fps a flying card was seen in 3 frames within a pile radius of itself,
    // so it started phantom piles ("must start with an ace") and later plays landed off them
    // (centre off by up to 9 per player).
    const sim = await createSimTable({ players: 3, seed: 1, fps: 30, render: false, hands: 2 });
    const hands = await refereeFromTruth(sim, { drop: 0, misread: 0 }, 7919);
    for (const { truth, view, handIndex } of hands) {
      const piles = new Set(truth.plays.flatMap((p) => (p.foundationId !== undefined ? [p.foundationId] : [])));
      expect(view.foundations.length, `hand ${handIndex}: piles`).toBe(piles.size);
      for (const player of view.players) expect(Math.abs(player.centreCards - truth.centre[player.id]), `hand ${handIndex}: ${player.id} centre`).toBeLessThanOrEqual(1);
    }
  });

  it('30 fps, 4 players, seed 1: owners read off card tracks (two copies crossing, a winner hidden under the loser)', async () => {
    // Failed before: 2C and 9H given to the wrong player (the seat that last showed a copy is not
    // always the one that flew), centre off by 1 for two players.
    const sim = await createSimTable({ players: 4, seed: 1, fps: 30, render: false, hands: 1 });
    const [{ truth, view }] = await refereeFromTruth(sim, { drop: 0, misread: 0 }, 7919);
    for (const player of view.players) expect(player.centreCards, `${player.id} centre`).toBe(truth.centre[player.id]);
    const ruledRight = truth.disputes.filter((d) => view.disputes.some((v) => v.first.card === d.code && v.winner === d.winner?.player && v.second.player === d.loser.player));
    expect(ruledRight.length).toBeGreaterThanOrEqual(truth.disputes.length - 1);
  });

  it('30 fps, 3 players, seed 1: a copy followed lying in its seat during a race elsewhere is not the racer', async () => {
    // Failed before: p2's 3S flying past p3's 3S pile to its own pile, and p1's 3S turned up from
    // the stock, read as p1 racing p3 (a dispute that never happened).
    const sim = await createSimTable({ players: 3, seed: 1, fps: 30, render: false, hands: 1 });
    const [{ truth, view }] = await refereeFromTruth(sim, { drop: 0, misread: 0 }, 7919);
    expect(view.disputes.map((d) => `${d.first.card} ${d.winner}/${d.second.player}`)).toEqual(truth.disputes.map((d) => `${d.code} ${d.winner?.player}/${d.loser.player}`));
  });

  it('30 fps, 5 players, seed 1: a card found again where it vanished in the air landed when last seen moving', async () => {
    // Failed before: p1's 9S, hidden by p3's hand as it landed, was found again a few pixels off
    // (its last sighting was in the air) and taken for a card moving then: p3 got the slot.
    const sim = await createSimTable({ players: 5, seed: 1, fps: 30, render: false, hands: 1 });
    const [{ truth, view }] = await refereeFromTruth(sim, { drop: 0, misread: 0 }, 7919);
    for (const player of view.players) expect(player.centreCards, `${player.id} centre`).toBe(truth.centre[player.id]);
    expect(view.disputes.map((d) => `${d.first.card} ${d.winner}/${d.second.player}`)).toEqual(truth.disputes.map((d) => `${d.code} ${d.winner?.player}/${d.loser.player}`));
  });

  it('30 fps, 3 players, seed 1: a card landing just before the call counts (the call is placed after the last landing seen)', async () => {
    // Failed before: p2's 3H landed 147 ms before p3's call; the call, placed 0.8 s after p3's
    // last Nerts card, came before it, so the referee sent the 3H back.
    const sim = await createSimTable({ players: 3, seed: 1, fps: 30, render: false, hands: 1 });
    const [{ truth, view }] = await refereeFromTruth(sim, { drop: 0, misread: 0 }, 7919);
    expect(view.players.find((p) => p.id === 'p2')!.centreCards).toBe(truth.centre.p2);
    expect(view.calledBy).toBe(truth.caller);
  });

  it('30 fps, 6 players, seed 1: a last Nerts card that loses a race and comes back is no call', async () => {
    // Failed before: p5's last Nerts card (9H) left the pile, lost the race to p1's and went back;
    // the empty pile was taken for p5's call, 3 s before p1's real call.
    const sim = await createSimTable({ players: 6, seed: 1, fps: 30, render: false, hands: 1 });
    const [{ truth, view }] = await refereeFromTruth(sim, { drop: 0, misread: 0 }, 7919);
    expect(view.calledBy).toBe(truth.caller);
    for (const player of view.players) expect(player.nertsLeft, `${player.id} Nerts left`).toBe(truth.nertsLeft[player.id]);
    expect(view.players.find((p) => p.id === 'p1')!.centreCards).toBe(truth.centre.p1);
  });

  it('30 fps, 3 players, seed 2: a king set aside before it was voted in goes to the player whose card landed', async () => {
    // Failed before: p1's KD was pushed aside while still settling; the pile's vanishing inferred
    // the king 3 s later, when its track was gone, and gave it to p2.
    const sim = await createSimTable({ players: 3, seed: 2, fps: 30, render: false, hands: 1 });
    const [{ truth, view }] = await refereeFromTruth(sim, { drop: 0, misread: 0 }, 2 * 7919);
    for (const player of view.players) expect(player.centreCards, `${player.id} centre`).toBe(truth.centre[player.id]);
  });

  it('30 fps, 5 players, seed 2, noisy: a card slowing over its pile is the first lander, though its rest was estimated after the pile showed it', async () => {
    // Failed before: p2's 6C, followed from p2's Nerts pile, was last seen moving as the pile first
    // showed it; a frame was dropped, and its touchdown estimated from the next frame fell 46 ms
    // later, past firstLanderSlackMs: taken for a racer's copy, the card went to p4, whose seat
    // had shown a 6C last. Now the copy counts from when it came over the pile (CardTrack.arrival).
    const sim = await createSimTable({ players: 5, seed: 2, fps: 30, render: false, hands: 1 });
    const [{ truth, centre }] = await refereeFromTruth(sim, { drop: 0.1, misread: 0.03 }, 2 * 7919);
    const owners = (plays: Array<{ card: string; owner: string | null }>) => plays.filter((p) => p.card === '6C').map((p) => p.owner).sort();
    const truthPlays = truth.plays.filter((p) => p.move.type === 'to-foundation').map((p) => ({ card: p.cards[0].code, owner: p.tableau }));
    expect(owners(centre)).toEqual(owners(truthPlays));
  });

  it('30 fps, 6 players, seed 2: a copy followed in after the pile already showed the card is the racer, not the owner; a copy that flew and came home raced', async () => {
    // Failed before: p5's 4D landed unfollowed (it vanished in the air under a hand); p2's copy,
    // followed from its seat, came to rest 80 ms later and went back. The play was credited to p2
    // off that track, p5 lost the card and the race went unseen.
    const sim = await createSimTable({ players: 6, seed: 2, fps: 30, render: false, hands: 1 });
    const [{ truth, view }] = await refereeFromTruth(sim, { drop: 0, misread: 0 }, 2 * 7919);
    const race = truth.disputes.find((d) => d.code === '4D' && d.foundationId === 'f5')!;
    expect(`${race.winner?.player}/${race.loser.player}`).toBe('p5/p2');
    expect(view.disputes.some((d) => d.first.card === '4D' && d.winner === 'p5' && d.second.player === 'p2')).toBe(true);
    expect(view.players.find((p) => p.id === 'p5')!.centreCards).toBe(truth.centre.p5);
    // Failed before too: p6's 7D, last seen flying at 63.5 s, lost the race to p1's and came home
    // at 65.5 s; its track was picked up again there and taken for a copy that never left.
    expect(truth.disputes.some((d) => d.code === '7D' && d.winner?.player === 'p1' && d.loser.player === 'p6')).toBe(true);
    expect(view.disputes.some((d) => d.first.card === '7D' && d.winner === 'p1' && d.second.player === 'p6')).toBe(true);
  });

  it('noisy observations (10% dropped, 3% misread), 3 players, seed 2: Nerts counts exact, centre within 3 per player', async () => {
    const { truth, view } = await refereeSimulatedHand(3, 2, { drop: 0.1, misread: 0.03 });
    for (const player of view.players) {
      expect(player.nertsLeft, `seed 2: ${player.id} Nerts left`).toBe(truth.nertsLeft[player.id]);
      expect(Math.abs(player.centreCards - truth.centre[player.id]), `seed 2: ${player.id} centre`).toBeLessThanOrEqual(3);
    }
  });
});
