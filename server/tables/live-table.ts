/**
 * A live table: the I/O shell around the pure tracker and rules reducer. It takes frames from
 * the camera socket or POST, hands them to the recognition pool, steps the tracker on each
 * result, applies the tracker's events to the rules state, logs them to SQLite and pushes them
 * to viewers. Viewers are fire-and-forget: a viewer whose socket is backed up is skipped.
 */
import { resolveVariant, tryResolveVariant, type VariantRules } from '../game/variants';
import type { RefereeState } from '../game/referee';
import type { CardObservation, FrameObservations } from '../vision/types';
import {
  MAX_BACK_VIEWS,
  MAX_FACE_VIEWS,
  PROTOCOL_VERSION,
  type LoggedEvent,
  type PipelineStats,
  type Role,
  type ServerMessage,
  type TableEvent,
  type TableInfo,
  type TableView,
  type Calibration,
  type FrameObservationsMessage,
} from '../protocol';
import { DEFAULT_TRACKER_TUNING, flushPending, initialTrackerState, step, markCalled, type TrackerConfig, type TrackerState } from '../tracker/tracker';
import type { PendingFrame, RecognitionPool, TableSink } from '../workers/pool';
import { applyRules, initialRulesState, toView, variantInput, type RulesContext, type RulesPlayer, type RulesState } from './rules';
import type { StoredTable, TableStore } from './store';
import type { CardCode } from '../game/cards';
import { PipelineCounters } from './stats';
import type { FrameHeader } from '../workers/frame-format';
import { addBackFrame, addPlayFrame, backCheck, initialBackCountState, type BackCheck, type BackCountState } from './back-count';
import { liesOnTable, TableBackground, thumbOf, type Thumb } from './table-background';
import { defaultCalibration, withZones, zoneLocator } from './zone-layout';
import type { Point, Quad } from '../geometry';
import { SortWholeReads } from './sort-reads';

/** During the score sort a frame's thumbnail (the bare-table check, table-background.ts) is decoded at most this often (camera time), ms. */
export const SORT_THUMB_EVERY_MS = 250;

/** The part of a ws WebSocket a table uses (ws ships no types here). */
export interface TableSocket {
  readonly readyState: number;
  readonly OPEN: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
type WebSocket = TableSocket;

/** A viewer's socket with what it asked for. */
interface Viewer {
  socket: WebSocket;
  role: Role;
  observations: boolean;
}

/** Bytes a viewer's socket may have queued before messages to it are skipped. */
const VIEWER_BACKLOG_BYTES = 1024 * 1024;
/** At most this many `observations` messages per second to a viewer. */
const OBSERVATIONS_PER_SECOND = 15;
/** Recent frames kept for evidence (disputes) and enrolment. */
const RECENT_FRAMES = 4;
/** `views` and one more, the newest `keep` of them. */
function withView(views: readonly Uint8Array[] | undefined, view: Uint8Array, keep: number): Uint8Array[] {
  return [...(views ?? []), view].slice(-keep);
}

/** A deck's back views after one more is shown: the newest `MAX_BACK_VIEWS`, or the new one alone when starting over. */
export function withBackView(views: readonly Uint8Array[] | undefined, view: Uint8Array, replace: boolean): Uint8Array[] {
  return withView(replace ? [] : views, view, MAX_BACK_VIEWS);
}

/** The full variant rules of a stored table (preset + knobs + target). */
export function variantOf(setup: StoredTable['setup']): VariantRules {
  const resolved = tryResolveVariant(variantInput(setup.variant, setup.knobs, setup.target));
  return resolved.ok ? resolved.rules : resolveVariant('nertz');
}

/** The rules context and tracker configuration a setup gives (seats, handicaps, variant). */
export function configsFor(tableId: string, setup: StoredTable['setup']): { context: RulesContext; trackerConfig: TrackerConfig } {
  const variant = variantOf(setup);
  const players: RulesPlayer[] = setup.seats.map((seat, index) => ({
    id: seat.playerId,
    name: seat.name,
    seat: index,
    ...(seat.team ? { team: seat.team } : {}),
    deckId: seat.deckId ?? `deck-${seat.playerId}`,
    nertsPileSize: seat.nertsPileSize ?? variant.nertsPileSize,
  }));
  const context: RulesContext = { tableId, players, variant: variantInput(setup.variant, setup.knobs, setup.target) };
  const trackerConfig: TrackerConfig = {
    ...DEFAULT_TRACKER_TUNING,
    disputeWindowMs: Math.min(DEFAULT_TRACKER_TUNING.disputeWindowMs, variant.disputeWindowMs),
    players: players.map((p) => ({ seat: p.seat, playerId: p.id, nertsPileSize: p.nertsPileSize })),
  };
  return { context, trackerConfig };
}

/** One table being refereed. */
export class LiveTable {
  readonly id: string;
  private context: RulesContext;
  private trackerConfig: TrackerConfig;
  private tracker: TrackerState;
  private rules: RulesState;
  private seq: number;
  private readonly recentEvents: LoggedEvent[] = [];
  private readonly viewers = new Set<Viewer>();
  private camera: WebSocket | null = null;
  private frameSeq = 0;
  private lastObservationsSentMs = 0;
  private lastFailureSentMs = 0;
  /** The latest frame's capture time (camera clock) and when it came (performance.now()), ms. */
  private lastCapture: { captureTimeMs: number; receivedAtMs: number } | null = null;
  private readonly recentFrames: Array<{ seq: number; image: Uint8Array; contentType: string }> = [];
  readonly counters = new PipelineCounters();
  /** The latest processed observations (for enrolment: which back was held up). */
  latestObservations: FrameObservations | null = null;
  /**
   * Listeners for the frames the tracker steps on, with what it is given (the benchmark records
   * them: `bench:referee -- --record FILE`, so a live run can be refereed again offline).
   */
  readonly trackerFrameListeners = new Set<(frame: { timeMs: number; observations: FrameObservations; wholeRead: boolean }) => void>();
  /** Backs the camera counts during the score sort (this hand's; not persisted: the camera can count again). */
  private backCount: BackCountState = initialBackCountState();
  /** The table's look during this hand's play, so the sort can tell backs dealt from the table itself (calibrated tables). */
  private background = new TableBackground();
  /** Score-sort frames wait here for their thumbnails, in order; `backCountHand` drops those of a hand gone. */
  private sortFrames: Promise<void> = Promise.resolve();
  /** This hand's latest score-sort thumbnail and its camera time (one serves the frames of SORT_THUMB_EVERY_MS). */
  private sortThumb: { timeMs: number; thumb: Promise<Thumb | null> } | null = null;
  private backCountHand = 0;
  /** Which score-sort frames are read whole (sort-reads.ts; on performance.now()). */
  private readonly sortReads = new SortWholeReads();
  /** The back check last pushed to viewers, as JSON (a new view goes out only when it changes). */
  private lastBackCheckSent = 'null';
  /** Zone lookup of the default layout for the current frame size and seat count (uncalibrated tables). */
  private defaultZones: { key: string; locate: (point: Point) => string | undefined } | null = null;

  constructor(
    private stored: StoredTable,
    private readonly store: TableStore,
    private readonly pool: RecognitionPool,
  ) {
    this.id = stored.id;
    // Resume: replay the log through the reducer; the tracker continues from its last snapshot.
    // Setup edits are in the log, so old hands replay with the seats and rules they were played with.
    const log = store.events(stored.id);
    const firstChange = log.find((entry) => entry.event.type === 'setup-changed')?.event;
    ({ context: this.context, trackerConfig: this.trackerConfig } = configsFor(stored.id, firstChange?.type === 'setup-changed' ? firstChange.previous : stored.setup));
    this.rules = initialRulesState();
    for (const entry of log) {
      if (entry.event.type === 'setup-changed') ({ context: this.context, trackerConfig: this.trackerConfig } = configsFor(stored.id, entry.event.setup));
      this.rules = applyRules(this.rules, entry.event, entry.timeMs, entry.seq, this.context).state;
    }
    // The stored setup is the truth for what comes next (also for logs from before setup edits existed).
    ({ context: this.context, trackerConfig: this.trackerConfig } = configsFor(stored.id, stored.setup));
    this.seq = log.length > 0 ? log[log.length - 1].seq + 1 : 0;
    this.recentEvents.push(...log.slice(-50));
    this.tracker = (stored.trackerSnapshot as TrackerState | null) ?? initialTrackerState(this.trackerConfig);
    pool.attach(this.id, this.sink);
    pool.setCalibration(this.id, stored.calibration);
    this.enrolmentsRestored = this.restoreEnrolments();
  }

  /** Settles when the backs and faces enrolled before a restart are enrolled again. */
  readonly enrolmentsRestored: Promise<void>;
  /** Why restoring an enrolment failed (the recogniser could not load), if it did. */
  enrolmentRestoreError: string | null = null;

  /** Each enrolled back's views, oldest first (the recogniser is enrolled from all of them at once). */
  private readonly backViews = new Map<string, Uint8Array[]>();
  /** Each enrolled face's views, oldest first (likewise). */
  private readonly faceViews = new Map<CardCode, Uint8Array[]>();

  private async restoreEnrolments(): Promise<void> {
    const enrolments = this.store.enrolments(this.id);
    for (const { kind, key, views } of enrolments) {
      if (kind === 'back') this.backViews.set(key, views.slice(-MAX_BACK_VIEWS));
      else this.faceViews.set(key as CardCode, views.slice(-MAX_FACE_VIEWS));
    }
    for (const { kind, key } of enrolments) {
      try {
        if (kind === 'back') await this.pool.enrollBack(this.id, key, this.backViews.get(key)!);
        else await this.pool.enrollFace(this.id, key as CardCode, this.faceViews.get(key as CardCode)!);
      } catch (error) {
        this.enrolmentRestoreError = `${kind} ${key}: ${(error as Error).message}`;
      }
    }
  }

  /**
   * Adds a view of a deck's back (an encoded crop of the back) and enrols the back anew from its
   * newest `MAX_BACK_VIEWS` views; `replace` starts over from this view. The views are kept for restarts.
   */
  async enrollBack(deckId: string, view: Uint8Array, { replace = false }: { replace?: boolean } = {}): Promise<void> {
    const views = withBackView(this.backViews.get(deckId), view, replace);
    await this.pool.enrollBack(this.id, deckId, views);
    this.backViews.set(deckId, views);
    this.store.saveEnrolment(this.id, 'back', deckId, view, views.length);
    // A deck already enrolled gets no enrolledDecks change; viewers still need the new view count.
    if (this.stored.enrolledDecks.includes(deckId)) this.broadcast({ type: 'table', table: this.info() });
    else this.markEnrolled(deckId);
  }

  /** View `index` (0 = oldest) a deck's back is enrolled from, as it was cropped, or null. */
  backView(deckId: string, index: number): Uint8Array | null {
    return this.backViews.get(deckId)?.[index] ?? null;
  }

  /**
   * Adds a view of a face that reads badly (an encoded crop of the card) and enrols the face anew
   * from its newest `MAX_FACE_VIEWS` views, kept for restarts.
   */
  async enrollFace(code: CardCode, view: Uint8Array): Promise<void> {
    const views = withView(this.faceViews.get(code), view, MAX_FACE_VIEWS);
    await this.pool.enrollFace(this.id, code, views);
    this.faceViews.set(code, views);
    this.store.saveEnrolment(this.id, 'face', code, view, views.length);
    this.broadcast({ type: 'table', table: this.info() });
  }

  /** Forgets an enrolled face (enrolled as the wrong card, or no longer needed); false when it was not enrolled. */
  async forgetFace(code: CardCode): Promise<boolean> {
    if (!this.faceViews.has(code)) return false;
    await this.pool.enrollFace(this.id, code, []);
    this.faceViews.delete(code);
    this.store.deleteEnrolment(this.id, 'face', code);
    this.broadcast({ type: 'table', table: this.info() });
    return true;
  }

  /** The public description (no tokens). */
  info(): TableInfo {
    const { setup } = this.stored;
    return {
      id: this.id,
      name: setup.name,
      seats: setup.seats.map((seat, index) => ({ ...seat, seat: index, deckId: seat.deckId ?? `deck-${seat.playerId}` })),
      variant: setup.variant,
      knobs: setup.knobs,
      target: setup.target,
      source: this.stored.source,
      calibrated: this.stored.calibration !== null,
      zoneLayout: this.stored.calibration !== null ? 'calibrated' : 'default',
      enrolledDecks: this.stored.enrolledDecks,
      backViews: Object.fromEntries([...this.backViews].map(([deckId, views]) => [deckId, views.length])),
      faceViews: Object.fromEntries([...this.faceViews].map(([code, views]) => [code, views.length])),
      createdAtMs: this.stored.createdAtMs,
    };
  }

  /** Tokens of this table. */
  get tokens(): StoredTable['tokens'] {
    return this.stored.tokens;
  }

  /** Current calibration, if set. */
  get calibration(): Calibration | null {
    return this.stored.calibration;
  }

  /** Where frames come from. */
  get source(): StoredTable['source'] {
    return this.stored.source;
  }

  /** The live view (rules state shaped for viewers), with the camera's back check during and after the score sort. */
  view(): TableView {
    const view = toView(this.rules, this.context);
    const check = this.backCheckFor(view);
    return check ? { ...view, backCheck: check } : view;
  }

  private backCheckFor(view: TableView): BackCheck | null {
    return backCheck(this.backCount, view.players.map((player) => ({ id: player.id, deckId: player.deckId, centreCards: player.centreCards })));
  }

  /** Pipeline counters now. */
  stats(): PipelineStats {
    return this.counters.snapshot();
  }

  /** The rules engine's state (benchmark comparison, tests). */
  get refereeState(): RefereeState {
    return this.rules.referee;
  }

  // ------------------------------------------------------------------ frames

  /** Takes a validated live frame (camera socket or sim): latest frame wins in the pool. */
  acceptFrame(image: Uint8Array, header: FrameHeader, captureTimeMs: number): number {
    const seq = this.frameSeq++;
    this.counters.received();
    this.recentFrames.push({ seq, image, contentType: `image/${header.format}` });
    if (this.recentFrames.length > RECENT_FRAMES) this.recentFrames.shift();
    // The score sort is counted from frames read whole (change tracking finds dealt backs lying
    // close together poorly): the first after the call, then one a second while the table is
    // still and one every few seconds while hands deal (sort-reads.ts).
    const now = performance.now();
    const afterCall = this.rules.referee.hand?.phase === 'ended';
    const everyCard = afterCall && this.sortReads.take(now);
    this.pool.offer(this.id, { seq, image, captureTimeMs, receivedAtMs: now, ...(everyCard ? { everyCard } : {}), ...(afterCall ? { afterCall } : {}) });
    this.lastCapture = { captureTimeMs, receivedAtMs: now };
    return seq;
  }

  /**
   * Now on the camera's clock, which times the tracker's events (frames carry their capture
   * times: a sim table's run from its start, a phone's may be off the server's by seconds): the
   * latest frame's capture time plus the time since it came. The referee's actions are timed on
   * it, so a manual call falls between the right plays. Before any frame, the server's clock.
   */
  private tableNow(): number {
    return this.lastCapture ? this.lastCapture.captureTimeMs + (performance.now() - this.lastCapture.receivedAtMs) : Date.now();
  }

  /** Counts a frame refused at the boundary. */
  rejectFrame(): void {
    this.counters.rejected();
  }

  /** The newest frame received (for calibration and enrolment UIs). */
  latestFrame(): { image: Uint8Array; contentType: string } | null {
    return this.recentFrames[this.recentFrames.length - 1] ?? null;
  }

  private readonly sink: TableSink = {
    onObservations: (frame: PendingFrame, recognised: FrameObservations, latencyMs: number) => {
      this.counters.processed(latencyMs, frame.everyCard ? 'whole' : frame.afterCall ? 'sort' : 'play');
      const observations = this.stored.calibration === null ? this.withDefaultZones(recognised) : recognised;
      this.latestObservations = observations;
      this.onObservations(frame, observations, latencyMs);
    },
    onDropped: (count: number) => this.counters.dropped(count),
    onFailed: (frame: PendingFrame, error: string) => {
      this.counters.failed();
      if (frame.everyCard) this.sortReads.finished(performance.now());
      // Once every few seconds at most: a missing model fails every frame.
      if (Date.now() - this.lastFailureSentMs >= 5000) {
        this.lastFailureSentMs = Date.now();
        this.broadcast({ type: 'error', code: 'recognizer/failed', message: error }, 'referee');
      }
    },
  };

  /**
   * An uncalibrated table still referees: cards the recogniser left without a zone get one from
   * the default layout (the whole frame as the table). The recogniser itself stays uncalibrated,
   * so it does not assume a card size from a guessed table.
   */
  private withDefaultZones(observations: FrameObservations): FrameObservations {
    const seatCount = this.context.players.length;
    const key = `${observations.width}x${observations.height}/${seatCount}`;
    if (this.defaultZones?.key !== key) {
      this.defaultZones = { key, locate: zoneLocator(defaultCalibration(observations.width, observations.height, seatCount), observations.width, observations.height) };
    }
    return { ...observations, cards: withZones(observations.cards, this.defaultZones.locate) };
  }

  private onObservations(frame: PendingFrame, observations: FrameObservations, latencyMs: number): void {
    const message: FrameObservationsMessage = {
      seq: frame.seq,
      timestampMs: frame.captureTimeMs,
      width: observations.width,
      height: observations.height,
      cards: observations.cards,
      timingsMs: { ...(observations.timingsMs ?? {}), total: latencyMs },
    };
    const phase = this.rules.referee.hand?.phase;
    if (phase === 'playing' || phase === 'ended') {
      for (const listener of this.trackerFrameListeners) listener({ timeMs: frame.captureTimeMs, observations, wholeRead: frame.everyCard === true });
      const result = step(this.tracker, { ...observations, timestampMs: frame.captureTimeMs }, this.trackerConfig);
      this.tracker = result.state;
      if (result.events.length > 0) {
        this.record(result.events, frame.seq);
      }
    }
    // The score sort: after the call and before scoring, the camera counts the sorted backs
    // (not the players' own stocks, noted during play).
    if (phase === 'playing') {
      // Completed foundations, a card's length about each (set aside face down: centre cards, see addPlayFrame).
      const completedPiles = this.tracker.piles.filter((pile) => pile.completed).map((pile) => ({ centre: pile.center, radius: pile.cardSizePx }));
      this.backCount = addPlayFrame(this.backCount, frame.captureTimeMs, observations.cards, completedPiles);
      if (this.stored.calibration !== null && this.background.wantsSample(frame.captureTimeMs)) this.sampleBackground(frame);
    }
    if (this.rules.referee.hand?.phase === 'ended') {
      if (observations.motion) this.sortReads.observed(frame.receivedAtMs, observations.motion.length > 0);
      if (frame.everyCard) this.sortReads.finished(frame.receivedAtMs + latencyMs);
      this.countSortedBacks(frame, observations);
    }
    const now = Date.now();
    if (now - this.lastObservationsSentMs >= 1000 / OBSERVATIONS_PER_SECOND) {
      this.lastObservationsSentMs = now;
      for (const viewer of this.viewers) if (viewer.observations) this.send(viewer, { type: 'observations', frame: message });
    }
  }

  /** Notes how the table looks during play (a thumbnail, decoded off the event loop). */
  private sampleBackground(frame: PendingFrame): void {
    const background = this.background;
    background.sampling(frame.captureTimeMs);
    void thumbOf(frame.image).then((thumb) => {
      if (thumb) background.addSample(thumb);
    });
  }

  /**
   * Counts a score-sort frame's backs and pushes the check to viewers when it changed. On a
   * calibrated table, backs not lying on the table (liesOnTable) or lying where the table looks
   * as it did during play (TableBackground) are no sorted cards and are not counted; such frames
   * wait for their thumbnail. Frames are counted in the order they came.
   */
  private countSortedBacks(frame: PendingFrame, observations: FrameObservations): void {
    const hand = this.backCountHand;
    const count = (cards: CardObservation[], lies?: (corners: Quad) => boolean) => {
      // A frame whose thumbnail came after scoring (which freezes the counts) or a new hand counts nowhere.
      if (hand !== this.backCountHand || this.rules.referee.hand?.phase !== 'ended') return;
      this.backCount = addBackFrame(this.backCount, frame.captureTimeMs, cards, { wholeRead: frame.everyCard === true, lies });
      const view = this.view();
      const check = JSON.stringify(view.backCheck ?? null);
      if (check !== this.lastBackCheckSent) {
        this.lastBackCheckSent = check;
        this.broadcast({ type: 'view', view });
      }
    };
    const calibration = this.stored.calibration;
    if (calibration === null || !observations.cards.some((card) => card.kind === 'back')) {
      this.sortFrames = this.sortFrames.then(() => count(observations.cards));
      return;
    }
    const background = this.background;
    // The sort lies still: a thumbnail every SORT_THUMB_EVERY_MS of camera time serves the frames until the next.
    if (background.freeze() && (this.sortThumb === null || Math.abs(frame.captureTimeMs - this.sortThumb.timeMs) >= SORT_THUMB_EVERY_MS)) {
      this.sortThumb = { timeMs: frame.captureTimeMs, thumb: thumbOf(frame.image) };
    }
    const thumb = this.sortThumb?.thumb ?? Promise.resolve(null);
    this.sortFrames = this.sortFrames.then(async () => {
      const now = await thumb;
      // Whether something lies at these corners where the table looked bare during play; unknown without a thumbnail.
      const lies = now ? (corners: Quad) => !background.unchanged(now, corners) : undefined;
      const sorted = (card: CardObservation) => liesOnTable(card.corners, calibration.imageCorners) && (lies?.(card.corners) ?? true);
      // Where a whole read missed a back older ones saw, the table not looking bare there keeps it (addBackFrame).
      count(observations.cards.filter((card) => card.kind !== 'back' || sorted(card)), lies);
    });
  }

  /** Disputes keep the frames that show them. */
  private withEvidence(event: TableEvent, frameSeq: number): TableEvent {
    if (event.type !== 'dispute-opened') return event;
    const evidence: string[] = [];
    for (const frame of this.recentFrames.filter((f) => f.seq <= frameSeq)) {
      const id = `${event.disputeId}-h${this.rules.referee.handsStarted}-${frame.seq}`;
      this.store.saveEvidence(this.id, id, frame.image, frame.contentType);
      evidence.push(id);
    }
    return { ...event, evidence };
  }

  // ------------------------------------------------------------------ the log

  /** Applies events to the rules, logs and broadcasts them; returns the log entries (follow-ups included). */
  private record(items: Array<{ timeMs: number; event: TableEvent }>, frameSeq?: number): LoggedEvent[] {
    const entries: LoggedEvent[] = [];
    const queue = [...items];
    while (queue.length > 0) {
      const { timeMs, event } = queue.shift()!;
      const seq = this.seq++;
      const result = applyRules(this.rules, event, timeMs, seq, this.context);
      this.rules = result.state;
      entries.push({ seq, hand: this.rules.referee.handsStarted, timeMs, event, violations: result.violations });
      // Disputes the reducer opened are logged right after, with the frames that show them.
      for (const followUp of result.followUps) queue.unshift({ timeMs, event: this.withEvidence(followUp, frameSeq ?? this.frameSeq - 1) });
    }
    this.store.appendEvents(this.id, entries, this.tracker);
    if (entries.some((entry) => entry.event.type === 'hand-ended' || entry.event.type === 'correction') && this.rules.referee.hand?.phase === 'scored') {
      this.store.endHand(this.id, this.rules.referee.handsStarted, Date.now(), this.view().scores ?? []);
    }
    this.recentEvents.push(...entries);
    if (this.recentEvents.length > 50) this.recentEvents.splice(0, this.recentEvents.length - 50);
    for (const entry of entries) this.broadcast({ type: 'event', entry });
    this.broadcast({ type: 'view', view: this.view() });
    return entries;
  }

  private resetBackCount(): void {
    this.backCount = initialBackCountState();
    this.lastBackCheckSent = 'null';
    this.background = new TableBackground();
    this.sortThumb = null;
    this.sortReads.reset();
    this.backCountHand += 1;
  }

  // ------------------------------------------------------------------ referee actions

  /** Starts the next hand (the tracker starts afresh). */
  startHand(timeMs = this.tableNow()): TableView {
    const hand = this.rules.referee.handsStarted + 1;
    this.tracker = initialTrackerState(this.trackerConfig);
    this.resetBackCount();
    this.record([{ timeMs, event: { type: 'hand-started', hand } }]);
    this.store.startHand(this.id, this.rules.referee.match?.number ?? 1, hand, Date.now());
    return this.view();
  }

  /** A manual Nerts call by the referee: play freezes. */
  manualCall(player: string, timeMs = this.tableNow()): { view: TableView; violations: LoggedEvent['violations'] } {
    this.tracker = markCalled(this.tracker, player, timeMs);
    const [entry] = this.record([{ timeMs, event: { type: 'call', player, manual: true } }]);
    return { view: this.view(), violations: entry.violations };
  }

  /** The table agreed a stuck rotation (everyone stuck): logged; the stall prompt clears. */
  stuckRotation(timeMs = this.tableNow()): { view: TableView; violations: LoggedEvent['violations'] } {
    const [entry] = this.record([{ timeMs, event: { type: 'stuck-rotation' } }]);
    return { view: this.view(), violations: entry.violations };
  }

  /** The referee overrules a dispute's automatic ruling. */
  overrule(disputeId: string, winner: string, timeMs = this.tableNow()): { view: TableView; violations: LoggedEvent['violations'] } {
    const [entry] = this.record([{ timeMs, event: { type: 'dispute-resolved', disputeId, winner, by: 'referee' } }]);
    return { view: this.view(), violations: entry.violations };
  }

  /** Ends the hand and scores it. */
  endHand(timeMs = this.tableNow()): { view: TableView; violations: LoggedEvent['violations'] } {
    // Plays still waiting for their owner are decided now, before scoring.
    const flushed = flushPending(this.tracker, this.trackerConfig);
    this.tracker = flushed.state;
    if (flushed.events.length > 0) this.record(flushed.events);
    const entries = this.record([{ timeMs, event: { type: 'hand-ended' } }]);
    return { view: this.view(), violations: entries[entries.length - 1].violations };
  }

  /** A score-sort correction, recorded in the log. */
  correct(correction: { player: string; centreCards?: number; nertsLeft?: number; reason: string }, timeMs = this.tableNow()): { view: TableView; violations: LoggedEvent['violations'] } {
    const [entry] = this.record([{ timeMs, event: { type: 'correction', ...correction } }]);
    return { view: this.view(), violations: entry.violations };
  }

  /** Events logged after `afterSeq`. */
  events(afterSeq: number, limit: number): LoggedEvent[] {
    return this.store.events(this.id, afterSeq, limit);
  }

  // ------------------------------------------------------------------ setup changes

  /** Whether a hand is being played or waits to be scored (setup edits must wait). */
  get handInProgress(): boolean {
    const phase = this.rules.referee.hand?.phase;
    return phase === 'playing' || phase === 'ended';
  }

  /**
   * Replaces the setup (already checked by resolveSetup) between hands: persisted, logged with
   * who changed it, and used from the next hand on (tracker seats, decks, handicaps, variant).
   * Returns false, changing nothing, while a hand is in progress.
   */
  updateSetup(setup: StoredTable['setup'], by: Role, timeMs = Date.now()): boolean {
    if (this.handInProgress) return false;
    const previous = this.stored.setup;
    this.stored = { ...this.stored, setup };
    this.store.updateTable(this.id, { setup });
    ({ context: this.context, trackerConfig: this.trackerConfig } = configsFor(this.id, setup));
    this.tracker = initialTrackerState(this.trackerConfig);
    this.resetBackCount();
    this.record([{ timeMs, event: { type: 'setup-changed', by, previous, setup } }]);
    this.broadcast({ type: 'table', table: this.info() });
    return true;
  }

  /** Stores and applies a calibration. */
  setCalibration(calibration: Calibration | null): void {
    this.stored = { ...this.stored, calibration };
    this.store.updateTable(this.id, { calibration });
    this.pool.setCalibration(this.id, calibration);
    this.broadcast({ type: 'table', table: this.info() });
  }

  /** Switches where frames come from. */
  setSource(source: StoredTable['source']): void {
    this.stored = { ...this.stored, source };
    this.store.updateTable(this.id, { source });
    this.broadcast({ type: 'table', table: this.info() });
  }

  /** Records a deck's back as enrolled. */
  markEnrolled(deckId: string): void {
    if (this.stored.enrolledDecks.includes(deckId)) return;
    const enrolledDecks = [...this.stored.enrolledDecks, deckId];
    this.stored = { ...this.stored, enrolledDecks };
    this.store.updateTable(this.id, { enrolledDecks });
    this.broadcast({ type: 'table', table: this.info() });
  }

  // ------------------------------------------------------------------ sockets

  /** Attaches the camera socket (a newer camera replaces the older one). Returns the one it replaced. */
  attachCamera(socket: WebSocket): WebSocket | null {
    const previous = this.camera;
    this.camera = socket;
    return previous;
  }

  /** Detaches the camera socket if it is still the current one. */
  detachCamera(socket: WebSocket): void {
    if (this.camera === socket) this.camera = null;
  }

  /** Adds a viewer and sends it the welcome and the snapshot. */
  addViewer(socket: WebSocket, role: Role): { setObservations(on: boolean): void; remove(): void } {
    const viewer: Viewer = { socket, role, observations: false };
    this.viewers.add(viewer);
    this.send(viewer, { type: 'welcome', protocolVersion: PROTOCOL_VERSION, tableId: this.id, role, serverTimeMs: Date.now() });
    this.send(viewer, { type: 'snapshot', table: this.info(), view: this.view(), stats: this.stats(), recentEvents: [...this.recentEvents] });
    return {
      setObservations: (on: boolean) => {
        viewer.observations = on;
      },
      remove: () => {
        this.viewers.delete(viewer);
      },
    };
  }

  /** Sends pipeline stats to viewers and the camera (called about once a second). */
  tick(): void {
    const stats = this.stats();
    this.broadcast({ type: 'stats', stats });
    if (this.camera && this.camera.readyState === this.camera.OPEN && this.camera.bufferedAmount < VIEWER_BACKLOG_BYTES) {
      this.camera.send(JSON.stringify({ type: 'frame-ack', lastSeq: this.frameSeq - 1, stats } satisfies ServerMessage));
    }
  }

  private send(viewer: Viewer, message: ServerMessage): void {
    const socket = viewer.socket;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > VIEWER_BACKLOG_BYTES) {
      this.counters.viewerSkipped();
      return;
    }
    socket.send(JSON.stringify(message));
  }

  private broadcast(message: ServerMessage, minimumRole?: Role): void {
    for (const viewer of this.viewers) {
      if (minimumRole === 'referee' && viewer.role !== 'referee') continue;
      this.send(viewer, message);
    }
  }

  /** Persists the tracker and detaches from the pool; closes sockets. */
  close(): void {
    this.store.saveTrackerSnapshot(this.id, this.tracker);
    this.pool.detach(this.id);
    for (const viewer of this.viewers) viewer.socket.close(1001, 'server shutting down');
    this.camera?.close(1001, 'server shutting down');
    this.viewers.clear();
  }
}
