/**
 * The camera referee: a pure reducer over the append-only log of what the table camera observes
 * (plays to the centre, Nerts pile counts, the call, stuck rotations, disputes, manual corrections,
 * hand scoring). `apply(state, event) → { state, violations }`; `replay(events)` folds a log and
 * reproduces the state exactly. Illegal plays become violations in the state, never exceptions.
 *
 * It sees only what a camera sees, not full tableaux, so it is distinct from the table model
 * (table.ts); the two share the foundation rules (foundations.ts). Times are milliseconds (`atMs`)
 * on whatever clock the tracker uses; the reducer never reads a clock. Rule ids refer to RULES.md.
 */
import { type CardCode, isCardCode, parseCard, rankValue, SUITS, suitOf, type Suit } from './cards';
import { completesFoundation, describeFoundationProblem, foundationPlayProblem } from './foundations';
import { addHand, type MatchState, newMatch, replaceLastHand } from './match';
import { entityOf, type HandScore, type HandTally, scoreHand, type Teams } from './scoring';
import { type PresetName, tryResolveVariant, type VariantKnobs, type VariantRules, type ScoringRules } from './variants';
import { type Violation, type ViolationCode, violation } from './violations';

export type { Violation, ViolationCode } from './violations';

/** Version of the event and state shapes below; bump on a breaking change. */
export const REFEREE_PROTOCOL_VERSION = 1;

/** A seat at the referee's table. `id` owns the deck `deckId` (a player, or a partnership sharing one tableau). */
export interface RefereePlayer {
  id: string;
  /** Seat position around the table, 0-based, in play order. */
  seat: number;
  deckId: string;
  /** Which back design the recogniser sees for this deck. */
  backDesign: string;
  /** Separate tableaux sharing a score (001 partnerships). */
  team?: string;
  /** Handicap: this player's Nerts pile size (default: the variant's). */
  nertsPileSize?: number;
  /** People sharing this tableau (partnerships with one tableau); informational. */
  members?: string[];
}

/** Where a played card came from, as far as the camera could tell. */
export type PlaySource = 'nerts' | 'waste' | 'work' | 'unknown';

/** How a dispute is settled: first played stays (X1), named plays stay, or every raced card stays (X2: an unresolvable tie). */
export type DisputeRuling = { kind: 'first-stays' } | { kind: 'keep'; playIds: string[] } | { kind: 'all-stay' };

/** A manual correction by a person (always with who and why). */
export type Correction =
  /** Take a misread play out of the centre. */
  | { kind: 'remove-play'; playId: string }
  /** Add a play the camera missed (placed by rank on that foundation, no legality check). */
  | { kind: 'add-play'; foundationId: string; card: CardCode; deckId?: string; owner?: string; suit?: Suit }
  /** Fix who a centre card belongs to. */
  | { kind: 'set-owner'; playId: string; owner: string | null; deckId?: string }
  | { kind: 'set-nerts-count'; player: string; count: number }
  /**
   * The score sort counted this many centre cards of the player's deck: their centre count from
   * now on, whatever the recorded plays add up to (cards the camera never saw land included).
   */
  | { kind: 'set-centre-count'; player: string; count: number }
  /** A foundation's suit was misread (its ace taken for another suit's): its cards keep their ranks and take this suit. */
  | { kind: 'set-suit'; foundationId: string; suit: Suit }
  /** Mark a violation (by its index in `state.violations`) as dismissed. */
  | { kind: 'dismiss-violation'; index: number }
  | { kind: 'undo-call' };

/** What the table observes. A discriminated union on `type`; `atMs` is the observation time in ms. */
export type RefereeEvent =
  /** A new hand: players, seats, decks and the variant (a preset name or knobs). Starts a new match when asked, when none is running, when the last one ended, or when the players differ. */
  | { type: 'hand-started'; atMs: number; players: RefereePlayer[]; variant: PresetName | VariantKnobs; newMatch?: boolean }
  /** A card landed on a foundation. `foundationId` is the tracker's id for that centre pile (a new id with an ace starts one). `tie`: the camera could not tell whether it landed before a racing copy (X2). */
  | { type: 'card-played'; atMs: number; card: CardCode; foundationId: string; deckId?: string; owner?: string; from?: PlaySource; playId?: string; tie?: boolean }
  /** The camera counted `count` cards in a player's Nerts pile. */
  | { type: 'nerts-count'; atMs: number; player: string; count: number }
  | { type: 'call'; atMs: number; player: string }
  /** Everyone was stuck: waste into stock, top card to the bottom (S1). */
  | { type: 'stuck-rotation'; atMs: number }
  /** Everyone stuck and no stock card can play (S4), or G'NERTS' standstill after the last rotation (S3): the hand ends. */
  | { type: 'standstill'; atMs: number }
  /** Someone (tracker or official) says these plays raced for one foundation slot; the referee rules first-stays (or all-stay when `tie`). */
  | { type: 'play-disputed'; atMs: number; playIds: string[]; by: string; reason?: string; tie?: boolean }
  /** An official's ruling on a dispute, overruling the automatic one (X3). */
  | { type: 'dispute-ruled'; atMs: number; disputeId: string; ruling: DisputeRuling; by: string; reason: string }
  | { type: 'correction'; atMs: number; by: string; reason: string; fix: Correction }
  /** Score the hand (ends it if still in play) and add it to the match. */
  | { type: 'hand-scored'; atMs: number };

/** Where a play stands now. */
export type PlayStatus = 'on-foundation' | 'returned' | 'rejected';

/** Every card the camera saw played this hand. `seq` orders plays within the hand. */
export interface PlayRecord {
  playId: string;
  seq: number;
  eventIndex: number;
  atMs: number;
  card: CardCode;
  foundationId: string;
  deckId: string | null;
  /** Owning player (or null when the back was not recognised). */
  owner: string | null;
  from: PlaySource;
  status: PlayStatus;
  /** Violation code when rejected. */
  rejectedFor?: ViolationCode;
}

/** A card on a foundation as viewers see it. */
export interface FoundationCardView {
  playId: string;
  code: CardCode;
  owner: string | null;
  deckId: string | null;
}

/** One centre pile: top card, height (top rank, 0–13), completed (a king closed it), and each card with its owner. */
export interface RefereeFoundation {
  id: string;
  suit: Suit;
  createdAtMs: number;
  cards: FoundationCardView[];
  topCard: CardCode | null;
  height: number;
  completed: boolean;
}

/** A race for one foundation slot and how it was ruled. */
export interface Dispute {
  id: string;
  foundationId: string;
  card: CardCode;
  playIds: string[];
  openedAtMs: number;
  openedBy: string;
  ruling: DisputeRuling;
  ruledBy: string;
  reason: string;
  /** Plays left in the centre / sent back to their tableaux by the ruling. */
  kept: string[];
  returned: string[];
}

/** A correction as applied. */
export interface CorrectionRecord {
  eventIndex: number;
  atMs: number;
  by: string;
  reason: string;
  fix: Correction;
}

/** Per-player view: own cards in the centre and the Nerts pile count. */
export interface RefereePlayerState {
  id: string;
  centre: number;
  nertsLeft: number;
  nertsPileSize: number;
}

/** Why the hand stopped. */
export type RefereeHandEnd = 'call' | 'standstill' | 'rotation-limit' | 'scored';

/** The hand in progress (or just finished). */
export interface RefereeHand {
  number: number;
  startedAtMs: number;
  variant: VariantRules;
  players: RefereePlayer[];
  teams: Teams;
  foundations: RefereeFoundation[];
  plays: PlayRecord[];
  playerStates: Record<string, RefereePlayerState>;
  /** Cards whose back was not recognised. */
  unknownCentre: number;
  /** Per player: centre cards as counted at the score sort (`set-centre-count`), which override the plays' count. */
  sortedCounts?: Record<string, number>;
  call: { player: string; atMs: number } | null;
  rotations: number;
  phase: 'playing' | 'ended' | 'scored';
  endReason: RefereeHandEnd | null;
  disputes: Dispute[];
  corrections: CorrectionRecord[];
  scores: HandScore | null;
  /** True once `scores` went into the match (a hand scored after the match ended does not). */
  inMatch: boolean;
}

/** The match so far: every scored hand, totals, winner. */
export interface RefereeMatch extends MatchState {
  number: number;
  rules: ScoringRules;
  players: string[];
  teams: Teams;
}

/** A violation with where it happened; `dismissed` once a person dismissed it. */
export interface RefereeViolation extends Violation {
  eventIndex: number;
  hand: number | null;
  dismissed?: { by: string; reason: string };
}

/** Everything the referee knows. Plain JSON data. */
export interface RefereeState {
  version: typeof REFEREE_PROTOCOL_VERSION;
  /** Events applied so far (the next event's index). */
  eventCount: number;
  hand: RefereeHand | null;
  match: RefereeMatch | null;
  /** Every violation in the log so far, oldest first. */
  violations: RefereeViolation[];
  /** Scored hands of earlier matches are dropped; this counts hands across the whole log. */
  handsStarted: number;
  matchesStarted: number;
}

/** The state before any event. */
export function initialRefereeState(): RefereeState {
  return { version: REFEREE_PROTOCOL_VERSION, eventCount: 0, hand: null, match: null, violations: [], handsStarted: 0, matchesStarted: 0 };
}

/** Result of one step: the new state and the violations this event caused (also appended to state.violations). */
export interface ApplyResult {
  state: RefereeState;
  violations: RefereeViolation[];
}

/** Folds a whole log from the initial state. Replaying a log always reproduces the same state. */
export function replay(events: readonly RefereeEvent[]): RefereeState {
  let state = initialRefereeState();
  for (const event of events) state = apply(state, event).state;
  return state;
}

/** Applies one event. Pure: the input state is never modified. Never throws on bad events. */
export function apply(state: RefereeState, event: RefereeEvent): ApplyResult {
  const next: RefereeState = structuredClone(state);
  const eventIndex = next.eventCount;
  next.eventCount++;
  const found: RefereeViolation[] = [];
  const flag = (code: ViolationCode, message: string, extra: { player?: string; card?: string } = {}): void => {
    found.push({ ...violation(code, message, extra), eventIndex, hand: next.hand?.number ?? null });
  };

  const malformed = eventProblem(event);
  if (malformed) {
    flag('event/malformed', malformed);
  } else {
    reduce(next, event, eventIndex, flag);
    if (next.hand) refreshDerived(next.hand);
  }
  next.violations.push(...found);
  return { state: next, violations: found };
}

type Flag = (code: ViolationCode, message: string, extra?: { player?: string; card?: string }) => void;

function reduce(state: RefereeState, event: RefereeEvent, eventIndex: number, flag: Flag): void {
  if (event.type === 'hand-started') return startHand(state, event, flag);
  const hand = state.hand;
  if (!hand) return flag('hand/not-started', `${event.type} before any hand started`);

  switch (event.type) {
    case 'card-played':
      return playCard(hand, event, eventIndex, flag);
    case 'nerts-count': {
      const player = hand.playerStates[tableauIdOf(hand, event.player)];
      if (!player) return flag('player/unknown', `no player "${event.player}" in this hand`, { player: event.player });
      if (!Number.isInteger(event.count) || event.count < 0 || event.count > player.nertsPileSize) {
        return flag('nerts/bad-count', `${event.player}'s Nerts pile cannot hold ${event.count} cards (0–${player.nertsPileSize})`, { player: event.player });
      }
      // Cards only leave a Nerts pile; a rising count is a misread or a rules problem worth a look (kept, but flagged).
      if (event.count > player.nertsLeft) flag('nerts/count-increased', `${event.player}'s Nerts pile went from ${player.nertsLeft} to ${event.count} cards`, { player: event.player });
      player.nertsLeft = event.count;
      return;
    }
    case 'call': {
      const player = hand.playerStates[tableauIdOf(hand, event.player)];
      if (!player) return flag('player/unknown', `no player "${event.player}" in this hand`, { player: event.player });
      if (hand.call) return flag('hand/already-called', `${hand.call.player} already called`, { player: event.player });
      if (hand.phase !== 'playing') return flag('hand/ended', `call after the hand ended (${hand.endReason ?? 'ended'})`, { player: event.player });
      // C1: a call with cards left still stops play (everyone heard it) but is flagged for the official.
      if (player.nertsLeft > 0) flag('call/nerts-pile-not-empty', `${event.player} called with ${player.nertsLeft} cards in the Nerts pile`, { player: event.player });
      hand.call = { player: player.id, atMs: event.atMs };
      hand.phase = 'ended';
      hand.endReason = 'call';
      return;
    }
    case 'stuck-rotation': {
      if (hand.phase !== 'playing') return flag(hand.call ? 'hand/play-after-call' : 'hand/ended', 'stuck rotation after the hand ended');
      const limit = hand.variant.stuckRotationLimit;
      // S3: after the last allowed rotation the next standstill ends the round instead.
      if (limit !== null && hand.rotations >= limit) flag('hand/rotation-limit', `only ${limit} stuck rotations are allowed; this standstill ends the round`);
      hand.rotations++;
      return;
    }
    case 'standstill': {
      if (hand.phase !== 'playing') return flag(hand.call ? 'hand/play-after-call' : 'hand/ended', 'standstill after the hand ended');
      const limit = hand.variant.stuckRotationLimit;
      hand.phase = 'ended';
      hand.endReason = limit !== null && hand.rotations >= limit ? 'rotation-limit' : 'standstill';
      return;
    }
    case 'play-disputed':
      return openExplicitDispute(hand, event, flag);
    case 'dispute-ruled': {
      const dispute = hand.disputes.find((d) => d.id === event.disputeId);
      if (!dispute) return flag('dispute/unknown', `no dispute "${event.disputeId}"`);
      const problem = rulingProblem(dispute, event.ruling);
      if (problem) return flag('dispute/bad-ruling', problem);
      applyRuling(hand, dispute, event.ruling, event.by, event.reason);
      return;
    }
    case 'correction':
      return applyCorrection(state, hand, event, eventIndex, flag);
    case 'hand-scored':
      return scoreCurrentHand(state, hand, flag);
  }
}

function startHand(state: RefereeState, event: Extract<RefereeEvent, { type: 'hand-started' }>, flag: Flag): void {
  const resolved = tryResolveVariant(event.variant);
  if (!resolved.ok) return flag('event/malformed', `hand-started: ${resolved.error}`);
  const players = event.players;
  const ids = new Set<string>();
  const decks = new Set<string>();
  for (const player of players) {
    if (ids.has(player.id)) return flag('event/malformed', `hand-started: duplicate player "${player.id}"`);
    if (decks.has(player.deckId)) return flag('event/malformed', `hand-started: deck "${player.deckId}" is used twice`);
    ids.add(player.id);
    decks.add(player.deckId);
  }
  if (players.length < 2 || players.length > 6) return flag('event/malformed', 'hand-started: a hand has 2 to 6 players (or partnerships)');
  const rules = resolved.rules;
  const teams: Teams = {};
  for (const player of players) if (player.team) (teams[player.team] ??= []).push(player.id);
  const playerIds = players.map((p) => p.id);

  if (state.hand && state.hand.phase !== 'scored' && state.hand.plays.length > 0) {
    // Not an error of the table's, but worth telling the official: the previous hand was never scored.
    flag('hand/unscored', `hand ${state.hand.number} was never scored`);
  }
  const samePlayers = state.match !== null && state.match.players.length === playerIds.length && state.match.players.every((id, i) => id === playerIds[i]);
  if (event.newMatch === true || state.match === null || state.match.ended || !samePlayers) {
    state.matchesStarted++;
    state.match = { ...newMatch(playerIds, teams), number: state.matchesStarted, rules: { ...rules.scoring }, players: playerIds, teams };
  }
  state.handsStarted++;
  const playerStates: Record<string, RefereePlayerState> = {};
  for (const player of players) {
    const size = player.nertsPileSize ?? rules.nertsPileSize;
    playerStates[player.id] = { id: player.id, centre: 0, nertsLeft: size, nertsPileSize: size };
  }
  state.hand = {
    number: state.match.hands.length + 1,
    startedAtMs: event.atMs,
    variant: rules,
    players: players.map((p) => ({ ...p })),
    teams,
    foundations: [],
    plays: [],
    playerStates,
    unknownCentre: 0,
    call: null,
    rotations: 0,
    phase: 'playing',
    endReason: null,
    disputes: [],
    corrections: [],
    scores: null,
    inMatch: false,
  };
}

/** The tableau (player entry) a person plays on: the entry itself, or the partnership listing them in `members`. */
function tableauIdOf(hand: RefereeHand, person: string): string {
  if (hand.playerStates[person]) return person;
  return hand.players.find((p) => p.members?.includes(person))?.id ?? person;
}

function ownerOfDeck(hand: RefereeHand, deckId: string): string | null {
  return hand.players.find((p) => p.deckId === deckId)?.id ?? null;
}

function deckOfOwner(hand: RefereeHand, owner: string): string | null {
  return hand.players.find((p) => p.id === owner)?.deckId ?? null;
}

function playCard(hand: RefereeHand, event: Extract<RefereeEvent, { type: 'card-played' }>, eventIndex: number, flag: Flag): void {
  const seq = hand.plays.length;
  const playId = event.playId ?? `p${eventIndex}`;
  const givenOwner = event.owner !== undefined ? tableauIdOf(hand, event.owner) : undefined;
  let deckId = event.deckId ?? (givenOwner !== undefined ? deckOfOwner(hand, givenOwner) : null);
  let owner = givenOwner ?? (deckId !== null ? ownerOfDeck(hand, deckId) : null);
  if (givenOwner !== undefined && !hand.playerStates[givenOwner]) {
    flag('player/unknown', `no player "${event.owner}" in this hand`, { player: event.owner, card: event.card });
    owner = null;
  }
  if (deckId !== null && ownerOfDeck(hand, deckId) === null) {
    flag('deck/unknown-deck', `deck "${deckId}" is not at this table`, { card: event.card });
    deckId = null;
    owner = givenOwner !== undefined && hand.playerStates[givenOwner] ? givenOwner : null;
  }
  const record: PlayRecord = { playId, seq, eventIndex, atMs: event.atMs, card: event.card, foundationId: event.foundationId, deckId, owner, from: event.from ?? 'unknown', status: 'on-foundation' };
  const reject = (code: ViolationCode, message: string): void => {
    record.status = 'rejected';
    record.rejectedFor = code;
    hand.plays.push(record);
    flag(code, message, { ...(owner ? { player: owner } : {}), card: event.card });
  };

  if (hand.plays.some((p) => p.playId === playId)) return flag('event/malformed', `play id "${playId}" was already used`, { card: event.card });
  // C2: play stops at the call; cards already in the air (within the variant's grace) complete.
  if (hand.phase !== 'playing') {
    const inTheAir = hand.call !== null && hand.endReason === 'call' && event.atMs <= hand.call.atMs + hand.variant.callGraceMs;
    if (!inTheAir) {
      return hand.call !== null && hand.endReason === 'call'
        ? reject('hand/play-after-call', `${event.card} played ${event.atMs - hand.call.atMs} ms after ${hand.call.player} called`)
        : reject('hand/ended', `${event.card} played after the hand ended (${hand.endReason ?? 'ended'})`);
    }
  }
  // K2: one deck holds one copy of each card.
  if (deckId !== null && hand.plays.some((p) => p.status === 'on-foundation' && p.deckId === deckId && p.card === event.card)) {
    return reject('deck/duplicate-card', `a second ${event.card} from deck "${deckId}" reached the centre`);
  }
  const foundation = hand.foundations.find((f) => f.id === event.foundationId) ?? null;
  const problem = foundationPlayProblem(foundation, event.card);
  if (problem === null) {
    if (!foundation) hand.foundations.push(emptyFoundation(event.foundationId, suitOf(event.card), event.atMs));
    hand.plays.push(record);
    return;
  }
  // X1: a copy of the card just played to this slot, from another deck, within the window: a race, not a mistake.
  if (foundation && (problem === 'foundation/wrong-rank' || problem === 'foundation/completed')) {
    const rival = hand.plays.find(
      // Same known deck was already caught as a duplicate; unknown backs may still be two decks (or one card seen twice: first-stays dedupes it).
      (p) => p.status === 'on-foundation' && p.foundationId === foundation.id && p.card === event.card && !(p.deckId !== null && p.deckId === deckId) && event.atMs - p.atMs <= hand.variant.disputeWindowMs,
    );
    if (rival) {
      hand.plays.push(record);
      // In landing order: a copy reported later may have landed first (the camera learns who put a card down late).
      const playIds = event.atMs < rival.atMs ? [playId, rival.playId] : [rival.playId, playId];
      const dispute = openDispute(hand, { foundationId: foundation.id, card: event.card, playIds, openedAtMs: event.atMs, openedBy: 'referee' });
      // X2: the camera could not order them: both stay.
      applyRuling(hand, dispute, event.tie === true ? { kind: 'all-stay' } : { kind: 'first-stays' }, 'referee', event.tie === true ? 'a tie that could not be resolved: both stay (X2)' : 'the first played stays, the later copy goes back (X1)');
      return;
    }
  }
  reject(problem, describeFoundationProblem(problem, event.card, foundation));
}

function emptyFoundation(id: string, suit: Suit, atMs: number): RefereeFoundation {
  return { id, suit, createdAtMs: atMs, cards: [], topCard: null, height: 0, completed: false };
}

/** A new dispute over `playIds` (copies of one card on one foundation), added to the hand unruled; the caller rules it. */
function openDispute(hand: RefereeHand, opened: Pick<Dispute, 'foundationId' | 'card' | 'playIds' | 'openedAtMs' | 'openedBy'>): Dispute {
  const dispute: Dispute = { id: `d${hand.disputes.length + 1}`, ...opened, ruling: { kind: 'first-stays' }, ruledBy: 'referee', reason: '', kept: [], returned: [] };
  hand.disputes.push(dispute);
  return dispute;
}

function openExplicitDispute(hand: RefereeHand, event: Extract<RefereeEvent, { type: 'play-disputed' }>, flag: Flag): void {
  const plays = event.playIds.map((id) => hand.plays.find((p) => p.playId === id));
  if (plays.length < 2 || plays.some((p) => p === undefined)) return flag('dispute/unknown', `a dispute needs at least two known plays (got ${event.playIds.join(', ')})`);
  const known = plays as PlayRecord[];
  if (!known.every((p) => p.card === known[0].card && p.foundationId === known[0].foundationId)) {
    return flag('dispute/bad-ruling', 'disputed plays must be copies of one card on one foundation');
  }
  const dispute = openDispute(hand, { foundationId: known[0].foundationId, card: known[0].card, playIds: known.map((p) => p.playId), openedAtMs: event.atMs, openedBy: event.by });
  applyRuling(hand, dispute, event.tie === true ? { kind: 'all-stay' } : { kind: 'first-stays' }, 'referee', event.reason ?? (event.tie === true ? 'unresolvable tie: all stay (X2)' : 'the first played stays (X1)'));
}

function rulingProblem(dispute: Dispute, ruling: DisputeRuling): string | null {
  if (typeof ruling !== 'object' || ruling === null) return 'a ruling must be an object';
  if (ruling.kind === 'first-stays' || ruling.kind === 'all-stay') return null;
  if (ruling.kind === 'keep') {
    if (!Array.isArray(ruling.playIds) || ruling.playIds.length === 0) return 'a keep ruling names at least one play';
    const stray = ruling.playIds.find((id) => !dispute.playIds.includes(id));
    return stray ? `play "${stray}" is not part of dispute ${dispute.id}` : null;
  }
  return `unknown ruling "${String((ruling as { kind?: unknown }).kind)}"`;
}

/** Sets each disputed play on the foundation or back to its tableau. Earliest = lowest atMs, then log order. */
function applyRuling(hand: RefereeHand, dispute: Dispute, ruling: DisputeRuling, by: string, reason: string): void {
  const plays = dispute.playIds.map((id) => hand.plays.find((p) => p.playId === id)!).sort((a, b) => a.atMs - b.atMs || a.seq - b.seq);
  const keep = new Set<string>(ruling.kind === 'all-stay' ? dispute.playIds : ruling.kind === 'keep' ? ruling.playIds : [plays[0].playId]);
  for (const play of plays) play.status = keep.has(play.playId) ? 'on-foundation' : 'returned';
  dispute.ruling = ruling;
  dispute.ruledBy = by;
  dispute.reason = reason;
  dispute.kept = plays.filter((p) => keep.has(p.playId)).map((p) => p.playId);
  dispute.returned = plays.filter((p) => !keep.has(p.playId)).map((p) => p.playId);
}

function applyCorrection(state: RefereeState, hand: RefereeHand, event: Extract<RefereeEvent, { type: 'correction' }>, eventIndex: number, flag: Flag): void {
  const fix = event.fix;
  const bad = (message: string): void => flag('correction/bad-target', `correction by ${event.by}: ${message}`);
  switch (fix.kind) {
    case 'remove-play': {
      const play = hand.plays.find((p) => p.playId === fix.playId);
      if (!play) return bad(`no play "${fix.playId}"`);
      play.status = 'returned';
      break;
    }
    case 'add-play': {
      if (!isCardCode(fix.card)) return bad(`"${String(fix.card)}" is not a card code`);
      let foundation = hand.foundations.find((f) => f.id === fix.foundationId);
      if (!foundation) {
        foundation = emptyFoundation(fix.foundationId, fix.suit ?? suitOf(fix.card), event.atMs);
        hand.foundations.push(foundation);
      }
      const deckId = fix.deckId ?? (fix.owner !== undefined ? deckOfOwner(hand, fix.owner) : null);
      const owner = fix.owner ?? (deckId !== null ? ownerOfDeck(hand, deckId) : null);
      hand.plays.push({ playId: `p${eventIndex}`, seq: hand.plays.length, eventIndex, atMs: event.atMs, card: fix.card, foundationId: foundation.id, deckId, owner, from: 'unknown', status: 'on-foundation' });
      break;
    }
    case 'set-owner': {
      const play = hand.plays.find((p) => p.playId === fix.playId);
      if (!play) return bad(`no play "${fix.playId}"`);
      if (fix.owner !== null && !hand.playerStates[fix.owner]) return bad(`no player "${fix.owner}"`);
      play.owner = fix.owner;
      play.deckId = fix.deckId ?? (fix.owner !== null ? deckOfOwner(hand, fix.owner) : null);
      break;
    }
    case 'set-nerts-count': {
      const player = hand.playerStates[fix.player];
      if (!player) return bad(`no player "${fix.player}"`);
      if (!Number.isInteger(fix.count) || fix.count < 0 || fix.count > player.nertsPileSize) return bad(`bad Nerts count ${fix.count}`);
      player.nertsLeft = fix.count;
      break;
    }
    case 'set-centre-count': {
      if (!hand.playerStates[fix.player]) return bad(`no player "${fix.player}"`);
      if (!Number.isInteger(fix.count) || fix.count < 0 || fix.count > 52) return bad(`bad centre count ${fix.count}`);
      hand.sortedCounts = { ...hand.sortedCounts, [fix.player]: fix.count };
      break;
    }
    case 'set-suit': {
      const foundation = hand.foundations.find((f) => f.id === fix.foundationId);
      if (!foundation) return bad(`no foundation "${fix.foundationId}"`);
      if (!SUITS.includes(fix.suit)) return bad(`"${String(fix.suit)}" is not a suit`);
      foundation.suit = fix.suit;
      // Rejected plays never lay on the pile: they keep what was read.
      for (const play of hand.plays) if (play.foundationId === foundation.id && play.status !== 'rejected') play.card = `${parseCard(play.card).rank}${fix.suit}` as CardCode;
      break;
    }
    case 'dismiss-violation': {
      const target = state.violations[fix.index];
      if (!target) return bad(`no violation #${fix.index}`);
      target.dismissed = { by: event.by, reason: event.reason };
      break;
    }
    case 'undo-call': {
      if (!hand.call) return bad('there is no call to undo');
      if (hand.phase === 'scored') return bad('the hand is already scored');
      hand.call = null;
      hand.phase = 'playing';
      hand.endReason = null;
      break;
    }
    default:
      return bad(`unknown correction "${String((fix as { kind?: unknown }).kind)}"`);
  }
  hand.corrections.push({ eventIndex, atMs: event.atMs, by: event.by, reason: event.reason, fix });
  // R5: a correction after the hand was scored (the score sort found a miscount) re-scores it.
  if (hand.phase === 'scored') rescoreHand(state, hand);
}

/** Scores a scored hand again after a correction and replaces its row in the match. */
function rescoreHand(state: RefereeState, hand: RefereeHand): void {
  refreshDerived(hand);
  const match = state.match;
  const rules = match?.rules ?? hand.variant.scoring;
  hand.scores = scoreHand(rules, hand.players.map((p) => p.id), refereeHandTally(hand), hand.teams);
  if (match && hand.inMatch) state.match = { ...match, ...replaceLastHand(rules, match, hand.scores) };
}

/** The tally scoring needs, from the referee's view of a hand. */
export function refereeHandTally(hand: RefereeHand): HandTally {
  const centre: Record<string, number> = {};
  const nertsLeft: Record<string, number> = {};
  for (const [id, player] of Object.entries(hand.playerStates)) {
    centre[id] = player.centre;
    nertsLeft[id] = player.nertsLeft;
  }
  return { centre, nertsLeft, caller: hand.call?.player ?? null };
}

function scoreCurrentHand(state: RefereeState, hand: RefereeHand, flag: Flag): void {
  if (hand.phase === 'scored') return flag('hand/ended', `hand ${hand.number} is already scored`);
  refreshDerived(hand);
  if (hand.phase === 'playing') {
    hand.phase = 'ended';
    hand.endReason = 'scored';
  }
  const match = state.match;
  const playerIds = hand.players.map((p) => p.id);
  const rules = match?.rules ?? hand.variant.scoring;
  hand.scores = scoreHand(rules, playerIds, refereeHandTally(hand), hand.teams);
  hand.phase = 'scored';
  if (!match) return;
  if (match.ended) return flag('match/over', `the match already ended${match.winner ? `: ${match.winner} won` : ''}; this hand is not added`);
  const updated = addHand(rules, match, hand.scores);
  state.match = { ...match, ...updated };
  hand.inMatch = true;
}

/** Recomputes what viewers read from the plays: foundation cards in heap order, tops, heights, completion, and centre counts. */
function refreshDerived(hand: RefereeHand): void {
  for (const foundation of hand.foundations) {
    const cards = hand.plays
      .filter((p) => p.foundationId === foundation.id && p.status === 'on-foundation')
      // Heap order: by rank (the foundation builds by rank), equal ranks (a tie that stayed) in play order.
      .sort((a, b) => rankValue(a.card) - rankValue(b.card) || a.seq - b.seq);
    foundation.cards = cards.map((p) => ({ playId: p.playId, code: p.card, owner: p.owner, deckId: p.deckId }));
    const top = cards[cards.length - 1];
    foundation.topCard = top ? top.card : null;
    foundation.height = top ? rankValue(top.card) : 0;
    // F4: a king on it closes the pile.
    foundation.completed = cards.some((p) => completesFoundation(p.card));
  }
  for (const player of Object.values(hand.playerStates)) player.centre = 0;
  hand.unknownCentre = 0;
  for (const play of hand.plays) {
    if (play.status !== 'on-foundation') continue;
    const player = play.owner !== null ? hand.playerStates[play.owner] : undefined;
    if (player) player.centre++;
    else hand.unknownCentre++;
  }
  for (const [id, count] of Object.entries(hand.sortedCounts ?? {})) {
    const player = hand.playerStates[id];
    if (player) player.centre = count;
  }
}

/** Per-entity (team or player) centre totals, for dashboards that show partnerships. */
export function centreByEntity(hand: RefereeHand): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const player of Object.values(hand.playerStates)) {
    const entity = entityOf(hand.teams, player.id);
    totals[entity] = (totals[entity] ?? 0) + player.centre;
  }
  return totals;
}

const EVENT_TYPES: ReadonlySet<string> = new Set(['hand-started', 'card-played', 'nerts-count', 'call', 'stuck-rotation', 'standstill', 'play-disputed', 'dispute-ruled', 'correction', 'hand-scored']);

/** Light shape check for events arriving as JSON: returns a message, or null when usable. */
export function eventProblem(event: unknown): string | null {
  if (typeof event !== 'object' || event === null) return 'an event must be an object';
  const e = event as Record<string, unknown>;
  if (typeof e.type !== 'string' || !EVENT_TYPES.has(e.type)) return `unknown event type "${String(e.type)}"`;
  if (typeof e.atMs !== 'number' || !Number.isFinite(e.atMs)) return `${e.type}: atMs must be a number of milliseconds`;
  const str = (key: string): boolean => typeof e[key] === 'string' && (e[key] as string).length > 0;
  switch (e.type) {
    case 'hand-started':
      if (!Array.isArray(e.players)) return 'hand-started: players must be a list';
      for (const p of e.players as unknown[]) {
        const player = p as Record<string, unknown>;
        if (typeof p !== 'object' || p === null || typeof player.id !== 'string' || typeof player.deckId !== 'string' || typeof player.seat !== 'number') {
          return 'hand-started: each player needs id, seat and deckId';
        }
      }
      return e.variant === undefined ? 'hand-started: variant is required' : null;
    case 'card-played':
      if (!isCardCode(e.card)) return `card-played: "${String(e.card)}" is not a card code`;
      return str('foundationId') ? null : 'card-played: foundationId is required';
    case 'nerts-count':
      return str('player') && typeof e.count === 'number' ? null : 'nerts-count: player and count are required';
    case 'call':
      return str('player') ? null : 'call: player is required';
    case 'play-disputed':
      return Array.isArray(e.playIds) && str('by') ? null : 'play-disputed: playIds and by are required';
    case 'dispute-ruled':
      return str('disputeId') && str('by') && typeof e.reason === 'string' && typeof e.ruling === 'object' && e.ruling !== null ? null : 'dispute-ruled: disputeId, ruling, by and reason are required';
    case 'correction':
      // Who and why are part of every correction (R5).
      return str('by') && str('reason') && typeof e.fix === 'object' && e.fix !== null ? null : 'correction: by, reason and fix are required';
    default:
      return null;
  }
}
