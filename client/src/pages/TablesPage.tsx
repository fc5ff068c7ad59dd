/**
 * Tables: the list of tables on this server, a form to create one (seats, players, teams,
 * variant preset and knobs, target, frame source), and the links with their tokens.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { TableInfo } from '../../../server/protocol';
import { api, ApiError } from '../lib/api';
import { Link } from '../lib/router';
import { defaultDraft, draftToCreateTable, type SetupDraft } from '../lib/setupForm';
import { SetupFields } from '../components/SetupFields';
import { loadTokens, saveTokens } from '../lib/tokens';
import { tableLinks, type TableLinks } from '../lib/links';
import { seatColour } from '../lib/format';

/** The home page. */
export function TablesPage() {
  const [tables, setTables] = useState<TableInfo[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ table: TableInfo; links: TableLinks } | null>(null);

  const refresh = useCallback(() => {
    api
      .listTables()
      .then((list) => {
        setTables([...list].sort((a, b) => b.createdAtMs - a.createdAtMs));
        setLoadError(null);
      })
      .catch((error: unknown) => setLoadError(error instanceof ApiError ? error.message : String(error)));
  }, []);
  useEffect(() => {
    document.title = 'Tables · Nerts referee';
    refresh();
  }, [refresh]);

  return (
    <main className="page stack">
      <h1>Tables</h1>
      {created && <CreatedNotice table={created.table} links={created.links} />}
      <div className="grid grid--2">
        <section className="panel" aria-labelledby="table-list-heading">
          <div className="row row--between">
            <h2 id="table-list-heading">Open a table</h2>
            <button type="button" onClick={refresh}>Refresh</button>
          </div>
          {loadError && <p className="error" role="alert">{loadError}</p>}
          {tables === null && !loadError && <p className="muted">Loading…</p>}
          {tables?.length === 0 && <p className="muted">No tables yet: create one.</p>}
          <ul className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="table-list">
            {tables?.map((table) => <TableListItem key={table.id} table={table} />)}
          </ul>
        </section>
        <CreateTableForm
          onCreated={(table, links) => {
            setCreated({ table, links });
            refresh();
          }}
        />
      </div>
    </main>
  );
}

function TableListItem({ table }: { table: TableInfo }) {
  const links = tableLinks(table.id, loadTokens(window.localStorage, table.id));
  return (
    <li className="panel" style={{ boxShadow: 'none' }} data-table-id={table.id}>
      <div className="row row--between">
        <Link href={links.referee ?? links.viewer ?? `/tables/${encodeURIComponent(table.id)}`}>
          <strong>{table.name}</strong>
        </Link>
        <span className="row small">
          <span className="pill pill--plain">{table.source === 'sim' ? 'simulated' : 'camera'}</span>
          <span className="pill pill--plain">{table.variant}</span>
          <span className="pill pill--plain">to {table.target}</span>
        </span>
      </div>
      <div className="row small" style={{ marginTop: '0.3rem' }}>
        {table.seats.map((seat) => (
          <span key={seat.playerId} className="row" style={{ gap: '0.25rem' }}>
            <span className="player__swatch" style={{ background: seatColour(seat.seat) }} aria-hidden="true" />
            {seat.name}
            {seat.team ? <span className="muted">({seat.team})</span> : null}
          </span>
        ))}
      </div>
      <LinkRow links={links} />
    </li>
  );
}

function LinkRow({ links }: { links: TableLinks }) {
  const entries: Array<[string, string | undefined]> = [
    ['Dashboard (referee)', links.referee],
    ['Dashboard (view only)', links.viewer],
    ['Camera', links.camera],
    ['Overlay', links.overlay],
  ];
  const known = entries.filter((entry): entry is [string, string] => Boolean(entry[1]));
  if (!known.length) {
    return <p className="small muted">This browser holds no token for this table: open a link you were given (the server prints the demo table’s links when it starts).</p>;
  }
  return (
    <div className="row small" style={{ marginTop: '0.4rem' }}>
      {known.map(([label, href]) =>
        label === 'Overlay' || label === 'Camera' ? (
          <a key={label} href={href} target="_blank" rel="noreferrer">{label}</a>
        ) : (
          <Link key={label} href={href}>{label}</Link>
        ),
      )}
    </div>
  );
}

function CreatedNotice({ table, links }: { table: TableInfo; links: TableLinks }) {
  const absolute = (path?: string): string => (path ? new URL(path, window.location.origin).toString() : '');
  return (
    <section className="panel notice" aria-live="polite" data-testid="created-table">
      <h2>Table “{table.name}” created</h2>
      <p className="small">Keep these links: each carries its token. The referee link can correct and score; share the others freely.</p>
      <dl className="stack small" style={{ margin: 0 }}>
        {(
          [
            ['Referee dashboard', links.referee],
            ['Viewer dashboard', links.viewer],
            ['Camera', links.camera],
            ['Stream overlay (OBS browser source)', links.overlay],
          ] as const
        ).map(([label, href]) => (
          <div key={label}>
            <dt><strong>{label}</strong></dt>
            <dd style={{ margin: 0 }}><code style={{ wordBreak: 'break-all' }}>{absolute(href)}</code></dd>
          </div>
        ))}
      </dl>
      <div className="row" style={{ marginTop: '0.6rem' }}>
        {links.referee && <Link className="button primary" href={`/tables/${encodeURIComponent(table.id)}/setup`}>Set up the table</Link>}
        {links.referee && <Link className="button" href={links.referee}>Open the dashboard</Link>}
      </div>
    </section>
  );
}

function CreateTableForm({ onCreated }: { onCreated: (table: TableInfo, links: TableLinks) => void }) {
  const [draft, setDraft] = useState<SetupDraft>(() => defaultDraft(4));
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const update = (patch: Partial<SetupDraft>): void => setDraft((current) => ({ ...current, ...patch }));
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const { body, errors: problems } = draftToCreateTable(draft);
    setErrors(problems);
    if (!body) return;
    setBusy(true);
    try {
      const created = await api.createTable(body);
      const tokens = saveTokens(window.localStorage, created.table.id, created.tokens);
      onCreated(created.table, tableLinks(created.table.id, tokens));
    } catch (error) {
      setErrors([error instanceof ApiError ? `${error.message} (${error.code})` : String(error)]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="create-heading" noValidate>
      <h2 id="create-heading">Create a table</h2>
      <SetupFields draft={draft} onChange={setDraft} />
      <fieldset>
        <legend>Frames come from</legend>
        <div className="row">
          <label className="row" style={{ fontWeight: 400 }}>
            <input type="radio" name="source" value="camera" checked={draft.source === 'camera'} onChange={() => update({ source: 'camera' })} />
            A camera (this or another device)
          </label>
          <label className="row" style={{ fontWeight: 400 }}>
            <input type="radio" name="source" value="sim" checked={draft.source === 'sim'} onChange={() => update({ source: 'sim' })} />
            The simulated table (demo)
          </label>
        </div>
      </fieldset>
      {errors.length > 0 && (
        <ul className="error" role="alert" data-testid="create-errors">
          {errors.map((error) => <li key={error}>{error}</li>)}
        </ul>
      )}
      <div>
        <button type="submit" className="primary" disabled={busy}>{busy ? 'Creating…' : 'Create table'}</button>
      </div>
    </form>
  );
}
