/**
 * Dashboard: the live table at a glance. Foundations (top card, height, completed), each
 * player's Nerts cards left and centre cards, the hand timer, a feed of plays, disputes and
 * violations, and a clear banner when play is frozen. Referees also get the hand controls.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CardCode } from '../../../server/game/cards';
import type { TableView } from '../../../server/protocol';
import { Card } from '../components/Card';
import { LiveFrame } from '../components/LiveFrame';
import { PlayerChip } from '../components/PlayerChip';
import { RefereeTokenForm } from '../components/RefereeTokenForm';
import { api } from '../lib/api';
import { feedLines, formatDuration, playerNames, seatColour } from '../lib/format';
import { chooseAnchor, handElapsedMs, handStartMs, type ClockAnchor } from '../lib/handClock';
import { navigate, Link } from '../lib/router';
import { routePath } from '../lib/routes';
import { tokenFor } from '../lib/tokens';
import { useTable } from '../lib/useLiveTable';
import { useNow } from '../lib/useNow';
import { useRefereeAction } from '../lib/useRefereeAction';
import { cardShort } from '../lib/cardNames';

/** The live dashboard page. */
export function DashboardPage() {
  const { tableId, live, tokens, status } = useTable();
  const { view, table, events, stats } = live;
  const names = useMemo(() => playerNames(table, view), [table, view]);
  const running = view?.phase === 'playing';
  const [showCamera, setShowCamera] = useState(false);

  // Anchor the hand timer (see lib/handClock.ts): the server's clock, or the newest event's table time.
  const newestRef = useRef<ClockAnchor | null>(null);
  const serverRef = useRef<ClockAnchor | null>(null);
  const newest = events[events.length - 1];
  if (newest && (!newestRef.current || newestRef.current.tableMs < newest.timeMs)) {
    newestRef.current = { tableMs: newest.timeMs, localMs: Date.now() };
  }
  if (live.serverTimeMs !== null && serverRef.current?.tableMs !== live.serverTimeMs) {
    serverRef.current = { tableMs: live.serverTimeMs, localMs: Date.now() };
  }
  const now = useNow(1000, running);
  const anchor = chooseAnchor(newestRef.current?.tableMs ?? null, newestRef.current?.localMs ?? 0, serverRef.current);
  const elapsed = view ? handElapsedMs(handStartMs(events, view.hand), anchor, now, running) : null;

  if (!view) {
    return (
      <main className="page stack">
        <p className="muted" role="status">{status === 'failed' ? 'Cannot open this table: check the link’s token.' : 'Waiting for the table…'}</p>
        {status === 'failed' && <RefereeTokenForm />}
      </main>
    );
  }
  const openDisputes = view.disputes.filter((dispute) => dispute.winner === null);
  const isReferee = Boolean(tokenFor(tokens, 'referee'));

  return (
    <main className="page stack" data-testid="dashboard">
      <FrozenBanner view={view} names={names} tableId={tableId} />
      <section className="row row--between" aria-label="Hand summary">
        <div className="row" style={{ gap: '1.5rem' }}>
          <div className="stat">
            <span className="stat__label">Hand</span>
            <span className="stat__value" data-testid="hand-number">{view.hand || '–'}</span>
          </div>
          <div className="stat">
            <span className="stat__label">Hand time</span>
            <span className="stat__value" data-testid="hand-timer">{elapsed === null ? '–' : formatDuration(elapsed)}</span>
          </div>
          <div className="stat">
            <span className="stat__label">In the centre</span>
            <span className="stat__value" data-testid="centre-total">{view.centreTotal}</span>
          </div>
          <div className="stat">
            <span className="stat__label">Phase</span>
            <span className="stat__value" style={{ fontSize: '1.1rem' }}>{phaseLabel(view.phase)}</span>
          </div>
        </div>
        {stats && (
          <span className="small muted" data-testid="pipeline-stats">
            {stats.fps.toFixed(1)} fps · p95 {Math.round(stats.p95Ms)} ms · dropped {stats.framesDropped}
          </span>
        )}
      </section>
      {view.stalledSinceMs !== null && view.phase === 'playing' && (
        <p className="notice notice--warn" role="status">Nothing played for a while: everyone turn your waste into stock and move the top card to the bottom.</p>
      )}

      <section className="felt" aria-labelledby="foundations-heading">
        <div className="row row--between">
          <h2 id="foundations-heading" style={{ margin: 0 }}>Foundations</h2>
          <span className="muted small">{view.foundations.length} piles · {view.foundations.filter((f) => f.completed).length} completed</span>
        </div>
        {view.foundations.length === 0 ? (
          <p className="muted">No aces out yet.</p>
        ) : (
          <ul className="foundations" style={{ listStyle: 'none', padding: 0, margin: '0.6rem 0 0' }} data-testid="foundations">
            {view.foundations.map((foundation) => (
              <li key={foundation.id} className="foundation" data-foundation={foundation.id}>
                <Card code={foundation.top as CardCode | null} size="md" badge={foundation.count} muted={foundation.completed}
                  title={`${foundation.id}: ${foundation.count} card${foundation.count === 1 ? '' : 's'}${foundation.completed ? ', completed' : ''}`} />
                <span className="foundation__meta">{foundation.completed ? 'done' : `${foundation.count}/13`}</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="players-heading" className="stack">
        <h2 id="players-heading" className="visually-hidden">Players</h2>
        <div className="players" data-testid="players">
          {[...view.players].sort((a, b) => a.seat - b.seat).map((player) => {
            const startSize = table?.seats.find((seat) => seat.playerId === player.id)?.nertsPileSize ?? 13;
            return (
              <article key={player.id} className="panel" data-player={player.id} aria-label={player.name}>
                <PlayerChip name={player.name} seat={player.seat} team={player.team} />
                <div className="row" style={{ marginTop: '0.5rem', gap: '1rem' }}>
                  <Card back backColour={seatColour(player.seat)} size="sm" badge={player.nertsLeft} title={`${player.nertsLeft} Nerts cards left`} />
                  <div className="player__stats">
                    <div className="stat">
                      <span className="stat__value" data-testid="nerts-left">{player.nertsLeft}</span>
                      <span className="stat__label">Nerts left</span>
                    </div>
                    <div className="stat">
                      <span className="stat__value" data-testid="centre-cards">{player.centreCards}</span>
                      <span className="stat__label">
                        In centre
                        {player.unsureCards?.length ? (
                          <span data-testid="centre-unsure" title={`credited on weak evidence of who played them (check their backs at the score sort): ${player.unsureCards.map(cardShort).join(' ')}`}>
                            {` · ${player.unsureCards.length} unsure`}
                          </span>
                        ) : null}
                      </span>
                    </div>
                  </div>
                </div>
                <progress max={Math.max(startSize, player.nertsLeft)} value={Math.max(startSize, player.nertsLeft) - player.nertsLeft}
                  aria-label={`${player.name}: Nerts pile progress`} style={{ width: '100%', marginTop: '0.4rem', accentColor: seatColour(player.seat) }} />
              </article>
            );
          })}
        </div>
      </section>

      <details className="panel" onToggle={(e) => setShowCamera(e.currentTarget.open)}>
        <summary><strong>Camera view</strong> <span className="muted small">what the recogniser sees</span></summary>
        {showCamera && <div style={{ marginTop: '0.6rem' }}><LiveFrame /></div>}
      </details>

      <div className="grid grid--2">
        <section className="panel" aria-labelledby="feed-heading">
          <h2 id="feed-heading">Plays</h2>
          <Feed />
        </section>
        <div className="stack">
          <section className="panel" aria-labelledby="disputes-heading">
            <h2 id="disputes-heading">Disputes</h2>
            {view.disputes.length === 0 ? (
              <p className="muted small">None this hand.</p>
            ) : (
              <ul className="feed">
                {[...view.disputes].reverse().map((dispute) => (
                  <li key={dispute.id}>
                    <Card code={dispute.first.card as CardCode} size="xs" />
                    <Card code={dispute.second.card as CardCode} size="xs" />
                    <span>
                      {names.get(dispute.first.player) ?? dispute.first.player} vs {names.get(dispute.second.player) ?? dispute.second.player} on {dispute.foundationId}:{' '}
                      {dispute.winner ? <strong>{names.get(dispute.winner) ?? dispute.winner}{dispute.by === 'referee' ? ' (referee)' : ''}</strong> : <strong className="feed__dispute">open</strong>}
                    </span>
                  </li>
                ))}
              </ul>
            )}
            {view.disputes.length > 0 && (
              <p className="small"><Link href={routePath({ page: 'disputes', tableId })}>Review the evidence{openDisputes.length ? ` (${openDisputes.length} open)` : ''}</Link></p>
            )}
          </section>
          <section className="panel" aria-labelledby="violations-heading">
            <h2 id="violations-heading">Violations</h2>
            {view.violations.length === 0 ? (
              <p className="muted small">None this hand.</p>
            ) : (
              <ul className="feed" data-testid="violations">
                {[...view.violations].reverse().slice(0, 20).map((violation) => (
                  <li key={`${violation.seq}-${violation.code}`}>
                    {violation.card && <Card code={violation.card as CardCode} size="xs" />}
                    <span className="feed__violation">
                      {violation.player ? `${names.get(violation.player) ?? violation.player}: ` : ''}
                      {violation.message}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
          {isReferee ? <HandControls view={view} names={names} /> : <RefereeTokenForm />}
        </div>
      </div>
    </main>
  );
}

function phaseLabel(phase: TableView['phase']): string {
  return { setup: 'Setting up', playing: 'Playing', called: 'Frozen', scored: 'Scored' }[phase];
}

function FrozenBanner({ view, names, tableId }: { view: TableView; names: Map<string, string>; tableId: string }) {
  if (view.phase === 'scored') {
    return (
      <div className="banner banner--ended" role="status">
        <span>Hand {view.hand} scored{view.matchWinner ? ` · ${names.get(view.matchWinner) ?? view.matchWinner} wins the match!` : ''}</span>
        <Link className="button" href={routePath({ page: 'score', tableId })}>See the score sort</Link>
      </div>
    );
  }
  if (view.phase === 'called' || view.frozen) {
    return (
      <div className="banner banner--frozen" role="alert" data-testid="frozen-banner">
        <span>Play frozen: {view.calledBy ? `${names.get(view.calledBy) ?? view.calledBy} called Nerts!` : 'hand over.'} Hands off the cards.</span>
        <Link className="button" href={routePath({ page: 'score', tableId })}>Go to the score sort</Link>
      </div>
    );
  }
  return null;
}

function Feed() {
  const { live } = useTable();
  const names = useMemo(() => playerNames(live.table, live.view), [live.table, live.view]);
  const lines = useMemo(() => feedLines(live.events, names, 60), [live.events, names]);
  if (lines.length === 0) return <p className="muted small">Nothing yet.</p>;
  return (
    <ol className="feed" data-testid="feed" aria-live="off">
      {lines.map((line, index) => (
        <li key={`${line.seq}-${index}`} className={`feed__${line.kind}`}>
          {line.card ? <Card code={line.card} size="xs" /> : <span style={{ width: 30, display: 'inline-block' }} aria-hidden="true" />}
          <span>{line.text}</span>
        </li>
      ))}
    </ol>
  );
}

function HandControls({ view, names }: { view: TableView; names: Map<string, string> }) {
  const { tableId, tokens } = useTable();
  const refereeToken = tokenFor(tokens, 'referee');
  const { busy, error, run } = useRefereeAction();
  const [caller, setCaller] = useState(view.players[0]?.id ?? '');
  useEffect(() => {
    if (!view.players.some((player) => player.id === caller)) setCaller(view.players[0]?.id ?? '');
  }, [view.players, caller]);
  return (
    <section className="panel stack" aria-labelledby="controls-heading">
      <h2 id="controls-heading">Referee</h2>
      <div className="row">
        <button type="button" className="primary" disabled={busy || view.phase === 'playing'} onClick={() => run(() => api.startHand(tableId, refereeToken))}>
          Start a new hand
        </button>
        <button type="button" disabled={busy || view.phase === 'scored' || view.phase === 'setup'}
          onClick={async () => {
            const result = await run(() => api.endHand(tableId, refereeToken));
            if (result) navigate(routePath({ page: 'score', tableId }));
          }}>
          End hand and score
        </button>
      </div>
      <form className="row" onSubmit={(e) => { e.preventDefault(); void run(() => api.call(tableId, refereeToken, caller)); }}>
        <label htmlFor="manual-caller">Manual call by</label>
        <select id="manual-caller" value={caller} onChange={(e) => setCaller(e.target.value)}>
          {view.players.map((player) => <option key={player.id} value={player.id}>{names.get(player.id) ?? player.id}</option>)}
        </select>
        <button type="submit" disabled={busy || view.phase !== 'playing'}>Call Nerts</button>
      </form>
      {error && <p className="error" role="alert">{error}</p>}
    </section>
  );
}
