/**
 * Referees simulated hands from observations: built from the ground truth
 * (server/tracker/sim-observations.ts), or recorded from the real recogniser (recording.ts).
 * The tracker and the rules bridge run exactly as on a live table, minus the recogniser and
 * the sockets, so the tracker is measured apart from vision and in seconds
 * (tests, `bench:referee -- --observations truth|FILE`).
 */
import type { SimFrame, SimTable } from '../sim/live';
import type { HandTruth } from '../sim/bots/engine';
import { presetCamera, type CameraPose } from '../sim/render/camera';
import type { TableView, Violation } from '../protocol';
import type { FrameObservations } from '../vision/types';
import { DEFAULT_TRACKER_TUNING, flushPending, initialTrackerState, markCalled, step, type TimedEvent, type TrackerConfig, type TrackerState } from '../tracker/tracker';
import { sceneObservations, seededRandom, type Noise } from '../tracker/sim-observations';
import { simCalibration } from './sim-calibration';
import { applyRules, initialRulesState, toView, variantInput, type RulesContext, type RulesState } from './rules';

/** One refereed hand: the server's view after scoring and the simulator's truth. */
export interface TruthRefereedHand {
  handIndex: number;
  view: TableView;
  truth: HandTruth;
  /** The cards the rules hold in the centre at the end of the hand, with the owner each was given. */
  centre: Array<{ card: string; owner: string | null }>;
  /**
   * The plays the tracker reported this hand (race losers' included), times in hand time: ms since
   * the hand's first frame. `reversed`: a race-reversed or owner-revised event gave the play to
   * another player (its player here is the new one).
   */
  played: Array<{ timeMs: number; event: Extract<TimedEvent['event'], { type: 'card-played' }>; reversed?: true }>;
  /**
   * The violations the rules raised this hand from the tracker's events, with their hand time. The
   * simulated players never break a rule, so on simulated hands each one is a false alarm.
   */
  violations: Array<Violation & { timeMs: number }>;
}

/** One frame to referee: which hand, when, and what was seen; the last frame of a hand carries its truth. */
export interface ObservedFrame {
  handIndex: number;
  timeMs: number;
  observations: FrameObservations;
  /** On the last frame of a hand: the simulator's truth (the hand is scored after it). */
  handTruth?: HandTruth;
  /** A referee called for this player just before this frame (the camera had missed the call). */
  calledBy?: string;
}

/** Who plays and under which rules, as a recording or a simulated table says. */
export interface RefereedTable {
  /** `partner`: a second person sharing this tableau (two hands play it). */
  players: Array<{ id: string; seat: number; deckId: string; team?: string; partner?: { id: string } }>;
  variant: { name: string; nertsPileSize: number; callGraceMs: number; scoring: { target: number } };
}

/** The tracker's configuration for a refereed table: its seats and pile size, the defaults overridden by `tuning`. */
export function trackerConfigFor(table: RefereedTable, tuning: Partial<typeof DEFAULT_TRACKER_TUNING> = {}): TrackerConfig {
  return { ...DEFAULT_TRACKER_TUNING, ...tuning, players: table.players.map((p) => ({ seat: p.seat, playerId: p.id, nertsPileSize: table.variant.nertsPileSize, ...(p.partner ? { hands: 2 } : {}) })) };
}

/**
 * Referees a stream of observed frames through the tracker and the rules bridge exactly as a
 * live table does (a new hand starts when the hand index changes; a frame with `handTruth` ends
 * and scores its hand). `tuning` overrides the tracker's defaults.
 */
export async function refereeObservations(table: RefereedTable, frames: AsyncIterable<ObservedFrame> | Iterable<ObservedFrame>, tuning: Partial<typeof DEFAULT_TRACKER_TUNING> = {}): Promise<TruthRefereedHand[]> {
  const context: RulesContext = {
    tableId: 'sim',
    players: table.players.map((p) => ({ id: p.id, name: p.id, seat: p.seat, deckId: p.deckId, ...(p.team ? { team: p.team } : {}), nertsPileSize: table.variant.nertsPileSize })),
    variant: variantInput(table.variant.name, {}, table.variant.scoring.target),
  };
  const config = trackerConfigFor(table, tuning);
  const hands: TruthRefereedHand[] = [];
  let tracker: TrackerState = initialTrackerState(config);
  let rules: RulesState = initialRulesState();
  let seq = 0;
  let hand = -1;
  let startMs = 0;
  let played: TruthRefereedHand['played'] = [];
  let violations: TruthRefereedHand['violations'] = [];
  const apply = (events: TimedEvent[]) => {
    for (const { event, timeMs } of events) {
      if (event.type === 'card-played') played.push({ timeMs: timeMs - startMs, event });
      if (event.type === 'race-reversed') {
        // The card on the pile is the other racer's: the play that put it there changes hands.
        const index = played.findLastIndex(({ event: play }) => play.foundationId === event.foundationId && play.card === event.card && play.player === event.loser && play.ownerBy !== 'race');
        if (index >= 0) played[index] = { ...played[index], event: { ...played[index].event, player: event.winner }, reversed: true };
      }
      if (event.type === 'owner-revised') {
        const index = played.findLastIndex(({ event: play }) => play.foundationId === event.foundationId && play.card === event.card && play.player === event.from && play.ownerBy !== 'race');
        if (index >= 0) played[index] = { ...played[index], event: { ...played[index].event, player: event.to }, reversed: true };
      }
      const result = applyRules(rules, event, timeMs, seq++, context);
      rules = result.state;
      violations.push(...result.violations.map((violation) => ({ ...violation, timeMs: timeMs - startMs })));
    }
  };
  for await (const frame of frames) {
    if (frame.handIndex !== hand) {
      hand = frame.handIndex;
      startMs = frame.timeMs;
      played = [];
      violations = [];
      tracker = initialTrackerState(config);
      apply([{ timeMs: frame.timeMs, event: { type: 'hand-started', hand: frame.handIndex + 1 } }]);
    }
    if (frame.calledBy !== undefined) {
      // As LiveTable.manualCall: the tracker learns who called, the rules get the call.
      tracker = markCalled(tracker, frame.calledBy, frame.timeMs);
      apply([{ timeMs: frame.timeMs, event: { type: 'call', player: frame.calledBy, manual: true } }]);
    }
    const result = step(tracker, { ...frame.observations, timestampMs: frame.timeMs }, config);
    tracker = result.state;
    apply(result.events);
    if (frame.handTruth) {
      const flushed = flushPending(tracker, config);
      tracker = flushed.state;
      apply(flushed.events);
      apply([{ timeMs: frame.timeMs + 1, event: { type: 'hand-ended' } }]);
      const centre = (rules.referee.hand?.plays ?? []).filter((play) => play.status === 'on-foundation').map((play) => ({ card: play.card, owner: play.owner }));
      hands.push({ handIndex: frame.handIndex, view: toView(rules, context), truth: frame.handTruth, centre, played, violations });
    }
  }
  return hands;
}

/** The noise seed `bench:referee --observations truth` gives table `table` (0, 1, …) of a run with `--seed seed`. */
export function truthNoiseSeed(seed: number, table = 0): number {
  return seed * 7919 + table;
}

/** A frame of ground truth as the tracker sees it, with the scene it was built from. */
export interface TruthFrame extends ObservedFrame {
  scene: SimFrame['scene'];
}

/**
 * The frames of every hand of `sim` (created with `render: false` is enough) as the tracker
 * would see them: observations built from each scene with `noise` (seeded by `noiseSeed`). The
 * camera defaults to the top-down preset framing the table at 1280x720.
 */
export async function* truthFrames(sim: SimTable, noise: Noise, noiseSeed: number, camera: CameraPose = sim.camera ?? presetCamera('top', 1280, 720, sim.layout.table)): AsyncGenerator<TruthFrame> {
  const calibration = simCalibration(sim.layout, camera);
  const random = seededRandom(noiseSeed);
  let previous: SimFrame['scene'] | null = null;
  for await (const frame of sim) {
    const observations = sceneObservations(frame.scene, camera, calibration, noise, random, previous);
    previous = frame.scene;
    yield { handIndex: frame.handIndex, timeMs: frame.timeMs, observations, scene: frame.scene, ...(frame.lastOfHand ? { handTruth: frame.handTruth } : {}) };
  }
}

/** Plays every hand of `sim` through tracker and rules on its truth frames (`truthFrames`). */
export async function refereeFromTruth(sim: SimTable, noise: Noise, noiseSeed: number, camera?: CameraPose): Promise<TruthRefereedHand[]> {
  return refereeObservations(sim, truthFrames(sim, noise, noiseSeed, camera));
}
