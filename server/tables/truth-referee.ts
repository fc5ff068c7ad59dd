/**
 * Referees simulated hands from ground-truth observations (server/tracker/sim-observations.ts):
 * the tracker and the rules bridge exactly as a live table runs them, minus the recogniser and
 * the sockets. Measures the tracker apart from vision (tests, `bench:referee -- --observations truth`).
 */
import type { SimTable } from '../sim/live';
import type { HandTruth } from '../sim/bots/engine';
import { presetCamera, type CameraPose } from '../sim/render/camera';
import type { TableView } from '../protocol';
import { DEFAULT_TRACKER_TUNING, flushPending, initialTrackerState, step, type TimedEvent, type TrackerState } from '../tracker/tracker';
import { sceneObservations, seededRandom, type Noise } from '../tracker/sim-observations';
import { simCalibration } from './sim-calibration';
import { applyRules, initialRulesState, toView, variantInput, type RulesContext, type RulesState } from './rules';

/** One refereed hand: the server's view after scoring and the simulator's truth. */
export interface TruthRefereedHand {
  handIndex: number;
  view: TableView;
  truth: HandTruth;
}

/**
 * Plays every hand of `sim` (created with `render: false` is enough) through tracker and rules,
 * observations built from each scene with `noise` (seeded by `noiseSeed`). The camera defaults
 * to the top-down preset framing the table at 1280x720.
 */
export async function refereeFromTruth(sim: SimTable, noise: Noise, noiseSeed: number, camera: CameraPose = sim.camera ?? presetCamera('top', 1280, 720, sim.layout.table)): Promise<TruthRefereedHand[]> {
  const calibration = simCalibration(sim.layout, camera);
  const context: RulesContext = {
    tableId: 'sim',
    players: sim.players.map((p) => ({ id: p.id, name: p.id, seat: p.seat, deckId: p.deckId, ...(p.team ? { team: p.team } : {}), nertsPileSize: sim.variant.nertsPileSize })),
    variant: variantInput(sim.variant.name, {}, sim.variant.scoring.target),
  };
  const config = { ...DEFAULT_TRACKER_TUNING, players: sim.players.map((p) => ({ seat: p.seat, playerId: p.id, nertsPileSize: sim.variant.nertsPileSize })) };
  const random = seededRandom(noiseSeed);
  const hands: TruthRefereedHand[] = [];
  let tracker: TrackerState = initialTrackerState(config);
  let rules: RulesState = initialRulesState();
  let seq = 0;
  const apply = (events: TimedEvent[]) => {
    for (const { event, timeMs } of events) rules = applyRules(rules, event, timeMs, seq++, context).state;
  };
  for await (const frame of sim) {
    if (frame.frameIndex === 0) {
      tracker = initialTrackerState(config);
      apply([{ timeMs: frame.timeMs, event: { type: 'hand-started', hand: frame.handIndex + 1 } }]);
    }
    const result = step(tracker, sceneObservations(frame.scene, camera, calibration, noise, random), config);
    tracker = result.state;
    apply(result.events);
    if (frame.lastOfHand) {
      const flushed = flushPending(tracker, config);
      tracker = flushed.state;
      apply(flushed.events);
      apply([{ timeMs: frame.timeMs + 1, event: { type: 'hand-ended' } }]);
      hands.push({ handIndex: frame.handIndex, view: toView(rules, context), truth: frame.handTruth });
    }
  }
  return hands;
}
