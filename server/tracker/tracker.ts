/**
 * The tracker: per-frame card observations → table events. Pure: `step(state, frame, config)`
 * returns the next state and the events it decided; no clock (time is the frame's capture time),
 * no I/O. State is plain JSON so it can be persisted and resumed after a restart.
 *
 * Robustness comes from temporal voting: a pile's top card or a Nerts pile's top card changes
 * only when the new reading wins enough confidence-weighted votes over several frames. A pile
 * that is not seen (a hand covers it, a dropped frame) casts no vote, so occlusion never reads
 * as a change. Zones come from the recogniser ('centre', 'seat-<n>', 'seat-<n>/nerts', ...).
 */
import { parseCard, rankValue, suitOf, type CardCode } from '../game/cards';
import type { CardObservation, FrameObservations, Point } from '../vision/types';
import type { TableEvent } from '../protocol';

/** Tunables of the tracker; times in ms, distances in image pixels relative to card size. */
export interface TrackerConfig {
  /** Seat index → player id, in seat order. */
  players: Array<{ seat: number; playerId: string; nertsPileSize: number }>;
  /** Reading must win this share of the recent votes to change a top card. */
  voteShare: number;
  /** Minimum frames a new reading must be seen in before it counts. */
  minFrames: number;
  /** Only the latest this-many readings of a pile vote (frames where it was seen). */
  voteFrames: number;
  /** Votes older than this are forgotten, ms. */
  voteWindowMs: number;
  /** Observations below this confidence are ignored. */
  minConfidence: number;
  /** Two cards of the same code leaving two seats within this window onto one pile = dispute, ms. */
  disputeWindowMs: number;
  /** How long ago a card must have been seen in a seat to be attributed to it, ms. */
  attributionWindowMs: number;
  /** A Nerts pile seen empty this long (and in this many frames) = the call, ms. */
  emptyNertsMs: number;
  emptyNertsFrames: number;
  /** Nothing played for this long = stall prompt, ms. */
  stallMs: number;
  /** A centre card within this many card heights of a pile belongs to it. */
  pileRadiusCards: number;
}

/** Defaults tuned on simulated tables (10–30 fps). */
export const DEFAULT_TRACKER_TUNING: Omit<TrackerConfig, 'players'> = {
  voteShare: 0.6,
  minFrames: 3,
  voteFrames: 5,
  voteWindowMs: 1200,
  minConfidence: 0.35,
  disputeWindowMs: 700,
  attributionWindowMs: 4000,
  emptyNertsMs: 600,
  emptyNertsFrames: 4,
  stallMs: 30000,
  pileRadiusCards: 0.45,
};

interface Vote {
  code: CardCode | null; // null = pile/zone seen empty
  weight: number;
  timeMs: number;
}

/** A centre pile as the tracker believes it. */
export interface TrackedPile {
  id: string;
  /** Image position of the pile's centre, pixels. */
  center: Point;
  /** Card height in the image at that place, pixels (for matching radius). */
  cardSizePx: number;
  /** Cards the tracker has accepted onto it, bottom first. */
  cards: Array<{ code: CardCode; player: string }>;
  completed: boolean;
  votes: Vote[];
  /** Last illegal reading reported for this pile, so it is raised once. */
  reportedIllegal: CardCode | null;
  lastSeenMs: number;
  /** Other seats the current top card also left lately (possible second lander). */
  rivals: string[];
  /** Frames in which two copies of the top card lay on this pile at once. */
  doubleFrames: number;
  /** Top card a dispute was already opened for. */
  disputedTop: CardCode | null;
}

/** A candidate new pile (a card seen where no pile is), waiting for enough votes. */
interface PileCandidate {
  center: Point;
  cardSizePx: number;
  votes: Vote[];
  reportedIllegal: CardCode | null;
}

/** Per seat: what the camera shows of the Nerts pile and which codes were lately visible there. */
export interface TrackedSeat {
  seat: number;
  playerId: string;
  nertsSize: number;
  nertsTop: CardCode | null;
  /** Distinct tops the Nerts pile has shown (cards only ever leave it). */
  nertsSeen: CardCode[];
  nertsLeft: number;
  nertsVotes: Vote[];
  emptySinceMs: number | null;
  emptyFrames: number;
  /** Code → last time it was seen face up anywhere in this seat's zones, ms. */
  lastSeen: Record<string, number>;
}

/** A dispute awaiting or past its automatic ruling. */
export interface TrackedDispute {
  id: string;
  foundationId: string;
  first: { player: string; card: CardCode };
  second: { player: string; card: CardCode };
}

/** Everything the tracker remembers; plain JSON. */
export interface TrackerState {
  piles: TrackedPile[];
  candidates: PileCandidate[];
  seats: TrackedSeat[];
  disputes: TrackedDispute[];
  nextPileNumber: number;
  nextDisputeNumber: number;
  called: boolean;
  lastPlayMs: number | null;
  stallRaised: boolean;
  lastFrameMs: number | null;
  frames: number;
}

/** Fresh state for a new hand. */
export function initialTrackerState(config: Pick<TrackerConfig, 'players'>): TrackerState {
  return {
    piles: [],
    candidates: [],
    seats: config.players.map((p) => ({
      seat: p.seat,
      playerId: p.playerId,
      nertsSize: p.nertsPileSize,
      nertsTop: null,
      nertsSeen: [],
      nertsLeft: p.nertsPileSize,
      nertsVotes: [],
      emptySinceMs: null,
      emptyFrames: 0,
      lastSeen: {},
    })),
    disputes: [],
    nextPileNumber: 1,
    nextDisputeNumber: 1,
    called: false,
    lastPlayMs: null,
    stallRaised: false,
    lastFrameMs: null,
    frames: 0,
  };
}

/** A tracker decision: the event plus the frame time that decided it (ms). */
export interface TimedEvent {
  timeMs: number;
  event: TableEvent;
}

/** Parsed zone id. */
export function parseZone(zone: string | undefined): { area: 'centre' } | { area: 'seat'; seat: number; part: string } | null {
  if (!zone) return null;
  if (zone === 'centre' || zone.startsWith('centre')) return { area: 'centre' };
  const match = /^seat-(\d+)(?:\/(\w+))?/.exec(zone);
  if (!match) return null;
  return { area: 'seat', seat: Number(match[1]), part: match[2] ?? 'seat' };
}

function centreOf(corners: CardObservation['corners']): Point {
  let x = 0;
  let y = 0;
  for (const [px, py] of corners) {
    x += px;
    y += py;
  }
  return [x / 4, y / 4];
}

function cardHeightPx(corners: CardObservation['corners']): number {
  const [tl, tr, br, bl] = corners;
  const side = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  return Math.max(side(tl, bl), side(tr, br), side(tl, tr), side(bl, br), 1);
}

/** The winning reading of a vote list, if it has enough support; `undefined` = no decision. */
function tally(allVotes: Vote[], config: TrackerConfig): { code: CardCode | null } | undefined {
  const votes = allVotes.slice(-config.voteFrames);
  if (votes.length < config.minFrames) return undefined;
  const weights = new Map<CardCode | null, { weight: number; frames: number }>();
  let total = 0;
  for (const vote of votes) {
    const entry = weights.get(vote.code) ?? { weight: 0, frames: 0 };
    entry.weight += vote.weight;
    entry.frames += 1;
    weights.set(vote.code, entry);
    total += vote.weight;
  }
  let best: { code: CardCode | null; weight: number; frames: number } | null = null;
  for (const [code, entry] of weights) if (!best || entry.weight > best.weight) best = { code, ...entry };
  if (!best || best.frames < config.minFrames || best.weight < config.voteShare * total) return undefined;
  return { code: best.code };
}

function pruneVotes(votes: Vote[], nowMs: number, config: TrackerConfig): Vote[] {
  return votes.filter((vote) => nowMs - vote.timeMs <= config.voteWindowMs);
}

function nextInSuit(top: CardCode | undefined, code: CardCode): boolean {
  if (!top) return rankValue(code) === 1;
  return suitOf(top) === suitOf(code) && rankValue(code) === rankValue(top) + 1;
}

/**
 * One frame in: returns the new state and the events decided at this frame. Pure.
 */
export function step(previous: TrackerState, frame: FrameObservations, config: TrackerConfig): { state: TrackerState; events: TimedEvent[] } {
  const state: TrackerState = structuredClone(previous);
  const now = frame.timestampMs;
  const events: TimedEvent[] = [];
  const emit = (event: TableEvent) => events.push({ timeMs: now, event });
  if (state.lastFrameMs !== null && now < state.lastFrameMs) return { state: previous, events }; // out of order: ignore
  state.lastFrameMs = now;
  state.frames += 1;

  const usable = frame.cards.filter((card) => card.confidence >= config.minConfidence);
  const centreCards: CardObservation[] = [];
  const seatByIndex = new Map(state.seats.map((seat) => [seat.seat, seat]));
  const nertsObserved = new Map<number, CardObservation[]>();

  for (const card of usable) {
    const zone = parseZone(card.zone);
    if (!zone) continue;
    if (zone.area === 'centre') {
      if (card.kind === 'face' && card.code) centreCards.push(card);
      continue;
    }
    const seat = seatByIndex.get(zone.seat);
    if (!seat) continue;
    if (card.kind === 'face' && card.code) seat.lastSeen[card.code] = now;
    if (zone.part === 'nerts') {
      const list = nertsObserved.get(zone.seat) ?? [];
      list.push(card);
      nertsObserved.set(zone.seat, list);
    }
  }

  // --- Nerts piles: the top card's changes count cards leaving; a pile seen empty is the call.
  for (const seat of state.seats) {
    const seen = nertsObserved.get(seat.seat) ?? [];
    const face = seen.filter((c) => c.kind === 'face' && c.code).sort((a, b) => b.confidence - a.confidence)[0];
    if (face?.code) {
      seat.nertsVotes.push({ code: face.code, weight: face.confidence, timeMs: now });
      seat.emptySinceMs = null;
      seat.emptyFrames = 0;
    } else if (seen.length === 0) {
      seat.emptySinceMs ??= now;
      seat.emptyFrames += 1;
    }
    seat.nertsVotes = pruneVotes(seat.nertsVotes, now, config);
    const decided = tally(seat.nertsVotes, config);
    if (decided?.code && decided.code !== seat.nertsTop) {
      seat.nertsTop = decided.code;
      if (!seat.nertsSeen.includes(decided.code)) seat.nertsSeen.push(decided.code);
      const left = Math.max(1, seat.nertsSize - (seat.nertsSeen.length - 1));
      if (left !== seat.nertsLeft && left < seat.nertsLeft) {
        seat.nertsLeft = left;
        emit({ type: 'nerts-count', player: seat.playerId, left });
      }
    }
    const emptyLongEnough =
      seat.emptySinceMs !== null && now - seat.emptySinceMs >= config.emptyNertsMs && seat.emptyFrames >= config.emptyNertsFrames;
    // Only a pile already down to its last cards can be empty; otherwise a hand is covering it.
    if (emptyLongEnough && seat.nertsLeft <= 2 && seat.nertsSeen.length > 0 && seat.nertsLeft > 0) {
      seat.nertsLeft = 0;
      seat.nertsTop = null;
      emit({ type: 'nerts-count', player: seat.playerId, left: 0 });
      if (!state.called) {
        state.called = true;
        emit({ type: 'call', player: seat.playerId, manual: false });
      }
    }
  }

  // --- Centre piles: match each centre card to a pile (or a candidate), then vote on tops.
  const pileHits = new Map<string, CardObservation[]>();
  const unmatched: CardObservation[] = [];
  for (const card of centreCards) {
    const center = centreOf(card.corners);
    const size = cardHeightPx(card.corners);
    let best: TrackedPile | null = null;
    let bestDistance = Infinity;
    for (const pile of state.piles) {
      if (pile.completed) continue;
      const distance = Math.hypot(pile.center[0] - center[0], pile.center[1] - center[1]);
      if (distance < config.pileRadiusCards * Math.max(size, pile.cardSizePx) && distance < bestDistance) {
        best = pile;
        bestDistance = distance;
      }
    }
    if (best) {
      const list = pileHits.get(best.id) ?? [];
      list.push(card);
      pileHits.set(best.id, list);
    } else unmatched.push(card);
  }

  for (const pile of state.piles) {
    if (pile.completed) continue;
    const hits = pileHits.get(pile.id);
    if (hits && hits.length > 0) {
      // The top card is the one the recogniser trusts most where several overlap.
      const top = hits.sort((a, b) => b.confidence - a.confidence)[0];
      pile.votes.push({ code: top.code!, weight: top.confidence, timeMs: now });
      pile.lastSeenMs = now;
      detectDispute(state, pile, hits, now, config, emit);
    }
    pile.votes = pruneVotes(pile.votes, now, config);
    const decided = tally(pile.votes, config);
    const currentTop = pile.cards[pile.cards.length - 1]?.code;
    if (!decided?.code || decided.code === currentTop) continue;
    const added = cardsBetween(currentTop, decided.code);
    if (added) {
      for (const code of added) {
        const { player, rivals } = attribute(state, code, now, config);
        pile.cards.push({ code, player });
        pile.rivals = rivals;
        pile.doubleFrames = 0;
        emit({ type: 'card-played', player, card: code, foundationId: pile.id, newPile: false });
        state.lastPlayMs = now;
        state.stallRaised = false;
      }
      pile.reportedIllegal = null;
      if (rankValue(decided.code) === 13) {
        pile.completed = true;
        emit({ type: 'foundation-completed', foundationId: pile.id });
      }
    } else if (pile.reportedIllegal !== decided.code && !pile.cards.some((c) => c.code === decided.code)) {
      // A card that is not next in suit: an illegal play. The rules engine records the violation;
      // the tracker keeps the pile's legal top (the card must go back).
      pile.reportedIllegal = decided.code;
      const { player } = attribute(state, decided.code, now, config);
      emit({ type: 'card-played', player, card: decided.code, foundationId: pile.id, newPile: false });
    }
  }

  // Candidates: a stable card where no pile lies starts a pile (an ace) or is an illegal start.
  for (const card of unmatched) {
    const center = centreOf(card.corners);
    const size = cardHeightPx(card.corners);
    let candidate = state.candidates.find(
      (c) => Math.hypot(c.center[0] - center[0], c.center[1] - center[1]) < config.pileRadiusCards * Math.max(size, c.cardSizePx),
    );
    if (!candidate) {
      candidate = { center, cardSizePx: size, votes: [], reportedIllegal: null };
      state.candidates.push(candidate);
    }
    candidate.votes.push({ code: card.code!, weight: card.confidence, timeMs: now });
    // Follow the card while it settles.
    candidate.center = [(candidate.center[0] + center[0]) / 2, (candidate.center[1] + center[1]) / 2];
  }
  const keptCandidates: PileCandidate[] = [];
  for (const candidate of state.candidates) {
    candidate.votes = pruneVotes(candidate.votes, now, config);
    if (candidate.votes.length === 0) continue;
    const decided = tally(candidate.votes, config);
    if (decided?.code && rankValue(decided.code) === 1) {
      const id = `f${state.nextPileNumber++}`;
      const { player, rivals } = attribute(state, decided.code, now, config);
      state.piles.push({
        id,
        center: candidate.center,
        cardSizePx: candidate.cardSizePx,
        cards: [{ code: decided.code, player }],
        completed: false,
        votes: candidate.votes,
        reportedIllegal: null,
        lastSeenMs: now,
        rivals,
        doubleFrames: 0,
        disputedTop: null,
      });
      emit({ type: 'card-played', player, card: decided.code, foundationId: id, newPile: true });
      state.lastPlayMs = now;
      state.stallRaised = false;
      continue;
    }
    if (decided?.code && candidate.reportedIllegal !== decided.code) {
      candidate.reportedIllegal = decided.code;
      const { player } = attribute(state, decided.code, now, config);
      emit({ type: 'card-played', player, card: decided.code, foundationId: `f${state.nextPileNumber}`, newPile: true });
    }
    keptCandidates.push(candidate);
  }
  state.candidates = keptCandidates;

  // --- Stall: nothing played for a while.
  const since = state.lastPlayMs ?? null;
  if (since !== null && !state.called && !state.stallRaised && now - since >= config.stallMs) {
    state.stallRaised = true;
    emit({ type: 'stall', sinceMs: since });
  }
  return { state, events };
}

/**
 * The cards that take a pile from `top` to `reading` by legal single steps (several when frames
 * were missed); null when `reading` cannot follow `top` in suit.
 */
export function cardsBetween(top: CardCode | undefined, reading: CardCode): CardCode[] | null {
  if (!top) return rankValue(reading) === 1 ? [reading] : null;
  if (suitOf(top) !== suitOf(reading)) return null;
  const from = rankValue(top);
  const to = rankValue(reading);
  if (to <= from || to - from > 3) return null; // more than three unseen plays is a misread
  const suit = parseCard(top).suit;
  const codes: CardCode[] = [];
  for (let value = from + 1; value <= to; value += 1) codes.push(`${['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'][value - 1]}${suit}` as CardCode);
  return codes;
}

/**
 * Who played `code` now: the seat where it was seen face up lately and is gone now (the earliest
 * to leave, when several: the first to land). Also returns the other seats it left lately: the
 * possible second lander of a dispute. Falls back to the seat that saw the code most recently.
 */
function attribute(state: TrackerState, code: CardCode, now: number, config: TrackerConfig): { player: string; rivals: string[] } {
  const departures = state.seats
    .map((seat) => ({ seat, seenMs: seat.lastSeen[code] }))
    .filter((d): d is { seat: TrackedSeat; seenMs: number } => d.seenMs !== undefined && d.seenMs < now && now - d.seenMs <= config.attributionWindowMs)
    .sort((a, b) => a.seenMs - b.seenMs);
  if (departures.length === 0) {
    const anySeen = state.seats
      .filter((seat) => seat.lastSeen[code] !== undefined)
      .sort((a, b) => (b.lastSeen[code] ?? 0) - (a.lastSeen[code] ?? 0))[0];
    return { player: (anySeen ?? state.seats[0]).playerId, rivals: [] };
  }
  const first = departures[0];
  // Consume the sighting so one departure explains one arrival.
  delete first.seat.lastSeen[code];
  const rivals = departures.filter((d) => d !== first && d.seenMs - first.seenMs <= config.disputeWindowMs).map((d) => d.seat.playerId);
  return { player: first.seat.playerId, rivals };
}

/**
 * Two copies of the pile's top card lying on it at once, in several frames, soon after it was
 * played, is a race: reported as the second player's play of the same card.
 */
function detectDispute(
  state: TrackerState,
  pile: TrackedPile,
  hits: CardObservation[],
  now: number,
  config: TrackerConfig,
  emit: (event: TableEvent) => void,
): void {
  const top = pile.cards[pile.cards.length - 1];
  if (!top || pile.disputedTop === top.code) return;
  const copies = hits.filter((hit) => hit.code === top.code).length;
  if (copies < 2) return;
  pile.doubleFrames += 1;
  if (pile.doubleFrames < config.minFrames) return;
  const second = pile.rivals[0] ?? state.seats.find((seat) => seat.playerId !== top.player && seat.lastSeen[top.code] !== undefined && now - (seat.lastSeen[top.code] ?? 0) <= config.attributionWindowMs)?.playerId;
  if (!second) return;
  pile.disputedTop = top.code;
  state.disputes.push({ id: `d${state.nextDisputeNumber++}`, foundationId: pile.id, first: { player: top.player, card: top.code }, second: { player: second, card: top.code } });
  // The second copy is reported as a play of its own: the rules engine sees the race and rules
  // that the first to land stays (the tracker's pile keeps one copy).
  emit({ type: 'card-played', player: second, card: top.code, foundationId: pile.id, newPile: false });
}

/** Marks the hand as called from outside (manual call): later plays are after the call. */
export function markCalled(previous: TrackerState): TrackerState {
  return { ...previous, called: true };
}
