/**
 * Seeded random playouts of complete hands through the full table model, with the referee event
 * log a perfect camera would have produced. Used by the fuzz test and handy for benchmarks and
 * tracker tests. Pure: randomness from the seeded generator, time from a simulated clock (ms).
 *
 * The policy is simple and always terminates: play to a foundation first, then the Nerts card, then
 * the waste card, then work-pile moves; turn the stock only when no productive move exists;
 * rotate when everyone is stuck. A player with an empty Nerts pile calls with `callChance`.
 */
import type { RefereeEvent, RefereePlayer } from './referee';
import { nextRandom, type RngState, seedRng } from './rng';
import {
  applyMove,
  dealTable,
  isStuck,
  type Move,
  type PlayerSetup,
  productiveMoves,
  type TableModel,
} from './table';
import type { VariantRules } from './variants';

/** Options for one random hand. */
export interface PlayoutOptions {
  players: PlayerSetup[];
  variant: VariantRules;
  seed: number;
  /** Chance (0–1) per step that a player with an empty Nerts pile calls (default 0.35). */
  callChance?: number;
  /** Safety stop: the playout gives up (ended = false) after this many moves (default 20,000). */
  maxMoves?: number;
  /** Simulated ms at the start of the hand (default 0). */
  startMs?: number;
}

/** A finished playout: the deal setup, every move in order, the final table and the referee's event log. */
export interface Playout {
  setup: { players: PlayerSetup[]; variant: VariantRules; seed: number };
  moves: Move[];
  table: TableModel;
  events: RefereeEvent[];
  /** Steps rejected by applyMove (should stay 0: the policy only picks legal moves). */
  rejectedMoves: number;
}

function tierOf(move: Move): number {
  if (move.type === 'to-foundation') return 0;
  if ('from' in move && move.from.kind === 'nerts') return 1;
  if ('from' in move && move.from.kind === 'waste') return 2;
  return 3;
}

/** Plays one complete random hand (until a call or a standstill) and returns moves, table and events. */
export function playRandomHand(options: PlayoutOptions): Playout {
  const setup = { players: options.players, variant: options.variant, seed: options.seed };
  let table = dealTable(setup);
  let rng: RngState = seedRng(options.seed * 7919 + 17);
  const random = (): number => {
    const draw = nextRandom(rng);
    rng = draw.state;
    return draw.value;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const callChance = options.callChance ?? 0.35;
  const maxMoves = options.maxMoves ?? 20_000;
  let clock = options.startMs ?? 0;
  const moves: Move[] = [];
  const events: RefereeEvent[] = [];
  let rejectedMoves = 0;

  const refereePlayers: RefereePlayer[] = options.players.map((p, seat) => ({
    id: p.id,
    seat,
    deckId: p.deckId,
    backDesign: p.backDesign,
    ...(p.team !== undefined ? { team: p.team } : {}),
    ...(p.nertsPileSize !== undefined ? { nertsPileSize: p.nertsPileSize } : {}),
    ...(p.members !== undefined ? { members: p.members } : {}),
  }));
  events.push({ type: 'hand-started', atMs: clock, players: refereePlayers, variant: options.variant });

  const play = (move: Move): void => {
    clock += 50 + Math.floor(random() * 400);
    const before = table;
    const result = applyMove(table, move);
    if (result.violations.length > 0) {
      rejectedMoves++;
      return;
    }
    table = result.table;
    moves.push(move);
    events.push(...eventsForMove(before, table, move, clock));
  };

  while (!table.ended && moves.length < maxMoves) {
    const seats = shuffled(table.seats, random);
    const caller = seats.find((id) => table.players[id].nertsPile.length === 0 && random() < callChance);
    if (caller) {
      play({ type: 'call', player: caller });
      continue;
    }
    let chosen: Move | null = null;
    for (const id of seats) {
      const options = productiveMoves(table, id);
      if (options.length === 0) continue;
      const best = Math.min(...options.map(tierOf));
      chosen = pick(options.filter((m) => tierOf(m) === best));
      break;
    }
    if (!chosen) {
      const turners = seats.filter((id) => !isStuck(table, id));
      chosen = turners.length > 0 ? { type: 'turn-stock', player: pick(turners) } : { type: 'stuck-rotation' };
    }
    play(chosen);
  }
  return { setup, moves, table, events, rejectedMoves };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = items.slice();
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/**
 * What a perfect camera reports for one applied move: plays to the centre (with the foundation id
 * the table gave a new pile), Nerts pile counts when they change, the call, stuck rotations and the
 * end of a hand at a standstill.
 */
export function eventsForMove(before: TableModel, after: TableModel, move: Move, atMs: number): RefereeEvent[] {
  const events: RefereeEvent[] = [];
  if (move.type === 'to-foundation') {
    const tableau = before.players[after.seats.find((id) => before.players[id].members.includes(move.player) || id === move.player)!];
    const source = move.from;
    const card = source.kind === 'nerts' ? tableau.nertsPile[tableau.nertsPile.length - 1] : source.kind === 'waste' ? tableau.waste[tableau.waste.length - 1] : tableau.workPiles[source.pile][source.index];
    const foundationId = move.foundationId ?? `f${before.nextFoundationNumber}`;
    events.push({ type: 'card-played', atMs, card: card.code, deckId: card.deckId, owner: card.owner, from: source.kind, foundationId });
  }
  for (const id of after.seats) {
    const count = after.players[id].nertsPile.length;
    if (count !== before.players[id].nertsPile.length) events.push({ type: 'nerts-count', atMs, player: id, count });
  }
  if (move.type === 'call' && after.called) events.push({ type: 'call', atMs, player: after.called });
  if (move.type === 'stuck-rotation') {
    events.push(after.ended ? { type: 'standstill', atMs } : { type: 'stuck-rotation', atMs });
  }
  return events;
}
