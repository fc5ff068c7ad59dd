/**
 * Score sort (end of hand): per player the centre cards, Nerts penalty, bonus, hand score,
 * match total and ranking; referee corrections with a reason, kept in the log and listed here.
 * While the players sort the centre cards by back, the camera's count of each deck's backs
 * stands next to the credited centre cards, with a one-click correction to adopt it.
 */
import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { LoggedEvent, ScoreRow, TableView } from '../../../server/protocol';
import type { CardCode } from '../../../server/game/cards';
import { cardName, cardShort } from '../lib/cardNames';
import { PlayerChip } from '../components/PlayerChip';
import { RefereeTokenForm } from '../components/RefereeTokenForm';
import { api } from '../lib/api';
import { playerNames } from '../lib/format';
import { tokenFor } from '../lib/tokens';
import { useTable } from '../lib/useLiveTable';
import { useRefereeAction } from '../lib/useRefereeAction';
import { cameraCorrection, cameraCorrections, cameraCountOf, cameraMismatches, correctionsOf, penaltyOf, unsureCentreOf, type CameraCount } from '../lib/scoreSort';

/** The score sort page. */
export function ScoreSortPage() {
  const { tableId, live, tokens } = useTable();
  const { view, table } = live;
  const names = useMemo(() => playerNames(table, view), [table, view]);
  const viewToken = tokenFor(tokens, 'view');
  const isReferee = Boolean(tokenFor(tokens, 'referee'));
  const [history, setHistory] = useState<LoggedEvent[]>([]);
  const correctionCount = live.events.filter((entry) => entry.event.type === 'correction').length;

  // The full log for corrections older than the live window; refetched when a new one lands.
  useEffect(() => {
    if (!viewToken) return;
    api.events(tableId, viewToken, undefined, 1000).then(setHistory).catch(() => setHistory([]));
  }, [tableId, viewToken, correctionCount]);

  if (!view) return <main className="page"><p className="muted" role="status">Waiting for the table…</p></main>;
  const corrections = correctionsOf(history.length ? history : live.events, live.events);
  const seatOf = (id: string): number => view.players.find((player) => player.id === id)?.seat ?? 0;
  const teamOf = (id: string): string | undefined => view.players.find((player) => player.id === id)?.team;
  const cameraCounted = Boolean(view.backCheck);
  const mismatches = cameraMismatches(view);
  const cameraCell = (playerId: string) => cameraCounted && <CameraCountCell playerId={playerId} name={names.get(playerId) ?? playerId} count={cameraCountOf(view, playerId)} isReferee={isReferee} />;

  return (
    <main className="page stack" data-testid="score-sort">
      <div className="row row--between">
        <h1>Score sort · hand {view.hand || '–'}</h1>
        {view.scores && <span className="pill pill--ok">Scored</span>}
      </div>
      {!view.scores && <ProvisionalNotice view={view} isReferee={isReferee} />}
      <section className="panel table-scroll" aria-labelledby="scores-heading">
        <h2 id="scores-heading">{view.scores ? 'Hand scores' : 'Counts so far'}</h2>
        <table className="data" data-testid="score-table">
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Player</th>
              <th scope="col" className="num">Centre cards</th>
              {cameraCounted && <th scope="col">Camera (backs)</th>}
              <th scope="col" className="num">Nerts left</th>
              <th scope="col" className="num">Penalty</th>
              <th scope="col" className="num">Bonus</th>
              <th scope="col" className="num">Hand</th>
              <th scope="col" className="num">Total</th>
            </tr>
          </thead>
          <tbody>
            {view.scores
              ? [...view.scores].sort((a, b) => a.rank - b.rank).map((row) => (
                  <ScoreRowView key={row.player} row={row} name={names.get(row.player) ?? row.player} seat={seatOf(row.player)} team={row.team ?? teamOf(row.player)} unsure={unsureCentreOf(view, row.player)} camera={cameraCell(row.player)} />
                ))
              : [...view.players].sort((a, b) => b.centreCards - a.centreCards).map((player) => (
                  <tr key={player.id} data-player={player.id}>
                    <td>–</td>
                    <td><PlayerChip name={player.name} seat={player.seat} team={player.team} /></td>
                    <CentreCell count={player.centreCards} unsure={unsureCentreOf(view, player.id)} />
                    {cameraCell(player.id)}
                    <td className="num" data-testid="row-nerts-left">{player.nertsLeft}</td>
                    <td className="num">–</td>
                    <td className="num">–</td>
                    <td className="num">–</td>
                    <td className="num">{view.matchTotals.find((total) => total.id === (player.team ?? player.id))?.total ?? 0}</td>
                  </tr>
                ))}
          </tbody>
        </table>
        <p className="small muted">
          Sort the centre cards by back: each player’s pile should match “Centre cards”. If it does not, correct it below with the reason.
          {' '}Then deal each player’s cards out face down in front of them, apart from each other: the camera counts each deck’s backs it sees (a card under another hides its back; a stack counts as one) and flags a count that differs.
          {view.players.some((player) => (player.unsureCards ?? []).length > 0) && <> “Unsure” cards were credited on weak evidence of who played them: check those first.</>}
        </p>
        {cameraCounted && (
          <div className={mismatches ? 'notice notice--warn' : 'notice'} role="status" data-testid="camera-summary">
            {mismatches ? `The camera’s back count differs for ${mismatches} ${mismatches === 1 ? 'player' : 'players'}: check those piles.` : 'The camera’s back count agrees with every player’s centre cards.'}
            {isReferee && mismatches > 1 && <UseEveryCameraCount view={view} />}
          </div>
        )}
      </section>
      <div className="grid grid--2">
        {isReferee ? <CorrectionForm view={view} names={names} /> : <section className="panel"><h2>Correct a count</h2><RefereeTokenForm /></section>}
        <section className="panel" aria-labelledby="corrections-heading">
          <h2 id="corrections-heading">Corrections</h2>
          {corrections.length === 0 ? (
            <p className="muted small">No corrections.</p>
          ) : (
            <ul className="feed" data-testid="corrections">
              {corrections.map((correction) => (
                <li key={correction.seq}>
                  <span>
                    <strong>Hand {correction.hand}</strong> · {names.get(correction.player) ?? correction.player}:{' '}
                    {correction.centreCards !== undefined && <>centre cards → {correction.centreCards} </>}
                    {correction.nertsLeft !== undefined && <>Nerts left → {correction.nertsLeft} </>}
                    <em>“{correction.reason}”</em>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </main>
  );
}

/** A centre-card count, with the cards of it the camera credited on weak evidence of who played them (named, to find them in the sorted pile). */
function CentreCell({ count, unsure }: { count: number; unsure: CardCode[] }) {
  return (
    <td className="num" data-testid="row-centre">
      {count}
      {unsure.length > 0 && (
        <span className="hint" data-testid="row-unsure" title={`credited on weak evidence of who played them: ${unsure.map(cardName).join(', ')}`}>
          {' '}({unsure.length} unsure: {unsure.map(cardShort).join(' ')})
        </span>
      )}
    </td>
  );
}

function ScoreRowView({ row, name, seat, team, unsure, camera }: { row: ScoreRow; name: string; seat: number; team?: string; unsure: CardCode[]; camera: ReactNode }) {
  return (
    <tr data-player={row.player} className={row.rank === 1 ? 'winner' : undefined}>
      <td>{row.rank === 1 ? <span aria-label="first">★ 1</span> : row.rank}</td>
      <td><PlayerChip name={name} seat={seat} team={team} /></td>
      <CentreCell count={row.centreCards} unsure={unsure} />
      {camera}
      <td className="num" data-testid="row-nerts-left">{row.nertsLeft}</td>
      <td className="num">{penaltyOf(row) === 0 ? '0' : `−${penaltyOf(row)}`}</td>
      <td className="num">{row.bonus ? `+${row.bonus}` : '0'}</td>
      <td className="num" data-testid="row-hand-score"><strong>{row.handScore}</strong></td>
      <td className="num" data-testid="row-total">{row.total}</td>
    </tr>
  );
}

/** One click adopting every camera count that differs (lowered counts first, so the cards they free go to the raised ones). */
function UseEveryCameraCount({ view }: { view: TableView }) {
  const { tableId, tokens } = useTable();
  const { busy, error, run } = useRefereeAction();
  const adopt = async () => {
    for (const correction of cameraCorrections(view)) await api.correct(tableId, tokenFor(tokens, 'referee'), correction);
  };
  return (
    <>
      {' '}
      <button type="button" disabled={busy} onClick={() => run(adopt)}>Use every camera count</button>
      {error && <p className="error small" role="alert">{error}</p>}
    </>
  );
}

/** The camera's back count for one player: agreement or a mismatch marker, and (referees) a one-click correction adopting it. */
function CameraCountCell({ playerId, name, count, isReferee }: { playerId: string; name: string; count: CameraCount | null; isReferee: boolean }) {
  const { tableId, tokens } = useTable();
  const { busy, error, run } = useRefereeAction();
  if (!count) return <td data-testid="row-camera">–</td>;
  return (
    <td data-testid="row-camera" data-agrees={String(count.agrees)}>
      <span>camera counted <strong>{count.backsSeen}</strong> {count.backsSeen === 1 ? 'back' : 'backs'}</span>{' '}
      {count.agrees ? (
        <span className="pill pill--ok" aria-label="agrees with the centre cards">✓</span>
      ) : (
        <span className="pill pill--danger" data-testid="camera-mismatch">≠ mismatch</span>
      )}
      {isReferee && !count.agrees && (
        <>
          {' '}
          <button type="button" disabled={busy} aria-label={`Use camera count for ${name}`}
            onClick={() => run(() => api.correct(tableId, tokenFor(tokens, 'referee'), cameraCorrection(playerId, count)))}>
            Use camera count
          </button>
        </>
      )}
      {error && <p className="error small" role="alert">{error}</p>}
    </td>
  );
}

function ProvisionalNotice({ view, isReferee }: { view: TableView; isReferee: boolean }) {
  const { tableId, tokens } = useTable();
  const { busy, error, run } = useRefereeAction();
  return (
    <div className="notice notice--warn stack" role="status">
      <span>{view.phase === 'called' ? 'Play is frozen. Score the hand once the centre cards are sorted.' : 'The hand is not over yet: these are live counts.'}</span>
      {isReferee && view.phase !== 'setup' && (
        <div>
          <button type="button" className="primary" disabled={busy} onClick={() => run(() => api.endHand(tableId, tokenFor(tokens, 'referee')))}>
            End hand and score
          </button>
        </div>
      )}
      {error && <p className="error" role="alert">{error}</p>}
    </div>
  );
}

function CorrectionForm({ view, names }: { view: TableView; names: Map<string, string> }) {
  const { tableId, tokens } = useTable();
  const { busy, error, run } = useRefereeAction();
  const [player, setPlayer] = useState(view.players[0]?.id ?? '');
  const [centre, setCentre] = useState('');
  const [nertsLeft, setNertsLeft] = useState('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setDone(null);
    const centreValue = centre.trim() === '' ? undefined : Number(centre);
    const nertsValue = nertsLeft.trim() === '' ? undefined : Number(nertsLeft);
    if (centreValue === undefined && nertsValue === undefined) return setProblem('Enter a corrected centre count or Nerts count.');
    if ((centreValue !== undefined && !(Number.isInteger(centreValue) && centreValue >= 0)) || (nertsValue !== undefined && !(Number.isInteger(nertsValue) && nertsValue >= 0))) {
      return setProblem('Counts are whole numbers, 0 or more.');
    }
    if (!reason.trim()) return setProblem('Say why (kept in the log).');
    setProblem(null);
    const result = await run(() =>
      api.correct(tableId, tokenFor(tokens, 'referee'), {
        player,
        reason: reason.trim(),
        ...(centreValue !== undefined ? { centreCards: centreValue } : {}),
        ...(nertsValue !== undefined ? { nertsLeft: nertsValue } : {}),
      }),
    );
    if (result) {
      setDone(`Correction recorded for ${names.get(player) ?? player}.`);
      setCentre('');
      setNertsLeft('');
      setReason('');
    }
  };

  const current = view.players.find((entry) => entry.id === player);
  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="correct-heading" noValidate data-testid="correction-form">
      <h2 id="correct-heading">Correct a count</h2>
      <p className="small muted" style={{ margin: 0 }}>
        {view.phase === 'scored' ? 'This hand is scored: a correction re-scores it and updates the match totals.' : 'Sort the centre cards by back, count them, then fix any count the camera got wrong before scoring.'}
      </p>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="correct-player">Player</label>
          <select id="correct-player" value={player} onChange={(e) => setPlayer(e.target.value)}>
            {view.players.map((entry) => <option key={entry.id} value={entry.id}>{names.get(entry.id) ?? entry.id}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="correct-centre">Centre cards <span className="hint">now {current?.centreCards ?? '–'}</span></label>
          <input id="correct-centre" inputMode="numeric" value={centre} onChange={(e) => setCentre(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="correct-nerts">Nerts left <span className="hint">now {current?.nertsLeft ?? '–'}</span></label>
          <input id="correct-nerts" inputMode="numeric" value={nertsLeft} onChange={(e) => setNertsLeft(e.target.value)} />
        </div>
      </div>
      <div className="field">
        <label htmlFor="correct-reason">Reason</label>
        <input id="correct-reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} placeholder="e.g. one card hidden under the queen" />
      </div>
      {(problem || error) && <p className="error" role="alert">{problem ?? error}</p>}
      {done && <p role="status" className="notice">{done}</p>}
      <div><button type="submit" className="primary" disabled={busy}>Apply correction</button></div>
    </form>
  );
}
