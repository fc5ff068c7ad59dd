/**
 * The bridge from the table's event log (protocol TableEvents: what the tracker and the referee
 * said) to the rules engine's reducer (server/game/referee.ts), and from its state to the
 * viewers' TableView. Every rule (legality, races and disputes, the call and its grace, scoring,
 * the match) lives in the reducer; this file only translates. Pure.
 */
import { apply as applyReferee, initialRefereeState, type RefereeEvent, type RefereeState, type RefereePlayer, type RefereeViolation } from '../game/referee';
import type { PresetName, VariantKnobs } from '../game/variants';
import { ownerEvidenceWeak, type ScoreRow, type TableEvent, type TableView, type Violation } from '../protocol';
import { entityOf } from '../game/scoring';

/** Who sits where, as the rules need it. */
export interface RulesPlayer {
  id: string;
  name: string;
  seat: number;
  team?: string;
  deckId: string;
  nertsPileSize: number;
}

/** The fixed context of a table: players, variant (preset + knobs) and match target. */
export interface RulesContext {
  tableId: string;
  players: RulesPlayer[];
  variant: PresetName | VariantKnobs;
}

/** The referee's state plus what the log adds for viewers. Plain JSON. */
export interface RulesState {
  referee: RefereeState;
  /** Log seq of each event given to the reducer, by the reducer's event index (violations point there). */
  seqOfEventIndex: number[];
  /** Table time of each event given to the reducer, by event index, ms. */
  timeOfEventIndex: number[];
  /** Evidence frame ids per dispute id (from `dispute-opened` entries). */
  evidence: Record<string, string[]>;
  /** Table time since nothing was played (from `stall`), ms; null while play flows. */
  stalledSinceMs: number | null;
  /** This hand's plays the camera credited on weak evidence (see ownerEvidenceWeak): play id → the player it named. */
  unsureOwners: Record<string, string>;
}

/** State before the first hand. */
export function initialRulesState(): RulesState {
  return { referee: initialRefereeState(), seqOfEventIndex: [], timeOfEventIndex: [], evidence: {}, stalledSinceMs: null, unsureOwners: {} };
}

/** What applying one log entry gives. `followUps` are informational entries the log should add (disputes the reducer opened). */
export interface RulesStep {
  state: RulesState;
  violations: Violation[];
  followUps: TableEvent[];
}

function toViolation(v: RefereeViolation): Violation {
  return { code: v.code, message: v.message, ...(v.player ? { player: v.player } : {}), ...(v.card ? { card: v.card as Violation['card'] } : {}) };
}

function refereePlayers(context: RulesContext): RefereePlayer[] {
  return context.players.map((p) => ({
    id: p.id,
    seat: p.seat,
    deckId: p.deckId,
    backDesign: p.deckId,
    ...(p.team ? { team: p.team } : {}),
    nertsPileSize: p.nertsPileSize,
  }));
}

/** Translates a log entry into reducer events (none for purely informational entries). */
function toRefereeEvents(state: RulesState, event: TableEvent, timeMs: number, seq: number, context: RulesContext): RefereeEvent[] {
  const atMs = timeMs;
  const hand = state.referee.hand;
  switch (event.type) {
    case 'hand-started':
      return [{ type: 'hand-started', atMs, players: refereePlayers(context), variant: context.variant }];
    case 'card-played':
      return [{ type: 'card-played', atMs, card: event.card, foundationId: event.foundationId, owner: event.player, playId: playIdOf(seq) }];
    case 'nerts-count':
      if (event.revised !== undefined) return [{ type: 'correction', atMs, by: 'camera', reason: event.revised, fix: { kind: 'set-nerts-count', player: event.player, count: event.left } }];
      return [{ type: 'nerts-count', atMs, player: event.player, count: event.left }];
    case 'call':
      return [{ type: 'call', atMs, player: event.player }];
    case 'stuck-rotation':
      return [{ type: 'stuck-rotation', atMs }];
    case 'hand-ended':
      return [{ type: 'hand-scored', atMs }];
    case 'dispute-resolved': {
      if (event.by !== 'referee') return [];
      const dispute = hand?.disputes.find((d) => d.id === event.disputeId);
      const keep = dispute ? dispute.playIds.filter((id) => hand?.plays.find((p) => p.playId === id)?.owner === event.winner) : [];
      // An unknown dispute or a winner not in it still goes to the reducer, which flags it.
      return [{ type: 'dispute-ruled', atMs, disputeId: event.disputeId, ruling: { kind: 'keep', playIds: keep.length > 0 ? keep : [`none-${event.winner}`] }, by: 'official', reason: `overruled: ${event.winner}'s card stays` }];
    }
    case 'correction': {
      const fixes: RefereeEvent[] = [];
      const by = 'official';
      if (event.nertsLeft !== undefined) fixes.push({ type: 'correction', atMs, by, reason: event.reason, fix: { kind: 'set-nerts-count', player: event.player, count: event.nertsLeft } });
      if (event.centreCards !== undefined && hand) {
        const mine = hand.plays.filter((p) => p.status === 'on-foundation' && p.owner === event.player);
        const diff = event.centreCards - mine.length;
        // Too many: theirs the camera was least sure of lose their owner (guessed ones, then the
        // latest). Too few: unowned centre cards become theirs.
        const doubtful = [...mine.filter((p) => ownerUnsure(state, p.playId, p.owner)), ...mine.filter((p) => !ownerUnsure(state, p.playId, p.owner)).reverse()];
        if (diff < 0) for (const play of doubtful.slice(0, -diff)) fixes.push({ type: 'correction', atMs, by, reason: event.reason, fix: { kind: 'set-owner', playId: play.playId, owner: null } });
        const given = diff > 0 ? hand.plays.filter((p) => p.status === 'on-foundation' && p.owner === null).slice(0, diff) : [];
        for (const play of given) fixes.push({ type: 'correction', atMs, by, reason: event.reason, fix: { kind: 'set-owner', playId: play.playId, owner: event.player } });
        // Too few cards to give (the camera never saw some land): the count itself stands, as counted at the sort.
        const reachable = diff > 0 ? mine.length + given.length : event.centreCards;
        if (reachable !== event.centreCards || hand.sortedCounts?.[event.player] !== undefined) {
          fixes.push({ type: 'correction', atMs, by, reason: event.reason, fix: { kind: 'set-centre-count', player: event.player, count: event.centreCards } });
        }
      }
      return fixes;
    }
    case 'pile-revised': {
      const fixes: RefereeEvent[] = [{ type: 'correction', atMs, by: 'camera', reason: event.reason, fix: { kind: 'set-suit', foundationId: event.foundationId, suit: event.suit } }];
      // Cards given a new owner: the pile's play of that rank (its code is still the old suit's here).
      for (const { card, player } of event.owners ?? []) {
        const play = hand?.plays.find((p) => p.foundationId === event.foundationId && p.status === 'on-foundation' && p.card.slice(0, -1) === card.slice(0, -1));
        if (play) fixes.push({ type: 'correction', atMs, by: 'camera', reason: `${card}: its owner already had that card in the centre`, fix: { kind: 'set-owner', playId: play.playId, owner: player } });
      }
      return fixes;
    }
    case 'race-reversed': {
      // The race's dispute on that pile: the automatic referee rules it again, keeping the winner's play.
      const ownerOfPlay = (id: string) => hand?.plays.find((p) => p.playId === id)?.owner;
      const dispute = hand?.disputes.find(
        (d) => d.foundationId === event.foundationId && d.card === event.card && d.playIds.some((id) => ownerOfPlay(id) === event.winner) && d.playIds.some((id) => ownerOfPlay(id) === event.loser),
      );
      if (dispute) {
        const keep = dispute.playIds.filter((id) => ownerOfPlay(id) === event.winner);
        return [{ type: 'dispute-ruled', atMs, disputeId: dispute.id, ruling: { kind: 'keep', playIds: keep }, by: 'referee', reason: event.reason }];
      }
      // No dispute was opened (only one of the two plays was reported): the card on the pile is the winner's.
      const play = hand?.plays.find((p) => p.foundationId === event.foundationId && p.card === event.card && p.status === 'on-foundation' && p.owner === event.loser);
      return play ? [{ type: 'correction', atMs, by: 'camera', reason: event.reason, fix: { kind: 'set-owner', playId: play.playId, owner: event.winner } }] : [];
    }
    case 'owner-revised': {
      const play = hand?.plays.find((p) => p.foundationId === event.foundationId && p.card === event.card && p.status === 'on-foundation' && p.owner === event.from);
      return play ? [{ type: 'correction', atMs, by: 'camera', reason: event.reason, fix: { kind: 'set-owner', playId: play.playId, owner: event.to } }] : [];
    }
    case 'play-withdrawn': {
      // The latest play of that card on that pile still in the centre.
      const play = hand?.plays.filter((p) => p.foundationId === event.foundationId && p.card === event.card && p.status === 'on-foundation').at(-1);
      return play ? [{ type: 'correction', atMs, by: 'camera', reason: event.reason, fix: { kind: 'remove-play', playId: play.playId } }] : [];
    }
    case 'foundation-completed':
    case 'dispute-opened':
    case 'stall':
    // Setup changes reach the reducer through the next hand-started's players and variant.
    case 'setup-changed':
      return [];
  }
}

/** Applies one log entry (log sequence `seq`, table time `timeMs`). Pure. */
export function applyRules(previous: RulesState, event: TableEvent, timeMs: number, seq: number, context: RulesContext): RulesStep {
  let referee = previous.referee;
  const seqOfEventIndex = [...previous.seqOfEventIndex];
  const timeOfEventIndex = [...previous.timeOfEventIndex];
  const violations: Violation[] = [];
  const disputesBefore = referee.hand?.disputes.length ?? 0;
  const handBefore = referee.hand;
  for (const refereeEvent of toRefereeEvents(previous, event, timeMs, seq, context)) {
    const result = applyReferee(referee, refereeEvent);
    referee = result.state;
    seqOfEventIndex.push(seq);
    timeOfEventIndex.push(timeMs);
    violations.push(...result.violations.map(toViolation));
  }
  if (event.type === 'correction' && event.centreCards !== undefined && referee.hand && referee.hand.playerStates[event.player] === undefined) {
    violations.push({ code: 'correction/bad-target', message: `no player ${event.player} in this hand` });
  }
  const evidence = event.type === 'dispute-opened' ? { ...previous.evidence, [event.disputeId]: event.evidence } : previous.evidence;
  const stalledSinceMs = event.type === 'stall' ? event.sinceMs : event.type === 'card-played' || event.type === 'hand-started' || event.type === 'stuck-rotation' ? null : previous.stalledSinceMs;
  const followUps: TableEvent[] = [];
  const hand = referee.hand;
  if (hand && handBefore && event.type === 'card-played' && hand.disputes.length > disputesBefore) {
    for (const dispute of hand.disputes.slice(disputesBefore)) {
      const owners = dispute.playIds.map((id) => hand.plays.find((p) => p.playId === id)?.owner ?? 'unknown');
      followUps.push({
        type: 'dispute-opened',
        disputeId: dispute.id,
        foundationId: dispute.foundationId,
        first: { player: owners[0], card: dispute.card },
        second: { player: owners[1] ?? 'unknown', card: dispute.card },
        evidence: [],
      });
    }
  }
  const unsureOwners =
    event.type === 'hand-started' ? {} : event.type === 'card-played' && ownerEvidenceWeak(event.ownerBy) ? { ...previous.unsureOwners, [playIdOf(seq)]: event.player } : previous.unsureOwners;
  return { state: { referee, seqOfEventIndex, timeOfEventIndex, evidence, stalledSinceMs, unsureOwners }, violations, followUps };
}

/** Score-sort rows of a scored hand (per player; partners share their team's hand score and total). */
function scoreRows(state: RulesState): ScoreRow[] | null {
  const hand = state.referee.hand;
  const match = state.referee.match;
  if (!hand?.scores) return null;
  const totals = match?.totals ?? hand.scores.scores;
  const entities = Object.keys(totals);
  const rankOf = (entity: string) => 1 + entities.filter((other) => (totals[other] ?? 0) > (totals[entity] ?? 0)).length;
  const rules = hand.variant.scoring;
  return hand.players.map((player) => {
    const entity = entityOf(hand.teams, player.id);
    const playerState = hand.playerStates[player.id];
    const isCaller = hand.call?.player === player.id;
    return {
      player: player.id,
      ...(player.team ? { team: player.team } : {}),
      centreCards: playerState.centre,
      nertsLeft: playerState.nertsLeft,
      bonus: isCaller ? rules.callBonus : 0,
      handScore: hand.scores!.scores[entity] ?? 0,
      total: totals[entity] ?? 0,
      rank: rankOf(entity),
    };
  });
}

/** The viewer's TableView of a rules state. */
export function toView(state: RulesState, context: RulesContext): TableView {
  const referee = state.referee;
  const hand = referee.hand;
  const match = referee.match;
  const ownerOf = (playId: string) => hand?.plays.find((p) => p.playId === playId)?.owner ?? 'unknown';
  const phase: TableView['phase'] = !hand ? 'setup' : hand.phase === 'playing' ? 'playing' : hand.phase === 'ended' ? 'called' : 'scored';
  const variantTarget = match?.rules.target ?? hand?.variant.scoring.target ?? 100;
  return {
    tableId: context.tableId,
    hand: referee.handsStarted,
    phase,
    frozen: phase !== 'playing' && phase !== 'setup',
    calledBy: hand?.call?.player ?? null,
    centreTotal: hand ? hand.foundations.reduce((sum, pile) => sum + pile.cards.length, 0) : 0,
    foundations: (hand?.foundations ?? []).map((pile) => ({ id: pile.id, suit: pile.suit, top: pile.topCard, count: pile.cards.length, completed: pile.completed })),
    players: context.players.map((player) => ({
      id: player.id,
      name: player.name,
      seat: player.seat,
      ...(player.team ? { team: player.team } : {}),
      deckId: player.deckId,
      nertsLeft: hand?.playerStates[player.id]?.nertsLeft ?? player.nertsPileSize,
      centreCards: hand?.playerStates[player.id]?.centre ?? 0,
      unsureCards: (hand?.plays ?? []).filter((play) => play.status === 'on-foundation' && play.owner === player.id && ownerUnsure(state, play.playId, play.owner)).map((play) => play.card),
    })),
    disputes: (hand?.disputes ?? []).map((dispute) => ({
      id: dispute.id,
      foundationId: dispute.foundationId,
      first: { player: ownerOf(dispute.playIds[0]), card: dispute.card },
      second: { player: ownerOf(dispute.playIds[1] ?? ''), card: dispute.card },
      winner: dispute.kept.length === 1 ? ownerOf(dispute.kept[0]) : null,
      by: dispute.ruledBy === 'referee' ? ('auto' as const) : ('referee' as const),
      evidence: state.evidence[dispute.id] ?? [],
    })),
    violations: referee.violations
      .filter((v) => !v.dismissed && (hand === null || v.hand === hand.number))
      .slice(-50)
      .map((v) => ({ ...toViolation(v), seq: state.seqOfEventIndex[v.eventIndex] ?? -1, timeMs: state.timeOfEventIndex[v.eventIndex] ?? 0 })),
    stalledSinceMs: phase === 'playing' ? state.stalledSinceMs : null,
    scores: scoreRows(state),
    matchTotals: match ? match.entities.map((id) => ({ id, total: match.totals[id] ?? 0 })) : [],
    target: variantTarget,
    matchWinner: match?.winner ?? null,
  };
}

/** A play's id in the reducer: one card-played entry per log seq. */
function playIdOf(seq: number): string {
  return `p${seq}`;
}

/** Whether the camera credited this play to `owner` on weak evidence (a correction that moved it since makes it sure). */
function ownerUnsure(state: RulesState, playId: string, owner: string | null): boolean {
  return owner !== null && state.unsureOwners[playId] === owner;
}

/** The variant input for the reducer: preset, knobs and the table's target. */
export function variantInput(preset: string, knobs: Record<string, unknown>, target: number): VariantKnobs {
  const scoring = (knobs.scoring && typeof knobs.scoring === 'object' ? knobs.scoring : {}) as Record<string, unknown>;
  return { ...(knobs as VariantKnobs), preset: preset as PresetName, scoring: { ...scoring, target } } as VariantKnobs;
}
