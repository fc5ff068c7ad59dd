/**
 * The recogniser's public contract: frames in, per-frame card observations out.
 * Server, tracker and tests depend only on this file; the TF.js implementation and a fake
 * implementation both satisfy it.
 */
import type { CardCode } from '../game/cards';
import type { PixelRect } from './change';

/** A point in image pixels (x right, y down). */
export type Point = [number, number];

/** Four corners of a card in image pixels: top-left, top-right, bottom-right, bottom-left of the card itself. */
export type Quad = [Point, Point, Point, Point];

/** A zone of the table set by calibration: the centre, or one area of a seat. */
export interface CalibrationZone {
  id: string; // e.g. 'centre', 'seat-0', 'seat-0/nerts'
  kind: 'centre' | 'seat' | 'nerts' | 'work' | 'waste' | 'stock';
  seat?: number;
  /** Polygon on the table plane, table millimetres, origin at the table's centre (x right, y down, as in the scene). */
  polygonMm: Array<[number, number]>;
}

/** How the camera sees the table: the table plane from four image points, plus zones. */
export interface TableCalibration {
  /** Image size the calibration was taken at, pixels. */
  imageWidth: number;
  imageHeight: number;
  /** Image points of the table rectangle's corners (TL, TR, BR, BL), pixels. */
  imageCorners: Quad;
  /** The table rectangle those corners span, millimetres. */
  tableWidthMm: number;
  tableHeightMm: number;
  zones: CalibrationZone[];
}

/** One card the recogniser saw in one frame. */
export interface CardObservation {
  /** A face (one of the 52) or a back (an enrolled back design). */
  kind: 'face' | 'back';
  code?: CardCode;
  /** Enrolled back design id (usually the deck id) when kind = 'back'. */
  backId?: string;
  /** 0..1 */
  confidence: number;
  /**
   * For a face: the likeliest faces, best first (the first is `code`), each with P(this face | a
   * face). The tracker weighs them against what the game allows where the card lies.
   */
  alternatives?: Array<{ code: CardCode; p: number }>;
  /** Card outline in image pixels; for a partly visible card, the extrapolated full card. */
  corners: Quad;
  /**
   * For a card read by its index corner because it lies under others (a fan, a cascade): the
   * part of it that shows, a rectangle in the card's own frame (image pixels, like `corners`).
   */
  visible?: Quad;
  /** Zone id from the calibration, when calibrated. */
  zone?: string;
  /**
   * A face on a Nerts pile or in the centre: its look, a unit vector (the identity model's
   * embedding) that stays the same while the card does and differs for the next card, so the
   * tracker can count cards it cannot name (webcam resolution, court cards): cards leaving a Nerts
   * pile, cards landing on a foundation. Faces on Nerts piles are reported whatever their
   * confidence, centre faces down to the recogniser's centre floor.
   */
  look?: number[];
}

/** One group of changed cells between two frames. */
export interface MotionBlob {
  /** Seats whose zones it touches (calibrated tables; empty otherwise). */
  seats: number[];
  /** Centres of its changed cells, image pixels. */
  cells: Point[];
  /** Side of a cell (the larger), pixels. */
  cellSize: number;
}

/** Everything seen in one frame. */
export interface FrameObservations {
  timestampMs: number;
  width: number;
  height: number;
  cards: CardObservation[];
  /**
   * What moved since the recogniser's previous frame, one entry per group of touching changed
   * cells (a hand carrying a card, with the arm behind it); absent when it did not compare frames.
   */
  motion?: MotionBlob[];
  /** Per-stage timings, milliseconds. */
  timingsMs?: Record<string, number>;
}

/** A frame handed to the recogniser: encoded bytes (JPEG, PNG, WebP) or raw RGB pixels. */
export type FrameInput =
  | { kind: 'encoded'; data: Uint8Array }
  | { kind: 'rgb'; data: Uint8Array; width: number; height: number };

/** The recogniser behind a small interface so the server and tests can use a fake. */
/** Options of one Recognizer.recognize call. */
export interface RecognizeOptions {
  /**
   * Localise the whole frame and read every card now, however many changed, reusing only the
   * backs read on earlier frames (default false: live frames re-localise what changed, reuse
   * the readings of cards that look as they did, and may leave some cards for later).
   */
  everyCard?: boolean;
  /**
   * The frame is from the score sort (taken after the hand's call): no card lands on the centre
   * piles any more, so the recogniser looks for lost pile tops less often (probe.ts probeDue).
   */
  scoreSort?: boolean;
}

export interface Recognizer {
  /**
   * Recognises one frame of the table's stream. A live recogniser may leave some changed cards
   * for a later frame to bound a frame's time (see READS_PER_FRAME); `everyCard` reads them all
   * (a single frame someone asked about).
   */
  recognize(frame: FrameInput, timestampMs: number, options?: RecognizeOptions): Promise<FrameObservations>;
  /** Enrol a deck's back design from a few views (crops of the back, RGB or encoded), replacing earlier ones. */
  enrollBack(backId: string, views: FrameInput[]): Promise<void>;
  /**
   * Improve a face deck that reads badly by enrolling a few of its cards: sets the views `code`
   * is recognised from, replacing earlier ones; no views forgets the face.
   */
  enrollFace(code: CardCode, views: FrameInput[]): Promise<void>;
  setCalibration(calibration: TableCalibration | null): void;
  dispose(): void;
}

/**
 * A frame between the two stages of a staged recogniser: what the first stage found, for the
 * second to read. Structured-cloneable, so it may cross to another thread; `buffers` (inside
 * `data`) are moved there, not copied.
 */
export interface LocatedFrame {
  timestampMs: number;
  /**
   * The image regions that changed since the frame localised before (pixels; null: the whole
   * frame was localised afresh), and what moved. When the pool skips a localised frame unread,
   * these are merged into the next one (see mergeSkippedLocated), so the reading stage still
   * learns of every change since the frame it read last.
   */
  changed: PixelRect[] | null;
  motion?: MotionBlob[];
  /** The recogniser's own hand-over (the real one: the frame's pixels and its outlines). */
  data: unknown;
  /** ArrayBuffers inside `data` that may be transferred. */
  buffers: ArrayBuffer[];
  /** The first stage's timings, ms (carried into FrameObservations.timingsMs). */
  timingsMs?: Record<string, number>;
}

/**
 * A recogniser whose `recognize` is two stages, `readFrame(await locateFrame(...))`, each using
 * and updating only its own half of the recogniser's state: localisation (what changed since the
 * frame before, where the cards lie) and reading (tracks, memories, the CNNs). A live table may
 * then locate frame N+1 on one thread's copy while another thread's copy reads frame N: each copy
 * sees every frame in order, for its own stage (server/workers/pool.ts).
 */
export interface StagedRecognizer extends Recognizer {
  locateFrame(frame: FrameInput, timestampMs: number, options?: RecognizeOptions): Promise<LocatedFrame>;
  readFrame(located: LocatedFrame, options?: RecognizeOptions): Promise<FrameObservations>;
}

/**
 * `newer` standing for `older` too, which is skipped unread: the changes and motion of both (a
 * region changed in either changed since the frame read last; null, the whole frame, wins).
 */
export function mergeSkippedLocated(older: LocatedFrame, newer: LocatedFrame): LocatedFrame {
  const changed = older.changed && newer.changed ? [...older.changed, ...newer.changed] : null;
  const motion = older.motion || newer.motion ? [...(older.motion ?? []), ...(newer.motion ?? [])] : undefined;
  return { ...newer, changed, ...(motion ? { motion } : {}) };
}

/** Whether a recogniser can run as two stages. */
export function isStaged(recognizer: Recognizer): recognizer is StagedRecognizer {
  const staged = recognizer as Partial<StagedRecognizer>;
  return typeof staged.locateFrame === 'function' && typeof staged.readFrame === 'function';
}
