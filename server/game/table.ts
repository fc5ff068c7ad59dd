/**
 * The full Nerts table model, for the simulator and bots: every player's Nerts pile, four work
 * piles, stock and waste, and the shared foundations. Pure and JSON-serialisable: `applyMove`
 * returns a new table and never throws on an illegal move (it reports a Violation and leaves the
 * table as it was). Randomness (the deal) comes from a seeded generator; no clock.
 *
 * Pile orders: every pile array is bottom..top, so the top (exposed) card is the LAST element.
 * Rule ids (RULES.md) are cited next to the code that implements them.
 */
import { ALL_CARD_CODES, type CardCode, type Suit, colourOf, rankValue, suitOf } from './cards';
import { type CentreCard, completesFoundation, describeFoundationProblem, foundationPlayProblem } from './foundations';
import { type RngState, seedRng, shuffle } from './rng';
import type { VariantRules } from './variants';
import { type Violation, type ViolationCode, violation } from './violations';

/** A physical card at the table: its code, its deck, and the deck's owner (the tableau id). */
export type TableCard = CentreCard;

/**
 * One seat's setup. `id` names the tableau (and the deck's owner). `team` pools scores of separate
 * tableaux (001 partnerships); `members` lists people sharing this one tableau (000/004
 * partnerships: two players, one tableau, one score) and they may make moves by their own ids.
 * `nertsPileSize` is a per-player handicap overriding the variant's size.
 */
export interface PlayerSetup {
  id: string;
  deckId: string;
  backDesign: string;
  team?: string;
  nertsPileSize?: number;
  members?: string[];
}

/** One tableau. All piles bottom..top. `nertsPile`'s top card is face up, the rest face down. */
export interface PlayerTableau {
  id: string;
  deckId: string;
  backDesign: string;
  team?: string;
  /** People who may move on this tableau (always includes `id`). */
  members: string[];
  /** Cards dealt to the Nerts pile this hand (handicap or variant size). */
  nertsPileSize: number;
  nertsPile: TableCard[];
  /** Always four piles; an empty array is an empty space. */
  workPiles: TableCard[][];
  /** Face-down stock; the top (next to turn) is the last element. */
  stock: TableCard[];
  /** Face-up waste; only the last element is playable. */
  waste: TableCard[];
}

/** A shared foundation. `id` is `f1`, `f2`, … in order of creation. */
export interface Foundation {
  id: string;
  suit: Suit;
  cards: TableCard[];
  completed: boolean;
}

/** Why a hand stopped. */
export type HandEndReason = 'call' | 'standstill' | 'rotation-limit';

/** The whole table at one moment. Plain JSON data. */
export interface TableModel {
  variant: VariantRules;
  /** The seed the deal was made from. */
  seed: number;
  /** Tableau ids in seat order. */
  seats: string[];
  players: Record<string, PlayerTableau>;
  foundations: Foundation[];
  /** Number used for the next foundation id. */
  nextFoundationNumber: number;
  /** Tableau id of the caller, or null. */
  called: string | null;
  /** Stuck rotations done this hand (everyone: waste into stock, top stock card to the bottom). */
  rotations: number;
  ended: boolean;
  endReason: HandEndReason | null;
  /** Moves applied successfully so far. */
  moveCount: number;
  /** Generator state after the deal (kept so later random needs stay replayable). */
  rng: RngState;
}

/** Where a card comes from in a player's tableau. `index` 0 is a work pile's base; moving index i carries every card above it. */
export type Source = { kind: 'nerts' } | { kind: 'waste' } | { kind: 'work'; pile: number; index: number };

/** A move at the table. `player` may be a tableau id or one of its members. */
export type Move =
  | { type: 'to-foundation'; player: string; from: Source; foundationId: string | null }
  | { type: 'to-work'; player: string; from: Source; pile: number }
  | { type: 'slide-under'; player: string; from: Source; pile: number }
  | { type: 'turn-stock'; player: string }
  /** Everyone: waste into stock, top stock card to the bottom. Needs everyone stuck, unless `agreed` (no one wishes to play). Ends the hand instead at a standstill (see RULES.md S6–S8). */
  | { type: 'stuck-rotation'; agreed?: boolean }
  | { type: 'call'; player: string };

/** Number of work piles per tableau. */
export const WORK_PILE_COUNT = 4;
/** Cards turned from stock to waste at a time (ST1). */
export const TURN_SIZE = 3;

/** Checks a setup; returns a list of problems (empty when fine). */
export function setupProblems(setup: { players: PlayerSetup[]; variant: VariantRules; seed: number }): string[] {
  const problems: string[] = [];
  const players = setup.players;
  if (!Array.isArray(players) || players.length < 2 || players.length > 6) problems.push('a table has 2 to 6 tableaux (players or partnerships)');
  if (!Number.isFinite(setup.seed)) problems.push('seed must be a finite number');
  const ids = new Set<string>();
  const decks = new Set<string>();
  for (const player of players ?? []) {
    if (!player.id) problems.push('every player needs an id');
    for (const id of [player.id, ...(player.members ?? [])]) {
      if (ids.has(id) && !(id === player.id && player.members?.includes(id))) problems.push(`duplicate player id "${id}"`);
      ids.add(id);
    }
    if (decks.has(player.deckId)) problems.push(`deck "${player.deckId}" is used twice: each player needs their own deck`);
    decks.add(player.deckId);
    const size = player.nertsPileSize ?? setup.variant.nertsPileSize;
    if (!Number.isInteger(size) || size < 1 || size > 52 - WORK_PILE_COUNT) problems.push(`Nerts pile size for "${player.id}" must be 1–48`);
  }
  return problems;
}

/**
 * Deals every player's own shuffled 52-card deck with a seeded RNG: Nerts pile (variant size or the
 * player's handicap; top face up), four work piles of one card, the rest stock; empty waste (D1–D3).
 * Throws on an impossible setup (a programmer error; check with setupProblems first).
 */
export function dealTable(setup: { players: PlayerSetup[]; variant: VariantRules; seed: number }): TableModel {
  const problems = setupProblems(setup);
  if (problems.length > 0) throw new Error(`bad table setup: ${problems.join('; ')}`);
  let rng = seedRng(setup.seed);
  const players: Record<string, PlayerTableau> = {};
  for (const seat of setup.players) {
    const deck: TableCard[] = ALL_CARD_CODES.map((code) => ({ code, deckId: seat.deckId, owner: seat.id }));
    const shuffled = shuffle(deck, rng);
    rng = shuffled.state;
    const cards = shuffled.items;
    const nertsPileSize = seat.nertsPileSize ?? setup.variant.nertsPileSize;
    const nertsPile = cards.slice(0, nertsPileSize);
    const workPiles = Array.from({ length: WORK_PILE_COUNT }, (_, pile) => [cards[nertsPileSize + pile]]);
    const stock = cards.slice(nertsPileSize + WORK_PILE_COUNT);
    const members = seat.members && seat.members.length > 0 ? Array.from(new Set([seat.id, ...seat.members])) : [seat.id];
    players[seat.id] = {
      id: seat.id,
      deckId: seat.deckId,
      backDesign: seat.backDesign,
      ...(seat.team !== undefined ? { team: seat.team } : {}),
      members,
      nertsPileSize,
      nertsPile,
      workPiles,
      stock,
      waste: [],
    };
  }
  return {
    variant: setup.variant,
    seed: setup.seed,
    seats: setup.players.map((p) => p.id),
    players,
    foundations: [],
    nextFoundationNumber: 1,
    called: null,
    rotations: 0,
    ended: false,
    endReason: null,
    moveCount: 0,
    rng,
  };
}

/** The tableau a player (tableau id or member id) moves on, or undefined. */
export function tableauOf(table: TableModel, player: string): PlayerTableau | undefined {
  const direct = table.players[player];
  if (direct) return direct;
  return Object.values(table.players).find((tableau) => tableau.members.includes(player));
}

/** The top card of a pile (last element), or undefined. */
function topOf(pile: readonly TableCard[]): TableCard | undefined {
  return pile[pile.length - 1];
}

/** Cards a source would move (bottom..top), or why it can't. */
function sourceCards(tableau: PlayerTableau, source: Source): { cards: TableCard[] } | { problem: ViolationCode; message: string } {
  switch (source.kind) {
    case 'nerts': {
      const top = topOf(tableau.nertsPile);
      return top ? { cards: [top] } : { problem: 'source/empty', message: 'the Nerts pile is empty' };
    }
    case 'waste': {
      const top = topOf(tableau.waste);
      return top ? { cards: [top] } : { problem: 'source/empty', message: 'the waste is empty' };
    }
    case 'work': {
      if (!validPileIndex(source.pile)) return { problem: 'work/bad-pile', message: `no work pile ${String(source.pile)}` };
      const pile = tableau.workPiles[source.pile];
      if (pile.length === 0) return { problem: 'source/empty', message: `work pile ${source.pile} is empty` };
      if (!Number.isInteger(source.index) || source.index < 0 || source.index >= pile.length) {
        return { problem: 'source/bad-index', message: `work pile ${source.pile} has no card at index ${String(source.index)}` };
      }
      return { cards: pile.slice(source.index) };
    }
    default:
      return { problem: 'source/bad-index', message: 'unknown source' };
  }
}

function validPileIndex(pile: unknown): pile is number {
  return typeof pile === 'number' && Number.isInteger(pile) && pile >= 0 && pile < WORK_PILE_COUNT;
}

/** W1/W3/W4/N1: why `base` (from `sourceKind`) may not go onto `target`, or null. */
export function workPlacementProblem(variant: VariantRules, base: TableCard, sourceKind: Source['kind'], target: readonly TableCard[]): ViolationCode | null {
  if (target.length === 0) {
    // W4: an empty space takes the Nerts top card only (000, 003) or any available card (001, 004).
    return variant.emptySpaceFill === 'nerts' && sourceKind !== 'nerts' ? 'work/empty-space-rule' : null;
  }
  if (sourceKind === 'nerts' && variant.nertsOnlyToEmptyOrFoundation) return 'nerts/only-to-empty-or-foundation';
  const top = target[target.length - 1];
  if (rankValue(base.code) !== rankValue(top.code) - 1) return 'work/wrong-rank';
  if (colourOf(base.code) === colourOf(top.code)) return 'work/wrong-colour';
  return null;
}

/** W6: why a single card may not slide under pile `target`'s base, or null. Needs an empty space the card could fill. */
export function slideUnderProblem(variant: VariantRules, tableau: PlayerTableau, card: TableCard, sourceKind: Source['kind'], target: readonly TableCard[]): ViolationCode | null {
  if (!variant.slideUnder) return 'slide-under/not-allowed';
  if (!tableau.workPiles.some((pile) => pile.length === 0)) return 'slide-under/no-empty-pile';
  // Sliding under is a shortcut for "fill the space, then move the pile onto it", so the card must be allowed in the space.
  if (workPlacementProblem(variant, card, sourceKind, []) !== null) return 'work/empty-space-rule';
  const base = target[0];
  if (!base) return 'work/bad-pile';
  if (rankValue(card.code) !== rankValue(base.code) + 1 || colourOf(card.code) === colourOf(base.code)) return 'slide-under/wrong-card';
  return null;
}

/** A mutable working copy: arrays copied, card objects shared (they never change). */
function cloneTable(table: TableModel): TableModel {
  const players: Record<string, PlayerTableau> = {};
  for (const [id, tableau] of Object.entries(table.players)) {
    players[id] = {
      ...tableau,
      members: tableau.members.slice(),
      nertsPile: tableau.nertsPile.slice(),
      workPiles: tableau.workPiles.map((pile) => pile.slice()),
      stock: tableau.stock.slice(),
      waste: tableau.waste.slice(),
    };
  }
  return {
    ...table,
    seats: table.seats.slice(),
    players,
    foundations: table.foundations.map((f) => ({ ...f, cards: f.cards.slice() })),
  };
}

function removeFromSource(tableau: PlayerTableau, source: Source): void {
  if (source.kind === 'nerts') tableau.nertsPile.pop();
  else if (source.kind === 'waste') tableau.waste.pop();
  else tableau.workPiles[source.pile].splice(source.index);
}

function rejected(table: TableModel, code: ViolationCode, message: string, extra: { player?: string; card?: string } = {}): { table: TableModel; violations: Violation[] } {
  return { table, violations: [violation(code, message, { eventIndex: table.moveCount, ...extra })] };
}

/** ST1/ST2: turn three (or the last one or two) from stock to waste keeping order, or turn an exhausted stock's waste over. */
function turnStock(tableau: PlayerTableau): void {
  if (tableau.stock.length > 0) {
    const count = Math.min(TURN_SIZE, tableau.stock.length);
    const packet = tableau.stock.splice(tableau.stock.length - count, count);
    // The packet is flipped as a block: the stock's top card ends lowest, the third card on top.
    tableau.waste.push(...packet.reverse());
  } else {
    tableau.stock = tableau.waste.reverse();
    tableau.waste = [];
  }
}

/**
 * Applies one move. Pure: returns a new table, or the same table plus violations when the move is
 * illegal (never throws on an illegal move).
 */
export function applyMove(table: TableModel, move: Move): { table: TableModel; violations: Violation[] } {
  if (typeof move !== 'object' || move === null) return rejected(table, 'event/malformed', 'a move must be an object');
  const movePlayer = 'player' in move ? move.player : undefined;
  if (table.ended) {
    return table.called !== null
      ? rejected(table, 'hand/play-after-call', `${move.type} after ${table.called} called: play has stopped (C2)`, { player: movePlayer })
      : rejected(table, 'hand/ended', `${move.type} after the hand ended (${table.endReason ?? 'ended'})`, { player: movePlayer });
  }

  if (move.type === 'stuck-rotation') return applyStuckRotation(table, move.agreed === true);

  const current = movePlayer === undefined ? undefined : tableauOf(table, movePlayer);
  if (!current) return rejected(table, 'player/unknown', `no player "${String(movePlayer)}" at this table`, { player: movePlayer });

  switch (move.type) {
    case 'turn-stock': {
      if (current.stock.length === 0 && current.waste.length === 0) return rejected(table, 'stock/empty', 'stock and waste are both empty', { player: current.id });
      const next = cloneTable(table);
      turnStock(next.players[current.id]);
      next.moveCount++;
      return { table: next, violations: [] };
    }
    case 'call': {
      // C1: only a player whose Nerts pile is empty may call.
      if (current.nertsPile.length > 0) return rejected(table, 'call/nerts-pile-not-empty', `${current.id} called with ${current.nertsPile.length} cards in the Nerts pile`, { player: current.id });
      return { table: { ...cloneTable(table), called: current.id, ended: true, endReason: 'call', moveCount: table.moveCount + 1 }, violations: [] };
    }
    case 'to-foundation': {
      const taken = sourceCards(current, move.from);
      if ('problem' in taken) return rejected(table, taken.problem, taken.message, { player: current.id });
      if (taken.cards.length !== 1) return rejected(table, 'source/not-exposed', 'only an exposed card (the top of a work pile) may go to a foundation', { player: current.id });
      const card = taken.cards[0];
      let pile: Foundation | null = null;
      if (move.foundationId !== null) {
        pile = table.foundations.find((f) => f.id === move.foundationId) ?? null;
        if (!pile) return rejected(table, 'foundation/unknown-pile', `no foundation "${String(move.foundationId)}"`, { player: current.id, card: card.code });
      }
      const problem = foundationPlayProblem(pile, card.code);
      if (problem) return rejected(table, problem, describeFoundationProblem(problem, card.code, pile), { player: current.id, card: card.code });
      const next = cloneTable(table);
      removeFromSource(next.players[current.id], move.from);
      if (pile === null) {
        next.foundations.push({ id: `f${next.nextFoundationNumber}`, suit: suitOf(card.code), cards: [card], completed: false });
        next.nextFoundationNumber++;
      } else {
        const target = next.foundations.find((f) => f.id === pile.id)!;
        target.cards.push(card);
        // F4: a king completes the foundation; it is set aside and takes nothing more.
        if (completesFoundation(card.code)) target.completed = true;
      }
      next.moveCount++;
      return { table: next, violations: [] };
    }
    case 'to-work': {
      if (!validPileIndex(move.pile)) return rejected(table, 'work/bad-pile', `no work pile ${String(move.pile)}`, { player: current.id });
      const taken = sourceCards(current, move.from);
      if ('problem' in taken) return rejected(table, taken.problem, taken.message, { player: current.id });
      if (move.from.kind === 'work' && move.from.pile === move.pile) return rejected(table, 'work/same-pile', 'a run cannot move onto its own pile', { player: current.id });
      const target = current.workPiles[move.pile];
      if (move.from.kind === 'work' && move.from.index === 0 && target.length === 0) return rejected(table, 'work/no-op', 'moving a whole pile into an empty space changes nothing', { player: current.id });
      const base = taken.cards[0];
      const problem = workPlacementProblem(table.variant, base, move.from.kind, target);
      if (problem) return rejected(table, problem, `${base.code} cannot go on work pile ${move.pile}${target.length ? ` (top ${topOf(target)!.code})` : ' (empty)'}: ${problem}`, { player: current.id, card: base.code });
      const next = cloneTable(table);
      const tableau = next.players[current.id];
      removeFromSource(tableau, move.from);
      tableau.workPiles[move.pile].push(...taken.cards);
      next.moveCount++;
      return { table: next, violations: [] };
    }
    case 'slide-under': {
      if (!validPileIndex(move.pile)) return rejected(table, 'work/bad-pile', `no work pile ${String(move.pile)}`, { player: current.id });
      const taken = sourceCards(current, move.from);
      if ('problem' in taken) return rejected(table, taken.problem, taken.message, { player: current.id });
      if (move.from.kind === 'work' && (current.workPiles[move.from.pile].length !== 1 || move.from.pile === move.pile)) {
        return rejected(table, 'source/not-exposed', 'only a single card slides under a pile', { player: current.id });
      }
      const card = taken.cards[0];
      const problem = slideUnderProblem(table.variant, current, card, move.from.kind, current.workPiles[move.pile]);
      if (problem) return rejected(table, problem, `${card.code} cannot slide under work pile ${move.pile}: ${problem}`, { player: current.id, card: card.code });
      const next = cloneTable(table);
      const tableau = next.players[current.id];
      removeFromSource(tableau, move.from);
      tableau.workPiles[move.pile].unshift(card);
      next.moveCount++;
      return { table: next, violations: [] };
    }
    default:
      return rejected(table, 'event/malformed', `unknown move type "${String((move as { type?: unknown }).type)}"`);
  }
}

/** S5–S8: everyone stuck: rotate, or end the hand at a standstill. */
function applyStuckRotation(table: TableModel, agreed: boolean): { table: TableModel; violations: Violation[] } {
  if (!agreed && !everyoneStuck(table)) return rejected(table, 'hand/not-stuck', 'a stuck rotation needs every player stuck (or everyone agreeing)');
  const limit = table.variant.stuckRotationLimit;
  if (limit !== null && table.rotations >= limit) {
    // S7 (003): after the allowed rotations the next standstill ends the round.
    return { table: { ...cloneTable(table), ended: true, endReason: 'rotation-limit', moveCount: table.moveCount + 1 }, violations: [] };
  }
  if (!agreed && !anyStockCardCanPlay(table)) {
    // S8 (000, 004): every player stuck and no stock card can play: the hand ends.
    return { table: { ...cloneTable(table), ended: true, endReason: 'standstill', moveCount: table.moveCount + 1 }, violations: [] };
  }
  const next = cloneTable(table);
  for (const tableau of Object.values(next.players)) {
    // S6: waste back onto stock (turned over, so order is kept), then the top stock card to the bottom.
    tableau.stock = tableau.stock.concat(tableau.waste.reverse());
    tableau.waste = [];
    const top = tableau.stock.pop();
    if (top) tableau.stock.unshift(top);
  }
  next.rotations++;
  next.moveCount++;
  return { table: next, violations: [] };
}

/** Every card that would become the waste's top card while cycling the stock with no other move (the current top first). */
export function cardsReachableByTurning(tableau: PlayerTableau): TableCard[] {
  const reachable: TableCard[] = [];
  const seen = new Set<string>();
  const note = (card: TableCard | undefined): void => {
    if (card && !seen.has(card.code)) {
      seen.add(card.code);
      reachable.push(card);
    }
  };
  note(topOf(tableau.waste));
  const total = tableau.stock.length + tableau.waste.length;
  if (total === 0) return reachable;
  // With no other move, the cycle's position is fully described by the stock's length.
  const probe: PlayerTableau = { ...tableau, stock: tableau.stock.slice(), waste: tableau.waste.slice() };
  const startStockLength = probe.stock.length;
  const maxTurns = 2 * (Math.ceil(total / TURN_SIZE) + 2);
  for (let turn = 0; turn < maxTurns; turn++) {
    turnStock(probe);
    note(topOf(probe.waste));
    if (probe.stock.length === startStockLength && turn > 0) break;
  }
  return reachable;
}

/** True when `card` (as if on top of the waste or Nerts pile) could go to a foundation now. */
function canGoToAnyFoundation(table: TableModel, card: TableCard): boolean {
  if (foundationPlayProblem(null, card.code) === null) return true;
  return table.foundations.some((f) => foundationPlayProblem(f, card.code) === null);
}

/** True when a single card from `kind` could go somewhere useful on its own tableau (a work pile, a space, under a pile). */
function canGoToWork(table: TableModel, tableau: PlayerTableau, card: TableCard, kind: Source['kind']): boolean {
  return tableau.workPiles.some(
    (pile) => workPlacementProblem(table.variant, card, kind, pile) === null || (pile.length > 0 && slideUnderProblem(table.variant, tableau, card, kind, pile) === null),
  );
}

/**
 * Moves that make progress (used for "stuck" and by simple bots): every move except turning the
 * stock, the call, and work-pile shuffles that neither empty a space for the Nerts card nor expose a
 * card that can then play at once (to a foundation, or taking the Nerts or waste top card). Shuffles
 * are left out so that "stuck" is finite to decide and a greedy bot cannot loop.
 */
export function productiveMoves(table: TableModel, player: string): Move[] {
  const tableau = tableauOf(table, player);
  if (!tableau || table.ended) return [];
  const nertsTop = topOf(tableau.nertsPile);
  return ownTableauMoves(table, tableau).filter((move) => {
    if (move.type === 'turn-stock' || move.type === 'call' || move.type === 'stuck-rotation') return false;
    if (move.type === 'to-work' && move.from.kind === 'work') {
      const pile = tableau.workPiles[move.from.pile];
      if (move.from.index === 0) return nertsTop !== undefined;
      const exposed = pile[move.from.index - 1];
      if (canGoToAnyFoundation(table, exposed)) return true;
      const accepts = (card: TableCard, kind: Source['kind']): boolean => workPlacementProblem(table.variant, card, kind, [exposed]) === null;
      if (nertsTop && accepts(nertsTop, 'nerts')) return true;
      // Only cards playable right now count: counting cards deeper in the stock would let a run shuttle between two equal cards forever.
      const wasteTop = topOf(tableau.waste);
      return wasteTop !== undefined && accepts(wasteTop, 'waste');
    }
    return true;
  });
}

/** A player is stuck when no productive move exists now and none appears by turning through the stock (S5). */
export function isStuck(table: TableModel, player: string): boolean {
  const tableau = tableauOf(table, player);
  if (!tableau || table.ended) return true;
  if (productiveMoves(table, player).length > 0) return false;
  return !cardsReachableByTurning(tableau).some((card) => canGoToAnyFoundation(table, card) || canGoToWork(table, tableau, card, 'waste'));
}

/** True when every tableau is stuck (S5). */
export function everyoneStuck(table: TableModel): boolean {
  return table.seats.every((id) => isStuck(table, id));
}

/** S8: true when some card anywhere in some player's stock or waste could play now (to a foundation or its work piles). */
export function anyStockCardCanPlay(table: TableModel): boolean {
  return Object.values(table.players).some((tableau) =>
    [...tableau.stock, ...tableau.waste].some((card) => canGoToAnyFoundation(table, card) || canGoToWork(table, tableau, card, 'waste')),
  );
}

/** Every legal move for that player now (including `stuck-rotation` when everyone is stuck). */
export function legalMoves(table: TableModel, player: string): Move[] {
  const tableau = tableauOf(table, player);
  if (!tableau || table.ended) return [];
  const moves = ownTableauMoves(table, tableau);
  if (everyoneStuck(table)) moves.push({ type: 'stuck-rotation' });
  return moves;
}

/** Every legal move on one tableau, without the table-wide stuck rotation. */
function ownTableauMoves(table: TableModel, tableau: PlayerTableau): Move[] {
  const moves: Move[] = [];
  const id = tableau.id;
  const singles: { source: Source; card: TableCard }[] = [];
  const nertsTop = topOf(tableau.nertsPile);
  if (nertsTop) singles.push({ source: { kind: 'nerts' }, card: nertsTop });
  const wasteTop = topOf(tableau.waste);
  if (wasteTop) singles.push({ source: { kind: 'waste' }, card: wasteTop });
  tableau.workPiles.forEach((pile, pileIndex) => {
    const top = topOf(pile);
    if (top) singles.push({ source: { kind: 'work', pile: pileIndex, index: pile.length - 1 }, card: top });
  });

  for (const { source, card } of singles) {
    if (foundationPlayProblem(null, card.code) === null) moves.push({ type: 'to-foundation', player: id, from: source, foundationId: null });
    for (const foundation of table.foundations) {
      if (foundationPlayProblem(foundation, card.code) === null) moves.push({ type: 'to-foundation', player: id, from: source, foundationId: foundation.id });
    }
  }

  const runSources: { source: Source; base: TableCard }[] = [];
  if (nertsTop) runSources.push({ source: { kind: 'nerts' }, base: nertsTop });
  if (wasteTop) runSources.push({ source: { kind: 'waste' }, base: wasteTop });
  tableau.workPiles.forEach((pile, pileIndex) => pile.forEach((card, index) => runSources.push({ source: { kind: 'work', pile: pileIndex, index }, base: card })));
  for (const { source, base } of runSources) {
    for (let target = 0; target < WORK_PILE_COUNT; target++) {
      const targetPile = tableau.workPiles[target];
      if (source.kind === 'work' && (source.pile === target || (source.index === 0 && targetPile.length === 0))) continue;
      if (workPlacementProblem(table.variant, base, source.kind, targetPile) === null) moves.push({ type: 'to-work', player: id, from: source, pile: target });
    }
  }

  if (table.variant.slideUnder) {
    for (const { source, card } of singles) {
      if (source.kind === 'work' && tableau.workPiles[source.pile].length !== 1) continue;
      for (let target = 0; target < WORK_PILE_COUNT; target++) {
        if (source.kind === 'work' && source.pile === target) continue;
        const targetPile = tableau.workPiles[target];
        if (targetPile.length > 0 && slideUnderProblem(table.variant, tableau, card, source.kind, targetPile) === null) moves.push({ type: 'slide-under', player: id, from: source, pile: target });
      }
    }
  }

  if (tableau.stock.length > 0 || tableau.waste.length > 0) moves.push({ type: 'turn-stock', player: id });
  if (tableau.nertsPile.length === 0) moves.push({ type: 'call', player: id });
  return moves;
}

/** What a finished (or running) hand gives scoring: cards in the centre per owner, Nerts cards left per tableau, and the caller. */
export function tableHandSummary(table: TableModel): { centre: Record<string, number>; nertsLeft: Record<string, number>; caller: string | null } {
  const centre: Record<string, number> = {};
  const nertsLeft: Record<string, number> = {};
  for (const id of table.seats) {
    centre[id] = 0;
    nertsLeft[id] = table.players[id].nertsPile.length;
  }
  for (const foundation of table.foundations) for (const card of foundation.cards) centre[card.owner] = (centre[card.owner] ?? 0) + 1;
  return { centre, nertsLeft, caller: table.called };
}

/** Every card the table holds, grouped by deck id (for conservation checks: each deck keeps its 52). */
export function cardsByDeck(table: TableModel): Record<string, CardCode[]> {
  const byDeck: Record<string, CardCode[]> = {};
  const add = (card: TableCard): void => {
    (byDeck[card.deckId] ??= []).push(card.code);
  };
  for (const tableau of Object.values(table.players)) {
    [...tableau.nertsPile, ...tableau.workPiles.flat(), ...tableau.stock, ...tableau.waste].forEach(add);
  }
  for (const foundation of table.foundations) foundation.cards.forEach(add);
  return byDeck;
}

/** Deals from `setup` and applies `moves` in order: the table a move log describes, with every violation met on the way. */
export function replayTable(setup: { players: PlayerSetup[]; variant: VariantRules; seed: number }, moves: readonly Move[]): { table: TableModel; violations: Violation[] } {
  let table = dealTable(setup);
  const violations: Violation[] = [];
  for (const move of moves) {
    const result = applyMove(table, move);
    table = result.table;
    violations.push(...result.violations);
  }
  return { table, violations };
}
