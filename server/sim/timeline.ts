/**
 * The physical table over the time of one simulated hand: snapshots of the rules engine's table
 * model (applied when a card lands), the card flights and hand motions in between, and a
 * `sceneAt(t)` that turns them into the renderer's TableScene at any instant.
 *
 * Units: times in milliseconds from the start of the hand, positions in table millimetres.
 */
import type { CardCode } from '../game/cards';
import type { TableModel } from '../game/table';
import {
  asidePose,
  foundationPose,
  idleHandPoint,
  nertsPose,
  stockPose,
  wastePose,
  workPose,
  type PlanePose,
  type RestingPose,
  type TableLayout,
} from './layout';
import { CARD_THICKNESS_MM, type CardPose, type HandPose, type TableScene, type Zone } from './scene';

/** The physical facts the rules model does not hold: where foundations lie and how the waste is fanned. */
export interface PhysicalState {
  /** Per tableau id: waste cards from this index up are the latest turn, fanned out. */
  wasteFanBase: Record<string, number>;
  /** Per foundation id: where it was started. */
  foundationSpots: Record<string, PlanePose>;
  /** Per completed foundation id: where it was pushed aside, and in which order (stacking height). */
  asideSpots: Record<string, PlanePose & { order: number }>;
  /** After the call (the score sort, score-sort.ts): per centre card id, where it lies face down now. */
  sorted?: Record<string, RestingPose & { zone: Zone }>;
}

/** The model plus physical facts from `timeMs` until the next snapshot. */
export interface TimelineSnapshot {
  timeMs: number;
  table: TableModel;
  physical: PhysicalState;
}

/** A point above the table, mm. */
export interface Point3 {
  xMm: number;
  yMm: number;
  zMm: number;
}

/** One or more cards moving together (a run, a packet of three, a whole pile), or lying held in place. */
export interface CardFlight {
  seat: number;
  cardIds: string[];
  startMs: number;
  endMs: number;
  from: RestingPose[];
  to: RestingPose[];
  faceUpFrom: boolean[];
  faceUpTo: boolean[];
  /** Extra height at mid-flight, mm (0 for a card lying still). */
  liftMm: number;
  /** Zone reported while the flight lasts (a hand, or the foundation a disputed card lies on). */
  zone: Zone;
}

/** A hand moving between two points; `holding` when it carries cards. */
export interface HandMotion {
  seat: number;
  /** Index into HandTimelineData.hands (a seat has two hands when partners share it). */
  hand: number;
  startMs: number;
  endMs: number;
  from: Point3;
  to: Point3;
  holding: boolean;
}

/** Everything needed to draw one hand at any instant. */
export interface HandTimelineData {
  layout: TableLayout;
  /** Sorted by time; the first is the deal at 0 ms. */
  snapshots: TimelineSnapshot[];
  flights: CardFlight[];
  motions: HandMotion[];
  /** One per person at the table: their seat, the renderer's skin/sleeve palette index, where the forearm enters. */
  hands: Array<{ seat: number; appearance: number; elbowXMm: number; elbowYMm: number }>;
  /** Total length worth drawing, ms (the end of play plus the last settling motions). */
  durationMs: number;
}

/** The physical id of a card: `${deckId}/${code}` (two decks may both hold a QH). */
export function cardId(card: { deckId: string; code: CardCode }): string {
  return `${card.deckId}/${card.code}`;
}

/** Height at which an idle hand hovers over the cloth, mm. */
export const HOVER_HEIGHT_MM = 70;
/** Where a completed pile's stack height starts per earlier pushed-aside pile, mm. */
const ASIDE_STACK_MM = 13 * CARD_THICKNESS_MM;

/**
 * Every card's resting pose for a table model and its physical facts, keyed by card id.
 * `only` limits the work to those card ids (the simulator asks for a few cards per move).
 */
export function restingPoses(layout: TableLayout, table: TableModel, physical: PhysicalState, only?: ReadonlySet<string>): Map<string, CardPose> {
  const poses = new Map<string, CardPose>();
  const put = (card: { code: CardCode; deckId: string; owner: string }, place: (id: string) => RestingPose, faceUp: boolean, zone: Zone): void => {
    const id = cardId(card);
    if (only && !only.has(id)) return;
    const pose = place(id);
    poses.set(id, { id, code: card.code, deckId: card.deckId, owner: card.owner, faceUp, xMm: pose.xMm, yMm: pose.yMm, rotationRad: pose.rotationRad, zMm: pose.zMm, zone });
  };
  table.seats.forEach((playerId, seatIndex) => {
    const seat = layout.seats[seatIndex];
    const tableau = table.players[playerId];
    const n = tableau.nertsPile.length;
    tableau.nertsPile.forEach((card, i) => put(card, (id) => nertsPose(seat, i, id), i === n - 1, { kind: 'nerts', seat: seatIndex }));
    tableau.workPiles.forEach((pile, p) => pile.forEach((card, i) => put(card, (id) => workPose(seat, p, i, id), true, { kind: 'work', seat: seatIndex, pile: p })));
    tableau.stock.forEach((card, i) => put(card, (id) => stockPose(seat, i, id), false, { kind: 'stock', seat: seatIndex }));
    const fanBase = physical.wasteFanBase[playerId] ?? 0;
    tableau.waste.forEach((card, i) => put(card, (id) => wastePose(seat, i, fanBase, id), true, { kind: 'waste', seat: seatIndex }));
  });
  for (const pile of table.foundations) {
    // At the score sort a pile's cards leave it (gathered, then dealt out): they lie where `sorted` says.
    const sorted = physical.sorted ?? {};
    for (const card of pile.cards) {
      const spot = sorted[cardId(card)];
      if (spot) put(card, () => spot, false, spot.zone);
    }
    const foundation = physical.sorted ? { ...pile, cards: pile.cards.filter((card) => !sorted[cardId(card)]) } : pile;
    const aside = physical.asideSpots[foundation.id];
    if (foundation.completed && aside) {
      foundation.cards.forEach((card, i) =>
        put(
          card,
          (id) => {
            const pose = asidePose(aside, i, id);
            return { ...pose, zMm: pose.zMm + aside.order * ASIDE_STACK_MM };
          },
          false,
          { kind: 'aside', foundationId: foundation.id },
        ),
      );
      continue;
    }
    const spot = physical.foundationSpots[foundation.id];
    if (!spot) throw new Error(`timeline: foundation ${foundation.id} has no spot`);
    foundation.cards.forEach((card, i) => put(card, (id) => foundationPose(spot, i, id), true, { kind: 'centre', foundationId: foundation.id }));
  }
  return poses;
}

function smoothstep(s: number): number {
  return s * s * (3 - 2 * s);
}

function angleLerp(a: number, b: number, t: number): number {
  let d = b - a;
  while (d > Math.PI) d -= 2 * Math.PI;
  while (d < -Math.PI) d += 2 * Math.PI;
  return a + d * t;
}

/** Index of the last element with `timeMs <= t` in a sorted list (0 when t precedes all). */
function lastAtOrBefore<T extends { timeMs: number }>(items: readonly T[], t: number): number {
  let lo = 0;
  let hi = items.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (items[mid].timeMs <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Position (and velocity) of a flight's card `k` at `t`. */
function flightPose(flight: CardFlight, k: number, t: number): { pose: RestingPose; faceUp: boolean; velocity: { x: number; y: number } } {
  const span = Math.max(1, flight.endMs - flight.startMs);
  const s = Math.min(1, Math.max(0, (t - flight.startMs) / span));
  const e = smoothstep(s);
  const from = flight.from[k];
  const to = flight.to[k];
  const rate = (6 * s * (1 - s) * 1000) / span; // d(e)/dt, per second
  return {
    pose: {
      xMm: from.xMm + (to.xMm - from.xMm) * e,
      yMm: from.yMm + (to.yMm - from.yMm) * e,
      rotationRad: angleLerp(from.rotationRad, to.rotationRad, e),
      zMm: from.zMm + (to.zMm - from.zMm) * e + flight.liftMm * 4 * s * (1 - s),
    },
    faceUp: s < 0.5 ? flight.faceUpFrom[k] : flight.faceUpTo[k],
    velocity: { x: (to.xMm - from.xMm) * rate, y: (to.yMm - from.yMm) * rate },
  };
}

/** Where a flight's card `k` is at `t` (table mm; its arc height included): for cutting a flight short. */
export function flightPoseAt(flight: CardFlight, k: number, t: number): RestingPose {
  return flightPose(flight, k, t).pose;
}

/** Where a hand motion's fingertips are at `t` (table mm): for cutting a motion short. */
export function motionPointAt(motion: HandMotion, t: number): Point3 {
  const span = Math.max(1, motion.endMs - motion.startMs);
  const s = Math.min(1, Math.max(0, (t - motion.startMs) / span));
  const e = smoothstep(s);
  return {
    xMm: motion.from.xMm + (motion.to.xMm - motion.from.xMm) * e,
    yMm: motion.from.yMm + (motion.to.yMm - motion.from.yMm) * e,
    zMm: motion.from.zMm + (motion.to.zMm - motion.from.zMm) * e + 25 * 4 * s * (1 - s),
  };
}

/** Turns a finished hand's records into scenes at any instant. */
export class HandTimeline {
  private readonly motionsByHand: HandMotion[][];

  constructor(readonly data: HandTimelineData) {
    this.motionsByHand = data.hands.map((_, hand) => data.motions.filter((m) => m.hand === hand).sort((a, b) => a.startMs - b.startMs));
  }

  /** Length of the hand worth drawing, ms. */
  get durationMs(): number {
    return this.data.durationMs;
  }

  /** The rules model (and physical facts) in force at `timeMs`. */
  snapshotAt(timeMs: number): TimelineSnapshot {
    return this.data.snapshots[lastAtOrBefore(this.data.snapshots, timeMs)];
  }

  /** The physical table at `timeMs`: every card (bottom-most first) and every hand. */
  sceneAt(timeMs: number): TableScene {
    const snapshot = this.snapshotAt(timeMs);
    const poses = restingPoses(this.data.layout, snapshot.table, snapshot.physical);
    for (const flight of this.data.flights) {
      if (flight.startMs > timeMs || flight.endMs <= timeMs) continue;
      flight.cardIds.forEach((id, k) => {
        const base = poses.get(id);
        if (!base) return;
        const { pose, faceUp, velocity } = flightPose(flight, k, timeMs);
        const moving = flight.liftMm > 0;
        poses.set(id, {
          ...base,
          ...pose,
          faceUp,
          zone: flight.zone,
          ...(moving ? { velocityMmPerS: velocity } : {}),
        });
      });
    }
    const cards = [...poses.values()].sort((a, b) => a.zMm - b.zMm);
    const hands = this.data.hands.map((_, index) => this.handAt(index, timeMs));
    return {
      timeMs,
      table: { ...this.data.layout.table },
      seats: this.data.layout.seats.map(({ seat, playerId, deckId, xMm, yMm, facingRad }) => ({ seat, playerId, deckId, xMm, yMm, facingRad })),
      cards,
      hands,
    };
  }

  private handAt(handIndex: number, timeMs: number): HandPose {
    const motions = this.motionsByHand[handIndex];
    const { seat: seatIndex, appearance, elbowXMm, elbowYMm } = this.data.hands[handIndex];
    let current: HandMotion | undefined;
    let previous: HandMotion | undefined;
    for (const motion of motions) {
      if (motion.startMs > timeMs) break;
      if (motion.endMs > timeMs) {
        current = motion;
        break;
      }
      previous = motion;
    }
    if (current) {
      const span = Math.max(1, current.endMs - current.startMs);
      const s = (timeMs - current.startMs) / span;
      const e = smoothstep(s);
      const rate = (6 * s * (1 - s) * 1000) / span;
      return {
        seat: seatIndex,
        xMm: current.from.xMm + (current.to.xMm - current.from.xMm) * e,
        yMm: current.from.yMm + (current.to.yMm - current.from.yMm) * e,
        zMm: current.from.zMm + (current.to.zMm - current.from.zMm) * e + 25 * 4 * s * (1 - s),
        elbowXMm,
        elbowYMm,
        appearance,
        velocityMmPerS: { x: (current.to.xMm - current.from.xMm) * rate, y: (current.to.yMm - current.from.yMm) * rate },
      };
    }
    const seat = this.data.layout.seats[seatIndex];
    // Between moves the hand rests where it last stopped, hovering; a slow sway keeps it alive.
    const rest = previous ? previous.to : { ...idleHandPoint(seat, 0), zMm: HOVER_HEIGHT_MM };
    const sway = Math.sin(timeMs / 700 + seatIndex * 1.7);
    return {
      seat: seatIndex,
      xMm: rest.xMm + 3 * sway,
      yMm: rest.yMm + 2 * Math.cos(timeMs / 900 + seatIndex),
      zMm: Math.max(rest.zMm, 30),
      elbowXMm,
      elbowYMm,
      appearance,
    };
  }
}
