/**
 * The wire protocol between the referee server and its clients (web app, cameras, bench):
 * REST payloads and WebSocket messages, as TypeBox schemas with their static types.
 *
 * One file, one version number. Bump PROTOCOL_VERSION on any breaking change; additive
 * optional fields do not bump it. The client may import this file (it only depends on TypeBox).
 *
 * Units: times are milliseconds (capture times are whatever clock the camera uses, usually
 * `Date.now()`; server times are `Date.now()` on the server), image coordinates are pixels,
 * table coordinates are millimetres.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { CardCode } from './game/cards';

/** Bumped on every breaking change of a message or payload below. */
export const PROTOCOL_VERSION = 1 as const;

// ---------------------------------------------------------------------------------------------
// Small building blocks
// ---------------------------------------------------------------------------------------------

/** A card code such as `AS`, `10H`, `QD` (see server/game/cards.ts). */
export const CardCodeSchema = Type.Unsafe<CardCode>(Type.String({ pattern: '^(A|[2-9]|10|J|Q|K)[SHDC]$', description: 'card code, e.g. AS, 10H' }));
/** Image point, pixels. */
export const PointSchema = Type.Tuple([Type.Number(), Type.Number()]);
/** Quad TL, TR, BR, BL, pixels. */
export const QuadSchema = Type.Tuple([PointSchema, PointSchema, PointSchema, PointSchema]);

/** Who a token lets you act as. `camera` may send frames; `referee` may correct and score (and view); `view` is read-only. */
export const RoleSchema = Type.Union([Type.Literal('camera'), Type.Literal('referee'), Type.Literal('view')]);
export type Role = Static<typeof RoleSchema>;

/** Error body of every 4xx/5xx REST answer, and `error` socket message payload. */
export const ErrorBodySchema = Type.Object({
  statusCode: Type.Integer(),
  /** Stable machine-readable code, e.g. `auth/missing-token`, `frame/too-many-pixels`. */
  code: Type.String(),
  error: Type.String(),
  message: Type.String(),
});
export type ErrorBody = Static<typeof ErrorBodySchema>;

// ---------------------------------------------------------------------------------------------
// Tables: setup, calibration
// ---------------------------------------------------------------------------------------------

/** One seat at the table (2–6 seats). Partnerships share a `team` id (and usually one deck). */
export const SeatSetupSchema = Type.Object({
  playerId: Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$' }),
  name: Type.String({ minLength: 1, maxLength: 60 }),
  /** Deck id whose back identifies this player's cards; defaults to `deck-<playerId>`. */
  deckId: Type.Optional(Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$' })),
  team: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  /** Handicap: Nerts pile size for this player (default from the variant, usually 13). */
  nertsPileSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 26 })),
});
export type SeatSetup = Static<typeof SeatSetupSchema>;

/** Where a table's frames come from: the simulated demo table or a real camera. */
export const FrameSourceSchema = Type.Union([Type.Literal('sim'), Type.Literal('camera')]);
export type FrameSource = Static<typeof FrameSourceSchema>;

/** Body of POST /api/tables. */
export const CreateTableSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 80 }),
  seats: Type.Array(SeatSetupSchema, { minItems: 2, maxItems: 6 }),
  /** Variant preset name from server/game/variants.ts PRESET_NAMES (e.g. `nertz`); default `nertz`. */
  variant: Type.Optional(Type.String({ maxLength: 40 })),
  /** Knob overrides on top of the preset (VariantKnobs of server/game/variants.ts; `scoring` may be partial). */
  knobs: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  /** Match target score (default 100). */
  target: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000 })),
  /** Default `camera`. */
  source: Type.Optional(FrameSourceSchema),
});
export type CreateTable = Static<typeof CreateTableSchema>;

/**
 * Body of PUT /api/tables/:id/setup: the editable part of a table (everything of CreateTable
 * but the frame source), replacing the current setup whole. Allowed only between hands.
 */
export const UpdateSetupSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 80 }),
  seats: Type.Array(SeatSetupSchema, { minItems: 2, maxItems: 6 }),
  /** Variant preset name (default `nertz`). */
  variant: Type.Optional(Type.String({ maxLength: 40 })),
  /** Knob overrides on top of the preset, as in CreateTable. */
  knobs: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  /** Match target score (default: the variant's). */
  target: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000 })),
});
export type UpdateSetup = Static<typeof UpdateSetupSchema>;

/** A table's setup with defaults filled in, as stored and as logged in `setup-changed`. */
export const TableSetupSchema = Type.Object({
  name: Type.String(),
  seats: Type.Array(SeatSetupSchema),
  variant: Type.String(),
  knobs: Type.Record(Type.String(), Type.Unknown()),
  target: Type.Integer(),
});
export type TableSetup = Static<typeof TableSetupSchema>;

/** Views of one deck's back the server keeps and enrols it from (the newest; the recogniser takes at most 5). */
export const MAX_BACK_VIEWS = 5;
/** Views of one face that reads badly the server keeps and enrols it from (the newest). */
export const MAX_FACE_VIEWS = 5;

/** A table as anyone may see it (no tokens). */
export const TableInfoSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  seats: Type.Array(Type.Intersect([SeatSetupSchema, Type.Object({ seat: Type.Integer(), deckId: Type.String() })])),
  variant: Type.String(),
  knobs: Type.Record(Type.String(), Type.Unknown()),
  target: Type.Integer(),
  source: FrameSourceSchema,
  calibrated: Type.Boolean(),
  /**
   * Zones the tracker uses: `calibrated` (the saved calibration) or `default` (no calibration
   * yet: the whole frame is the table, a centre zone in the middle, seat zones round the edges).
   */
  zoneLayout: Type.Optional(Type.Union([Type.Literal('calibrated'), Type.Literal('default')])),
  /** Deck ids whose back has been enrolled. */
  enrolledDecks: Type.Array(Type.String()),
  /** Views each enrolled back is recognised from (deck id → count; several views help). */
  backViews: Type.Optional(Type.Record(Type.String(), Type.Integer({ minimum: 1, maximum: MAX_BACK_VIEWS }))),
  /** Faces enrolled because they read badly: card code → views kept. */
  faceViews: Type.Optional(Type.Record(Type.String(), Type.Integer({ minimum: 1, maximum: MAX_FACE_VIEWS }))),
  createdAtMs: Type.Number(),
});
export type TableInfo = Static<typeof TableInfoSchema>;

/** Tokens of a table, returned once at creation (and to the referee by GET .../tokens). */
export const TableTokensSchema = Type.Object({ camera: Type.String(), referee: Type.String(), view: Type.String() });
export type TableTokens = Static<typeof TableTokensSchema>;

/** Answer of POST /api/tables. */
export const CreatedTableSchema = Type.Object({
  table: TableInfoSchema,
  tokens: TableTokensSchema,
  /** Paths (relative to the server origin) of the web app pages, with tokens in the query. */
  urls: Type.Object({ dashboard: Type.String(), camera: Type.String(), overlay: Type.String() }),
});
export type CreatedTable = Static<typeof CreatedTableSchema>;

/** A calibration zone on the table plane (mirrors server/vision/types.ts CalibrationZone). */
export const CalibrationZoneSchema = Type.Object({
  id: Type.String({ maxLength: 40 }),
  kind: Type.Union([Type.Literal('centre'), Type.Literal('seat'), Type.Literal('nerts'), Type.Literal('work'), Type.Literal('waste'), Type.Literal('stock')]),
  seat: Type.Optional(Type.Integer({ minimum: 0, maximum: 5 })),
  polygonMm: Type.Array(PointSchema, { minItems: 3, maxItems: 64 }),
});

/** Body of PUT /api/tables/:id/calibration (mirrors TableCalibration in server/vision/types.ts). */
export const CalibrationSchema = Type.Object({
  imageWidth: Type.Integer({ minimum: 16, maximum: 8192 }),
  imageHeight: Type.Integer({ minimum: 16, maximum: 8192 }),
  imageCorners: QuadSchema,
  tableWidthMm: Type.Number({ exclusiveMinimum: 0, maximum: 10000 }),
  tableHeightMm: Type.Number({ exclusiveMinimum: 0, maximum: 10000 }),
  zones: Type.Array(CalibrationZoneSchema, { maxItems: 64 }),
});
export type Calibration = Static<typeof CalibrationSchema>;

// ---------------------------------------------------------------------------------------------
// Observations (what the recogniser saw in one frame)
// ---------------------------------------------------------------------------------------------

/** One card seen in one frame (mirrors CardObservation in server/vision/types.ts). */
export const CardObservationSchema = Type.Object({
  kind: Type.Union([Type.Literal('face'), Type.Literal('back')]),
  code: Type.Optional(CardCodeSchema),
  backId: Type.Optional(Type.String()),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  /** A face's likeliest faces, best first, each with P(this face | a face). */
  alternatives: Type.Optional(Type.Array(Type.Object({ code: CardCodeSchema, p: Type.Number({ minimum: 0, maximum: 1 }) }), { maxItems: 8 })),
  corners: QuadSchema,
  /** A card read by its index corner because it lies under others: the part of it that shows. */
  visible: Type.Optional(QuadSchema),
  zone: Type.Optional(Type.String()),
  /** A face on a Nerts pile: its look (unit vector), for counting cards that cannot be named. */
  look: Type.Optional(Type.Array(Type.Number(), { maxItems: 256 })),
});

/** Everything seen in one frame: answer of POST .../frames and payload of `observations`. */
export const FrameObservationsSchema = Type.Object({
  /** Server-assigned frame sequence number for this table. */
  seq: Type.Integer(),
  /** Capture time sent by the camera, ms. */
  timestampMs: Type.Number(),
  width: Type.Integer(),
  height: Type.Integer(),
  cards: Type.Array(CardObservationSchema),
  /** What moved since the recogniser's previous frame: per group of changed cells, the seats it touches and its cells' centres (px). */
  motion: Type.Optional(
    Type.Array(Type.Object({ seats: Type.Array(Type.Integer()), cells: Type.Array(Type.Tuple([Type.Number(), Type.Number()])), cellSize: Type.Number() }), { maxItems: 256 }),
  ),
  /** Per-stage timings, ms; `total` = receipt to observations. */
  timingsMs: Type.Optional(Type.Record(Type.String(), Type.Number())),
});
export type FrameObservationsMessage = Static<typeof FrameObservationsSchema>;

// ---------------------------------------------------------------------------------------------
// Table events (tracker output) and the live view (rules engine state, shaped for viewers)
// ---------------------------------------------------------------------------------------------

const PlayerRef = Type.String({ description: 'player id' });

/**
 * What told the camera who played a centre card, strongest first: `track` the card was followed
 * from the seat to the pile; `left-seat` it vanished from that seat (`+hand`: and that player's
 * hand reached the pile as it landed, which also picks among several such seats); `hand` nobody was seen
 * holding it, that player's hand reached the pile; `nerts-pile` their Nerts pile lost its top;
 * `look-alike` a card read as a near miss of it lay at that seat; `race` the second card of a
 * race, from the seat it came back to; `guess` nothing pointed anywhere (check it).
 */
export const OwnerEvidenceSchema = Type.Union([
  Type.Literal('track'),
  Type.Literal('left-seat'),
  Type.Literal('left-seat+hand'),
  Type.Literal('hand'),
  Type.Literal('nerts-pile'),
  Type.Literal('look-alike'),
  Type.Literal('race'),
  Type.Literal('guess'),
]);
export type OwnerEvidence = Static<typeof OwnerEvidenceSchema>;

/**
 * Evidence that named the wrong player about as often as the right one on recorded games
 * (docs/SERVER.md, "owner evidence"): such cards are marked unsure for the score sort.
 */
export function ownerEvidenceWeak(by: OwnerEvidence | undefined): boolean {
  return by === 'guess' || by === 'nerts-pile' || by === 'look-alike';
}

/** What the tracker concluded from the frames; each goes into the rules engine. */
export const TableEventSchema = Type.Union([
  Type.Object({ type: Type.Literal('hand-started'), hand: Type.Integer() }),
  Type.Object({
    type: Type.Literal('card-played'),
    player: PlayerRef,
    card: CardCodeSchema,
    foundationId: Type.String(),
    newPile: Type.Boolean(),
    /** What told the camera who played it, strongest first (absent: not from the camera, e.g. a test or an old log). */
    ownerBy: Type.Optional(OwnerEvidenceSchema),
  }),
  Type.Object({ type: Type.Literal('foundation-completed'), foundationId: Type.String() }),
  /** The camera misread a pile's suit (its ace taken for another suit's) and later cards showed it: the pile's cards keep their ranks and take this suit. */
  Type.Object({
    type: Type.Literal('pile-revised'),
    foundationId: Type.String(),
    suit: Type.Union([Type.Literal('S'), Type.Literal('H'), Type.Literal('D'), Type.Literal('C')]),
    reason: Type.String(),
    /** Cards of the pile given a new owner, because their owner already had that card in the centre (null, nobody: in logs written before session 18's fix). */
    owners: Type.Optional(Type.Array(Type.Object({ card: CardCodeSchema, player: Type.Union([PlayerRef, Type.Null()]) }))),
  }),
  /**
   * A race the camera ruled by landing order came out the other way: the player it had as first
   * took their copy back off the pile and the other's stayed (the players' own ruling: the second
   * card goes back). The rules keep `winner`'s play and return `loser`'s.
   */
  Type.Object({ type: Type.Literal('race-reversed'), foundationId: Type.String(), card: CardCodeSchema, winner: PlayerRef, loser: PlayerRef, reason: Type.String() }),
  /**
   * The camera gave a centre card to the wrong player and learnt it later: `from`'s copy of the
   * card was seen lying at home in their seat, so the card on the pile is `to`'s (the copy that
   * went home was followed from `to`'s side: two copies swapped tracks on the pile). The rules
   * move the play to `to`.
   */
  Type.Object({ type: Type.Literal('owner-revised'), foundationId: Type.String(), card: CardCodeSchema, from: PlayerRef, to: PlayerRef, reason: Type.String() }),
  /** A card the camera took for played on a pile was not there after all (the pile showed the card under it on top again, surely and steadily): it leaves the centre. */
  Type.Object({ type: Type.Literal('play-withdrawn'), foundationId: Type.String(), card: CardCodeSchema, reason: Type.String() }),
  /** A Nerts pile's count; `revised` (why) when the camera takes back a count it gave too low, which the rules apply as a correction. */
  Type.Object({ type: Type.Literal('nerts-count'), player: PlayerRef, left: Type.Integer({ minimum: 0 }), revised: Type.Optional(Type.String()) }),
  Type.Object({
    type: Type.Literal('dispute-opened'),
    disputeId: Type.String(),
    foundationId: Type.String(),
    /** First to land: stays. */
    first: Type.Object({ player: PlayerRef, card: CardCodeSchema }),
    /** Second to land: must go back (unless a referee overrules). */
    second: Type.Object({ player: PlayerRef, card: CardCodeSchema }),
    evidence: Type.Array(Type.String(), { description: 'evidence frame ids, GET /api/tables/:id/evidence/:evidenceId' }),
  }),
  Type.Object({ type: Type.Literal('dispute-resolved'), disputeId: Type.String(), winner: PlayerRef, by: Type.Union([Type.Literal('auto'), Type.Literal('referee')]) }),
  Type.Object({ type: Type.Literal('call'), player: PlayerRef, manual: Type.Boolean() }),
  Type.Object({ type: Type.Literal('stall'), sinceMs: Type.Number() }),
  Type.Object({ type: Type.Literal('stuck-rotation') }),
  Type.Object({ type: Type.Literal('hand-ended') }),
  /** The referee edited seats, players, variant or target between hands; applies from the next hand. */
  Type.Object({ type: Type.Literal('setup-changed'), by: RoleSchema, previous: TableSetupSchema, setup: TableSetupSchema }),
  Type.Object({
    type: Type.Literal('correction'),
    player: PlayerRef,
    centreCards: Type.Optional(Type.Integer({ minimum: 0 })),
    nertsLeft: Type.Optional(Type.Integer({ minimum: 0 })),
    reason: Type.String(),
  }),
]);
export type TableEvent = Static<typeof TableEventSchema>;

/** An illegal play or other rule breach (rules engine's namespaced code, e.g. `foundation/wrong-suit`). */
export const ViolationSchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
  player: Type.Optional(PlayerRef),
  card: Type.Optional(CardCodeSchema),
  foundationId: Type.Optional(Type.String()),
});
export type Violation = Static<typeof ViolationSchema>;

/** One entry of the append-only event log. */
export const LoggedEventSchema = Type.Object({
  seq: Type.Integer(),
  hand: Type.Integer(),
  /** Table time of the event (capture time of the frame that decided it), ms. */
  timeMs: Type.Number(),
  event: TableEventSchema,
  violations: Type.Array(ViolationSchema),
});
export type LoggedEvent = Static<typeof LoggedEventSchema>;

/** One row of the score sort. */
export const ScoreRowSchema = Type.Object({
  player: PlayerRef,
  team: Type.Optional(Type.String()),
  centreCards: Type.Integer(),
  nertsLeft: Type.Integer(),
  bonus: Type.Integer(),
  handScore: Type.Integer(),
  total: Type.Integer(),
  rank: Type.Integer({ minimum: 1 }),
});
export type ScoreRow = Static<typeof ScoreRowSchema>;

/** The live table as viewers see it; recomputed from the rules engine after every event. */
export const TableViewSchema = Type.Object({
  tableId: Type.String(),
  hand: Type.Integer({ description: 'hand number, 1-based; 0 before the first hand' }),
  phase: Type.Union([Type.Literal('setup'), Type.Literal('playing'), Type.Literal('called'), Type.Literal('scored')]),
  /** True after the call: further plays are violations. */
  frozen: Type.Boolean(),
  calledBy: Type.Union([PlayerRef, Type.Null()]),
  centreTotal: Type.Integer({ description: 'cards on all centre piles (completed ones included)' }),
  foundations: Type.Array(
    Type.Object({
      id: Type.String(),
      suit: Type.String(),
      top: Type.Union([CardCodeSchema, Type.Null()]),
      count: Type.Integer(),
      completed: Type.Boolean(),
    }),
  ),
  players: Type.Array(
    Type.Object({
      id: PlayerRef,
      name: Type.String(),
      seat: Type.Integer(),
      team: Type.Optional(Type.String()),
      deckId: Type.String(),
      nertsLeft: Type.Integer(),
      centreCards: Type.Integer(),
      /** Of those, the cards the camera credited to them on weak evidence of who played them (see ownerEvidenceWeak): worth a look at the backs. */
      unsureCards: Type.Optional(Type.Array(CardCodeSchema)),
    }),
  ),
  disputes: Type.Array(
    Type.Object({
      id: Type.String(),
      foundationId: Type.String(),
      first: Type.Object({ player: PlayerRef, card: CardCodeSchema }),
      second: Type.Object({ player: PlayerRef, card: CardCodeSchema }),
      winner: Type.Union([PlayerRef, Type.Null()]),
      by: Type.Union([Type.Literal('auto'), Type.Literal('referee'), Type.Null()]),
      evidence: Type.Array(Type.String()),
    }),
  ),
  /** The most recent violations (newest last, at most 50). */
  violations: Type.Array(Type.Intersect([ViolationSchema, Type.Object({ seq: Type.Integer(), timeMs: Type.Number() })])),
  /** Table time since nothing was played, ms; null while play flows. */
  stalledSinceMs: Type.Union([Type.Number(), Type.Null()]),
  /** Score sort of the current hand once ended (null before). */
  scores: Type.Union([Type.Array(ScoreRowSchema), Type.Null()]),
  /** Match totals per player (or team), after the hands scored so far. */
  matchTotals: Type.Array(Type.Object({ id: Type.String(), total: Type.Integer() })),
  target: Type.Integer(),
  matchWinner: Type.Union([Type.String(), Type.Null()]),
  /**
   * The camera's check of the score sort (absent until the camera has seen a back after the
   * call): per player, the backs of their deck counted in the centre over the last few frames
   * against the centre cards credited. Frozen once the hand is scored; cleared by the next hand.
   */
  backCheck: Type.Optional(
    Type.Object({
      /** Frames the counts come from (the recent window). */
      frames: Type.Integer({ minimum: 0 }),
      players: Type.Array(
        Type.Object({
          player: PlayerRef,
          deckId: Type.String(),
          backsSeen: Type.Integer({ minimum: 0 }),
          centreCards: Type.Integer(),
          agrees: Type.Boolean(),
        }),
      ),
    }),
  ),
});
export type TableView = Static<typeof TableViewSchema>;

/** Pipeline counters for one table (camera → queue → recogniser → tracker). */
export const PipelineStatsSchema = Type.Object({
  framesReceived: Type.Integer(),
  framesProcessed: Type.Integer(),
  /** Frames replaced in the queue by a newer one before recognition (latest frame wins). */
  framesDropped: Type.Integer(),
  /** Frames refused (bad format, too large, too many pixels). */
  framesRejected: Type.Integer(),
  /** Frames the recogniser failed on (e.g. no model loaded). */
  framesFailed: Type.Optional(Type.Integer()),
  /** Messages not sent to viewers whose sockets were backed up. */
  viewerMessagesSkipped: Type.Optional(Type.Integer()),
  /** Processed frames per second over the last few seconds. */
  fps: Type.Number(),
  /** Receipt-to-observations latency percentiles over the last 200 frames, ms. */
  p50Ms: Type.Number(),
  p95Ms: Type.Number(),
  /**
   * Since the table opened (this server run), to the millisecond: all frames, then apart the
   * frames read during play, the score sort's frames (after the call) read as usual, and its
   * whole reads (every card read).
   */
  session: Type.Optional(
    Type.Object({
      p50Ms: Type.Number(),
      p95Ms: Type.Number(),
      playFrames: Type.Integer(),
      playP50Ms: Type.Number(),
      playP95Ms: Type.Number(),
      sortFrames: Type.Integer(),
      sortP50Ms: Type.Number(),
      sortP95Ms: Type.Number(),
      wholeReads: Type.Integer(),
      wholeReadP95Ms: Type.Number(),
    }),
  ),
});
export type PipelineStats = Static<typeof PipelineStatsSchema>;

// ---------------------------------------------------------------------------------------------
// WebSocket messages
// ---------------------------------------------------------------------------------------------

/**
 * Camera socket, client → server: binary messages are frames. A frame is either the raw image
 * bytes (JPEG, PNG or WebP; capture time = receipt time) or an 8-byte little-endian float64
 * capture time in ms followed by the image bytes. Text messages are JSON ClientMessages.
 */
export const FRAME_HEADER_BYTES = 8;

/** Client → server text messages (camera and live sockets). */
export const ClientMessageSchema = Type.Union([
  Type.Object({ type: Type.Literal('hello'), protocolVersion: Type.Integer(), client: Type.Optional(Type.String({ maxLength: 80 })) }),
  Type.Object({ type: Type.Literal('ping'), id: Type.Optional(Type.Integer()) }),
  /** Live socket: ask for (or stop) per-frame `observations` messages (off by default; overlay uses them). */
  Type.Object({ type: Type.Literal('subscribe'), observations: Type.Boolean() }),
]);
export type ClientMessage = Static<typeof ClientMessageSchema>;

/** Server → client messages. */
export const ServerMessageSchema = Type.Union([
  Type.Object({ type: Type.Literal('welcome'), protocolVersion: Type.Literal(PROTOCOL_VERSION), tableId: Type.String(), role: RoleSchema, serverTimeMs: Type.Number() }),
  /** Sent on connect (live socket) and after a restart/replay: everything a viewer needs. */
  Type.Object({ type: Type.Literal('snapshot'), table: TableInfoSchema, view: TableViewSchema, stats: PipelineStatsSchema, recentEvents: Type.Array(LoggedEventSchema) }),
  /** A new event entered the log. */
  Type.Object({ type: Type.Literal('event'), entry: LoggedEventSchema }),
  /** The view changed (after one or more events). */
  Type.Object({ type: Type.Literal('view'), view: TableViewSchema }),
  /** The table's setup changed (calibration, enrolment, source). */
  Type.Object({ type: Type.Literal('table'), table: TableInfoSchema }),
  /** One processed frame (live sockets that subscribed; at most ~15 per second). */
  Type.Object({ type: Type.Literal('observations'), frame: FrameObservationsSchema }),
  /** Pipeline counters, about once a second. */
  Type.Object({ type: Type.Literal('stats'), stats: PipelineStatsSchema }),
  /** Camera socket: acknowledges frames, about once a second (never per frame). */
  Type.Object({ type: Type.Literal('frame-ack'), lastSeq: Type.Integer(), stats: PipelineStatsSchema }),
  Type.Object({ type: Type.Literal('pong'), id: Type.Optional(Type.Integer()), serverTimeMs: Type.Number() }),
  Type.Object({ type: Type.Literal('error'), code: Type.String(), message: Type.String() }),
]);
export type ServerMessage = Static<typeof ServerMessageSchema>;

/** WebSocket close codes the server uses (4000–4999 are application codes). */
export const CLOSE_CODES = {
  normal: 1000,
  /** Message too big (frame over the byte limit). */
  tooBig: 1009,
  badToken: 4001,
  forbidden: 4003,
  tableNotFound: 4004,
  /** A newer camera connected to the same table. */
  replaced: 4009,
  protocolMismatch: 4010,
  badMessage: 4400,
  rateLimited: 4429,
} as const;

// ---------------------------------------------------------------------------------------------
// Referee actions (REST bodies)
// ---------------------------------------------------------------------------------------------

/** POST /api/tables/:id/call */
export const ManualCallSchema = Type.Object({ player: PlayerRef });
/** POST /api/tables/:id/disputes/:disputeId/overrule */
export const OverruleSchema = Type.Object({ winner: PlayerRef });
/** POST /api/tables/:id/corrections: score-sort correction, recorded in the log. */
export const CorrectionSchema = Type.Object({
  player: PlayerRef,
  centreCards: Type.Optional(Type.Integer({ minimum: 0, maximum: 312 })),
  nertsLeft: Type.Optional(Type.Integer({ minimum: 0, maximum: 52 })),
  reason: Type.String({ minLength: 1, maxLength: 200 }),
});
/** PUT /api/tables/:id/source */
export const SetSourceSchema = Type.Object({ source: FrameSourceSchema });
/** POST /api/tables/:id/faces/:code/enroll: the card's outline in the latest camera frame (pixels); default the largest card seen. */
export const EnrollSchema = Type.Object({ corners: Type.Optional(QuadSchema) });
/**
 * POST /api/tables/:id/decks/:deckId/enroll: the back's outline in the latest camera frame
 * (pixels; default the largest back seen), and whether this view starts the deck's views over.
 */
export const EnrollBackSchema = Type.Object({
  corners: Type.Optional(QuadSchema),
  /** Start over from this view (a bad earlier view); default: add it to the deck's views, the oldest dropped past `MAX_BACK_VIEWS`. */
  replace: Type.Optional(Type.Boolean()),
});

/** Helper for route schemas: the same error body for every listed status. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBodySchema]));
}
