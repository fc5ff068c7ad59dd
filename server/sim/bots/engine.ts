/**
 * Simulates one complete Nerts hand: 2–6 bots play at once in simulated time through the rules
 * engine's table model (server/game/table.ts). Each bot looks, reaches, picks a card up, carries
 * it and lets go; the model changes only when a card lands, so races for a foundation slot really
 * happen: the first card to land stays, a later one lands on top, is noticed and carried back.
 * Bots get stuck, wait for the others, rotate their stocks together, and call.
 *
 * Output: the physical timeline (see ../timeline.ts) and the hand's ground truth.
 * Times in ms from the deal, positions in table mm. Deterministic for a seed; no I/O, no clock.
 */
import type { CardCode } from '../../game/cards';
import {
  applyMove,
  dealTable,
  everyoneStuck,
  tableHandSummary,
  type Move,
  type PlayerSetup,
  type Source,
  type TableCard,
  type TableModel,
} from '../../game/table';
import { scoreHand, type HandTally, type Teams } from '../../game/scoring';
import { PRESETS, resolveVariant, type PresetName, type VariantKnobs, type VariantRules } from '../../game/variants';
import type { Violation } from '../../game/violations';
import {
  asidePose,
  chooseAsideSpot,
  chooseFoundationSpot,
  computeLayout,
  elbowPoint,
  foundationPose,
  idleHandPoint,
  rotateVector,
  type PlanePose,
  type RestingPose,
  type TableLayout,
} from '../layout';
import { CARD_THICKNESS_MM } from '../scene';
import {
  cardId,
  flightPoseAt,
  HOVER_HEIGHT_MM,
  motionPointAt,
  restingPoses,
  type CardFlight,
  type HandMotion,
  type HandTimelineData,
  type PhysicalState,
  type Point3,
  type TimelineSnapshot,
} from '../timeline';
import { chooseMove } from './policy';
import { defaultSkill, makeProfile, perceptionDuration, thinkDuration, travelDuration, type BotProfile } from './profile';
import { SimRng } from './rng';

/** One simulated player. Only `id` is required. */
export interface SimPlayerSetup {
  id: string;
  /** Defaults to `deck-<id>`. */
  deckId?: string;
  /** Back design name passed to the renderer (defaults to the deck id; the renderer picks a look). */
  backDesign?: string;
  /** Partnership name: partners pool their scores (the 001 rule). */
  team?: string;
  /** 0..1; defaults to a seeded spread round 0.6. */
  skill?: number;
  /** Fine control over timing and attention (see BotProfile). */
  profile?: Partial<BotProfile>;
  /** Handicap: this player's Nerts pile size. */
  nertsPileSize?: number;
  /**
   * A partner sharing this tableau (the 000/004 partnership: two people, one tableau, one score).
   * Both hands work the tableau at once; the partner plays what is showing and leaves the stock
   * to this player.
   */
  partner?: { id: string; skill?: number; profile?: Partial<BotProfile> };
}

/** Options for one simulated hand. */
export interface SimulateHandOptions {
  /** The players, or a count (2–6) for players `p1`…`pN`. */
  players: readonly SimPlayerSetup[] | number;
  seed: number;
  /** Rules preset or knobs (default `nertz`). */
  variant?: PresetName | VariantKnobs | VariantRules;
  /** Table layout; computed for the players when absent. */
  layout?: TableLayout;
  /** Safety stop: a hand still running after this much simulated time ends at a standstill, ms (default 20 min). */
  maxHandMs?: number;
  /** Safety stop: stuck rotations allowed before a forced standstill (default 40). */
  maxRotations?: number;
  /** Time the finished table stays in view after the end of play, ms (default 2500). */
  settleMs?: number;
}

/** A move that landed and was accepted by the rules engine. */
export interface PlayRecord {
  /** Order of acceptance, from 0. */
  index: number;
  /** The person who made the play (a partner's id when a partner did). */
  player: string;
  /** The tableau played from (the card owner's id). */
  tableau: string;
  seat: number;
  move: Move;
  /** Cards moved, bottom first (one, a run, or up to three turned from the stock). */
  cards: TableCard[];
  /** When the card left its place, ms. */
  pickupMs: number;
  /** When it landed and the play took effect, ms. */
  landMs: number;
  /** For plays to the centre: the foundation it landed on (a new id when it started one). */
  foundationId?: string;
  /** The player's Nerts pile size after this play. */
  nertsLeft: number;
}

/** Two (or more) cards raced for one foundation slot: the first to land stayed. */
export interface DisputeRecord {
  foundationId: string;
  /** The contested card (rank and suit): both decks' copies of it raced for the slot. */
  code: CardCode;
  /** The play that got there first (null if it cannot be found, e.g. a king closed the pile). */
  winner: { player: string; deckId: string; landMs: number; playIndex: number } | null;
  loser: { player: string; deckId: string; landMs: number; returnedMs: number; from: Source };
  /** Loser's landing minus winner's, ms. */
  marginMs: number | null;
}

/** How a hand ended. `time-limit` and `rotation-cap` are the simulator's safety stops. */
export type SimEndReason = 'call' | 'standstill' | 'rotation-limit' | 'rotation-cap' | 'time-limit';

/** Ground truth of one hand: every play, the disputes, the end, the counts and scores. */
export interface HandTruth {
  format: 'nerts-sim-hand/1';
  seed: number;
  variant: string;
  players: Array<{ id: string; seat: number; deckId: string; backDesign: string; team?: string; skill: number; partner?: { id: string; skill: number } }>;
  endMs: number;
  endReason: SimEndReason;
  caller: string | null;
  /** When the caller called, ms; null without a call. Cards in the air complete within the variant's call grace, others go back. */
  callMs: number | null;
  plays: PlayRecord[];
  disputes: DisputeRecord[];
  rotations: Array<{ timeMs: number; agreed: boolean }>;
  /** Per player: own cards in the centre, and Nerts cards left, at the end. */
  centre: Record<string, number>;
  nertsLeft: Record<string, number>;
  /** Hand scores under each rules preset, by scoring entity (player id, or team id for partners). */
  scores: Record<string, Record<string, number>>;
  /** Moves the bots started and abandoned because they saw the slot go (no card moved). */
  abandoned: number;
  /**
   * Moves in the air at the call that would have landed after the variant's call grace: play
   * stopped, the hand took the cards back (C2), so they are in no play and count nowhere.
   */
  stoppedAtCall: number;
}

/** The whole result of a simulated hand. */
export interface SimulatedHand {
  setup: { players: PlayerSetup[]; variant: VariantRules; seed: number };
  timeline: HandTimelineData;
  truth: HandTruth;
  finalTable: TableModel;
  /** Accepted moves in order: replaying them from the deal reproduces `finalTable`. */
  acceptedMoves: Move[];
  /** Moves the rules engine rejected that were not foundation races (should be none). */
  unexpectedViolations: Violation[];
}

interface Bot {
  /** The person (a player id, or a partner's id). */
  id: string;
  /** The tableau this person works (the model's player id). */
  tableau: string;
  seat: number;
  /** Index into the timeline's hands. */
  handIndex: number;
  /** Whether this person turns the stock (a partner only plays what is showing). */
  turnsStock: boolean;
  profile: BotProfile;
  rng: SimRng;
  hand: Point3;
  /** When the hand's last motion ends, ms. */
  handFreeAt: number;
  /** Centre plays still wanted before calling, once the Nerts pile is empty (null: not decided yet). */
  extraPlays: number | null;
  barrenTurns: number;
  waiting: boolean;
  recentRunBase: string | null;
}

interface Plan {
  move: Move;
  lookMs: number;
  pickupMs: number;
  newSpot?: PlanePose;
  doomed?: boolean;
  cards?: TableCard[];
  from?: RestingPose[];
  to?: RestingPose[];
  faceUpFrom?: boolean[];
  /** The card's carry and the hand's, kept so that a call can stop them mid-move. */
  flight?: CardFlight;
  motion?: HandMotion;
}

type SimEvent =
  | { kind: 'look'; bot: Bot }
  | { kind: 'pickup'; bot: Bot; plan: Plan }
  | { kind: 'land'; bot: Bot; plan: Plan }
  | { kind: 'push-done'; bot: Bot; foundationId: string; spot: PlanePose & { order: number } }
  | { kind: 'call'; bot: Bot }
  | { kind: 'rotation' }
  | { kind: 'rotation-done'; table: TableModel; agreed: boolean };

/** A min-heap of events by (time, insertion order), so equal times resolve deterministically. */
class EventQueue {
  private heap: Array<{ t: number; seq: number; event: SimEvent }> = [];
  private seq = 0;

  push(t: number, event: SimEvent): void {
    const item = { t, seq: this.seq++, event };
    const h = this.heap;
    h.push(item);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.less(h[p], h[i])) break;
      [h[p], h[i]] = [h[i], h[p]];
      i = p;
    }
  }

  pop(): { t: number; event: SimEvent } | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(h[l], h[m])) m = l;
        if (r < h.length && this.less(h[r], h[m])) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i], h[m]];
        i = m;
      }
    }
    return top;
  }

  private less(a: { t: number; seq: number }, b: { t: number; seq: number }): boolean {
    return a.t < b.t || (a.t === b.t && a.seq < b.seq);
  }
}

const GRAB_HEIGHT_MM = 18;
const PLACE_HEIGHT_MM = 40;

/** Normalises the players option into full setups (ids, decks, skills). */
export function resolvePlayers(players: readonly SimPlayerSetup[] | number, rng: SimRng): Array<Required<Pick<SimPlayerSetup, 'id' | 'deckId' | 'backDesign' | 'skill'>> & SimPlayerSetup> {
  const list: SimPlayerSetup[] = typeof players === 'number' ? Array.from({ length: players }, (_, i) => ({ id: `p${i + 1}` })) : [...players];
  if (list.length < 2 || list.length > 6) throw new Error(`simulator: 2 to 6 players, got ${list.length}`);
  const skillRng = rng.fork('skills');
  return list.map((p) => {
    const skill = p.skill ?? defaultSkill(skillRng);
    const deckId = p.deckId ?? `deck-${p.id}`;
    return { ...p, deckId, backDesign: p.backDesign ?? deckId, skill };
  });
}

/**
 * Hand scores under every preset, from the final counts, by the rules engine's scoring: keyed by
 * scoring entity (a player, or a team id when partners pool their points).
 */
export function scoresUnderPresets(tally: HandTally, players: readonly string[], teams: Teams | undefined): Record<string, Record<string, number>> {
  const result: Record<string, Record<string, number>> = {};
  for (const [name, preset] of Object.entries(PRESETS)) result[name] = scoreHand(preset.scoring, players, tally, teams).scores;
  return result;
}

/** Plays one complete hand. Throws only on programmer errors (a bad setup is reported clearly). */
export function simulateHand(options: SimulateHandOptions): SimulatedHand {
  const seed = options.seed;
  if (!Number.isFinite(seed)) throw new Error('simulator: seed must be a finite number');
  const rng = new SimRng(seed);
  const players = resolvePlayers(options.players, rng);
  const variant = resolveVariant(options.variant ?? 'nertz');
  const setup = {
    players: players.map((p): PlayerSetup => ({
      id: p.id,
      deckId: p.deckId,
      backDesign: p.backDesign,
      ...(p.team !== undefined ? { team: p.team } : {}),
      ...(p.nertsPileSize !== undefined ? { nertsPileSize: p.nertsPileSize } : {}),
      ...(p.partner ? { members: [p.id, p.partner.id] } : {}),
    })),
    variant,
    seed,
  };
  const layout = options.layout ?? computeLayout(players.map((p) => ({ playerId: p.id, deckId: p.deckId })));
  if (layout.seats.length !== players.length) throw new Error('simulator: layout seats do not match the players');
  const maxHandMs = options.maxHandMs ?? 20 * 60_000;
  const maxRotations = options.maxRotations ?? 40;
  const settleMs = options.settleMs ?? 2500;

  let table = dealTable(setup);
  let physical: PhysicalState = { wasteFanBase: {}, foundationSpots: {}, asideSpots: {} };
  const snapshots: TimelineSnapshot[] = [{ timeMs: 0, table, physical }];
  const flights: CardFlight[] = [];
  const motions: HandMotion[] = [];
  const plays: PlayRecord[] = [];
  const disputes: DisputeRecord[] = [];
  const rotations: Array<{ timeMs: number; agreed: boolean }> = [];
  const acceptedMoves: Move[] = [];
  const unexpectedViolations: Violation[] = [];
  const foundationChangedAt = new Map<string, number>();
  const reservedSpots = new Set<PlanePose>();
  const layoutRng = rng.fork('layout');
  let asideCount = 0;
  let abandoned = 0;
  let stoppedAtCall = 0;
  let inFlight = 0;
  let callPending: { bot: Bot; timeMs: number } | null = null;
  let rotationScheduled = false;
  let ended: { timeMs: number; reason: SimEndReason } | null = null;
  const queue = new EventQueue();

  const partnerSkillRng = rng.fork('partner-skills');
  const people = players.flatMap((p, seat) => {
    const own = { id: p.id, tableau: p.id, seat, skill: p.skill, profile: p.profile ?? {}, turnsStock: true, side: 1 as const };
    if (!p.partner) return [own];
    const partnerSkill = p.partner.skill ?? defaultSkill(partnerSkillRng);
    return [own, { id: p.partner.id, tableau: p.id, seat, skill: partnerSkill, profile: p.partner.profile ?? {}, turnsStock: false, side: -1 as const }];
  });
  const partnerSkills = new Map(people.filter((person) => !person.turnsStock).map((person) => [person.tableau, { id: person.id, skill: person.skill }]));
  const bots: Bot[] = people.map((person, handIndex) => {
    const profile = makeProfile(person.skill, person.profile, handIndex);
    const start = idleHandPoint(layout.seats[person.seat], person.side === 1 ? 0 : -0.8);
    return {
      id: person.id,
      tableau: person.tableau,
      seat: person.seat,
      handIndex,
      turnsStock: person.turnsStock,
      profile,
      rng: rng.fork(`bot:${person.id}`),
      hand: { ...start, zMm: HOVER_HEIGHT_MM },
      handFreeAt: 0,
      extraPlays: null,
      barrenTurns: 0,
      waiting: false,
      recentRunBase: null,
    };
  });
  const handSides = people.map((person) => person.side);
  /** Piles held by a person's current action (`tableau:pile`), so partners never grab the same cards. */
  const held = new Map<string, Bot>();
  const releaseHeld = (bot: Bot): void => {
    for (const [key, holder] of held) if (holder === bot) held.delete(key);
  };
  const pilesOf = (move: Move): string[] => {
    if (move.type === 'call' || move.type === 'stuck-rotation') return [];
    const prefix = `${move.player}:`;
    if (move.type === 'turn-stock') return [`${prefix}stock`, `${prefix}waste`];
    const from = move.from;
    const piles = [from.kind === 'work' ? `${prefix}work${from.pile}` : `${prefix}${from.kind}`];
    if (move.type === 'to-work') piles.push(`${prefix}work${move.pile}`);
    // Sliding under needs an empty space to stay empty: hold every pile.
    if (move.type === 'slide-under') for (let pile = 0; pile < 4; pile++) piles.push(`${prefix}work${pile}`);
    return piles;
  };
  const blockedFor = (bot: Bot) => (move: Move): boolean => pilesOf(move).some((key) => {
    const holder = held.get(key);
    return holder !== undefined && holder !== bot;
  });

  const commit = (timeMs: number): void => {
    snapshots.push({ timeMs, table, physical });
  };
  const seatOf = (bot: Bot) => layout.seats[bot.seat];
  // Fingertips hold a card near its edge on the player's side, so the card's face stays visible.
  const gripPoint = (bot: Bot, pose: { xMm: number; yMm: number; zMm: number }, lift: number): Point3 => {
    const toward = rotateVector(0, 30, seatOf(bot).facingRad);
    return { xMm: pose.xMm + toward.x, yMm: pose.yMm + toward.y, zMm: pose.zMm + lift };
  };
  const moveHand = (bot: Bot, startMs: number, endMs: number, to: Point3, holding: boolean): void => {
    motions.push({ seat: bot.seat, hand: bot.handIndex, startMs, endMs, from: bot.hand, to, holding });
    bot.hand = to;
    bot.handFreeAt = Math.max(bot.handFreeAt, endMs);
  };
  const distance = (a: { xMm: number; yMm: number }, b: { xMm: number; yMm: number }): number => Math.hypot(a.xMm - b.xMm, a.yMm - b.yMm);
  const scheduleLook = (bot: Bot, timeMs: number): void => {
    queue.push(timeMs + thinkDuration(bot.profile, bot.rng), { kind: 'look', bot });
  };

  /** The cards a move lifts, bottom first. */
  const movingCards = (move: Move): TableCard[] => {
    if (move.type === 'call' || move.type === 'stuck-rotation') return [];
    const tableau = table.players[move.player];
    if (move.type === 'turn-stock') return tableau.stock.length > 0 ? tableau.stock.slice(-3).reverse() : tableau.waste.slice();
    const from = move.from;
    if (from.kind === 'nerts') return tableau.nertsPile.slice(-1);
    if (from.kind === 'waste') return tableau.waste.slice(-1);
    return tableau.workPiles[from.pile].slice(from.index);
  };

  const liveSpots = (): PlanePose[] => [
    ...table.foundations.filter((f) => !physical.asideSpots[f.id]).map((f) => physical.foundationSpots[f.id]),
    ...reservedSpots,
  ];

  const wakeWaiting = (timeMs: number): void => {
    for (const other of bots) {
      other.barrenTurns = 0;
      if (other.waiting) {
        other.waiting = false;
        queue.push(timeMs + perceptionDuration(other.profile, other.rng), { kind: 'look', bot: other });
      }
    }
  };

  /** A partner's play changed this tableau: the other person takes a fresh look. */
  const wakeTableau = (actor: Bot, timeMs: number): void => {
    for (const other of bots) {
      if (other === actor || other.tableau !== actor.tableau) continue;
      other.barrenTurns = 0;
      if (other.waiting) {
        other.waiting = false;
        queue.push(timeMs + perceptionDuration(other.profile, other.rng), { kind: 'look', bot: other });
      }
    }
  };

  const finish = (timeMs: number, reason: SimEndReason): void => {
    ended = { timeMs, reason };
  };

  const finishCall = (timeMs: number): void => {
    if (!callPending) return;
    const result = applyMove(table, { type: 'call', player: callPending.bot.tableau });
    if (result.violations.length > 0) {
      unexpectedViolations.push(...result.violations);
    } else {
      table = result.table;
      acceptedMoves.push({ type: 'call', player: callPending.bot.tableau });
      commit(timeMs);
    }
    finish(timeMs, 'call');
  };

  /** The hand drifts back over its own tableau (after a play to the centre, or when waiting). */
  const drawBack = (bot: Bot, timeMs: number): void => {
    const rest = idleHandPoint(seatOf(bot), bot.rng.range(-1, 1));
    const start = Math.max(timeMs, bot.handFreeAt);
    const duration = 250 + travelDuration(bot.profile, distance(bot.hand, rest), bot.rng) * 0.8;
    moveHand(bot, start, start + duration, { ...rest, zMm: HOVER_HEIGHT_MM }, false);
  };

  const becomeWaiting = (bot: Bot, timeMs: number): void => {
    bot.waiting = true;
    drawBack(bot, timeMs);
    if (!rotationScheduled && inFlight === 0 && bots.every((b) => b.waiting)) {
      rotationScheduled = true;
      queue.push(timeMs + 1200 + rng.range(0, 1200), { kind: 'rotation' });
    }
  };

  const look = (bot: Bot, timeMs: number): void => {
    releaseHeld(bot);
    if (callPending || ended) return;
    const tableau = table.players[bot.tableau];
    const blocked = blockedFor(bot);
    if (tableau.nertsPile.length === 0) {
      // The rules let a player with an empty Nerts pile keep playing before calling; some do, briefly.
      bot.extraPlays ??= bot.rng.chance(bot.profile.keepPlayingChance) ? 1 + bot.rng.int(3) : 0;
      const extra = bot.extraPlays > 0 ? chooseMove(table, bot.tableau, bot.profile, bot.rng, null, (m) => blocked(m) || m.type !== 'to-foundation').choice : null;
      if (!extra) {
        queue.push(timeMs + bot.rng.range(150, 450), { kind: 'call', bot });
        return;
      }
      bot.extraPlays--;
      startMove(bot, timeMs, extra.move);
      return;
    }
    const { choice, productiveExists } = chooseMove(table, bot.tableau, bot.profile, bot.rng, bot.recentRunBase, blocked);
    let move: Move | null = choice ? choice.move : null;
    if (choice) bot.barrenTurns = 0;
    if (!move && !bot.turnsStock) {
      // A partner plays only what is showing: nothing now, so wait for the tableau or the centre to change.
      becomeWaiting(bot, timeMs);
      return;
    }
    if (!move && blocked({ type: 'turn-stock', player: bot.tableau })) {
      scheduleLook(bot, timeMs);
      return;
    }
    if (!move) {
      const cycle = tableau.stock.length + tableau.waste.length;
      if (cycle === 0) {
        if (productiveExists) scheduleLook(bot, timeMs);
        else becomeWaiting(bot, timeMs);
        return;
      }
      if (!productiveExists) {
        // A full pass through stock and waste without a play: this player is stuck.
        if (bot.barrenTurns > Math.ceil(cycle / 3) + 1) {
          becomeWaiting(bot, timeMs);
          return;
        }
        bot.barrenTurns++;
      }
      move = { type: 'turn-stock', player: bot.tableau };
    }
    if (move.type === 'to-work' && move.from.kind === 'work') {
      const base = tableau.workPiles[move.from.pile][move.from.index];
      bot.recentRunBase = cardId(base);
    } else if (move.type !== 'turn-stock') {
      bot.recentRunBase = null;
    }
    startMove(bot, timeMs, move);
  };

  /** Reserves the move's piles, reaches for its card and schedules the pickup. */
  const startMove = (bot: Bot, timeMs: number, move: Move): void => {
    for (const key of pilesOf(move)) held.set(key, bot);
    const cards = movingCards(move);
    const poses = restingPoses(layout, table, physical, new Set([cardId(cards[0])]));
    const source = poses.get(cardId(cards[0]));
    if (!source) throw new Error(`simulator: no pose for ${cardId(cards[0])}`);
    const grip = gripPoint(bot, source, GRAB_HEIGHT_MM);
    const reach = move.type === 'turn-stock' ? bot.profile.turnMs * 0.45 : travelDuration(bot.profile, distance(bot.hand, grip), bot.rng) + bot.profile.grabMs;
    // A hand finishes its current motion (drawing back, say) before reaching for the next card.
    const reachStart = Math.max(timeMs, bot.handFreeAt);
    moveHand(bot, reachStart, reachStart + reach, grip, false);
    const plan: Plan = { move, lookMs: timeMs, pickupMs: reachStart + reach };
    if (move.type === 'to-foundation' && move.foundationId === null) {
      plan.newSpot = chooseFoundationSpot(layout, bot.seat, liveSpots(), layoutRng);
      reservedSpots.add(plan.newSpot);
    }
    queue.push(plan.pickupMs, { kind: 'pickup', bot, plan });
  };

  const pickup = (bot: Bot, plan: Plan, timeMs: number): void => {
    const release = (): void => {
      if (plan.newSpot) reservedSpots.delete(plan.newSpot);
    };
    if (callPending || ended) {
      release();
      return;
    }
    const move = plan.move;
    const result = applyMove(table, move);
    let doomed = false;
    if (result.violations.length > 0) {
      const changedAt = move.type === 'to-foundation' && move.foundationId !== null ? foundationChangedAt.get(move.foundationId) : undefined;
      if (changedAt !== undefined && changedAt > timeMs - perceptionDuration(bot.profile, bot.rng)) {
        doomed = true; // the slot went a moment ago: too late to notice, the card goes anyway
      } else {
        abandoned++;
        release();
        queue.push(timeMs + 120 + bot.rng.range(0, 150), { kind: 'look', bot });
        return;
      }
    }
    const cards = movingCards(move);
    const movingIds = new Set(cards.map(cardId));
    const before = restingPoses(layout, table, physical, movingIds);
    const from = cards.map((c) => before.get(cardId(c))!);
    let to: RestingPose[];
    let faceUpTo: boolean[];
    if (doomed && move.type === 'to-foundation' && move.foundationId !== null) {
      const foundation = table.foundations.find((f) => f.id === move.foundationId)!;
      const aside = physical.asideSpots[foundation.id];
      const spot = aside ?? physical.foundationSpots[foundation.id];
      const onTop = (aside ? asidePose : foundationPose)(spot, foundation.cards.length, cardId(cards[0]));
      to = [{ ...onTop, zMm: onTop.zMm + (aside ? aside.order * 13 * CARD_THICKNESS_MM : 0) + CARD_THICKNESS_MM }];
      faceUpTo = [true];
    } else {
      const after = physicalAfter(move, result.table, plan.newSpot);
      const poses = restingPoses(layout, result.table, after, movingIds);
      const landed = cards.map((c) => poses.get(cardId(c))!);
      to = landed;
      faceUpTo = landed.map((p) => p.faceUp);
    }
    const faceUpFrom = from.map((p) => p.faceUp);
    const destination = gripPoint(bot, to[0], GRAB_HEIGHT_MM);
    const carry =
      move.type === 'turn-stock'
        ? bot.profile.turnMs * (cards.length > 3 ? 0.9 : 0.55)
        : travelDuration(bot.profile, distance(from[0], to[0]), bot.rng) + bot.profile.placeMs;
    const landMs = timeMs + carry;
    const lift = move.type === 'to-foundation' ? 35 : move.type === 'turn-stock' ? 12 : 20;
    flights.push({ seat: bot.seat, cardIds: cards.map(cardId), startMs: timeMs, endMs: landMs, from, to, faceUpFrom, faceUpTo, liftMm: lift, zone: { kind: 'hand', seat: bot.seat } });
    moveHand(bot, timeMs, landMs, destination, true);
    Object.assign(plan, { doomed, cards, from, to, faceUpFrom, flight: flights[flights.length - 1], motion: motions[motions.length - 1] });
    inFlight++;
    queue.push(landMs, { kind: 'land', bot, plan });
  };

  /** Physical facts after `move` is applied (giving `next`); `newSpot` places a new foundation. */
  const physicalAfter = (move: Move, next: TableModel, newSpot: PlanePose | undefined): PhysicalState => {
    if (move.type === 'turn-stock') {
      const before = table.players[move.player];
      const base = before.stock.length > 0 ? before.waste.length : 0;
      return { ...physical, wasteFanBase: { ...physical.wasteFanBase, [move.player]: base } };
    }
    if (move.type === 'to-foundation' && move.foundationId === null && newSpot) {
      const created = next.foundations[next.foundations.length - 1];
      return { ...physical, foundationSpots: { ...physical.foundationSpots, [created.id]: newSpot } };
    }
    return physical;
  };

  const land = (bot: Bot, plan: Plan, timeMs: number): void => {
    inFlight--;
    const move = plan.move;
    // C2: after the call only a card landing within the variant's grace completes its move; play
    // stopped before this one landed, so the hand takes it back from where the call stopped it.
    if (callPending && timeMs > callPending.timeMs + variant.callGraceMs) {
      if (plan.newSpot) reservedSpots.delete(plan.newSpot);
      stopAtCall(bot, plan, callPending.timeMs + variant.callGraceMs);
      maybeFinishCall(timeMs);
      return;
    }
    const result = applyMove(table, move);
    if (plan.newSpot) reservedSpots.delete(plan.newSpot);
    if (result.violations.length === 0 && move.type !== 'call' && move.type !== 'stuck-rotation') {
      const nextPhysical = physicalAfter(move, result.table, plan.newSpot);
      table = result.table;
      physical = nextPhysical;
      commit(timeMs);
      acceptedMoves.push(move);
      let foundationId: string | undefined;
      if (move.type === 'to-foundation') {
        foundationId = move.foundationId ?? table.foundations[table.foundations.length - 1].id;
        foundationChangedAt.set(foundationId, timeMs);
      }
      releaseHeld(bot);
      wakeTableau(bot, timeMs);
      plays.push({
        index: plays.length,
        player: bot.id,
        tableau: bot.tableau,
        seat: bot.seat,
        move,
        cards: plan.cards ?? [],
        pickupMs: plan.pickupMs,
        landMs: timeMs,
        ...(foundationId !== undefined ? { foundationId } : {}),
        nertsLeft: table.players[move.player].nertsPile.length,
      });
      bot.hand = { ...bot.hand, zMm: PLACE_HEIGHT_MM };
      if (foundationId !== undefined) {
        wakeWaiting(timeMs);
        const foundation = table.foundations.find((f) => f.id === foundationId)!;
        if (foundation.completed) {
          startPushAside(bot, foundationId, timeMs);
          maybeFinishCall(timeMs);
          return;
        }
        // Back over one's own tableau while deciding what comes next.
        drawBack(bot, timeMs);
      }
      scheduleLook(bot, timeMs);
    } else if (move.type === 'to-foundation' && plan.from && plan.to && plan.cards) {
      recordDispute(bot, plan, timeMs);
    } else {
      unexpectedViolations.push(...result.violations);
      scheduleLook(bot, timeMs);
    }
    maybeFinishCall(timeMs);
  };

  /** Cuts a carry short at `stopMs` (play stopped) and carries the cards back where they came from. */
  const stopAtCall = (bot: Bot, plan: Plan, stopMs: number): void => {
    stoppedAtCall++;
    const flight = plan.flight;
    const motion = plan.motion;
    if (!flight || !motion || !plan.from) return;
    const cut = Math.max(flight.startMs, Math.min(stopMs, flight.endMs));
    const held = flight.cardIds.map((_, k) => flightPoseAt(flight, k, cut));
    const handAt = motionPointAt(motion, cut);
    flight.endMs = cut;
    flight.to = held;
    flight.faceUpTo = [...flight.faceUpFrom];
    flight.liftMm = 0;
    motion.endMs = cut;
    motion.to = handAt;
    bot.hand = handAt;
    const back = travelDuration(bot.profile, distance(held[0], plan.from[0]), bot.rng) + bot.profile.placeMs;
    flights.push({ ...flight, startMs: cut, endMs: cut + back, from: held, to: plan.from, faceUpFrom: [...flight.faceUpFrom], faceUpTo: [...flight.faceUpFrom], liftMm: 0 });
    motions.push({ seat: bot.seat, hand: bot.handIndex, startMs: cut, endMs: cut + back, from: handAt, to: gripPoint(bot, plan.from[0], GRAB_HEIGHT_MM), holding: true });
    bot.hand = gripPoint(bot, plan.from[0], GRAB_HEIGHT_MM);
    bot.handFreeAt = Math.max(cut + back, bot.handFreeAt);
  };

  const maybeFinishCall = (timeMs: number): void => {
    if (callPending && inFlight === 0 && !ended) finishCall(timeMs);
  };

  const recordDispute = (bot: Bot, plan: Plan, timeMs: number): void => {
    const move = plan.move as Extract<Move, { type: 'to-foundation' }>;
    const card = plan.cards![0];
    const foundationId = move.foundationId!;
    const winnerPlay = [...plays].reverse().find((p) => p.foundationId === foundationId && p.cards[0]?.code === card.code);
    const notice = perceptionDuration(bot.profile, bot.rng);
    // The card lands on whatever is on the pile now (the winner's card got there first).
    const pile = table.foundations.find((f) => f.id === foundationId);
    const aside = physical.asideSpots[foundationId];
    const pileTopZ = (pile ? pile.cards.length : 0) * CARD_THICKNESS_MM + (aside ? aside.order * 13 * CARD_THICKNESS_MM : 0);
    const lying = { ...plan.to![0], zMm: Math.max(plan.to![0].zMm, pileTopZ + CARD_THICKNESS_MM) };
    const home = plan.from![0];
    const returnStart = timeMs + notice + bot.profile.grabMs;
    const returnEnd = returnStart + travelDuration(bot.profile, distance(lying, home), bot.rng) + bot.profile.placeMs;
    const cardIds = [cardId(card)];
    flights.push({ seat: bot.seat, cardIds, startMs: timeMs, endMs: returnStart, from: [lying], to: [lying], faceUpFrom: [true], faceUpTo: [true], liftMm: 0, zone: { kind: 'centre', foundationId } });
    flights.push({ seat: bot.seat, cardIds, startMs: returnStart, endMs: returnEnd, from: [lying], to: [home], faceUpFrom: [true], faceUpTo: [plan.faceUpFrom?.[0] ?? true], liftMm: 30, zone: { kind: 'hand', seat: bot.seat } });
    moveHand(bot, timeMs, returnStart, gripPoint(bot, lying, GRAB_HEIGHT_MM), false);
    moveHand(bot, returnStart, returnEnd, gripPoint(bot, home, GRAB_HEIGHT_MM), true);
    disputes.push({
      foundationId,
      code: card.code,
      winner: winnerPlay ? { player: winnerPlay.player, deckId: winnerPlay.cards[0].deckId, landMs: winnerPlay.landMs, playIndex: winnerPlay.index } : null,
      loser: { player: bot.id, deckId: card.deckId, landMs: timeMs, returnedMs: returnEnd, from: move.from },
      marginMs: winnerPlay ? timeMs - winnerPlay.landMs : null,
    });
    scheduleLook(bot, returnEnd);
  };

  const startPushAside = (bot: Bot, foundationId: string, timeMs: number): void => {
    const foundation = table.foundations.find((f) => f.id === foundationId)!;
    const spotFrom = physical.foundationSpots[foundationId];
    const spot = { ...chooseAsideSpot(layout, spotFrom, layoutRng), order: asideCount++ };
    const ids = foundation.cards.map(cardId);
    const poses = restingPoses(layout, table, physical, new Set(ids));
    const from = ids.map((id) => poses.get(id)!);
    const to = foundation.cards.map((card, i) => {
      const pose = asidePose(spot, i, cardId(card));
      return { ...pose, zMm: pose.zMm + spot.order * 13 * CARD_THICKNESS_MM };
    });
    const start = timeMs + 150 + bot.profile.grabMs;
    const end = start + 250 + travelDuration(bot.profile, distance(spotFrom, spot), bot.rng);
    flights.push({ seat: bot.seat, cardIds: ids, startMs: start, endMs: end, from, to, faceUpFrom: ids.map(() => true), faceUpTo: ids.map(() => false), liftMm: 25, zone: { kind: 'hand', seat: bot.seat } });
    moveHand(bot, start, end, gripPoint(bot, { ...spot, zMm: 5 }, GRAB_HEIGHT_MM), true);
    inFlight++;
    queue.push(end, { kind: 'push-done', bot, foundationId, spot });
  };

  const rotate = (timeMs: number): void => {
    rotationScheduled = false;
    if (inFlight > 0 || !bots.every((b) => b.waiting) || ended || callPending) return;
    if (rotations.length >= maxRotations) {
      finish(timeMs, 'rotation-cap');
      return;
    }
    const agreed = !everyoneStuck(table);
    const move: Move = agreed ? { type: 'stuck-rotation', agreed: true } : { type: 'stuck-rotation' };
    const result = applyMove(table, move);
    if (result.violations.length > 0) {
      unexpectedViolations.push(...result.violations);
      finish(timeMs, 'standstill');
      return;
    }
    if (result.table.ended) {
      table = result.table;
      acceptedMoves.push(move);
      commit(timeMs);
      finish(timeMs, result.table.endReason === 'rotation-limit' ? 'rotation-limit' : 'standstill');
      return;
    }
    // Everyone turns their waste back into stock together; the model changes when all are done.
    const nextPhysical: PhysicalState = { ...physical, wasteFanBase: {} };
    const after = restingPoses(layout, result.table, nextPhysical);
    const before = restingPoses(layout, table, physical);
    let doneMs = timeMs;
    for (const bot of bots.filter((b) => b.turnsStock)) {
      const tableau = table.players[bot.tableau];
      const moving = [...tableau.waste, ...tableau.stock.slice(-1)];
      const begin = Math.max(timeMs, bot.handFreeAt);
      const start = begin + bot.rng.range(100, 400);
      if (moving.length === 0) continue;
      const ids = moving.map(cardId);
      const from = ids.map((id) => before.get(id)!);
      const to = ids.map((id) => after.get(id)!);
      const end = start + 500 + bot.profile.turnMs;
      flights.push({ seat: bot.seat, cardIds: ids, startMs: start, endMs: end, from, to, faceUpFrom: from.map((p) => p.faceUp), faceUpTo: to.map(() => false), liftMm: 20, zone: { kind: 'hand', seat: bot.seat } });
      moveHand(bot, begin, start, gripPoint(bot, from[0], GRAB_HEIGHT_MM), false);
      moveHand(bot, start, end, gripPoint(bot, to[0], GRAB_HEIGHT_MM), true);
      doneMs = Math.max(doneMs, end);
    }
    inFlight++;
    queue.push(doneMs, { kind: 'rotation-done', table: result.table, agreed });
    acceptedMoves.push(move);
  };

  for (const bot of bots) queue.push(400 + bot.rng.range(0, 500), { kind: 'look', bot });

  for (;;) {
    const item = queue.pop();
    if (!item) break;
    const { t, event } = item;
    if (ended) break;
    if (t > maxHandMs) {
      finish(maxHandMs, 'time-limit');
      break;
    }
    switch (event.kind) {
      case 'look':
        look(event.bot, t);
        break;
      case 'pickup':
        pickup(event.bot, event.plan, t);
        break;
      case 'land':
        land(event.bot, event.plan, t);
        break;
      case 'push-done':
        inFlight--;
        physical = { ...physical, asideSpots: { ...physical.asideSpots, [event.foundationId]: event.spot } };
        commit(t);
        drawBack(event.bot, t);
        if (!callPending) scheduleLook(event.bot, t);
        maybeFinishCall(t);
        break;
      case 'call':
        if (!callPending && !ended) {
          callPending = { bot: event.bot, timeMs: t };
          maybeFinishCall(t);
        }
        break;
      case 'rotation':
        rotate(t);
        break;
      case 'rotation-done':
        inFlight--;
        table = event.table;
        physical = { ...physical, wasteFanBase: {} };
        commit(t);
        rotations.push({ timeMs: t, agreed: event.agreed });
        for (const bot of bots) {
          bot.waiting = false;
          bot.barrenTurns = 0;
          bot.recentRunBase = null;
          scheduleLook(bot, t);
        }
        break;
    }
  }
  if (!ended) finish(snapshots[snapshots.length - 1].timeMs, 'standstill');
  // `ended` and `callPending` are assigned inside the closures above, which TypeScript's flow
  // analysis does not see (it still narrows them to null here), hence the re-typing.
  const end = ended as unknown as { timeMs: number; reason: SimEndReason };
  const call = callPending as { timeMs: number } | null;
  // Play has stopped: once each hand has finished what it was doing, it draws back over its own side.
  for (const bot of bots) {
    const start = Math.max(end.timeMs, bot.handFreeAt) + bot.rng.range(150, 500);
    const rest = idleHandPoint(seatOf(bot), bot.rng.range(-0.6, 0.6));
    moveHand(bot, start, start + 700, { xMm: rest.xMm, yMm: rest.yMm, zMm: HOVER_HEIGHT_MM }, false);
  }

  const summary = tableHandSummary(table);
  const teamMembers: Teams = {};
  for (const p of players) if (p.team !== undefined) (teamMembers[p.team] ??= []).push(p.id);
  const teams = Object.keys(teamMembers).length > 0 ? teamMembers : undefined;
  const lastMotion = Math.max(0, ...flights.map((f) => f.endMs), ...motions.map((m) => m.endMs));
  const truth: HandTruth = {
    format: 'nerts-sim-hand/1',
    seed,
    variant: variant.name,
    players: players.map((p, seat) => {
      const partner = partnerSkills.get(p.id);
      return { id: p.id, seat, deckId: p.deckId, backDesign: p.backDesign, ...(p.team !== undefined ? { team: p.team } : {}), skill: p.skill, ...(partner ? { partner } : {}) };
    }),
    endMs: end.timeMs,
    endReason: end.reason,
    caller: table.called,
    callMs: call ? call.timeMs : null,
    plays,
    disputes,
    rotations,
    centre: summary.centre,
    nertsLeft: summary.nertsLeft,
    scores: scoresUnderPresets(summary, players.map((p) => p.id), teams),
    abandoned,
    stoppedAtCall,
  };
  return {
    setup,
    timeline: {
      layout,
      snapshots,
      flights,
      motions,
      hands: bots.map((b, i) => {
        const elbow = elbowPoint(layout, b.seat, handSides[i]);
        return { seat: b.seat, appearance: b.profile.appearance, elbowXMm: elbow.xMm, elbowYMm: elbow.yMm };
      }),
      durationMs: Math.max(end.timeMs + settleMs, lastMotion + 500),
    },
    truth,
    finalTable: table,
    acceptedMoves,
    unexpectedViolations,
  };
}
