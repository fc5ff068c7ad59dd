/**
 * The tracker and the rules bridge on recorded simulated hands: observation sequences built from
 * the simulator's ground truth (test/tracker/sim-observations.ts), clean and with seeded noise,
 * compared with the hand's truth. Seeds print on failure; a seed that once failed stays here.
 */
import { describe, expect, it } from 'vitest';
import { createSimTable } from '../../server/sim/live';
import { presetCamera } from '../../server/sim/render/camera';
import { simCalibration } from '../../server/tables/sim-calibration';
import { DEFAULT_TRACKER_TUNING, flushPending, initialTrackerState, step, type TimedEvent } from '../../server/tracker/tracker';
import { applyRules, initialRulesState, toView, variantInput, type RulesContext } from '../../server/tables/rules';
import type { HandTruth } from '../../server/sim/bots/engine';
import type { TableView } from '../../server/protocol';
import { sceneObservations, seededRandom, type Noise } from './sim-observations';

async function refereeSimulatedHand(players: number, seed: number, noise: Noise): Promise<{ truth: HandTruth; view: TableView }> {
  const sim = await createSimTable({ players, seed, fps: 10, render: false, hands: 1 });
  const camera = presetCamera('top', 1280, 720, sim.layout.table);
  const calibration = simCalibration(sim.layout, camera);
  const context: RulesContext = {
    tableId: 'sim',
    players: sim.players.map((p) => ({ id: p.id, name: p.id, seat: p.seat, deckId: p.deckId, nertsPileSize: sim.variant.nertsPileSize })),
    variant: variantInput('nertz', {}, 100),
  };
  const config = { ...DEFAULT_TRACKER_TUNING, players: sim.players.map((p) => ({ seat: p.seat, playerId: p.id, nertsPileSize: sim.variant.nertsPileSize })) };
  let tracker = initialTrackerState(config);
  let rules = initialRulesState();
  let seq = 0;
  const apply = (events: TimedEvent[]) => {
    for (const { event, timeMs } of events) rules = applyRules(rules, event, timeMs, seq++, context).state;
  };
  apply([{ timeMs: 0, event: { type: 'hand-started', hand: 1 } }]);
  const random = seededRandom(seed * 31 + players);
  let truth: HandTruth | null = null;
  let lastTime = 0;
  for await (const frame of sim) {
    truth = frame.handTruth;
    lastTime = frame.timeMs;
    const result = step(tracker, sceneObservations(frame.scene, camera, calibration, noise, random), config);
    tracker = result.state;
    apply(result.events);
  }
  const flushed = flushPending(tracker, config);
  apply(flushed.events);
  apply([{ timeMs: lastTime + 1, event: { type: 'hand-ended' } }]);
  return { truth: truth!, view: toView(rules, context) };
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
      // The simulator lets cards in the air at the call land and count; the nertz preset sends them back.
      expect(Math.abs(centreSeen - centreTruth), `${label}: centre total`).toBeLessThanOrEqual(2);
    });
  }

  it('noisy observations (10% dropped, 3% misread), 3 players, seed 2: Nerts counts exact, centre within 3 per player', async () => {
    const { truth, view } = await refereeSimulatedHand(3, 2, { drop: 0.1, misread: 0.03 });
    for (const player of view.players) {
      expect(player.nertsLeft, `seed 2: ${player.id} Nerts left`).toBe(truth.nertsLeft[player.id]);
      expect(Math.abs(player.centreCards - truth.centre[player.id]), `seed 2: ${player.id} centre`).toBeLessThanOrEqual(3);
    }
  });
});
