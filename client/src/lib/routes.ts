/**
 * The app's pages as a discriminated union, and the pure mapping between a URL path and a page.
 * Kept free of React so it is tested directly and shared by links and the router.
 */

/** Every page of the app. `tableId` is the server's table id. */
export type Route =
  | { page: 'tables' }
  | { page: 'dashboard'; tableId: string }
  | { page: 'setup'; tableId: string }
  | { page: 'camera'; tableId: string }
  | { page: 'score'; tableId: string }
  | { page: 'standings'; tableId: string }
  | { page: 'disputes'; tableId: string }
  | { page: 'overlay'; tableId: string }
  | { page: 'not-found'; path: string };

/** Pages that belong to one table, in the order the table's navigation shows them. */
export const TABLE_PAGES = ['dashboard', 'setup', 'camera', 'score', 'standings', 'disputes', 'overlay'] as const;
export type TablePage = (typeof TABLE_PAGES)[number];

/** Navigation labels for the table pages. */
export const TABLE_PAGE_LABELS: Record<TablePage, string> = {
  dashboard: 'Dashboard',
  setup: 'Setup',
  camera: 'Camera',
  score: 'Score sort',
  standings: 'Standings',
  disputes: 'Disputes',
  overlay: 'Overlay',
};

/** Parses a pathname (no query) into a route; unknown paths give `not-found`. */
export function parseRoute(pathname: string): Route {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { page: 'tables' };
  if (parts[0] === 'tables' && parts.length === 1) return { page: 'tables' };
  if (parts[0] === 'tables' && parts.length === 2) return { page: 'dashboard', tableId: parts[1] };
  if (parts[0] === 'tables' && parts.length === 3) {
    const page = parts[2];
    if ((TABLE_PAGES as readonly string[]).includes(page)) {
      return { page: page as TablePage, tableId: parts[1] };
    }
  }
  if (parts[0] === 'overlay' && parts.length === 2) return { page: 'overlay', tableId: parts[1] };
  return { page: 'not-found', path: pathname };
}

/** The pathname for a route (the inverse of parseRoute for every page but not-found). */
export function routePath(route: Route): string {
  switch (route.page) {
    case 'tables':
      return '/';
    case 'dashboard':
      return `/tables/${encodeURIComponent(route.tableId)}`;
    case 'overlay':
      return `/overlay/${encodeURIComponent(route.tableId)}`;
    case 'not-found':
      return route.path;
    default:
      return `/tables/${encodeURIComponent(route.tableId)}/${route.page}`;
  }
}
