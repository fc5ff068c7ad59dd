/**
 * The rules side of a live table: tracker events in, violations and the viewer's TableView out.
 * Pure (a reducer over the event log, replayable after a restart). Foundation legality and the
 * scoring knobs come from the rules engine (server/game/foundations.ts, variants.ts); this file
 * only keeps the camera referee's bookkeeping: who owns which centre card, Nerts counts, the
 * call, disputes and corrections.
 */
import { foundationPlayProblem, describeFoundationProblem, type FoundationLike } from '../game/foundations';
import { suitOf, type CardCode, type Suit } from '../game/cards';
import type { VariantRules } from '../game/variants';
import type { ScoreRow, TableEvent, TableView, Violation } from '../protocol';

/** Who sits where, as the rules need it. */
export interface RulesPlayer {
  id: string;
  name: string;
  seat: number;
  team?: string;
  deckId: string;
  nertsPileSize: number;
}

interface RulesFoundation extends FoundationLike {
  id: string;
  suit: Suit;
  cards: Array<{ code: CardCode; owner: string }>;
  completed: boolean;
}

interface RulesDispute {
  id: string;
  foundationId: string;
  first: { player: string; card: CardCode };
  second: { player: string; card: CardCode };
  winner: string | null;
  by: 'auto' | 'referee' | null;
  evidence: string[];
}

/** The referee's state of one table; plain JSON. */
export interface RulesState {
  hand: number;
  /** Match number, 1-based: a new match starts with the hand after a match winner. */
  match: number;
  phase: TableView['phase'];
  calledBy: string | null;
  calledAtMs: number | null;
  foundations: RulesFoundation[];
  nertsLeft: Record<string, number>;
  corrections: Record<string, { centreCards?: number; nertsLeft?: number }>;
  disputes: RulesDispute[];
  violations: TableView['violations'];
  stalledSinceMs: number | null;
  scores: ScoreRow[] | null;
  /** Scored hands' handScore per player, in order (match totals are their sums). */
  handHistory: Array<Record<string, number>>;
  matchWinner: string | null;
}

/** The fixed context the reducer needs. */
export interface RulesContext {
  tableId: string;
  players: RulesPlayer[];
  variant: VariantRules;
}

/** State before the first hand. */
export function initialRulesState(context: RulesContext): RulesState {
  return {
    hand: 0,
    match: 1,
    phase: 'setup',
    calledBy: null,
    calledAtMs: null,
    foundations: [],
    nertsLeft: Object.fromEntries(context.players.map((p) => [p.id, p.nertsPileSize])),
    corrections: {},
    disputes: [],
    violations: [],
    stalledSinceMs: null,
    scores: null,
    handHistory: [],
    matchWinner: null,
  };
}

/** Applies one event at table time `timeMs`; returns the new state and the violations it raised. Pure. */
export function applyRules(previous: RulesState, event: TableEvent, timeMs: number, context: RulesContext): { state: RulesState; violations: Violation[] } {
  const state: RulesState = structuredClone(previous);
  const violations: Violation[] = [];
  const known = (player: string) => context.players.some((p) => p.id === player);
  switch (event.type) {
    case 'hand-started': {
      Object.assign(state, {
        hand: event.hand,
        phase: 'playing',
        calledBy: null,
        calledAtMs: null,
        foundations: [],
        nertsLeft: Object.fromEntries(context.players.map((p) => [p.id, p.nertsPileSize])),
        corrections: {},
        disputes: [],
        violations: [],
        stalledSinceMs: null,
        scores: null,
      } satisfies Partial<RulesState>);
      if (state.matchWinner) {
        state.match += 1;
        state.handHistory = [];
        state.matchWinner = null;
      }
      break;
    }
    case 'card-played': {
      if (state.phase === 'setup' || state.phase === 'scored') {
        violations.push({ code: 'hand/not-started', message: `${event.card} played while no hand is in play`, player: event.player, card: event.card });
        break;
      }
      if (!known(event.player)) {
        violations.push({ code: 'player/unknown', message: `unknown player ${event.player}`, card: event.card });
        break;
      }
      if (state.calledAtMs !== null && timeMs > state.calledAtMs + context.variant.callGraceMs) {
        violations.push({ code: 'hand/play-after-call', message: `${event.card} played after the call`, player: event.player, card: event.card, foundationId: event.foundationId });
        break;
      }
      const pile = event.newPile ? null : (state.foundations.find((f) => f.id === event.foundationId) ?? null);
      if (!event.newPile && !pile) {
        violations.push({ code: 'foundation/unknown-pile', message: `no foundation ${event.foundationId}`, player: event.player, card: event.card });
        break;
      }
      const problem = foundationPlayProblem(pile, event.card);
      if (problem) {
        violations.push({ code: problem, message: describeFoundationProblem(problem, event.card, pile), player: event.player, card: event.card, foundationId: event.foundationId });
        break;
      }
      if (pile) pile.cards.push({ code: event.card, owner: event.player });
      else state.foundations.push({ id: event.foundationId, suit: suitOf(event.card), cards: [{ code: event.card, owner: event.player }], completed: false });
      const target = pile ?? state.foundations[state.foundations.length - 1];
      if (event.card.startsWith('K')) target.completed = true;
      state.stalledSinceMs = null;
      break;
    }
    case 'foundation-completed': {
      const pile = state.foundations.find((f) => f.id === event.foundationId);
      if (pile) pile.completed = true;
      break;
    }
    case 'nerts-count': {
      if (!known(event.player)) break;
      const before = state.nertsLeft[event.player];
      if (event.left > before) violations.push({ code: 'nerts/count-increased', message: `${event.player}'s Nerts pile grew from ${before} to ${event.left}`, player: event.player });
      else state.nertsLeft[event.player] = event.left;
      break;
    }
    case 'dispute-opened':
      state.disputes.push({ id: event.disputeId, foundationId: event.foundationId, first: event.first, second: event.second, winner: null, by: null, evidence: event.evidence });
      break;
    case 'dispute-resolved': {
      const dispute = state.disputes.find((d) => d.id === event.disputeId);
      if (!dispute || (event.winner !== dispute.first.player && event.winner !== dispute.second.player)) {
        violations.push({ code: 'dispute/bad-ruling', message: `dispute ${event.disputeId} cannot be won by ${event.winner}` });
        break;
      }
      const previousWinner = dispute.winner ?? dispute.first.player;
      dispute.winner = event.winner;
      dispute.by = event.by;
      if (previousWinner !== event.winner) {
        // The card that stays changes hands: the pile's copy of the disputed card now belongs to the winner.
        const pile = state.foundations.find((f) => f.id === dispute.foundationId);
        const card = pile?.cards.find((c) => c.code === dispute.first.card && c.owner === previousWinner);
        if (card) card.owner = event.winner;
      }
      break;
    }
    case 'call':
      if (state.phase !== 'playing') {
        violations.push({ code: 'hand/already-called', message: 'the hand was already called', player: event.player });
        break;
      }
      if (!event.manual && state.nertsLeft[event.player] > 0) {
        violations.push({ code: 'call/nerts-pile-not-empty', message: `${event.player} called with cards left`, player: event.player });
      }
      state.phase = 'called';
      state.calledBy = event.player;
      state.calledAtMs = timeMs;
      break;
    case 'stall':
      state.stalledSinceMs = event.sinceMs;
      break;
    case 'stuck-rotation':
      state.stalledSinceMs = null;
      break;
    case 'hand-ended':
      if (state.phase !== 'playing' && state.phase !== 'called') {
        violations.push({ code: 'hand/ended', message: 'no hand in play to end' });
        break;
      }
      state.phase = 'scored';
      state.handHistory.push({});
      rescore(state, context);
      break;
    case 'correction': {
      if (!known(event.player)) {
        violations.push({ code: 'correction/bad-target', message: `unknown player ${event.player}` });
        break;
      }
      const correction = { ...state.corrections[event.player] };
      if (event.centreCards !== undefined) correction.centreCards = event.centreCards;
      if (event.nertsLeft !== undefined) correction.nertsLeft = event.nertsLeft;
      state.corrections[event.player] = correction;
      if (state.phase === 'scored') rescore(state, context);
      break;
    }
  }
  state.violations = [...state.violations, ...violations.map((v) => ({ ...v, seq: -1, timeMs }))].slice(-50);
  return { state, violations };
}

/** Cards of `player` on the centre piles (the score sort's count before corrections). */
export function centreCardsOf(state: RulesState, player: string): number {
  return state.foundations.reduce((sum, pile) => sum + pile.cards.filter((card) => card.owner === player).length, 0);
}

function rescore(state: RulesState, context: RulesContext): void {
  const scoring = context.variant.scoring;
  const handScores: Record<string, number> = {};
  const rows: ScoreRow[] = context.players.map((player) => {
    const correction = state.corrections[player.id] ?? {};
    const centreCards = correction.centreCards ?? centreCardsOf(state, player.id);
    const nertsLeft = correction.nertsLeft ?? state.nertsLeft[player.id];
    const isCaller = state.calledBy === player.id;
    const bonus = isCaller ? scoring.callBonus : 0;
    const penalty = isCaller && scoring.callerExemptFromPenalty ? 0 : nertsLeft * scoring.nertsPenalty;
    const handScore = centreCards * scoring.perCentreCard - penalty + bonus;
    handScores[player.id] = handScore;
    return { player: player.id, ...(player.team ? { team: player.team } : {}), centreCards, nertsLeft, bonus, handScore, total: 0, rank: 1 };
  });
  state.handHistory[state.handHistory.length - 1] = handScores;
  for (const row of rows) row.total = state.handHistory.reduce((sum, hand) => sum + (hand[row.player] ?? 0), 0);
  const sorted = [...rows].sort((a, b) => b.total - a.total);
  for (const row of rows) row.rank = 1 + sorted.filter((other) => other.total > row.total).length;
  state.scores = rows;
  const target = scoring.target;
  const leader = sorted[0];
  state.matchWinner = leader && leader.total >= target && (sorted.length < 2 || sorted[1].total < leader.total) ? leader.player : null;
}

/** The viewer's TableView of a rules state. */
export function toView(state: RulesState, context: RulesContext): TableView {
  const totals = new Map<string, number>();
  for (const player of context.players) {
    const key = player.team ?? player.id;
    const total = state.handHistory.reduce((sum, hand) => sum + (hand[player.id] ?? 0), 0);
    totals.set(key, (player.team ? (totals.get(key) ?? 0) : 0) + total);
  }
  return {
    tableId: context.tableId,
    hand: state.hand,
    phase: state.phase,
    frozen: state.phase === 'called' || state.phase === 'scored',
    calledBy: state.calledBy,
    centreTotal: state.foundations.reduce((sum, pile) => sum + pile.cards.length, 0),
    foundations: state.foundations.map((pile) => ({
      id: pile.id,
      suit: pile.suit,
      top: pile.cards[pile.cards.length - 1]?.code ?? null,
      count: pile.cards.length,
      completed: pile.completed,
    })),
    players: context.players.map((player) => ({
      id: player.id,
      name: player.name,
      seat: player.seat,
      ...(player.team ? { team: player.team } : {}),
      deckId: player.deckId,
      nertsLeft: state.nertsLeft[player.id],
      centreCards: centreCardsOf(state, player.id),
    })),
    disputes: state.disputes,
    violations: state.violations,
    stalledSinceMs: state.stalledSinceMs,
    scores: state.scores,
    matchTotals: [...totals].map(([id, total]) => ({ id, total })),
    target: context.variant.scoring.target,
    matchWinner: state.matchWinner,
  };
}
