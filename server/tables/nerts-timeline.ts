/**
 * Each player's Nerts pile over a recorded hand, as the tracker followed it against the truth:
 * the truth's departures (a Nerts card picked up, where it went), the tracker's new tops by name
 * and by look, its counts and the call. For finding why a Nerts count went wrong
 * (`npm run nerts-timeline -- FILE`); pure apart from reading the recording.
 */
import type { HandTruth } from '../sim/bots/engine';
import { initialTrackerState, markCalled, step, type TrackerState } from '../tracker/tracker';
import { trackerConfigFor, type ObservedFrame, type RefereedTable } from './truth-referee';

/** One line of a player's timeline; `timeMs` is hand time (from the hand's first frame). */
export interface TimelineRow {
  timeMs: number;
  kind: 'truth' | 'count' | 'call' | 'name' | 'look';
  text: string;
}

/** One hand: per player, the truth's and the tracker's final counts and the timeline. */
export interface HandTimeline {
  handIndex: number;
  players: Array<{ id: string; truthLeft: number; trackerLeft: number; rows: TimelineRow[] }>;
}

/** Replays the frames through the tracker (as truth-referee.ts does) and lines up what it saw with the truth. */
export async function nertsTimeline(table: RefereedTable, frames: AsyncIterable<ObservedFrame> | Iterable<ObservedFrame>): Promise<HandTimeline[]> {
  const config = trackerConfigFor(table);
  const hands: HandTimeline[] = [];
  let state: TrackerState = initialTrackerState(config);
  let hand = -1;
  let startMs = 0;
  let rows = new Map<string, TimelineRow[]>();
  const add = (player: string, row: TimelineRow) => rows.get(player)?.push(row);
  for await (const frame of frames) {
    if (frame.handIndex !== hand) {
      hand = frame.handIndex;
      startMs = frame.timeMs;
      state = initialTrackerState(config);
      rows = new Map(table.players.map((p) => [p.id, []]));
    }
    if (frame.calledBy !== undefined) {
      state = markCalled(state, frame.calledBy, frame.timeMs);
      add(frame.calledBy, { timeMs: frame.timeMs - startMs, kind: 'call', text: 'the referee called' });
    }
    const before = state;
    const result = step(state, { ...frame.observations, timestampMs: frame.timeMs }, config);
    state = result.state;
    for (const { event, timeMs } of result.events) {
      if (event.type === 'nerts-count') add(event.player, { timeMs: timeMs - startMs, kind: 'count', text: `${event.left} left${event.revised ? ` (revised: ${event.revised})` : ''}` });
      if (event.type === 'call') add(event.player, { timeMs: timeMs - startMs, kind: 'call', text: 'call seen' });
    }
    for (const seat of state.seats) {
      const was = before.seats.find((s) => s.seat === seat.seat);
      const at = frame.timeMs - startMs;
      if (seat.nertsSeen.length > (was?.nertsSeen.length ?? 0)) add(seat.playerId, { timeMs: at, kind: 'name', text: `new top by name ${seat.nertsSeen.at(-1)}` });
      const cards = seat.nertsLooks?.topCards ?? [];
      if (cards.length > (was?.nertsLooks?.topCards?.length ?? 0)) {
        add(seat.playerId, { timeMs: at, kind: 'look', text: `steady top, card ${cards.at(-1)}${seat.nertsLooks?.topNames?.at(-1) ? ` named ${seat.nertsLooks.topNames.at(-1)}` : ''}` });
      }
    }
    if (frame.handTruth) hands.push(closeHand(frame.handIndex, frame.handTruth, state, rows));
  }
  return hands;
}

function closeHand(handIndex: number, truth: HandTruth, state: TrackerState, rows: Map<string, TimelineRow[]>): HandTimeline {
  return {
    handIndex,
    players: state.seats.map((seat) => {
      const departures: TimelineRow[] = truth.plays
        .filter((play) => play.tableau === seat.playerId && 'from' in play.move && play.move.from.kind === 'nerts')
        .map((play) => ({ timeMs: play.pickupMs, kind: 'truth', text: `${play.cards.map((card) => card.code).join(',')} picked up, to ${play.move.type === 'to-foundation' ? 'the centre' : 'a work pile'} (lands ${(play.landMs / 1000).toFixed(2)} s)` }));
      const all = [...departures, ...(rows.get(seat.playerId) ?? [])].sort((a, b) => a.timeMs - b.timeMs);
      return { id: seat.playerId, truthLeft: truth.nertsLeft[seat.playerId] ?? 0, trackerLeft: seat.nertsLeft, rows: all };
    }),
  };
}
