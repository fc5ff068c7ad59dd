/**
 * Setup: the table's seats, players, teams and rules; where frames come from; each player's
 * deck back enrolled from the camera; and calibration by clicking the table corners and the
 * centre on the live image, with the recognised cards drawn over it to confirm.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { MAX_BACK_VIEWS, type Calibration } from '../../../server/protocol';
import { DetectionLayer, type MarkedPoint } from '../components/DetectionLayer';
import { SetupFields } from '../components/SetupFields';
import { RefereeTokenForm } from '../components/RefereeTokenForm';
import { Card } from '../components/Card';
import { api, ApiError, tableResourceUrl } from '../lib/api';
import { buildCalibration, defaultCalibration, zonesInImage } from '../lib/calibration';
import { draftFromTable, draftToUpdateSetup, type SetupDraft } from '../lib/setupForm';
import { seatColour } from '../lib/format';
import type { Pt } from '../lib/homography';
import { routePath } from '../lib/routes';
import { Link } from '../lib/router';
import { tokenFor } from '../lib/tokens';
import { useTable } from '../lib/useLiveTable';
import { useNow } from '../lib/useNow';
import { useRefereeAction } from '../lib/useRefereeAction';

/** Click order for calibration: the points every calibration needs; then, optionally, each seat's Nerts pile (seat 1 first). */
const CLICK_STEPS = ['top-left corner', 'top-right corner', 'bottom-right corner', 'bottom-left corner', 'centre of play'] as const;
const POINT_LABELS = ['TL', 'TR', 'BR', 'BL', 'centre'];
const REQUIRED_POINTS = CLICK_STEPS.length;

/** The setup page. */
export function SetupPage() {
  const { tableId, live, tokens, setObservationsWanted } = useTable();
  const { table } = live;
  const refereeToken = tokenFor(tokens, 'referee');
  const { busy, error, run } = useRefereeAction();
  // Enrolment and calibration draw the recognised cards: ask for them while this page is open.
  useEffect(() => {
    setObservationsWanted(true);
    return () => setObservationsWanted(false);
  }, [setObservationsWanted]);
  if (!table) return <main className="page"><p className="muted" role="status">Waiting for the table…</p></main>;
  return (
    <main className="page stack" data-testid="setup">
      <h1>Setup · {table.name}</h1>
      {!refereeToken && <RefereeTokenForm />}
      <div className="grid grid--2">
        <section className="panel" aria-labelledby="seats-heading">
          <h2 id="seats-heading">Seats and rules</h2>
          <SetupEditForm />
          <div className="row">
            <span>Frames from: <strong data-testid="source">{table.source === 'sim' ? 'the simulated table' : 'a camera'}</strong></span>
            {refereeToken && (
              <button type="button" disabled={busy} onClick={() => run(() => api.setSource(tableId, refereeToken, table.source === 'sim' ? 'camera' : 'sim'))}>
                Switch to {table.source === 'sim' ? 'a camera' : 'the simulator'}
              </button>
            )}
            {tokens.camera && (
              <Link href={`${routePath({ page: 'camera', tableId })}?token=${encodeURIComponent(tokens.camera)}`}>Open the camera page</Link>
            )}
          </div>
          {error && <p className="error" role="alert">{error}</p>}
        </section>
        <EnrolmentPanel />
        <FaceEnrolmentPanel />
      </div>
      <CalibrationPanel />
    </main>
  );
}

/**
 * The table's seats and rules as the create form's fields: editable and saved between hands by
 * a referee, read-only (disabled) for anyone else. Live table updates refill it unless edited.
 */
function SetupEditForm() {
  const { tableId, live, tokens } = useTable();
  const table = live.table!;
  const refereeToken = tokenFor(tokens, 'referee');
  const { busy, error, run } = useRefereeAction();
  const [draft, setDraft] = useState<SetupDraft>(() => draftFromTable(table));
  const [edited, setEdited] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  // Refill from live table updates while unedited. This is done while rendering, not in an
  // effect: an effect scheduled before the first keystroke would run after it and overwrite it.
  const [draftSource, setDraftSource] = useState(table);
  if (!edited && draftSource !== table) {
    setDraftSource(table);
    setDraft(draftFromTable(table));
  }
  const phase = live.view?.phase;
  const handInProgress = phase === 'playing' || phase === 'called';
  const readOnly = !refereeToken;

  const change = (next: (current: SetupDraft) => SetupDraft): void => {
    setDraft(next);
    setEdited(true);
    setSaved(false);
  };
  const save = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const { body, errors } = draftToUpdateSetup(draft);
    setProblems(errors);
    if (!body || !refereeToken) return;
    const answer = await run(() => api.updateSetup(tableId, refereeToken, body));
    if (answer) {
      setEdited(false);
      setSaved(true);
    }
  };

  return (
    <form className="stack" onSubmit={save} aria-label="Seats and rules" noValidate data-testid="setup-form">
      {readOnly && <p className="small muted" style={{ margin: 0 }}>View only: open the referee link to change the setup.</p>}
      {!readOnly && handInProgress && <p className="small" role="status" style={{ margin: 0 }}>A hand is in progress: changes can be saved once it is scored, and apply from the next hand.</p>}
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }} className="stack">
        <SetupFields draft={draft} onChange={change} />
      </fieldset>
      {(problems.length > 0 || error) && (
        <ul className="error" role="alert" data-testid="setup-errors">
          {problems.map((problem) => <li key={problem}>{problem}</li>)}
          {error && <li>{error}</li>}
        </ul>
      )}
      {!readOnly && (
        <div className="row">
          <button type="submit" className="primary" disabled={busy || !edited}>{busy ? 'Saving…' : 'Save setup'}</button>
          {edited && <button type="button" onClick={() => { setEdited(false); setProblems([]); setDraft(draftFromTable(table)); setDraftSource(table); }}>Discard changes</button>}
          {saved && <span className="small" role="status">Saved: applies from the next hand.</span>}
        </div>
      )}
    </form>
  );
}

function EnrolmentPanel() {
  const { tableId, live, tokens } = useTable();
  const table = live.table!;
  const refereeToken = tokenFor(tokens, 'referee');
  const viewToken = tokenFor(tokens, 'view');
  const { busy, error, run } = useRefereeAction();
  const [done, setDone] = useState<string | null>(null);
  // Bumped by each enrolment: a view's address stays the same when the oldest is dropped.
  const [revision, setRevision] = useState(0);
  const decks = useMemo(() => {
    const byDeck = new Map<string, { deckId: string; seat: number; names: string[] }>();
    for (const seat of table.seats) {
      const entry = byDeck.get(seat.deckId) ?? { deckId: seat.deckId, seat: seat.seat, names: [] };
      entry.names.push(seat.name);
      byDeck.set(seat.deckId, entry);
    }
    return [...byDeck.values()];
  }, [table.seats]);
  const backsSeen = new Set((live.observations?.cards ?? []).filter((card) => card.kind === 'back').map((card) => card.backId));
  return (
    <section className="panel stack" aria-labelledby="enrol-heading">
      <h2 id="enrol-heading">Deck backs</h2>
      <p className="small muted" style={{ margin: 0 }}>
        Hold one card of the deck face down, flat, in the middle of the camera’s view, then press its button. A few views help (the card
        moved about the table, turned, nearer and farther); the newest {MAX_BACK_VIEWS} are kept. A view taken badly: start over.
      </p>
      <ul className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {decks.map((deck) => {
          const enrolled = table.enrolledDecks.includes(deck.deckId);
          const views = table.backViews?.[deck.deckId] ?? 0;
          const enrol = async (replace: boolean) => {
            setDone(null);
            const result = await run(() => api.enrollDeck(tableId, refereeToken, deck.deckId, replace));
            setRevision((r) => r + 1);
            if (result !== undefined) setDone(`${replace || !enrolled ? 'Enrolled' : 'Added a view of'} ${deck.names.join(' & ')}’s back.`);
          };
          return (
            <li key={deck.deckId} className="stack deck-backs__deck">
              <span className="row">
                <Card back backColour={seatColour(deck.seat)} size="xs" />
                <span>{deck.names.join(' & ')} <code className="small">{deck.deckId}</code></span>
                {enrolled ? <span className="pill pill--ok">enrolled{views > 0 && ` · ${views} ${views === 1 ? 'view' : 'views'}`}</span> : <span className="pill pill--warn">not enrolled</span>}
                {backsSeen.has(deck.deckId) && <span className="pill pill--ok">seen now</span>}
              </span>
              {views > 0 && (
                <span className="row" aria-label={`${deck.names.join(' & ')}’s enrolled views`}>
                  {Array.from({ length: views }, (_, k) => (
                    <img key={k} className="back-view" alt={`${deck.names.join(' & ')}’s back, view ${k + 1}`}
                      src={tableResourceUrl(tableId, `decks/${encodeURIComponent(deck.deckId)}/views/${k}`, viewToken, { r: String(revision) })} />
                  ))}
                </span>
              )}
              {refereeToken && (
                <span className="row">
                  <button type="button" disabled={busy} onClick={() => enrol(false)}
                    title={views >= MAX_BACK_VIEWS ? `Replaces the oldest of the ${MAX_BACK_VIEWS} views` : undefined}>
                    {enrolled ? 'Add a view' : 'Enrol back'}
                  </button>
                  {enrolled && <button type="button" disabled={busy} onClick={() => enrol(true)}>Start over</button>}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {error && <p className="error" role="alert">{error}</p>}
      {done && <p className="notice" role="status">{done}</p>}
    </section>
  );
}

const FACE_CODES = ['S', 'H', 'D', 'C'].flatMap((suit) => ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'].map((rank) => rank + suit));

/** Enrols a face card that the camera reads badly (a deck with unusual faces): a few views per card help. */
function FaceEnrolmentPanel() {
  const { tableId, live, tokens } = useTable();
  const refereeToken = tokenFor(tokens, 'referee');
  const { busy, error, run } = useRefereeAction();
  const [code, setCode] = useState('AS');
  const [done, setDone] = useState<string | null>(null);
  if (!refereeToken) return null;
  const faces = (live.observations?.cards ?? []).filter((card) => card.kind === 'face');
  const enrolled = Object.entries(live.table?.faceViews ?? {});
  return (
    <section className="panel stack" aria-labelledby="face-enrol-heading">
      <h2 id="face-enrol-heading">Cards that read badly</h2>
      <p className="small muted" style={{ margin: 0 }}>
        If the camera names a card of one deck wrongly, hold that card face up in the middle of the view, pick what it really is, and press Enrol. A few views of a card (turned, nearer, farther) help most; the newest 5 are kept. A card enrolled as the wrong one: forget it.
      </p>
      <div className="row">
        <label className="row">
          <span>The card shown is</span>
          <select value={code} onChange={(event) => setCode(event.target.value)} aria-label="Card shown">
            {FACE_CODES.map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
        </label>
        <button type="button" disabled={busy}
          onClick={async () => {
            setDone(null);
            const result = await run(() => api.enrollFace(tableId, refereeToken, code));
            if (result !== undefined) setDone(`Enrolled a view of ${code}.`);
          }}>
          Enrol card
        </button>
        <span className="small muted">{faces.length > 0 ? `${faces.length} face card${faces.length === 1 ? '' : 's'} seen now` : 'no face card seen now'}</span>
      </div>
      {enrolled.length > 0 && (
        <ul className="stack" aria-label="Enrolled cards" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {enrolled.map(([enrolledCode, views]) => (
            <li key={enrolledCode} className="row row--between">
              <span><strong>{enrolledCode}</strong> <span className="small muted">{views} {views === 1 ? 'view' : 'views'}</span></span>
              <button type="button" disabled={busy} aria-label={`Forget ${enrolledCode}`}
                onClick={async () => {
                  setDone(null);
                  const result = await run(() => api.forgetFace(tableId, refereeToken, enrolledCode));
                  if (result !== undefined) setDone(`Forgot ${enrolledCode}.`);
                }}>
                Forget
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && <p className="error" role="alert">{error}</p>}
      {done && <p className="notice" role="status">{done}</p>}
    </section>
  );
}

function CalibrationPanel() {
  const { tableId, live, tokens } = useTable();
  const table = live.table!;
  const viewToken = tokenFor(tokens, 'view');
  const refereeToken = tokenFor(tokens, 'referee');
  const [points, setPoints] = useState<Pt[]>([]);
  const [tableWidth, setTableWidth] = useState('1200');
  const [tableHeight, setTableHeight] = useState('800');
  const [imageSize, setImageSize] = useState<{ width: number; height: number } | null>(null);
  const [imageError, setImageError] = useState(false);
  const [saved, setSaved] = useState<Calibration | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [paused, setPaused] = useState(false);
  const { busy, error, run } = useRefereeAction();
  const now = useNow(1000, !paused);

  useEffect(() => {
    if (!viewToken) return;
    api.getCalibration(tableId, viewToken).then(
      (calibration) => {
        setSaved(calibration);
        setTableWidth(String(calibration.tableWidthMm));
        setTableHeight(String(calibration.tableHeightMm));
      },
      (failure: unknown) => {
        if (!(failure instanceof ApiError && failure.status === 404)) setProblem(`Could not load the calibration: ${String((failure as Error).message)}`);
      },
    );
  }, [tableId, viewToken]);

  const frameUrl = tableResourceUrl(tableId, 'frame.jpg', viewToken, { t: String(Math.floor(now / 1000)) });
  // After the table, the Nerts piles: the tracker counts a player's Nerts cards only on a marked pile.
  const steps = [...CLICK_STEPS, ...table.seats.map((seat, index) => `seat ${index + 1} (${seat.name}) Nerts pile`)];
  const labels = [...POINT_LABELS, ...table.seats.map((_, index) => `N${index + 1}`)];
  const marked: MarkedPoint[] = points.length
    ? points.map(([x, y], index) => ({ x, y, label: labels[index] }))
    : saved
      ? saved.imageCorners.map(([x, y], index) => ({ x, y, label: POINT_LABELS[index] }))
      : [];
  const nextStep = points.length < steps.length ? steps[points.length] : null;
  const optionalStep = points.length >= REQUIRED_POINTS;
  const savedPiles = saved ? saved.zones.filter((zone) => zone.kind === 'nerts').length : 0;

  const save = async (): Promise<void> => {
    if (!imageSize || points.length < REQUIRED_POINTS) return;
    const result = buildCalibration({
      imageWidth: imageSize.width,
      imageHeight: imageSize.height,
      corners: [points[0], points[1], points[2], points[3]],
      centre: points[4],
      tableWidthMm: Number(tableWidth),
      tableHeightMm: Number(tableHeight),
      seatCount: table.seats.length,
      nertsPiles: points.slice(REQUIRED_POINTS),
    });
    if ('error' in result) return setProblem(result.error);
    setProblem(null);
    const response = await run(() => api.putCalibration(tableId, refereeToken, result.calibration));
    if (response !== undefined) {
      setSaved(result.calibration);
      setPoints([]);
    }
  };

  return (
    <section className="panel stack" aria-labelledby="calibrate-heading">
      <div className="row row--between">
        <h2 id="calibrate-heading" style={{ margin: 0 }}>Calibration</h2>
        {table.calibrated || saved ? <span className="pill pill--ok">calibrated</span> : <span className="pill pill--warn">default layout</span>}
      </div>
      {!(table.calibrated || saved) && (
        <p className="notice notice--warn small" style={{ margin: 0 }} role="status" data-testid="default-layout">
          Not calibrated yet: the table is refereed with the default layout (the whole camera image is the table, a centre zone in the middle,
          seat zones round the edges, seat 1 at the bottom then clockwise), drawn on the image. Calibrate for zones that fit your table.
        </p>
      )}
      <p className="small" style={{ margin: 0 }} aria-live="polite">
        {saved && points.length === 0 && <>The saved calibration and its zones are drawn on the image ({savedPiles} of {table.seats.length} Nerts piles marked). To redo it, </>}
        {nextStep && !optionalStep && <>{saved && points.length === 0 ? 'click' : 'Click'} the table’s <strong>{nextStep}</strong> on the image ({points.length + 1} of {REQUIRED_POINTS}).</>}
        {nextStep && optionalStep && <>Now click each player’s Nerts pile, so their Nerts cards are counted and the call is seen: the <strong>{nextStep}</strong> ({points.length - REQUIRED_POINTS + 1} of {table.seats.length}). Or save now without them.</>}
        {!nextStep && 'All points set: check the outline and the cards drawn over the image, then save.'}
      </p>
      <div className="video-wrap" style={{ maxWidth: 960 }}>
        {viewToken && (
          // Reloads every second (the URL changes); a failed load keeps the last good image hidden behind the notice.
          <img src={frameUrl} alt="Latest camera frame" style={imageError && !imageSize ? { display: 'none' } : undefined}
            onLoad={(e) => {
              setImageError(false);
              setImageSize({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight });
            }}
            onError={() => setImageError(true)} />
        )}
        {(!viewToken || (imageError && !imageSize)) && (
          <p style={{ color: '#fff', padding: '2rem', margin: 0 }} role="status">No frame yet: start the camera (or the simulator) for this table. This image retries every second.</p>
        )}
        {imageSize && (
          <DetectionLayer frame={live.observations} width={imageSize.width} height={imageSize.height} points={marked} outline
            zones={points.length > 0 ? [] : saved ? zonesInImage(saved) : table.calibrated ? [] : zonesInImage(defaultCalibration(imageSize.width, imageSize.height, table.seats.length))}
            onPick={refereeToken && nextStep ? (x, y) => setPoints((current) => [...current, [x, y]]) : undefined} />
        )}
      </div>
      <PointEntry nextStep={nextStep} imageSize={imageSize} onAdd={(point) => setPoints((current) => [...current, point])} disabled={!refereeToken} />
      <div className="form-grid">
        <div className="field">
          <label htmlFor="table-width">Table width (mm)</label>
          <input id="table-width" inputMode="numeric" value={tableWidth} onChange={(e) => setTableWidth(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="table-height">Table depth (mm)</label>
          <input id="table-height" inputMode="numeric" value={tableHeight} onChange={(e) => setTableHeight(e.target.value)} />
        </div>
      </div>
      <div className="row">
        <button type="button" className="primary" disabled={!refereeToken || busy || points.length < REQUIRED_POINTS || !imageSize} onClick={save}>Save calibration</button>
        <button type="button" disabled={points.length === 0} onClick={() => setPoints((current) => current.slice(0, -1))}>Undo last point</button>
        <button type="button" disabled={points.length === 0} onClick={() => setPoints([])}>Start over</button>
        <button type="button" onClick={() => setPaused((value) => !value)} aria-pressed={paused}>{paused ? 'Resume live image' : 'Freeze image'}</button>
      </div>
      {(problem || error) && <p className="error" role="alert">{problem ?? error}</p>}
    </section>
  );
}

/** Keyboard (and precise) alternative to clicking: type the next point's pixel coordinates. */
function PointEntry({ nextStep, imageSize, onAdd, disabled }: { nextStep: string | null; imageSize: { width: number; height: number } | null; onAdd: (point: Pt) => void; disabled: boolean }) {
  const [x, setX] = useState('');
  const [y, setY] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  if (!nextStep) return null;
  return (
    <form className="row small" onSubmit={(event) => {
      event.preventDefault();
      const px = Number(x);
      const py = Number(y);
      const inside = imageSize && px >= 0 && py >= 0 && px <= imageSize.width && py <= imageSize.height;
      if (x.trim() === '' || y.trim() === '' || !Number.isFinite(px) || !Number.isFinite(py) || !inside) {
        setProblem(imageSize ? `Enter pixels inside the ${imageSize.width} × ${imageSize.height} image.` : 'Wait for an image first.');
        return;
      }
      setProblem(null);
      onAdd([Math.round(px), Math.round(py)]);
      setX('');
      setY('');
    }}>
      <span>Or type the {nextStep}:</span>
      <label htmlFor="point-x">x (px)</label>
      <input id="point-x" inputMode="numeric" value={x} onChange={(e) => setX(e.target.value)} style={{ width: '6rem' }} />
      <label htmlFor="point-y">y (px)</label>
      <input id="point-y" inputMode="numeric" value={y} onChange={(e) => setY(e.target.value)} style={{ width: '6rem' }} />
      <button type="submit" disabled={disabled}>Add point</button>
      {problem && <span className="error" role="alert">{problem}</span>}
    </form>
  );
}
