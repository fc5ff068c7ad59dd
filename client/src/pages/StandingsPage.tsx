/**
 * Standings: cumulative scores hand by hand as a chart with the target line, the match history
 * table, and CSV/JSON export.
 */
import { useEffect, useMemo, useState } from 'react';
import { api, ApiError, tableResourceUrl } from '../lib/api';
import { playerNames, seatColour } from '../lib/format';
import { chartLayout, chartPoint, normalizeHistory, totalsPath, yTicks, type MatchHistory } from '../lib/standings';
import { tokenFor } from '../lib/tokens';
import { useTable } from '../lib/useLiveTable';

/** The standings page. */
export function StandingsPage() {
  const { tableId, live, tokens } = useTable();
  const { table, view } = live;
  const viewToken = tokenFor(tokens, 'view');
  const [matches, setMatches] = useState<MatchHistory[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const scoredKey = `${view?.hand ?? 0}-${view?.phase ?? ''}-${live.events.filter((entry) => entry.event.type === 'correction').length}`;

  useEffect(() => {
    if (!viewToken) return;
    api.history(tableId, viewToken).then(
      (json) => {
        setMatches(normalizeHistory(json));
        setProblem(null);
      },
      (error: unknown) => setProblem(error instanceof ApiError ? error.message : String(error)),
    );
  }, [tableId, viewToken, scoredKey]);

  const names = useMemo(() => playerNames(table, view), [table, view]);
  const colourOf = (id: string): string => {
    const seat = table?.seats.find((entry) => entry.playerId === id || entry.team === id);
    return seatColour(seat?.seat ?? 0);
  };
  const nameOf = (id: string): string => {
    const teamMembers = table?.seats.filter((entry) => entry.team === id).map((entry) => entry.name) ?? [];
    return names.get(id) ?? (teamMembers.length ? `${id} (${teamMembers.join(' & ')})` : id);
  };

  return (
    <main className="page stack" data-testid="standings">
      <div className="row row--between">
        <h1>Standings</h1>
        <div className="row">
          <a className="button" href={tableResourceUrl(tableId, 'history.csv', viewToken)} download={`nerts-${tableId}.csv`}>Export CSV</a>
          <a className="button" href={tableResourceUrl(tableId, 'history.json', viewToken)} download={`nerts-${tableId}.json`}>Export JSON</a>
        </div>
      </div>
      {problem && <p className="error" role="alert">{problem}</p>}
      {matches === null && !problem && <p className="muted" role="status">Loading history…</p>}
      {matches?.length === 0 && <p className="panel muted">No hands scored yet.</p>}
      {matches && [...matches].reverse().map((match, index) => (
        <MatchSection key={match.id} match={index === 0 && !match.winner && view?.matchWinner ? { ...match, winner: view.matchWinner } : match} current={index === 0} target={match.target ?? table?.target ?? view?.target ?? null} nameOf={nameOf} colourOf={colourOf} />
      ))}
    </main>
  );
}

function MatchSection({ match, current, target, nameOf, colourOf }: {
  match: MatchHistory; current: boolean; target: number | null; nameOf: (id: string) => string; colourOf: (id: string) => string;
}) {
  const last = match.hands[match.hands.length - 1];
  const ranking = [...match.ids].sort((a, b) => (last?.totals[b] ?? 0) - (last?.totals[a] ?? 0));
  return (
    <section className="panel stack" aria-labelledby={`match-${match.id}`} data-match={match.id}>
      <div className="row row--between">
        <h2 id={`match-${match.id}`} style={{ margin: 0 }}>{current ? 'This match' : `Match ${match.id}`}</h2>
        {match.winner ? <span className="pill pill--ok">Won by {nameOf(match.winner)}</span> : <span className="pill pill--plain">{match.hands.length} hand{match.hands.length === 1 ? '' : 's'}</span>}
      </div>
      {match.hands.length > 0 && <TotalsChart match={match} target={target} nameOf={nameOf} colourOf={colourOf} />}
      <div className="table-scroll">
        <table className="data" data-testid="history-table">
          <caption className="visually-hidden">Scores by hand; totals in brackets</caption>
          <thead>
            <tr>
              <th scope="col">Hand</th>
              {ranking.map((id) => <th key={id} scope="col" className="num">{nameOf(id)}</th>)}
            </tr>
          </thead>
          <tbody>
            {match.hands.map((hand) => (
              <tr key={hand.hand}>
                <th scope="row">{hand.hand}{hand.caller ? <span className="muted small"> · {nameOf(hand.caller)} called</span> : null}</th>
                {ranking.map((id) => (
                  <td key={id} className="num">
                    {hand.scores[id] === undefined ? '–' : hand.scores[id] > 0 ? `+${hand.scores[id]}` : hand.scores[id]}{' '}
                    <span className="muted">({hand.totals[id] ?? 0})</span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function TotalsChart({ match, target, nameOf, colourOf }: { match: MatchHistory; target: number | null; nameOf: (id: string) => string; colourOf: (id: string) => string }) {
  const layout = chartLayout(match, target);
  const { width, height, padding } = layout;
  const summary = match.ids.map((id) => `${nameOf(id)} ${match.hands[match.hands.length - 1]?.totals[id] ?? 0}`).join(', ');
  return (
    <figure style={{ margin: 0 }}>
      <svg className="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`Running totals after ${match.hands.length} hands: ${summary}${target !== null ? `; target ${target}` : ''}`} data-testid="standings-chart">
        {yTicks(layout).map((tick) => {
          const [, y] = chartPoint(layout, 0, tick);
          return (
            <g key={tick}>
              <line x1={padding.left} x2={width - padding.right} y1={y} y2={y} stroke="currentColor" strokeOpacity={tick === 0 ? 0.4 : 0.12} />
              <text x={padding.left - 6} y={y + 4} textAnchor="end">{tick}</text>
            </g>
          );
        })}
        {Array.from({ length: layout.handCount + 1 }, (_, index) => {
          const [x] = chartPoint(layout, index, 0);
          return <text key={index} x={x} y={height - 10} textAnchor="middle">{index}</text>;
        })}
        {target !== null && (() => {
          const [, y] = chartPoint(layout, 0, target);
          return (
            <g>
              <line x1={padding.left} x2={width - padding.right} y1={y} y2={y} stroke="#c0262d" strokeDasharray="6 4" strokeWidth={1.5} />
              <text x={width - padding.right} y={y - 5} textAnchor="end" style={{ fill: '#c0262d' }}>target {target}</text>
            </g>
          );
        })()}
        {match.ids.map((id) => (
          <g key={id}>
            <path d={totalsPath(layout, match, id)} fill="none" stroke={colourOf(id)} strokeWidth={2.5} strokeLinejoin="round" />
            {match.hands.map((hand, index) => {
              const [x, y] = chartPoint(layout, index + 1, hand.totals[id] ?? 0);
              return <circle key={hand.hand} cx={x} cy={y} r={3.5} fill={colourOf(id)} />;
            })}
          </g>
        ))}
      </svg>
      <figcaption className="legend">
        {match.ids.map((id) => (
          <span key={id}><span className="player__swatch" style={{ background: colourOf(id) }} aria-hidden="true" />{nameOf(id)}</span>
        ))}
        <span className="muted small">x: hands played · y: running total</span>
      </figcaption>
    </figure>
  );
}
