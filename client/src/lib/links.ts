/**
 * Shareable page links for a table, each carrying the token its page needs. Pure, so the Tables
 * page and tests agree on the shapes.
 */
import type { KnownTokens } from './tokens';

/** Links a table's creator hands out (relative to the app origin); missing when the token is unknown. */
export interface TableLinks {
  /** Dashboard for the referee (may correct, overrule, score). */
  referee?: string;
  /** Dashboard for spectators (read-only). */
  viewer?: string;
  /** Camera page (sends frames; the view token lets it show what the recogniser sees). */
  camera?: string;
  /** Transparent overlay for OBS (read-only). */
  overlay?: string;
}

/** Builds the links from the tokens known for a table. */
export function tableLinks(tableId: string, tokens: KnownTokens): TableLinks {
  const id = encodeURIComponent(tableId);
  const q = (params: Record<string, string | undefined>): string => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
    return search.size ? `?${search}` : '';
  };
  const links: TableLinks = {};
  if (tokens.referee) links.referee = `/tables/${id}${q({ token: tokens.referee })}`;
  if (tokens.view) links.viewer = `/tables/${id}${q({ token: tokens.view })}`;
  if (tokens.camera) links.camera = `/tables/${id}/camera${q({ token: tokens.camera, view: tokens.view ?? tokens.referee })}`;
  if (tokens.view) links.overlay = `/overlay/${id}${q({ token: tokens.view })}`;
  return links;
}
