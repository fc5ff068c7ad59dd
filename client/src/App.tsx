/**
 * The app: routes each URL to a page. Table pages share one live connection through
 * TableShell; the overlay has no chrome at all (it is an OBS browser source).
 */
import { parseRoute, routePath, TABLE_PAGES, TABLE_PAGE_LABELS, type Route } from './lib/routes';
import { Link, useLocation } from './lib/router';
import { TableContext, useLiveTable } from './lib/useLiveTable';
import { TablesPage } from './pages/TablesPage';
import { DashboardPage } from './pages/DashboardPage';
import { SetupPage } from './pages/SetupPage';
import { CameraPage } from './pages/CameraPage';
import { ScoreSortPage } from './pages/ScoreSortPage';
import { StandingsPage } from './pages/StandingsPage';
import { DisputesPage } from './pages/DisputesPage';
import { OverlayPage } from './pages/OverlayPage';
import { ConnectionPill } from './components/ConnectionPill';
import { useEffect } from 'react';

/** The root component. */
export function App() {
  const { pathname } = useLocation();
  const route = parseRoute(pathname);
  if (route.page === 'overlay') return <OverlayPage tableId={route.tableId} />;
  if (route.page === 'camera') return <CameraPage tableId={route.tableId} />;
  if (route.page === 'tables') {
    return (
      <>
        <AppHeader />
        <TablesPage />
      </>
    );
  }
  if (route.page === 'not-found') {
    return (
      <>
        <AppHeader />
        <main className="page">
          <h1>Page not found</h1>
          <p>
            Nothing lives at <code>{route.path}</code>. <Link href="/">Go to the tables</Link>.
          </p>
        </main>
      </>
    );
  }
  return <TableShell route={route} />;
}

function AppHeader({ children }: { children?: React.ReactNode }) {
  return (
    <header className="app-header">
      <Link href="/" className="app-header__brand">
        <span aria-hidden="true">♠♥</span> Nerts referee
      </Link>
      {children}
    </header>
  );
}

/** Every table page: one live socket, the table's navigation and the page itself. */
function TableShell({ route }: { route: Exclude<Route, { page: 'tables' } | { page: 'not-found' }> }) {
  const liveTable = useLiveTable(route.tableId);
  const title = liveTable.live.table?.name ?? route.tableId;
  useEffect(() => {
    document.title = `${TABLE_PAGE_LABELS[route.page as keyof typeof TABLE_PAGE_LABELS] ?? ''} · ${title} · Nerts referee`;
  }, [route.page, title]);
  return (
    <TableContext.Provider value={liveTable}>
      <AppHeader>
        <span aria-hidden="true">/</span>
        <strong>{title}</strong>
        <nav className="app-nav" aria-label="Table pages">
          {TABLE_PAGES.filter((page) => page !== 'overlay').map((page) => (
            <Link key={page} href={routePath({ page, tableId: route.tableId })} aria-current={route.page === page ? 'page' : undefined}>
              {TABLE_PAGE_LABELS[page]}
            </Link>
          ))}
        </nav>
        <span style={{ marginLeft: 'auto' }}>
          <ConnectionPill status={liveTable.status} reason={liveTable.closeReason} />
        </span>
      </AppHeader>
      {route.page === 'dashboard' && <DashboardPage />}
      {route.page === 'setup' && <SetupPage />}
      {route.page === 'score' && <ScoreSortPage />}
      {route.page === 'standings' && <StandingsPage />}
      {route.page === 'disputes' && <DisputesPage />}
    </TableContext.Provider>
  );
}
