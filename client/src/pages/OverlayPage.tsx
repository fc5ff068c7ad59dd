/**
 * Stream overlay (OBS browser source): transparent page, compact scoreboard with live Nerts
 * counts, and a ticker of plays. Read-only: it uses the view token from its URL. Layout and
 * theme come from URL parameters (see lib/overlayParams.ts).
 */
import { useEffect, useMemo, type CSSProperties } from 'react';
import { Card } from '../components/Card';
import { feedLines, playerNames, seatColour } from '../lib/format';
import { parseOverlayParams } from '../lib/overlayParams';
import { useLiveTable } from '../lib/useLiveTable';
import '../overlay.css';

/** The overlay page for one table. */
export function OverlayPage({ tableId }: { tableId: string }) {
  const params = useMemo(() => parseOverlayParams(new URLSearchParams(window.location.search)), []);
  const { live, status } = useLiveTable(tableId, { urlRole: 'view' });
  const { view, table, events } = live;
  const names = useMemo(() => playerNames(table, view), [table, view]);
  const plays = useMemo(() => feedLines(events, names, params.tickerLength, ['play', 'call', 'dispute']), [events, names, params.tickerLength]);

  useEffect(() => {
    document.documentElement.classList.add('overlay-root');
    document.title = 'Nerts overlay';
    return () => document.documentElement.classList.remove('overlay-root');
  }, []);

  const style = { ['--scale' as string]: params.scale } as CSSProperties;
  const className = `overlay overlay--${params.layout} overlay--${params.theme}`;
  if (!view) {
    // Say nothing on stream while connecting; a failed token is worth one small line for the streamer.
    return (
      <div className={className} style={style} data-testid="overlay" data-status={status}>
        {status === 'failed' && <div className="overlay__stack"><div className="overlay__panel">Overlay: cannot open table (check the token)</div></div>}
      </div>
    );
  }
  const totals = new Map(view.matchTotals.map((entry) => [entry.id, entry.total]));
  const caller = view.calledBy ? names.get(view.calledBy) ?? view.calledBy : null;

  return (
    <div className={className} style={style} data-testid="overlay" data-status={status}>
      <div className="overlay__stack">
        {view.phase === 'called' && (
          <div className="overlay__panel overlay__call" role="status">NERTS! {caller ? `${caller} called` : ''}</div>
        )}
        <div className="overlay__panel overlay__header">
          <span>Hand {view.hand || '–'}{view.phase === 'scored' ? ' · scored' : ''}</span>
          <span>Centre {view.centreTotal}</span>
          <span>To {view.target}</span>
          {view.matchWinner && <span style={{ color: 'var(--ov-accent)' }}>{names.get(view.matchWinner) ?? view.matchWinner} wins!</span>}
        </div>
        <div className="overlay__board" data-testid="overlay-board">
          {[...view.players].sort((a, b) => a.seat - b.seat).map((player) => (
            <div key={player.id} className="overlay__panel overlay__player" style={{ ['--seat' as string]: seatColour(player.seat) }} data-player={player.id}>
              <Card back backColour={seatColour(player.seat)} size="xs" title={`${player.name}'s deck`} />
              <span className="overlay__name">
                {player.name}
                <span className="overlay__sub">centre {player.centreCards}{params.totals ? ` · total ${totals.get(player.team ?? player.id) ?? 0}` : ''}</span>
              </span>
              <span className={`overlay__nerts${player.nertsLeft === 0 ? ' overlay__nerts--zero' : ''}`} data-testid="overlay-nerts">{player.nertsLeft}</span>
              <span className="overlay__sub" style={{ writingMode: 'vertical-rl', transform: 'rotate(180deg)' }}>left</span>
            </div>
          ))}
        </div>
        {params.ticker && (
          <ol className="overlay__panel overlay__ticker" aria-label="Latest plays" style={{ listStyle: 'none', margin: 0 }} data-testid="overlay-ticker">
            {plays.length === 0 ? <li>Waiting for the first play…</li> : plays.map((line, index) => (
              <li key={`${line.seq}-${index}`}>
                {line.card && <Card code={line.card} size="xs" />}
                {line.text}
              </li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}
