/**
 * The registry of live tables: creates tables (with tokens), loads them back after a restart,
 * resolves tokens to roles, deletes them.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { tryResolveVariant } from '../game/variants';
import type { CreateTable, Role, UpdateSetup } from '../protocol';
import { LiveTable } from './live-table';
import { variantInput } from './rules';
import type { StoredTable, TableStore } from './store';
import type { RecognitionPool } from '../workers/pool';

/** A bad table setup (a 400). */
export class SetupError extends Error {}

/** A new random token (URL-safe, 128 bits). */
export function newToken(): string {
  return randomBytes(16).toString('base64url');
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Checks a setup (creation body or setup edit) beyond what the schema can: a known preset, valid
 * knobs, unique player ids and decks. Returns it with defaults filled in; throws SetupError.
 */
export function resolveSetup(body: UpdateSetup): StoredTable['setup'] {
  const variant = body.variant ?? 'nertz';
  const preset = tryResolveVariant({ ...(body.knobs ?? {}), preset: variant });
  if (!preset.ok) throw new SetupError(preset.error);
  const target = body.target ?? preset.rules.scoring.target;
  const resolved = tryResolveVariant(variantInput(variant, body.knobs ?? {}, target));
  if (!resolved.ok) throw new SetupError(resolved.error);
  const players = body.seats.map((s) => s.playerId);
  if (new Set(players).size !== players.length) throw new SetupError('player ids must be unique');
  // Every seat plays its own deck (partners keep separate tableaux and pool their score).
  const decks = body.seats.map((s) => s.deckId ?? `deck-${s.playerId}`);
  if (new Set(decks).size !== decks.length) throw new SetupError('every seat needs its own deck (its own back design)');
  return { name: body.name, seats: body.seats, variant, target, knobs: body.knobs ?? {} };
}

/** Live tables of this server. */
export class TableRegistry {
  private readonly tables = new Map<string, LiveTable>();
  private ticker: NodeJS.Timeout | null = null;

  constructor(
    readonly store: TableStore,
    readonly pool: RecognitionPool,
  ) {
    for (const stored of store.listTables()) this.tables.set(stored.id, new LiveTable(stored, store, pool));
    this.ticker = setInterval(() => {
      for (const table of this.tables.values()) table.tick();
    }, 1000);
    this.ticker.unref();
  }

  /** Creates a table from a validated body; throws SetupError on inconsistent setup. */
  create(body: CreateTable, id?: string): LiveTable {
    const setup = resolveSetup(body);
    const tableId = id ?? `t-${randomBytes(5).toString('hex')}`;
    if (this.tables.has(tableId)) throw new SetupError(`table ${tableId} exists`);
    const stored: StoredTable = {
      id: tableId,
      setup,
      tokens: { camera: newToken(), referee: newToken(), view: newToken() },
      source: body.source ?? 'camera',
      calibration: null,
      enrolledDecks: [],
      trackerSnapshot: null,
      createdAtMs: Date.now(),
    };
    this.store.createTable(stored);
    const table = new LiveTable(stored, this.store, this.pool);
    this.tables.set(tableId, table);
    return table;
  }

  /** A table by id. */
  get(id: string): LiveTable | undefined {
    return this.tables.get(id);
  }

  /** Every table. */
  list(): LiveTable[] {
    return [...this.tables.values()];
  }

  /** The role a token grants on a table, or null. Referee tokens also grant viewing. */
  roleOf(table: LiveTable, token: string | undefined): Role | null {
    if (!token) return null;
    const tokens = table.tokens;
    if (sameToken(token, tokens.referee)) return 'referee';
    if (sameToken(token, tokens.camera)) return 'camera';
    if (sameToken(token, tokens.view)) return 'view';
    return null;
  }

  /** Deletes a table and its history. */
  delete(id: string): void {
    const table = this.tables.get(id);
    if (!table) return;
    table.close();
    this.tables.delete(id);
    this.store.deleteTable(id);
  }

  /** Closes every table (saving tracker snapshots). */
  close(): void {
    if (this.ticker) clearInterval(this.ticker);
    for (const table of this.tables.values()) table.close();
    this.tables.clear();
  }
}
