/**
 * Table tokens kept in the browser: the creator of a table gets all three (camera, referee,
 * view); someone opening a shared link gets the one in its `?token=` query. Each page asks for
 * the weakest token that lets it work, so a referee's browser can open every page.
 */
import type { Role, TableTokens } from '../../../server/protocol';

/** The subset of the Storage API used here (localStorage in the app, a Map in tests). */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Tokens known for one table, by role. */
export type KnownTokens = Partial<TableTokens>;

const keyFor = (tableId: string): string => `nerts:tokens:${tableId}`;

/** Reads the tokens stored for a table (an empty object when none or unreadable). */
export function loadTokens(storage: TokenStorage, tableId: string): KnownTokens {
  try {
    const raw = storage.getItem(keyFor(tableId));
    if (!raw) return {};
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object') return {};
    const result: KnownTokens = {};
    for (const role of ['camera', 'referee', 'view'] as const) {
      const value = (parsed as Record<string, unknown>)[role];
      if (typeof value === 'string' && value) result[role] = value;
    }
    return result;
  } catch {
    return {};
  }
}

/** Merges new tokens into the stored ones for a table and returns the result. */
export function saveTokens(storage: TokenStorage, tableId: string, tokens: KnownTokens): KnownTokens {
  const merged = { ...loadTokens(storage, tableId), ...tokens };
  try {
    storage.setItem(keyFor(tableId), JSON.stringify(merged));
  } catch {
    // Private mode or a full quota: the tokens still work for this page view.
  }
  return merged;
}

/** Which roles are good enough for a purpose, best first. */
const ACCEPTED: Record<'view' | 'referee' | 'camera', Role[]> = {
  view: ['view', 'referee'],
  referee: ['referee'],
  camera: ['camera'],
};

/** The token to use for `purpose`, or null when this browser has none that is good enough. */
export function tokenFor(tokens: KnownTokens, purpose: 'view' | 'referee' | 'camera'): string | null {
  for (const role of ACCEPTED[purpose]) {
    const token = tokens[role];
    if (token) return token;
  }
  return null;
}

/**
 * A token given in a URL: we don't know its role, so the page that received it stores it under
 * the role that page needs (the server rejects it if it is wrong, and the page says so).
 */
export function adoptUrlToken(storage: TokenStorage, tableId: string, role: Role, urlToken: string | null): KnownTokens {
  if (!urlToken) return loadTokens(storage, tableId);
  return saveTokens(storage, tableId, { [role]: urlToken });
}
