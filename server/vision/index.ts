/**
 * The TF.js card recogniser: createRecognizer(config) → Recognizer (see types.ts).
 * Pipeline per frame, one stage per file: decode → (calibration: table plane, card size, zones)
 * → locate cards → per-card crops → identity CNN (only for cards that moved or changed) →
 * enrolment (back design / face boosts) → observations. Every tensor is freed inside a call.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import type { CardCode } from '../game/cards';
import { pointInPolygon, polygonArea, quadCentre, quadLongSide, quadShortSide, sameCorners, scaleQuad, shareInside } from '../geometry';
import { backColourOf, designColourDistances, plainPalePatch, type BackColour } from './back-colour';
import { initBackend, type VisionBackend } from './backend';
import { BACK_EMBED_SIZE, CARD_ASPECT, CROP_HEIGHT, CROP_WIDTH, INDEX_HEIGHT, INDEX_REGION, INDEX_WIDTH } from './classes';
import { alignedRect, blobsOf, boundingRect, compareThumbs, cropRegion, deepestRegion, greyThumb, grownRect, imageRect, mergeThrifty, rectContains, rectIntersection, rectsOverlap, refreshTile, regionsOf, totalArea, type GreyThumb, type MovingBlobs, type PixelRect } from './change';
import { cropCard, indexCornerQuads, rectQuad, subQuad, type RgbImage } from './crop';
import { decodeFrame } from './decode';
import { BackLooks, backByLooks, backConfidence, EnrollmentStore, LOOK_RESCUE, mayBeBack, nameBackDesign, OTHER_RESCUE_UNCALIBRATED } from './enrollment';
import {
  backEvidence,
  DEFAULT_INDEX_FUSION,
  decideFromIndex,
  decideIdentity,
  identityOutputs,
  identityReadingOf,
  indexOutputsOf,
  localCnn,
  readBackLooks,
  readIndex,
  readingRows,
  rejectIndexless,
  type Identity,
  type IdentityOutputs,
  type IndexFusion,
  type IndexOutputs,
  type IndexReading,
  type IdentityReading,
} from './identify';
import { runCnn, runLocate, type Helper, type LocatePart, type RunCnn, type RunLocate } from './inference';
import { addAsRivals, detectionScale, dropFragments, dropFrameOutlines, dropLinesHoldingCards, dropOversizeHoldingCards, dropRepeatedOutlines, keepSurestRivals, FRAGMENT_BACK_SHARE, FRAGMENT_FACE_SHARE, OVERSIZE_BACK_SHARE, OVERSIZE_OUTLINE, REPEATED_OUTLINE_OVERLAP, LOCATE_DEFAULTS, locateCards, oneOutlinePerNertsPile, outlinesRepeat, paleTableShare, regionRivalGroup, suppressNested, visiblePart, wholesOfPieces, withCutCards, squatOutline, quarterTurned, orderCardQuad, type LocatedCard, type LocateOptions } from './locate';
import { planeSizer } from './card-size';
import { cardGeometry, cardOfSizeAbout, geometryQuad, LOCATOR_ALIGN, locatorScaleForCard, locatorScales, refineLocated, runLocator, SURE_DETECTION, sureCardsClaimedAmiss, typicalCardSize, unionOfLocated, newRivalGroup } from './locator';
import { refineGeometry, REFINE_DEFAULTS, toGrey } from './refine';
import { dealtGaps, gapShowsDesign, GAP_LOOK } from './dealt-gaps';
import { cardShapedEnds, STRIP_LOOK, stripHypotheses, type StripCard } from './strips';
import { loadInferenceModelFromDir, readModelMetadata } from './model-io';
import { loadOpenCv, type OpenCv } from './opencv';
import { pileReadAsNoCard, placesToProbe, PROBE_DEFAULTS, probeDue, probePile, probeSpanPolygon, rememberCentreCards, type LastProbe, type RememberedCard } from './probe';
import { playArea, tablePlane, zoneAt, zoneImagePolygon, type TablePlane } from './rectify';
import { cardThumbnail, isCountedZone, isNertsZone, isSeatZone, readsThisFrame, READS_PER_FRAME, steadyOutlines, TrackMemory } from './tracking';
import type { CardObservation, FrameInput, FrameObservations, LocatedFrame, MotionBlob, Point, Quad, RecognizeOptions, StagedRecognizer, TableCalibration } from './types';

/** Default model folders: models/card-identity and models/card-index at the repo root. */
export const DEFAULT_MODEL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'models', 'card-identity');
export const DEFAULT_INDEX_MODEL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'models', 'card-index');
export const DEFAULT_LOCATOR_MODEL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'models', 'card-locator');
/** The back-look model (tells enrolled back designs apart; see datasets/lib/back-embed.ts). */
export const DEFAULT_BACK_MODEL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'models', 'back-looks');
export const DEFAULT_LIVE_MODEL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'models', 'card-identity-live');
export const DEFAULT_LIVE_INDEX_MODEL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'models', 'card-index-live');

/**
 * A card whose long side in the image is under this many pixels is read by the live-size models
 * when they are loaded and the card is one they read (see LiveModelUse; `models/card-index-live`:
 * the full index model's layers after a 2x2 average, a quarter of the work). A whole-table webcam
 * sees a card at about 36x50 pixels, so its 64x96 crop is half blur; the full models read close
 * views (photos, crops).
 */
export const LIVE_MODEL_BELOW_PX = 72;

/** How often a calibrated table's cloth is measured for paleness (see checkPaleCloth), ms. */
const PALE_CLOTH_CHECK_MS = 10_000;
/**
 * A back is also enrolled from the middle of each view, this share of its width and height kept
 * (see `backMiddle` in the config).
 */
export const BACK_MIDDLE_KEEP = 0.78;

/**
 * Which small cards the live-size models read: none ('off', the default); those in a player's own
 * area of a calibrated table, outside the Nerts pile ('seats'); or every one ('all'). Measured
 * (models/MODEL_CARD.md, session 16): 'seats' gives frames about 15 % shorter and referees
 * recorded games about as well, but in live full-pipeline runs it credited a hard-to-read deck's
 * plays to other players (centre error 2.7–3.3 per player against 1.3–1.8), so it is opt-in;
 * 'all' (session 15) also gave whole centre piles the wrong suit.
 */
export type LiveModelUse = 'off' | 'seats' | 'all';

/**
 * What a recogniser's `trace` sees (RecognizerConfig.trace): the outlines of each localiser
 * ('classical', the learned 'net' unrefined, and 'located', what the frame's reading starts from)
 * of the part of the frame whose top-left lies at `origin`; then every outline read, with its
 * whole-crop reading and what its index corner alone names.
 */
export type TraceEvent =
  | { stage: 'classical' | 'net' | 'located'; origin: Point; cards: LocatedCard[] }
  | { stage: 'read'; cards: Array<{ corners: Quad; source: LocatedCard['source']; identity: Identity; fromIndex: Identity | null }> };

/** Which models read a crop: the full-size ones, or the live-size ones (see LIVE_MODEL_BELOW_PX). */
export type ModelScale = 'full' | 'live';

/** Options for createRecognizer. */
export interface RecognizerConfig {
  /** Folder holding model.json + weights.bin (default models/card-identity). */
  modelDir?: string;
  /**
   * The index-corner model's folder (default models/card-index, used when present); null reads
   * the whole-card crop only.
   */
  indexModelDir?: string | null;
  /**
   * The learned locator's folder (default models/card-locator, used when present); null finds
   * cards with the classical OpenCV localiser (locate.ts).
   */
  locatorModelDir?: string | null;
  /**
   * Which frames the learned locator (when loaded) searches besides the classical localiser:
   * 'every-frame' (default), or 'whole-reads', only frames read whole (`everyCard`: the score
   * sort's reads once a second, single POSTed frames); on every tracked frame it cost a live
   * table 4.9 instead of about 15 frames a second (see ServerConfig.learnedLocator). On the 6-player sort a
   * near-black checked back at 28 px wide had no classical outline in 5–7 of 9 frames read whole
   * (its inner field's edges broke up with the frame's noise); the net found 7–9 of 9.
   */
  learnedLocatorOn?: LearnedLocatorUse;
  /**
   * Without a calibration, look again at outlines clearly smaller than the frame's sure cards as a
   * card of their size (default true; see lookAtTypicalSize).
   */
  typicalSizeLook?: boolean;
  /** Without a calibration, look for cards whose strip shows beside a sure face (default true; see lookForStrips). */
  stripLook?: boolean;
  /** Without a calibration, read squat outlines read as no card again a quarter turn on (default true; see lookQuarterTurned). */
  quarterTurnLook?: boolean;
  /** At the score sort's whole reads, look at the gaps in the dealt rows (default true; see fillDealtGaps). */
  dealtGapLook?: boolean;
  /**
   * Called with each stage's outlines and every outline's reading, for diagnosis (`npm run trace`):
   * costs nothing when unset. In-process only (a function does not cross to a worker thread).
   */
  trace?: (event: TraceEvent) => void;
  /**
   * The back-look model's folder (default models/back-looks, used when present): names a card
   * read as "a back" by the nearest enrolled design in its own embedding; null names it by the
   * whole-card model's embedding.
   */
  backModelDir?: string | null;
  /**
   * Each enrolled back view's middle is enrolled too, this share of its width and height kept
   * (default BACK_MIDDLE_KEEP; 1: views only). The live localiser's outline of a back often
   * lies inside the card's edge, on the pattern's own rectangle, and a view with its border
   * then looked like another deck. Middles only name designs: they add no evidence that a
   * crop is a back at all, which would take cloth for backs.
   */
  backMiddle?: number;
  /** How the whole-card and index-corner readings combine (default DEFAULT_INDEX_FUSION). */
  indexFusion?: Partial<IndexFusion>;
  /** Force a backend (default: best that loads, tfjs-node → wasm → cpu). */
  backend?: VisionBackend;
  /** Reuse identities of cards that neither moved nor changed since the last frame (default true). */
  tracking?: boolean;
  /**
   * Read each crop turned 180 degrees too and average the two readings (cards lie either way
   * up): always, never, or (default) only where it matters — a crop not surely a face after one
   * reading, and every card on a Nerts pile or in the centre (the tracker compares those cards'
   * looks, which must not depend on which way up the outline was traced). See ONE_WAY_SURE.
   * With 'when-unsure', a card outside those zones that is smaller in the frame than
   * `oneWayBelowPx` is read one way only (see ONE_WAY_BELOW_PX).
   */
  bothWays?: boolean | 'when-unsure';
  /** Card length (pixels in the frame) under which 'when-unsure' reads one way up (default ONE_WAY_BELOW_PX; 0: never). */
  oneWayBelowPx?: number;
  /**
   * Which cards seen small the live-size models read (see LiveModelUse and LIVE_MODEL_BELOW_PX):
   * those in `models/card-identity-live` and `models/card-index-live` that exist, unless the
   * folders are given below. Default 'off' ('all' when a folder is given).
   */
  liveModels?: LiveModelUse;
  /** Live-size whole-card model folder (default: with liveModels 'seats' or 'all', models/card-identity-live when present; null: none). */
  liveModelDir?: string | null;
  /** Live-size index-corner model folder (default: with liveModels 'seats' or 'all', models/card-index-live when present; null: none). */
  liveIndexModelDir?: string | null;
  /** Card length (pixels in the image) under which the live-size models read it (default LIVE_MODEL_BELOW_PX; 0: never). */
  liveBelowPx?: number;
  /** How much wider the second look at an unsure outline is, on a calibrated table with enrolled backs (default BACK_WIDER_LOOK; 1: no second look). */
  backWiderLook?: number;
  /**
   * Observations below this confidence (0..1) are dropped (default 0.6, measured on the real
   * table photos with face confidence P(a face) x P(this face): 0.5 found 58.6 % at 83.7 %
   * precision, 0.6 found 58.1 % at 91.1 %).
   */
  minConfidence?: number;
  /**
   * With a calibration, faces in the centre are reported from this confidence (default: the
   * lower of minConfidence and 0.15): the tracker reads them against the pile they lie on, and a
   * faint reading of the card the pile expects next is evidence (see the tracker's
   * expectedCardMinConfidence).
   */
  centreMinConfidence?: number;
  /**
   * Most changed cards the CNNs read in one tracked frame (default READS_PER_FRAME), unless more
   * of them lie in the centre and on Nerts piles (those are always read); the players' other
   * cards wait for a later frame. Bounds a frame's time when hands move everywhere at once.
   * Untracked frames and `everyCard` calls read every card.
   */
  maxReadsPerFrame?: number;
  /**
   * On tracked frames, read an outline at a new place only once it is steady: the last frame
   * had an outline there too (see steadyOutlines). A card put down is read one frame after it
   * lands; the outlines found on moving hands and arms, which on a busy 6-player table were a
   * third of the centre's new outlines, are not read at all. Default true.
   */
  readWhenSteady?: boolean;
  /**
   * Another thread that may read half of each CNN batch, and localise some of a frame's changed
   * regions, while this one does the rest (see inference.ts; the recognition workers lend each
   * other their idle time). Default: none.
   */
  helper?: Helper | null;
  log?: (message: string) => void;
}

/** The recogniser plus what eval and benchmarks need beyond the shared interface. */
export interface CardRecognizer extends StagedRecognizer {
  /** Backend in use. */
  readonly backend: VisionBackend;
  /** Identifies single-card crop images (whole card filling the image), no localisation. */
  identifyCrops(views: FrameInput[]): Promise<Array<Identity & { backId?: string }>>;
}

const CROP_SIZE = CROP_WIDTH * CROP_HEIGHT * 3;
const CORNER_SIZE = INDEX_WIDTH * INDEX_HEIGHT * 3;

/** An optional model's folder: as configured (null: none), else the default when it holds a model. */
function optionalModelDir(dir: string | null | undefined, fallback: string): string | null {
  return dir === undefined ? (existsSync(path.join(fallback, 'model.json')) ? fallback : null) : dir;
}

/**
 * Which small cards the live-size models read (see LiveModelUse): as configured, else every one
 * when a live-size model's folder is given (`npm run eval -- --live-model DIR`), else none.
 */
function liveModelUseOf(config: RecognizerConfig): LiveModelUse {
  return config.liveModels ?? (config.liveModelDir || config.liveIndexModelDir ? 'all' : 'off');
}

/** A live-size model's folder: as configured, else (with `liveModels` 'seats' or 'all') the default when it holds a model, else none. */
function liveModelDir(config: RecognizerConfig, key: 'liveModelDir' | 'liveIndexModelDir', fallback: string): string | null {
  return config[key] !== undefined ? config[key]! : (config.liveModels ?? 'off') !== 'off' ? optionalModelDir(undefined, fallback) : null;
}

/** Loads the model and OpenCV, and returns a ready recogniser. */
export async function createRecognizer(config: RecognizerConfig = {}): Promise<CardRecognizer> {
  if (config.backMiddle !== undefined && !(config.backMiddle > 0 && config.backMiddle <= 1)) throw new Error(`backMiddle must be above 0 and at most 1, not ${config.backMiddle}`);
  if (config.backWiderLook !== undefined && !(config.backWiderLook >= 1 && config.backWiderLook <= 1.5)) throw new Error(`backWiderLook must be from 1 to 1.5, not ${config.backWiderLook}`);
  const log = config.log ?? ((m: string) => console.error(m));
  const backend = await initBackend({ prefer: config.backend, log });
  const modelDir = config.modelDir ?? DEFAULT_MODEL_DIR;
  const indexDir = optionalModelDir(config.indexModelDir, DEFAULT_INDEX_MODEL_DIR);
  const locatorDir = optionalModelDir(config.locatorModelDir, DEFAULT_LOCATOR_MODEL_DIR);
  const liveDir = liveModelDir(config, 'liveModelDir', DEFAULT_LIVE_MODEL_DIR);
  const liveIndexDir = liveModelDir(config, 'liveIndexModelDir', DEFAULT_LIVE_INDEX_MODEL_DIR);
  const backDir = optionalModelDir(config.backModelDir, DEFAULT_BACK_MODEL_DIR);
  const [model, metadata, { cv }, indexModel, locatorModel, liveModel, liveMetadata, liveIndexModel, backModel] = await Promise.all([
    loadInferenceModelFromDir(modelDir),
    readModelMetadata(modelDir),
    loadOpenCv(),
    indexDir ? loadInferenceModelFromDir(indexDir) : Promise.resolve(null),
    locatorDir ? loadInferenceModelFromDir(locatorDir) : Promise.resolve(null),
    liveDir ? loadInferenceModelFromDir(liveDir) : Promise.resolve(null),
    liveDir ? readModelMetadata(liveDir) : Promise.resolve(null),
    liveIndexDir ? loadInferenceModelFromDir(liveIndexDir) : Promise.resolve(null),
    backDir ? loadInferenceModelFromDir(backDir) : Promise.resolve(null),
  ]);
  const names = metadata.classNames;
  if (!Array.isArray(names) || names.length !== (model.outputs[0].shape[1] ?? -1)) throw new Error(`model at ${modelDir} lacks classNames metadata matching its output`);
  if (liveMetadata && liveMetadata.live !== true) throw new Error(`model at ${liveDir} is not a live-size model (train one with \`npm run train -- --live\`)`);
  if (liveMetadata && JSON.stringify(liveMetadata.classNames) !== JSON.stringify(names)) throw new Error(`live-size model at ${liveDir} has other classes than ${modelDir}`);
  log(
    `[vision] models: ${path.basename(modelDir)}${indexModel ? ` + ${path.basename(indexDir!)} (index corners)` : ' (no index-corner model)'}` +
      (locatorModel ? ` + ${path.basename(locatorDir!)} (learned locator)` : ' (classical localiser)') +
      (liveModel || liveIndexModel ? `; live size: ${[liveModel && path.basename(liveDir!), liveIndexModel && path.basename(liveIndexDir!)].filter(Boolean).join(' + ')}` : '') +
      (backModel ? `; backs told apart by ${path.basename(backDir!)}` : ''),
  );
  return new TfjsRecognizer({ model, indexModel, locatorModel, liveModel, liveIndexModel, backModel }, names as string[], cv, backend, config);
}

/**
 * The CNNs alone (whole card and index corners), for a thread that reads other threads' batches
 * (see inference.ts). Same model folders and backend choice as createRecognizer.
 */
export async function loadCnn(config: Pick<RecognizerConfig, 'modelDir' | 'indexModelDir' | 'liveModels' | 'liveModelDir' | 'liveIndexModelDir' | 'backend' | 'log'> = {}): Promise<RunCnn> {
  await initBackend({ prefer: config.backend, log: config.log ?? (() => {}) });
  const load = (dir: string | null) => (dir ? loadInferenceModelFromDir(dir) : Promise.resolve(null));
  const [identity, index, identityLive, indexLive] = await Promise.all([
    loadInferenceModelFromDir(config.modelDir ?? DEFAULT_MODEL_DIR),
    load(optionalModelDir(config.indexModelDir, DEFAULT_INDEX_MODEL_DIR)),
    load(liveModelDir(config, 'liveModelDir', DEFAULT_LIVE_MODEL_DIR)),
    load(liveModelDir(config, 'liveIndexModelDir', DEFAULT_LIVE_INDEX_MODEL_DIR)),
  ]);
  return localCnn({ identity, index, identityLive, indexLive });
}

/** The classical localiser on image parts, on this thread (outlines round a whole part dropped). */
function localLocate(cv: OpenCv): RunLocate {
  return async (parts) => parts.map(({ image, options }) => dropFrameOutlines(locateCards(cv, image, options), image.width, image.height));
}

/** The classical localiser alone, for a thread that searches other threads' regions (see inference.ts). */
export async function loadLocate(): Promise<RunLocate> {
  return localLocate((await loadOpenCv()).cv);
}

interface TrackedIdentity {
  identity: Identity;
  /** Which models read it: its embedding is comparable only with looks and enrolments of the same. */
  scale: ModelScale;
  embedding: Float32Array;
  /** The face its index corner alone shows, if one clearly does (see coveredCards). */
  fromIndex: Identity | null;
  /** What its index corners read, when the index model ran. */
  index?: IndexReading;
  /** Its back-look embedding (L2-normalised), for a card read as a back while back looks are enrolled. */
  backLook?: Float32Array;
  /** Its colour (see back-colour.ts), for a card read as a back while back looks are enrolled. */
  backColour?: BackColour;
  /** When a frame's card was read, frame time (ms). */
  readAtMs?: number;
}

/**
 * Localiser sources that outline a whole card (a blob, a closed edge or colour-edge outline, one
 * grown to the calibrated size), as against a hypothesis split from a bigger blob, a probe or a
 * fit: an unsure face among them may be judged an enrolled back by its looks (backByLooks).
 */
const WHOLE_OUTLINES: ReadonlySet<LocatedCard['source']> = new Set(['single', 'grown', 'chroma']);

/** Which frames the learned locator searches (see RecognizerConfig.learnedLocatorOn). */
export type LearnedLocatorUse = 'every-frame' | 'whole-reads';

/** How long a faint reading of a counted card is reused before the card is read again, ms of frame time (see dueForRereading). */
export const FAINT_REREAD_MS = 300;

/**
 * Whether a remembered reading should not be reused but the card read again: on a pile whose
 * cards are counted (the centre, a Nerts pile), a reading that is not a face or back at least
 * `floor` sure, read FAINT_REREAD_MS ago or longer. A card read as a hand's edge still covered it
 * (a 2S on a foundation read as 2C at 0.15) lies still afterwards and looks the same, so without
 * this the faint reading stood, unreported, for as long as nothing moved there: 2.5 s on a live
 * 3-player hand, though every single frame showed the card clearly.
 */
export function dueForRereading(track: TrackedIdentity, zone: string | undefined, nowMs: number, floor: number): boolean {
  if (!isCountedZone(zone) || track.readAtMs === undefined) return false;
  const { identity } = track;
  const faint = identity.kind === 'other' || identity.confidence < floor;
  return faint && nowMs - track.readAtMs >= FAINT_REREAD_MS;
}

/** A card with its reading, where it lies, and for a card under others the part that shows. */
export type ReadCard = LocatedCard & { id: TrackedIdentity; zone: string | undefined; visible?: Quad };

/**
 * How much of a hypothesised card must lie under surely read cards for it to be read by its
 * corner, and how much must show. An outline holding more than `maxUnder` of it is no card on top
 * of it (the hypothesis would not show) but one drawn round it and its neighbour.
 */
export const COVERED_CARD = { minUnder: 0.2, minShown: 0.1, maxUnder: 0.9 } as const;

/** Whether `other` covers part of `card`, as a card lying on it does (COVERED_CARD). */
function coversPart(card: ReadCard, other: ReadCard): boolean {
  const under = shareInside(card.corners, other.corners);
  return under >= COVERED_CARD.minUnder && under <= COVERED_CARD.maxUnder;
}

/** Outline sources that guess a card's extent where it may lie under others (see coveredCards). */
const HYPOTHESES: ReadonlySet<LocatedCard['source']> = new Set(['split', 'net', 'strip']);

/**
 * Whether `other` is another guess at the card under others that `card` guesses: both hypotheses
 * (HYPOTHESES), read as the same face (`code`), mostly overlapping as dropRepeatedOutlines judges
 * repeats. Two guesses at one card's size must not cover each other: the photo IMG_2599's KC, a
 * strip beside a JD, was hypothesised twice and so read as "the card on top of it again". A whole
 * outline read as that face, lying on part of it, still covers it: that is the card on top.
 */
function sameHypothesis(other: ReadCard, card: ReadCard, code: string | undefined): boolean {
  const identity = other.id.identity;
  return HYPOTHESES.has(other.source) && identity.kind === 'face' && identity.code === code && outlinesRepeat(card.corners, other.corners);
}

/** An outline this much inside a hypothesis lies on no part of the card beyond it (ownPart). */
const OWN_PART_INSIDE = 0.9;

/**
 * Whether `other`, read as the same face, outlines a part of the card `card` guesses (a straight-
 * edge or learned outline of the strip that shows): it lies almost wholly inside the guess, so it
 * is the card under others itself, not a card on top. Photo IMG_2616: a JC strip beside a 10D,
 * outlined by its straight edges and read as JC, hid the JC's hypothesis as "the card on top of it
 * again", and the hypothesis was reported whole, across the 10D.
 */
function ownPart(other: ReadCard, card: ReadCard, code: string | undefined): boolean {
  const identity = other.id.identity;
  return identity.kind === 'face' && identity.code === code && shareInside(other.corners, card.corners) >= OWN_PART_INSIDE;
}

/**
 * Whether a card read by its corner (`visible`) shows that corner outside `bigger`: then it is no
 * picture frame of that card (suppressNested) but a card lying under it, its strip beside it.
 */
export function showsBeside(nested: ReadCard, bigger: ReadCard): boolean {
  return nested.visible !== undefined && visiblePart(nested.corners, [bigger.corners], INDEX_REGION).indexShows;
}

/**
 * Of one card's outlines read as the same face, the surest stays (dropRepeatedOutlines); without a
 * calibration, a reading up to `tie` surer does not outweigh an outline of the frame's card size
 * (typicalCardSize): this is added to a reading's confidence, `tie` for an outline of that short
 * side, falling to nothing at `off` times or 1/`off` of it. Rendered scenes: a 9D outlined a fifth
 * too big, read 0.99, beat its right-sized outline read 0.98, and hid the AC under it.
 */
export const SIZE_TIE_BREAK = { tie: 0.02, off: 1.25 } as const;

export function sizeTieBreak(corners: Quad, typical: { short: number }, { tie, off } = SIZE_TIE_BREAK): number {
  const short = quadShortSide(corners);
  if (!(short > 0) || !(typical.short > 0)) return 0;
  return tie * Math.max(0, 1 - Math.abs(Math.log(short / typical.short)) / Math.log(off));
}

/**
 * Whether `bigger` is a card lying under others (read by the part that shows, `visible`) and
 * `nested`, read at least as surely, lies with its centre where it is hidden: a card there lies on
 * it, and is no picture frame of it (suppressNested). Rendered scenes: an AD read 0.98 on a 2D of
 * the same pile, whose strip below it was read 2D at 0.73, was hidden as the 2D's picture frame.
 * (A piece of a card read less surely as another face stays its picture frame: photo cam_image11,
 * a 9D read 0.99, the pips of its top corner 4D at 0.75.)
 */
export function onHiddenPart(bigger: ReadCard, nested: ReadCard): boolean {
  return bigger.visible !== undefined && nested.id.identity.confidence >= bigger.id.identity.confidence && !pointInPolygon(bigger.visible, ...quadCentre(nested.corners));
}

/**
 * Whether both models name `nested` surely (BOTH_SURE) as a face other than `bigger`'s: then it is
 * no picture frame of that card but another card, outlined too small (photo IMG_2655: a KD's strip
 * between a 10H and an AC, outlined by the net 97 x 158 pixels with its centre over the 10H, read
 * KD 0.99, its corner KD 0.95).
 */
export function surelyAnotherFace(nested: ReadCard, bigger: ReadCard): boolean {
  const named = bothNameSurely(nested.id);
  return named !== null && (bigger.id.identity.kind !== 'face' || bigger.id.identity.code !== named.code);
}

/** Each of two readings naming one face at least this surely: together they name it (agreeingFace). */
export const AGREEING_FLOOR = 0.45;

/**
 * The surer of a whole-crop and an index-corner reading that name the same face, each at least
 * AGREEING_FLOOR surely, else null: two models seldom agree on a wrong face, so together they
 * name a strip neither names surely alone (photo IMG_2623's JD under an AS: whole 0.60, corner 0.49).
 */
export function agreeingFace(whole: Identity, corner: Identity | null | undefined): Extract<Identity, { kind: 'face' }> | null {
  if (whole.kind !== 'face' || corner?.kind !== 'face' || whole.code !== corner.code) return null;
  if (Math.min(whole.confidence, corner.confidence) < AGREEING_FLOOR) return null;
  return whole.confidence >= corner.confidence ? whole : corner;
}

/**
 * Which strip hypotheses (lookForStrips) are rivals, of which the surest reading stands
 * (keepSurestRivals): for each, a group number (the index of one member), the same for rivals.
 * The candidate ends of one strip (one sure card's side) are rivals where their corners name one
 * face; two ends whose corners name two faces are two cards of a fan, one under the other (each
 * end one card's edge on the next), and both stand (rendered scenes' fanned wastes: a KC and a 7C
 * under a 3D). Hypotheses off two sure cards lying mostly over each other are rivals whatever they
 * read (one card between them, or a sure card outlined at the wrong size: IMG_2623's JD, and a KD
 * read off its too-small outline), unless both lie down one `cascade` (lookForStrips' levels,
 * each a card further under). Pure.
 */
export function stripRivalGroups(hypotheses: ReadonlyArray<{ strip: StripCard; code: CardCode | undefined; cascade?: string }>): number[] {
  const group = hypotheses.map((_, k) => k);
  const root = (k: number): number => (group[k] === k ? k : (group[k] = root(group[k])));
  hypotheses.forEach(({ strip, code, cascade }, k) => {
    for (let j = 0; j < k; j++) {
      const other = hypotheses[j];
      const oneStrip = other.strip.under === strip.under && other.strip.side === strip.side;
      // Two levels of one cascade lie mostly over each other, one card down from the other.
      const oneCascade = cascade !== undefined && other.cascade === cascade;
      if (oneStrip ? other.code === code : !oneCascade && outlinesRepeat(other.strip.corners, strip.corners)) group[root(k)] = root(j);
    }
  });
  return hypotheses.map((_, k) => root(k));
}

/**
 * Whether a card hypothesised under a sure card from its strip (lookForStrips) is another card:
 * its index corner names a face other than the sure card's and those above it down a cascade
 * (`underCodes`), at the `floor`, or with the whole crop agreeing (agreeingFace). The whole crop
 * of such a hypothesis is mostly the sure card, so it alone says little: on the real photos
 * hypotheses off a sure card outlined at the wrong size read as a KD at 0.81 whole (its corner
 * 0.41), and a 10S at 0.69 (corner 0.28).
 */
export function namedByStripCorner(read: Pick<TrackedIdentity, 'identity' | 'fromIndex'>, underCodes: ReadonlySet<CardCode>, floor: number): boolean {
  const corner = read.fromIndex;
  if (corner?.kind !== 'face' || underCodes.has(corner.code)) return false;
  if (corner.confidence >= floor) return true;
  const { identity } = read;
  return identity.kind === 'face' && identity.code === corner.code && Math.min(identity.confidence, corner.confidence) >= STRIP_AGREEING_FLOOR;
}

/**
 * A strip's whole crop and index corner naming one face each at least this surely name it
 * (namedByStripCorner; AGREEING_FLOOR's 0.45 elsewhere). IMG_2624's QH under a 9H read 0.75
 * whole and 0.44 by its corner; the false cards it must keep out read 0.28 by their corner, or
 * 0.41 where a surer hypothesis of the card beside it outranks them (lookForStrips' rivals).
 */
export const STRIP_AGREEING_FLOOR = 0.4;

/**
 * How many cards down a cascade lookForStrips follows strips: the surest card found under a
 * strip is looked beyond on the same side, for the card under it in turn.
 */
export const STRIP_CHAIN_LEVELS = 4;

/** A squat sure outline is cut to its top card (topCardsOfSquat) only with sure faces of this many names showing the frame's card size... */
export const SQUAT_TOP_MIN_SURE = 5;
/** ...and only to a card within this share of that size, along each side. */
export const SQUAT_TOP_SIZE_TOLERANCE = 0.15;

/**
 * Whether a face read under the floor counts all the same (on frames without a calibration): its
 * whole crop and index corner name it alike (agreeingFace), and it lies not mostly
 * (OVER_SURE_SHARE) over one of `sureFaces` (read at the floor) that is another face. The real
 * photos' cards read right but unsure (IMG_2621's JS whole 0.56, corner 0.51; IMG_2631's 10H 0.57
 * and 0.62). On rendered scenes of unseen art a second outline of a card read at the
 * floor was read by both as a look-alike (render_0023: a 7D at 0.80, outlined again, read 6D at
 * 0.59 and 0.6).
 */
export function agreedBelowFloor(card: { corners: Quad; id: Pick<TrackedIdentity, 'identity' | 'fromIndex'> }, sureFaces: ReadonlyArray<{ corners: Quad; id: Pick<TrackedIdentity, 'identity'> }>): boolean {
  const agreed = agreeingFace(card.id.identity, card.id.fromIndex);
  return agreed !== null && !liesOverAnotherFace(card, agreed.code, sureFaces);
}

/** Whether `card` lies mostly (OVER_SURE_SHARE) over one of `sures` (other than itself) read as a face other than `code`. */
function liesOverAnotherFace(card: { corners: Quad }, code: CardCode, sures: ReadonlyArray<{ corners: Quad; id: Pick<TrackedIdentity, 'identity'> }>): boolean {
  return sures.some((sure) => sure !== card && sure.id.identity.kind === 'face' && sure.id.identity.code !== code && shareInside(card.corners, sure.corners) >= OVER_SURE_SHARE);
}

/** A face both models name at least this surely is sure enough to doubt unsure outlines over it (dropUnsureOverSure). */
export const BOTH_SURE = 0.9;
/** An unsure outline with at least this share of its area over such a card is doubted. */
export const OVER_SURE_SHARE = 0.5;

/** The face a card's whole crop and index corner both name at BOTH_SURE or more, else null. */
function bothNameSurely({ identity, fromIndex }: Pick<TrackedIdentity, 'identity' | 'fromIndex'>): Extract<Identity, { kind: 'face' }> | null {
  const agree = identity.kind === 'face' && fromIndex?.kind === 'face' && fromIndex.code === identity.code;
  return agree && identity.confidence >= BOTH_SURE && fromIndex.confidence >= BOTH_SURE ? identity : null;
}

/**
 * Drops faces read less than BOTH_SURE that hold such a card and are far bigger (holdsAnotherFace),
 * and those whose index corner does not name them either and that lie
 * mostly (OVER_SURE_SHARE) over a card whole crop and corner both name surely as another face:
 * such an outline holds part of that card and reads its art as something else. Photo IMG_2622: a
 * straight-edge outline over a KS's strip and the 10C beside it, read JS 0.79 (corner AS 0.12),
 * took the KS's place in the match and, read as a card on top, hid the KS's corner. (Faces read
 * 0.6–0.8 with a disagreeing corner dropped everywhere lost 4 real cards for 12 false ones on the
 * photos in session 46; this asks for the sure card beneath too.)
 */
export function dropUnsureOverSure<T extends { corners: Quad; id: TrackedIdentity }>(cards: T[]): T[] {
  const bothSure = cards.filter((card) => bothNameSurely(card.id) !== null);
  return cards.filter((card) => {
    const { identity, fromIndex } = card.id;
    if (identity.kind !== 'face' || identity.confidence >= BOTH_SURE) return true;
    if (holdsAnotherFace(card, identity.code, bothSure)) return false;
    if (fromIndex?.kind === 'face' && fromIndex.code === identity.code) return true;
    return !liesOverAnotherFace(card, identity.code, bothSure);
  });
}

/** An unsure outline holding this share of a sure card of another face, and this many times its area, is drawn round it (holdsAnotherFace). */
export const HOLDS_SURE = { inside: 0.8, area: 2 } as const;

/**
 * Whether `card` holds most (HOLDS_SURE) of one of `sures` read as another face than `code`, and is
 * far bigger: an outline round that card and what it lies on, read as a look-alike of it
 * (photo IMG_2579: a 9S at 0.62, its corner 9S 0.55, round a 10S read 0.97 and the folder under
 * it). A card under another (a strip's hypothesis) is of that card's size, so never this.
 */
function holdsAnotherFace(card: { corners: Quad }, code: CardCode, sures: ReadonlyArray<{ corners: Quad; id: Pick<TrackedIdentity, 'identity'> }>): boolean {
  return sures.some(
    (sure) =>
      sure !== card &&
      sure.id.identity.kind === 'face' &&
      sure.id.identity.code !== code &&
      shareInside(sure.corners, card.corners) >= HOLDS_SURE.inside &&
      polygonArea(card.corners) >= HOLDS_SURE.area * polygonArea(sure.corners),
  );
}

/**
 * Cards under others, read by their index corner. In a fan or a cascade a card below shows a
 * strip; its outline (a hypothesis at the blob's corners, or the learned locator's) crops mostly
 * the card on top, so the whole-card reading names that one, or a look-alike, or nothing. Where
 * at least COVERED_CARD.minUnder of a hypothesis lies under `onTop` cards (read surely), its
 * index corner shows whole and reads clearly, the card is the face that corner names (unless it
 * names a card on top of it: then it is that card again), reported with the strip that shows.
 * A hypothesis the whole crop reads surely as a face, its corner unsure, is reported with its
 * strip too (photo IMG_2616: a 9S under a QC, its outline reaching across the QC, was a card
 * where no 9S shows).
 * Returns, for each of `cards`, its replacement, or undefined to leave it as read. (Dropping
 * hypotheses mostly under a sure card that their corner does not name was tried on the photos:
 * it lost far more real cards than false ones, see models/MODEL_CARD.md.)
 */
export function coveredCards(cards: ReadCard[], onTop: ReadCard[], floor: number): Array<ReadCard | undefined> {
  const sureFace = (identity: Identity | null | undefined): Extract<Identity, { kind: 'face' }> | null => (identity?.kind === 'face' && identity.confidence >= floor ? identity : null);
  return cards.map((card) => {
    if (!HYPOTHESES.has(card.source)) return undefined;
    const whole = sureFace(card.id.identity);
    // Neither sure alone, both naming one face: read by the corner, which must show.
    const byCorner = sureFace(card.id.fromIndex) ?? (whole ? null : agreeingFace(card.id.identity, card.id.fromIndex));
    // The surer reading where both name one face: a strip must not lose to an outline drawn round it and its neighbour.
    const identity = byCorner && whole?.code === byCorner.code && whole.confidence > byCorner.confidence ? whole : byCorner ?? whole;
    if (!identity) return undefined;
    // A card cut by the frame's edge (withCutCards) shows its in-frame part already, read like a strip.
    if (card.visible) return { ...card, id: { ...card.id, identity } };
    const box = boundingRect(card.corners);
    const covers = onTop.filter(
      (other) =>
        other !== card &&
        rectsOverlap(box, boundingRect(other.corners)) &&
        coversPart(card, other) &&
        !sameHypothesis(other, card, identity.code) &&
        !ownPart(other, card, identity.code) &&
        !stripUnder(other, identity),
    );
    if (!covers.length) return undefined;
    if (covers.some((other) => other.id.identity.kind === 'face' && other.id.identity.code === identity.code)) return undefined;
    const part = visiblePart(card.corners, covers.map((other) => other.corners), INDEX_REGION);
    // Named by its corner, the corner must show; named by the whole crop, the strip that shows is where it is.
    if (part.share < COVERED_CARD.minShown || (byCorner && !part.indexShows) || !part.quad) return undefined;
    return { ...card, id: { ...card.id, identity }, visible: part.quad };
  });
}

/**
 * Whether `other` is a strip's card (lookForStrips: hypothesised beside a sure face, under it)
 * read less surely than `identity`: it lies under that card, and covers no part of it
 * (coveredCards). Rendered scenes: the 2D below an AD of one pile, read 0.73 by its strip, made
 * the AD read 0.98 a card under it, reported by a sliver at its top.
 */
function stripUnder(other: ReadCard, identity: Identity): boolean {
  return other.source === 'strip' && other.id.identity.confidence < identity.confidence;
}

/**
 * A face read this surely one way up is not read the other way (bothWays 'when-unsure').
 * Measured (cards53 valid / live-size rendered scenes, named right): 'when-unsure' 89.0 % /
 * 77.3 %, exactly as always both ways; never 88.3 % / 78.3 % (see models/MODEL_CARD.md).
 */
export const ONE_WAY_SURE = 0.9;

/**
 * A card this short in the frame (pixels, its long side) is blown up at least a third to fill its
 * crop, and reading the blur turned round tells little more: outside the counted zones it is read
 * one way up ('when-unsure'). Measured (session 7) on live-size rendered scenes of unseen art,
 * every crop read once against both ways: 78.3 % / 77.3 % named right; on cards53 valid (large
 * crops) 88.3 % / 89.0 %, hence the size rule. Session 15, a live 3-player hand through the
 * worker pool: about 4 ms a frame less (see docs/BENCHMARKS.md).
 */
export const ONE_WAY_BELOW_PX = 72;

/** How a crop is read: turned 180 degrees too always, only when one reading is unsure, or never. */
export type TurnPolicy = 'always' | 'when-unsure' | 'never';

/**
 * How a located card is read with bothWays 'when-unsure': always both ways on a counted zone
 * (the centre, a Nerts pile: the tracker compares looks), one way when its long side in the frame
 * is under `oneWayBelowPx`, else both ways when one reading is unsure.
 */
export function turnPolicy(quad: Quad, zone: string | undefined, oneWayBelowPx: number = ONE_WAY_BELOW_PX): TurnPolicy {
  if (isCountedZone(zone)) return 'always';
  return quadLongSide(quad) < oneWayBelowPx ? 'never' : 'when-unsure';
}

/**
 * How much wider (each side, as a share of the outline) the second look at an unsure outline is
 * (see lookWiderForBacks). Why: the identity model reads some backs at webcam size as a face
 * when cropped at their very edge and as a back with a little table round them (session 34:
 * the 29 red-lattice backs of the 3-player seed-2 sort, cropped at their true corners, read as
 * a back 12 times; 6 % wider, 26 times). On every whole-card outline of 13 hands' frames read
 * whole (2-6 players, seeds 1-3, oblique, unseen art; 3,158 reads), backs read as a back
 * 1,028 → 1,124 times; no face became a back; outlines on no card read as a back 33 → 49 (all
 * on the pale gingham's checks, which the live table drops as bare cloth: table-background.ts).
 */
export const BACK_WIDER_LOOK = 1.06;

/**
 * Which tracked readings a frame read whole (the score sort's) keeps rather than reading the card
 * again: backs, and faces the whole card made at least `minFace` sure. Not an unsure face, nor
 * one only its index corner made a face: a back read as a face as it was dealt (moving, half
 * under a hand) and lying still since kept that reading (an unseen back design read as a KD at
 * 0.85 by its index for a whole score sort, session 35). A back read once is kept (reading the
 * 6-player sort's near-black backs afresh every second counted 6 of 9, against 8 carried).
 * Session 40, every face a whole read read again in three sorts (3 players seeds 1 and 2, 6
 * players seed 1): of 349 sure faces none read otherwise, while 90 of 184 made faces by their
 * index alone did (10 of them now backs); the sure ones were a quarter of a whole read's reads.
 */
export const WHOLE_READ_KEEPS = { minFace: 0.9 } as const;

/**
 * Whether a reading remembered on a counted pile (the centre, a Nerts pile) from before the last
 * frame is reused for a card lying where it lay and looking the same: a back read at least
 * `floor` sure. Every card of a deck shows the same back, so the last-frame rule's reason (a
 * face's neighbour in its suit looks alike at thumbnail size) does not hold for backs. In the
 * score sort hands sweep over the dealt backs all the time; one thread, the 3-player seed-1 hand-1
 * sort's 624 tracked frames: identify 11.8 -> 9.5 s (all stages 28.0 -> 25.9 s). The looks
 * must still agree: of backs read again where a remembered back lay, their thumbnails 0.04-0.06
 * apart, another design came out for 10 of 352, 26 of 86 (the gingham) and 12 of 186 in the
 * three sorts measured.
 */
export function rememberedBack(identity: Identity, floor: number): boolean {
  return identity.kind === 'back' && identity.confidence >= floor;
}

/** Whether a frame read whole keeps a tracked card's `identity` (see WHOLE_READ_KEEPS). */
export function keptByWholeRead(identity: Identity, rule = WHOLE_READ_KEEPS): boolean {
  return identity.kind === 'back' || (identity.kind === 'face' && !identity.byIndex && identity.confidence >= rule.minFace);
}

/** A face read at least this surely sizes the cards of an uncalibrated frame (see dropFragments). */
const SURE_FACE = 0.9;

/**
 * Whether a read card counts, at its floor: not "no card", and at least the floor sure. An outline
 * with a faint edge (refineLocated's sureDetection) counts only as a sure face: read as a back or
 * an unsure face it was paper, a book's page or a floor tile on the real photos.
 */
export function countsAtFloor(card: { faintEdge?: true; id: { identity: Identity } }, floor: number): boolean {
  const { identity } = card.id;
  if (identity.kind === 'other') return false;
  return card.faintEdge ? sureFaceRead(identity) : identity.confidence >= floor;
}

/** Whether a reading is a face at SURE_FACE or more. */
function sureFaceRead(identity: Identity | undefined): boolean {
  return identity?.kind === 'face' && identity.confidence >= SURE_FACE;
}

/** Whether an outline was read and found no card: no card (`other`), or a face under `floor`. */
function readAsNoCard(identity: Identity | undefined, floor: number): boolean {
  return identity !== undefined && (identity.kind === 'other' || (identity.kind === 'face' && identity.confidence < floor));
}

/** Whether `quad` lies `maxShare` or more over one of `sure` (a second look leaves a sure card's neighbourhood alone). */
function liesOverSure(quad: Quad, sure: ReadonlyArray<{ corners: Quad }>, maxShare: number): boolean {
  return sure.some((other) => shareInside(quad, other.corners) >= maxShare);
}

/**
 * The second look at a frame without a calibration (lookAtTypicalSize): outlines whose short side
 * is under `smallerThan` of the frame's typical card are looked at again as a card of that size;
 * two such cards with corners within `sameWithin` of a short side are one; one lying `maxOverSure`
 * or more over a sure card is not read.
 */
export const TYPICAL_SIZE_LOOK = { smallerThan: 0.85, sameWithin: 0.25, maxOverSure: 0.5 } as const;

/** The second look at squat outlines (lookQuarterTurned): none lying `maxOverSure` or more over a sure face is read again. */
export const QUARTER_TURN_LOOK = { maxOverSure: 0.5 } as const;

/**
 * A gap in the score sort's dealt rows counts as a back only read this surely as the row's design
 * (back reading times enrolled similarity; fillDealtGaps). On the gingham tables' last sort frames
 * the one real back found so read 0.94; the two places on bare cloth read as a back 0.53 and 0.68.
 */
export const DEALT_GAP_MIN = 0.8;
/** Offsets (pixels, each axis) of the edge fits' starts about a gap (refineGeometry needs a start within a few pixels). */
const DEALT_GAP_STARTS = [-6, -3, 0, 3, 6];

/** A play area covering at least this share of the frame is not cropped out of it (runLearnedLocator). */
const PLAY_AREA_WORTH_CROPPING = 0.9;

/**
 * The learned locator's centre threshold on frames without a calibration (photos, single frames;
 * calibrated tables keep LOCATOR_DEFAULTS.threshold, 0.35). Every detection is still fitted to the
 * image's edges and read, so a lower threshold costs little precision there. Measured in session
 * 45 (real table photos / rendered unseen-art scenes, cards missed and predictions matching no
 * card): 0.35: 45 / 38 and 112 / 140; 0.3: 42 / 39 and 112 / 141; 0.25: 39 / 41 and 112 / 143.
 * On the score sort's whole reads a lower threshold found no more backs (0.15: the same 548 of 562
 * with 36 more false backs), so calibrated frames keep theirs.
 */
export const UNCALIBRATED_LOCATOR_THRESHOLD = 0.3;

/** A card found in two overlapping regions: its outlines' corners lie within this share of its short side. */
const TWICE_FOUND_SHARE = 0.18;

/** How often tracking re-localises one refresh tile whatever changed, ms of frame time. */
const REFRESH_INTERVAL_MS = 200;


/** A card's look for the tracker: its identity embedding (unit length), to 3 decimals. */
function lookOf(embedding: Float32Array): number[] {
  return Array.from(embedding, (v) => Math.round(v * 1000) / 1000);
}

/** An outline found in `region` of a frame (region pixels), in the frame's pixels. */
function inFrame(corners: Quad, region: PixelRect): Quad {
  return corners.map(([x, y]) => [x + region.x, y + region.y]) as Quad;
}

/** An outline in the frame's pixels, in the pixels of its `region`. */
function inRegion(corners: Quad, region: PixelRect): Quad {
  return corners.map(([x, y]) => [x - region.x, y - region.y]) as Quad;
}

/** A frame's stage timings: `lap(name)` records the time since the last lap (or since made) as `name`, ms. */
function stageTimer(timings: Record<string, number> = {}): { timings: Record<string, number>; lap: (name: string) => void } {
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = now - t;
    t = now;
  };
  return { timings, lap };
}

/** What the first stage of a frame hands the second (LocatedFrame.data of this recogniser). */
interface LocatedData {
  /** The decoded frame (from locateFrame its pixels own their buffer, which moves to the reading thread). */
  image: RgbImage;
  /** The cards localised, before the probes (what changed and moved: LocatedFrame's own fields). */
  found: LocatedCard[];
  /** Whether the cloth was last measured pale (the probes' edge floor). */
  paleCloth: boolean;
}

/** What the probes of one frame need to know of it. */
interface ProbeFrame {
  changed: PixelRect[] | null;
  paleCloth: boolean;
  timestampMs: number;
  scoreSort: boolean;
}

class TfjsRecognizer implements CardRecognizer {
  private plane: TablePlane | null = null;
  private calibration: TableCalibration | null = null;
  /** Cards of the last moments with their identities (see TrackMemory). */
  private readonly tracks = new TrackMemory<TrackedIdentity>();
  /**
   * Enrolled backs and faces, per whole-card model: embeddings come from it alone, so a live-size
   * index model with the full whole-card model shares the full model's store.
   */
  private readonly enrolledBy: Record<'identity' | 'identity-live', EnrollmentStore> = { identity: new EnrollmentStore(), 'identity-live': new EnrollmentStore() };
  private disposed = false;
  private readonly tracking: boolean;
  private readonly minConfidence: number;
  private readonly centreMinConfidence: number;
  private readonly readBudget: number;
  private readonly readWhenSteady: boolean;
  /** Frames recognised so far (rotates which seat cards wait when over the read budget). */
  private frameCount = 0;
  private readonly bothWays: boolean | 'when-unsure';
  private readonly oneWayBelowPx: number;
  private readonly fusion: IndexFusion;

  private readonly model: tf.LayersModel;
  private readonly indexModel: tf.LayersModel | null;
  private readonly locatorModel: tf.LayersModel | null;
  private readonly learnedLocatorOn: LearnedLocatorUse;
  private readonly typicalSizeLook: boolean;
  private readonly stripLook: boolean;
  private readonly quarterTurnLook: boolean;
  private readonly dealtGapLook: boolean;
  private readonly trace: ((event: TraceEvent) => void) | undefined;
  private readonly backModel: tf.LayersModel | null;
  /** Share of an enrolled back view kept for its middle (1: no middles). */
  private readonly backMiddle: number;
  /** Back designs enrolled by the back-look model's embedding (when it is loaded). */
  private readonly backLooks = new BackLooks();
  /** Each enrolled back design's colours, one per view (and per view's middle). */
  private readonly backColours = new Map<string, BackColour[]>();
  private readonly liveModel: tf.LayersModel | null;
  private readonly liveIndexModel: tf.LayersModel | null;
  private readonly liveBelowPx: number;
  private readonly backWiderLook: number;
  private readonly liveModelUse: LiveModelUse;
  /** Runs CNN batches on this thread. */
  private readonly localCnn: RunCnn;
  /** Runs the classical localiser on image parts on this thread. */
  private readonly localLocate: RunLocate;
  private readonly helper: Helper | null;

  constructor(
    models: { model: tf.LayersModel; indexModel: tf.LayersModel | null; locatorModel: tf.LayersModel | null; liveModel?: tf.LayersModel | null; liveIndexModel?: tf.LayersModel | null; backModel?: tf.LayersModel | null },
    private readonly names: string[],
    private readonly cv: OpenCv,
    readonly backend: VisionBackend,
    config: RecognizerConfig,
  ) {
    ({ model: this.model, indexModel: this.indexModel, locatorModel: this.locatorModel } = models);
    this.liveModel = models.liveModel ?? null;
    this.liveIndexModel = models.liveIndexModel ?? null;
    this.backModel = models.backModel ?? null;
    this.backMiddle = config.backMiddle ?? BACK_MIDDLE_KEEP;
    this.liveBelowPx = config.liveBelowPx ?? LIVE_MODEL_BELOW_PX;
    this.backWiderLook = config.backWiderLook ?? BACK_WIDER_LOOK;
    this.liveModelUse = liveModelUseOf(config);
    this.learnedLocatorOn = config.learnedLocatorOn ?? 'every-frame';
    this.typicalSizeLook = config.typicalSizeLook ?? true;
    this.stripLook = config.stripLook ?? true;
    this.quarterTurnLook = config.quarterTurnLook ?? true;
    this.dealtGapLook = config.dealtGapLook ?? true;
    this.trace = config.trace;
    this.tracking = config.tracking ?? true;
    this.minConfidence = config.minConfidence ?? 0.6;
    this.centreMinConfidence = config.centreMinConfidence ?? Math.min(this.minConfidence, 0.15);
    this.readBudget = config.maxReadsPerFrame ?? READS_PER_FRAME;
    this.readWhenSteady = config.readWhenSteady ?? true;
    this.bothWays = config.bothWays ?? 'when-unsure';
    this.oneWayBelowPx = config.oneWayBelowPx ?? ONE_WAY_BELOW_PX;
    this.fusion = { ...DEFAULT_INDEX_FUSION, ...config.indexFusion };
    this.localCnn = localCnn({ identity: this.model, index: this.indexModel, identityLive: this.liveModel, indexLive: this.liveIndexModel });
    this.localLocate = localLocate(cv);
    this.helper = config.helper ?? null;
  }

  setCalibration(calibration: TableCalibration | null): void {
    this.calibration = calibration;
    this.plane = null;
    this.nertsPiles = [];
    this.probed = [];
    this.centreMemory = [];
    this.tracks.clear();
    this.previousThumb = null;
    this.previousLocated = [];
    this.previousOutlines = null;
    // Another table, maybe another cloth: measured again on the next frame.
    this.paleCloth = false;
    this.plainTable = false;
    this.paleCheckedMs = -Infinity;
  }

  async recognize(frame: FrameInput, timestampMs: number, options: RecognizeOptions = {}): Promise<FrameObservations> {
    return this.readFrame(await this.locateStage(frame, timestampMs, options, false), options);
  }

  /**
   * The first stage of recognize: decode, the table plane, localisation (re-done where the frame
   * changed). Uses and updates only the locate half of the state (previous thumbnail and
   * outlines, refresh tile, cloth check), so a live table may run it on one thread's copy of the
   * recogniser while another thread's copy reads the frame before (see StagedRecognizer).
   */
  async locateFrame(frame: FrameInput, timestampMs: number, options: RecognizeOptions = {}): Promise<LocatedFrame> {
    return this.locateStage(frame, timestampMs, options, true);
  }

  /** locateFrame; `movable`: the pixels get a buffer of their own, to be moved to another thread. */
  private async locateStage(frame: FrameInput, timestampMs: number, options: RecognizeOptions, movable: boolean): Promise<LocatedFrame> {
    this.assertLive();
    const { timings, lap } = stageTimer();
    const image = await decodeFrame(frame);
    lap('decode');
    this.planeFor(image);
    lap('rectify');
    const nertsPileOf = (card: LocatedCard) => {
      const zone = this.zoneOf(card.corners);
      return isNertsZone(zone) ? zone : undefined;
    };
    this.checkPaleCloth(image, timestampMs);
    // Outlines found by their ink (a plain pale table) count in the centre only: that is where
    // the cards were lost; at the seats the probes fit the Nerts piles, and rough ink fits by the
    // piles made the Nerts counts worse (docs/BENCHMARKS.md, session 23).
    const { located, changed, motion } = await this.locateWithTracking(image, timestampMs, options.everyCard === true, options.scoreSort === true);
    const found = oneOutlinePerNertsPile(
      located.filter((card) => card.source !== 'ink' || !this.plane || this.zoneOf(card.corners) === 'centre'),
      nertsPileOf,
    );
    lap('locate');
    // Pixels that travel to the reading thread are moved, not copied (twice: through the main
    // thread), so they get a buffer of their own: sharp's output lies in memory V8 cannot hand over.
    const pixels = movable ? image.data.slice() : image.data;
    lap('handOver');
    const data: LocatedData = { image: { width: image.width, height: image.height, data: pixels }, found, paleCloth: this.paleCloth };
    return { timestampMs, changed, ...(motion ? { motion } : {}), data, buffers: movable ? [pixels.buffer as ArrayBuffer] : [], timingsMs: timings };
  }

  /**
   * The second stage of recognize: probes for lost piles, tracking, crops, the CNNs and the
   * observations, from what locateFrame found. Uses and updates only the read half of the state
   * (tracks, remembered centre places, probes, enrolments).
   */
  async readFrame(stage: LocatedFrame, options: RecognizeOptions = {}): Promise<FrameObservations> {
    this.assertLive();
    const { timestampMs, changed, motion } = stage;
    const { image, found, paleCloth } = stage.data as LocatedData;
    const { timings, lap } = stageTimer({ ...stage.timingsMs });
    this.planeFor(image);
    const scoreSort = options.scoreSort === true;
    const probes = { changed, paleCloth, timestampMs, scoreSort };
    // Each outline's thumbnail, made once (the Nerts piles' probe for outlines read as no card asks the track memory too).
    const thumbnails = new Map<LocatedCard, Float32Array>();
    const thumbnailOf = (card: LocatedCard) => {
      let thumbnail = thumbnails.get(card);
      if (!thumbnail) thumbnails.set(card, (thumbnail = cardThumbnail(image, card.corners)));
      return thumbnail;
    };
    // Without a calibration (a photo, a single frame) a card may lie cut by the frame's edge; a
    // calibrated table lies inside the frame.
    const seen = this.plane ? found : withCutCards(found, image.width, image.height);
    const located = this.probePilesOfNoCard(image, this.probeRememberedCentre(image, this.probeNertsPiles(image, seen, probes), probes), paleCloth, thumbnailOf);
    lap('probe');

    // Tracking: reuse identities of cards that lie where a card lay lately, looking the same. On
    // the piles whose cards are counted (the centre, Nerts piles) a new card lands, or shows,
    // where the last one lay, looking much the same at thumbnail size: only a card still there
    // on the last frame is taken for the same card, or a sure back (rememberedBack). A frame
    // read whole reuses only backs and sure faces (WHOLE_READ_KEEPS).
    const thumbs = located.map(thumbnailOf);
    const zones = located.map((card) => this.zoneOf(card.corners));
    const reused: Array<TrackedIdentity | undefined> = located.map((card, i) => {
      const track = this.tracking ? this.tracks.find(card.corners, thumbs[i], isCountedZone(zones[i]), (old) => rememberedBack(old.identity, this.minConfidence))?.value : undefined;
      if (!track || (options.everyCard && !keptByWholeRead(track.identity))) return undefined;
      return dueForRereading(track, zones[i], timestampMs, this.minConfidence) ? undefined : track;
    });
    const budget = this.tracking && !options.everyCard ? this.readBudget : Infinity;
    // Outlines at new places wait for their second frame (see RecognizerConfig.readWhenSteady).
    const outlines = located.map((card) => card.corners);
    const steady = this.tracking && this.readWhenSteady && !options.everyCard && this.previousOutlines ? steadyOutlines(outlines, this.previousOutlines) : null;
    this.previousOutlines = outlines;
    const todo = readsThisFrame(located.map((_, i) => i).filter((i) => !reused[i] && (!steady || steady[i])), zones, budget, this.frameCount++);
    const crops = new Float32Array(todo.length * CROP_SIZE);
    todo.forEach((cardIndex, k) => cropCard(image, located[cardIndex].corners, CROP_WIDTH, CROP_HEIGHT, crops, k * CROP_SIZE));
    const corners = this.indexModel ? this.cornerCrops(image, todo.map((i) => located[i].corners)) : null;
    lap('crop');
    const read = await this.readIdentities(crops, corners, todo.length, {
      policy: (k) => turnPolicy(located[todo[k]].corners, zones[todo[k]], this.oneWayBelowPx),
      lengths: todo.map((i) => quadLongSide(located[i].corners)),
      zones: todo.map((i) => zones[i]),
    });
    const wholeOutline = (k: number) => WHOLE_OUTLINES.has(located[todo[k]].source);
    if (options.everyCard) await this.lookWiderForBacks(image, read, crops, todo.map((i) => located[i].corners), wholeOutline);
    await this.addBackLooks(read, crops, wholeOutline);
    this.noPlainBacks(read, crops);
    // Cards left for a later frame (over the frame's read budget) have no identity yet.
    const identities: Array<TrackedIdentity | undefined> = [...reused];
    todo.forEach((cardIndex, k) => (identities[cardIndex] = { ...read[k], readAtMs: timestampMs }));
    lap('identify');

    // Cards a second look finds join the frame's outlines, read.
    const join = (found: Array<{ card: LocatedCard; id: TrackedIdentity }>) => {
      for (const { card, id } of found) {
        located.push(card);
        identities.push(id);
        thumbs.push(thumbnailOf(card));
        zones.push(this.zoneOf(card.corners));
      }
    };

    // The score sort read whole: the gaps in its dealt rows (see fillDealtGaps).
    if (options.everyCard && options.scoreSort && this.plane && this.dealtGapLook) {
      join(await this.fillDealtGaps(image, located, identities, timestampMs));
      lap('dealtGaps');
    }

    // Without a calibration, squat outlines read as no card a quarter turn on (see lookQuarterTurned).
    if (!this.plane && this.quarterTurnLook) {
      join(await this.lookQuarterTurned(image, located, identities, timestampMs));
      lap('quarterTurns');
    }

    // Without a calibration, the frame's own card size, from the faces read surely (see typicalCardSize).
    const sureCards = this.plane ? [] : located.filter((_, i) => sureFaceRead(identities[i]?.identity));
    const typical = this.plane ? null : typicalCardSize(sureCards.map((card) => card.corners));
    if (typical && this.typicalSizeLook) {
      join(await this.lookAtTypicalSize(image, typical, sureCards, located, identities, timestampMs));
      lap('typicalSize');
    }
    if (!this.plane && sureCards.length > 0 && this.stripLook) {
      join(await this.lookForStrips(image, sureCards, located, identities, timestampMs));
      lap('strips');
    }

    const identified = located.flatMap((card, i) => (identities[i] ? [{ corners: card.corners, thumbnail: thumbs[i], value: identities[i]! }] : []));
    this.tracks.remember(identified, timestampMs);
    this.trace?.({ stage: 'read', cards: located.flatMap((card, i) => (identities[i] ? [{ corners: card.corners, source: card.source, identity: identities[i]!.identity, fromIndex: identities[i]!.fromIndex }] : [])) });
    const allRead: ReadCard[] = located.flatMap((card, i) => (identities[i] ? [{ ...card, id: identities[i]!, zone: zones[i], ...(card.inFrame ? { visible: card.inFrame } : {}) }] : []));
    // Without a calibration, an unsure outline over a card both models name surely is a misread of that card's part.
    const readCards = this.plane ? allRead : dropUnsureOverSure(allRead);
    const sureFaces = this.plane ? [] : readCards.filter((card) => card.id.identity.kind === 'face' && card.id.identity.confidence >= this.minConfidence);
    const floorOf = (card: ReadCard) => {
      const { identity } = card.id;
      if (identity.kind !== 'face') return this.minConfidence;
      // A face on a Nerts pile stays, however unsure its name: the tracker counts those cards by
      // look. A face in the centre stays down to its own floor: the tracker reads it against its pile.
      if (isNertsZone(card.zone)) return 0;
      if (card.zone === 'centre') return this.centreMinConfidence;
      // Without a calibration, a face both models name alike counts from AGREEING_FLOOR (agreedBelowFloor).
      return !this.plane && agreedBelowFloor(card, sureFaces) ? AGREEING_FLOOR : this.minConfidence;
    };
    const passes = (card: ReadCard) => countsAtFloor(card, floorOf(card));
    // Hypotheses lying under surely read cards are read by their index corner (see coveredCards).
    const onTop = readCards.filter((card) => passes(card) && card.id.identity.confidence >= this.minConfidence);
    const underneath = coveredCards(readCards, onTop, this.minConfidence);
    const kept = readCards.flatMap((card, k) => (underneath[k] ? [underneath[k]!] : passes(card) ? [card] : []));
    if (this.plane) {
      const centreFaces = kept.filter((card) => card.zone === 'centre' && card.id.identity.kind === 'face');
      const sure = centreFaces.filter((card) => card.id.identity.confidence >= this.minConfidence);
      const faint = centreFaces.filter((card) => card.id.identity.confidence < this.minConfidence);
      this.centreMemory = rememberCentreCards(this.centreMemory, sure, timestampMs, this.typicalCardLength(image), faint);
    }
    // A card-shaped thing inside a bigger recognised card is its picture frame, not a card. Only
    // a card read at least as surely as the floor counts as that bigger card: a faint centre face
    // (kept for the tracker's pile prior) may be an outline round two cards, and must not hide them.
    const faint = (card: ReadCard) => card.zone === 'centre' && card.id.identity.confidence < this.minConfidence;
    const sureness = (card: ReadCard) => card.id.identity.confidence;
    // Outlines of one card read alike (a face by its code; on a calibrated table a back by its
    // deck, which the score sort counts): the surest stays. (Backs without a calibration too cost
    // the real photos' precision 93.7 → 93.3 %, cards found the same.)
    const sameReading = (card: ReadCard) => {
      const identity = card.id.identity;
      return identity.kind === 'face' ? identity.code : identity.kind === 'back' && this.plane ? `back:${identity.design}` : undefined;
    };
    // An outline holding two pieces read alike is that card (wholesOfPieces): with a calibration, only one no wider than a card.
    const plane = this.plane;
    const oneCardWide = (card: ReadCard) => !plane || quadShortSide(card.corners) <= plane.cardWidthPx * OVERSIZE_OUTLINE;
    const wholes = new Set(wholesOfPieces(kept, sameReading, sureness, REPEATED_OUTLINE_OVERLAP, oneCardWide).map((i) => kept[i]));
    // Without a calibration, of one card's outlines read nearly alike the one of the frame's card size stays (sizeTieBreak).
    const repeatRank = (card: ReadCard) => sureness(card) + (typical ? sizeTieBreak(card.corners, typical) : 0);
    const repeated = dropRepeatedOutlines(keepSurestRivals(kept, sureness, wholes), sameReading, repeatRank, REPEATED_OUTLINE_OVERLAP, oneCardWide);
    const isBack = (card: ReadCard) => card.id.identity.kind === 'back';
    const sureFace = (card: ReadCard) => sureFaceRead(card.id.identity);
    const unsureFace = (card: ReadCard) => card.id.identity.kind === 'face' && card.id.identity.confidence < SURE_FACE;
    // Calibration knows a card's size; without it, a "back" or an unsure face far smaller than the sure faces is a fragment of something
    // else, and a "back" far bigger no card.
    const withoutFragments = (cards: ReadCard[]) => dropFragments(dropFragments(cards, isBack, sureFace, FRAGMENT_BACK_SHARE, 1, OVERSIZE_BACK_SHARE), unsureFace, sureFace, FRAGMENT_FACE_SHARE);
    const surest = this.plane
      ? dropOversizeHoldingCards(repeated, (card) => card.id.identity.confidence >= this.minConfidence, this.plane.cardWidthPx)
      : dropLinesHoldingCards(withoutFragments(repeated), (card) => card.id.identity.confidence >= this.minConfidence, typical?.short);
    // On a calibrated table, an unsure face around a back read more surely is no picture frame:
    // a dark back's cream border outlined whole can read as a face, its inner edge as the enrolled
    // back (LOOK_RESCUE; the 6-player score sort, session 34).
    const unsureFaceAroundBack = (card: ReadCard, nested: ReadCard) =>
      this.plane !== null && card.id.identity.kind === 'face' && card.id.identity.confidence < LOOK_RESCUE.maxFace && isBack(nested) && sureness(nested) > sureness(card);
    // Without a calibration, a smaller outline both models name surely as another face is another card, outlined too small.
    const anotherCard = (card: ReadCard, nested: ReadCard) => this.plane === null && surelyAnotherFace(nested, card);
    // Without a calibration, a card read as surely on the hidden part of a card under others lies on it (onHiddenPart; measured there only).
    const hiddenPartHolds = (card: ReadCard, nested: ReadCard) => this.plane === null && onHiddenPart(card, nested);
    const cards: CardObservation[] = suppressNested(surest, (card, nested) => !faint(card) && !unsureFaceAroundBack(card, nested) && !showsBeside(nested, card) && !hiddenPartHolds(card, nested) && !anotherCard(card, nested)).map((card) => this.observation(card));
    lap('observe');
    return { timestampMs, width: image.width, height: image.height, cards, ...(motion ? { motion } : {}), timingsMs: timings };
  }

  /** The table plane for frames of this image's size (made again when the calibration or the size changes). */
  private planeFor(image: RgbImage): void {
    if (!this.calibration || (this.plane && this.planeSize === `${image.width}x${image.height}`)) return;
    this.plane = tablePlane(this.calibration, image.width, image.height);
    this.planeSize = `${image.width}x${image.height}`;
    this.nertsPiles = this.plane.zonesBySpecificity.filter((zone) => zone.kind === 'nerts').map((zone) => {
      const polygon = zoneImagePolygon(this.plane!, zone);
      return { polygon, box: boundingRect(polygon) };
    });
    // A card whose centre lies in a counted zone reaches half a card's length beyond it.
    const reach = (this.plane.cardWidthPx * CARD_ASPECT) / 2;
    this.countedBoxes = this.plane.zonesBySpecificity
      .filter((zone) => zone.kind === 'centre' || zone.kind === 'nerts')
      .map((zone) => rectIntersection(grownRect(boundingRect(zoneImagePolygon(this.plane!, zone)), reach), imageRect(image)))
      .filter((box): box is PixelRect => box !== null);
    this.probed = [];
  }

  private planeSize = '';
  /** The last tracked frame's outlines, probes included (null: none yet; see readWhenSteady). */
  private previousOutlines: Quad[] | null = null;
  /** The centre's and each Nerts pile's bounding box grown by half a card's length, image pixels (see withNetCardsOnCountedPiles). */
  private countedBoxes: PixelRect[] = [];
  /** Each calibrated Nerts pile zone, image pixels, with its bounding box. */
  private nertsPiles: Array<{ polygon: Point[]; box: PixelRect }> = [];
  /** The last probe on each Nerts pile ({} while the localiser finds a card there), reused while nothing changed there (probeDue). */
  private probed: LastProbe[] = [];
  /**
   * Whether the calibrated table is pale (see paleTableShare), whether it is also plain (a white
   * or cream laminate: cards show by their ink), and when that was last measured, ms.
   */
  private paleCloth = false;
  private plainTable = false;
  private paleCheckedMs = -Infinity;

  /**
   * `located` plus, for each calibrated Nerts pile where it holds no card, the card a probe
   * fits there (see probe.ts): the pile the score hangs on is looked for on every frame. A pile
   * outside this frame's changed regions keeps its last probe.
   */
  private probeNertsPiles(image: RgbImage, located: LocatedCard[], frame: ProbeFrame): LocatedCard[] {
    if (!this.plane) return located;
    const probed: LocatedCard[] = [];
    this.nertsPiles.forEach(({ polygon, box }, k) => {
      // A faint-edge outline (the net's, on a plain pale table) is a guess: the pile is probed too.
      if (located.some((card) => !card.faintEdge && pointInPolygon(polygon, ...quadCentre(card.corners)))) {
        this.probed[k] = {};
        return;
      }
      const corners = this.probeIfDue(image, (this.probed[k] ??= {}), polygon, box, frame);
      if (corners) probed.push({ corners, source: 'probe', support: 1 });
    });
    return probed.length ? [...located, ...probed] : located;
  }

  /**
   * `located` plus, for each calibrated Nerts pile whose outlines were all last read as no card
   * (`other`), the card a probe fits there. The classical localiser's split outlines of a pile's
   * top touching its work pile change from frame to frame, and one a few pixels off can read as
   * no card; tracking then reuses that reading and, outlines lying on the pile, its own probe
   * never runs: the 3-player blue-gingham table's p1 showed nothing on a pile holding its last
   * card for 1.3 s, and the tracker called Nerts for them (session 43). The probe's outline read
   * there was a face.
   */
  private probePilesOfNoCard(image: RgbImage, located: LocatedCard[], paleCloth: boolean, thumbnailOf: (card: LocatedCard) => Float32Array): LocatedCard[] {
    if (!this.plane) return located;
    const probed: LocatedCard[] = [];
    for (const { polygon } of this.nertsPiles) {
      const here = located.filter((card) => pointInPolygon(polygon, ...quadCentre(card.corners)));
      const noCard = pileReadAsNoCard(here, (card) => this.tracks.find(card.corners, thumbnailOf(card), true)?.value.identity.kind);
      const corners = noCard ? probePile(image, polygon, this.plane.cardWidthPx, this.probeParams(paleCloth)) : null;
      if (corners && !here.some((card) => sameCorners(card.corners, corners, quadShortSide(corners) * TWICE_FOUND_SHARE))) probed.push({ corners, source: 'probe', support: 1 });
    }
    return probed.length ? [...located, ...probed] : located;
  }

  /**
   * The probes' settings: on a pale patterned cloth the cloth's white squares make the outside
   * of a card's outline nearly as bright as its inside, so the edge floor is lower there.
   */
  private probeParams(paleCloth: boolean): typeof PROBE_DEFAULTS {
    return paleCloth ? { ...PROBE_DEFAULTS, minEdge: LOCATE_DEFAULTS.paleMinEdge } : PROBE_DEFAULTS;
  }

  /**
   * A place's probe on a calibrated table (a Nerts pile, a remembered centre place): fitted afresh within `polygon` when
   * due (probeDue: this frame changed within `box`, image pixels), else the last one; `last` keeps it.
   */
  private probeIfDue(image: RgbImage, last: LastProbe, polygon: Point[], box: PixelRect, { changed, paleCloth, timestampMs, scoreSort }: ProbeFrame): Quad | null | undefined {
    const changedThere = changed === null || changed.some((region) => rectsOverlap(region, box));
    if (probeDue(last, changedThere, timestampMs, scoreSort)) {
      last.probe = probePile(image, polygon, this.plane!.cardWidthPx, this.probeParams(paleCloth));
      last.probedAtMs = timestampMs;
    }
    return last.probe;
  }

  /** Centre places where faces were read (see probe.ts RememberedCard). */
  private centreMemory: RememberedCard[] = [];

  /**
   * `located` plus, at each remembered centre place where it holds no card, the card a probe
   * fits there (a pile's top the localiser lost; see probe.ts). A place outside this frame's
   * changed regions keeps its last probe, and so, in the score sort, does one probed empty lately (probeDue).
   */
  private probeRememberedCentre(image: RgbImage, located: LocatedCard[], frame: ProbeFrame): LocatedCard[] {
    if (!this.plane) return located;
    const probed: LocatedCard[] = [];
    for (const place of placesToProbe(this.centreMemory, located, this.typicalCardLength(image))) {
      const corners = this.probeIfDue(image, place, probeSpanPolygon(place), boundingRect(place.corners), frame);
      if (corners) probed.push({ corners, source: 'probe', support: 1 });
    }
    return probed.length ? [...located, ...probed] : located;
  }

  /** What moved, each group of cells with the seats whose zones it touches. */
  private motionOf({ cellSizePx, blobs }: MovingBlobs): MotionBlob[] {
    const cellSize = Math.max(...cellSizePx);
    return blobs.map((cells) => {
      const seats = new Set<number>();
      if (this.plane) for (const cell of cells) {
        const seat = /^seat-(\d+)/.exec(zoneAt(this.plane, cell) ?? '');
        if (seat) seats.add(Number(seat[1]));
      }
      return { seats: [...seats].sort((a, b) => a - b), cells, cellSize };
    });
  }

  private previousThumb: GreyThumb | null = null;
  private previousLocated: LocatedCard[] = [];

  /**
   * Localisation, re-done only where the frame changed when tracking: cards outside the changed
   * regions keep last frame's quads; each region (grown by a card's length) is re-localised at
   * the full frame's detection scale. Moving hands are separate regions, so the (costly)
   * learned locator reads a few patches of the table rather than the box around all of them.
   * Every REFRESH_INTERVAL_MS of frame time one refresh tile is re-localised too, whatever
   * changed: a card missed while a hand moved over it is looked for again, and cards there are
   * outlined afresh (and read again where the outline moved), within 12 intervals.
   */
  private async locateWithTracking(image: RgbImage, timestampMs: number, whole = false, scoreSort = false): Promise<{ located: LocatedCard[]; changed: PixelRect[] | null; motion?: MotionBlob[] }> {
    const thumb = greyThumb(image);
    const previous = this.previousThumb;
    this.previousThumb = thumb;
    const cardLength = this.typicalCardLength(image);
    // One comparison with the previous frame: the regions to re-localise, and what moved.
    const change = this.tracking && previous ? compareThumbs(previous, thumb) : undefined;
    let regions = change !== undefined ? regionsOf(change, image.width, image.height, cardLength * 1.2) : null;
    const motion = change !== undefined ? this.motionOf(blobsOf(change, image.width, image.height)) : undefined;
    if (regions && !(timestampMs >= this.lastRefreshMs && timestampMs - this.lastRefreshMs < REFRESH_INTERVAL_MS)) {
      this.lastRefreshMs = timestampMs;
      regions = mergeThrifty([...regions, refreshTile(this.refreshCount++, image.width, image.height, cardLength)]);
    }
    let located: LocatedCard[];
    const changed = !whole && regions && totalArea(regions) <= 0.6 * image.width * image.height ? regions : null;
    // The counted piles are searched by the net during play only (withNetCardsOnCountedPiles): a
    // frame read whole is searched all over already, and at the score sort the piles are gone.
    const countedPiles = !whole && !scoreSort;
    if (!changed) {
      const found = await this.locate(image, image, whole);
      located = countedPiles ? await this.withNetCardsOnCountedPiles(image, [imageRect(image)], found) : found;
    } else {
      located = this.previousLocated.filter((card) => !changed.some((r) => rectContains(r, quadCentre(card.corners))));
      const found = await this.locateRegions(image, changed);
      located.push(...(countedPiles ? await this.withNetCardsOnCountedPiles(image, changed, found) : found));
    }
    this.previousLocated = located;
    return { located, changed, ...(motion ? { motion } : {}) };
  }

  /**
   * On a calibrated table, measures every PALE_CLOTH_CHECK_MS whether the cloth is pale (the
   * localiser then also looks for cards by their size) and whether it is plain too (and by their
   * ink; see locateCards).
   */
  private checkPaleCloth(image: RgbImage, timestampMs: number): void {
    if (!this.plane) {
      this.paleCloth = this.plainTable = false;
      return;
    }
    if (timestampMs >= this.paleCheckedMs && timestampMs - this.paleCheckedMs < PALE_CLOTH_CHECK_MS) return;
    this.paleCheckedMs = timestampMs;
    const share = paleTableShare(image, this.plane.imageCorners);
    this.paleCloth = share >= LOCATE_DEFAULTS.paleShare;
    this.plainTable = share >= LOCATE_DEFAULTS.plainShare;
  }

  private refreshCount = 0;
  private lastRefreshMs = -Infinity;

  /** The rival-group offset of the last region localised on its own (see regionRivalGroup). */
  private regionGroupOffset = 0;

  /**
   * Cards whose centre lies in one of `regions` of the frame, each region searched alone (frame
   * pixels). With the classical localiser alone, a helper thread may search some of the regions.
   */
  private async locateRegions(image: RgbImage, regions: PixelRect[]): Promise<LocatedCard[]> {
    let found: LocatedCard[][];
    if (this.learnedLocatorSearches(false)) {
      found = [];
      for (const region of regions) found.push(await this.locate(cropRegion(image, region), image, false, [region.x, region.y]));
    } else {
      const options = { ...this.tableSize(), scale: detectionScale(image.width, image.height), paleCloth: this.paleCloth, plainTable: this.inkSearch() };
      const parts: LocatePart[] = regions.map((region) => ({ image: cropRegion(image, region), options: { ...options, origin: [region.x, region.y] as Point } }));
      found = await runLocate(this.localLocate, this.helper, parts);
    }
    // Regions may overlap (change.ts regionsOf): each card is kept from the region holding its
    // centre deepest, and one found twice over (its centre a little apart in each) only once.
    const kept: LocatedCard[] = [];
    regions.forEach((region, k) => {
      const offset = (this.regionGroupOffset -= 1000);
      const mine = found[k]
        .map((card) => ({ ...card, corners: inFrame(card.corners, region), rivalGroup: regionRivalGroup(offset, card.rivalGroup) }))
        .filter((card) => deepestRegion(regions, quadCentre(card.corners)) === k);
      const before = kept.length;
      for (const card of mine) if (!kept.some((other, i) => i < before && sameCorners(other.corners, card.corners, quadShortSide(card.corners) * TWICE_FOUND_SHARE))) kept.push(card);
    });
    return kept;
  }

  /**
   * Finds cards in `part` (the whole frame or a region of it) at the scale of the whole `frame`,
   * so sizes and thresholds do not depend on the region. The classical localiser always runs;
   * with the learned locator loaded, its cards are added where the classical one has none (the
   * classical outline is exact when it finds a card; the net finds far more of them).
   * `colourEdges`: a frame read whole also gets the colour-edge outlines (LocateOptions).
   * `origin`: where the part's top-left lies in the frame.
   */
  private async locate(part: RgbImage, frame: RgbImage, colourEdges = false, origin: Point = [0, 0]): Promise<LocatedCard[]> {
    const [classical] = await this.localLocate([{ image: part, options: { ...this.tableSize(), origin, scale: detectionScale(frame.width, frame.height), paleCloth: this.paleCloth, plainTable: this.inkSearch(), colourEdges } }]);
    this.trace?.({ stage: 'classical', origin, cards: classical });
    if (!this.learnedLocatorSearches(colourEdges)) {
      this.trace?.({ stage: 'located', origin, cards: classical });
      return classical;
    }
    return this.withLearnedCards(part, frame, classical, origin);
  }

  /**
   * `classical`, the classical localiser's cards in `part` (part pixels), with the learned
   * locator's added where it has none, fitted to the image (see locate); `knownSizeOnly`: fitted
   * at the calibrated card size only (refineLocated).
   */
  private async withLearnedCards(part: RgbImage, frame: RgbImage, classical: LocatedCard[], origin: Point, knownSizeOnly = false): Promise<LocatedCard[]> {
    const cardWidthPx = this.plane?.cardWidthPx;
    const factors = cardWidthPx ? [locatorScaleForCard(cardWidthPx)] : locatorScales(frame.width, frame.height);
    // Outline fitting costs a few ms a card: only for the net's cards the classical localiser has
    // not claimed, then once more with the fitted outlines. A net card of clearly another size
    // than the classical one at the same place is a second guess, not the same card: the classical
    // outline is sometimes a pip cluster or half a covered card (real photos: 73.2 → 74.2 % found,
    // naming unchanged; the identity and suppressNested pick between the two).
    // Straight-edge outlines (frames without a calibration) claim no card from the net: where the
    // net finds one too, they are its rivals (the surer reading stays).
    const [edgeOnly, firm] = [classical.filter((c) => c.source === 'lines'), classical.filter((c) => c.source !== 'lines')];
    const learned = await this.runLearnedLocator(part, frame, factors);
    this.trace?.({ stage: 'net', origin, cards: learned });
    // Without a calibration, or on a plain pale table (cards as white as the table), a card the
    // net is sure of stays however faint its edge (faintEdge).
    const sureDetection = this.plane && !this.plainTable ? Infinity : SURE_DETECTION;
    const fitted = refineLocated(part, unionOfLocated(firm, learned).slice(firm.length), { rivals: true, cardAbout: this.cardAbout(origin), sureDetection, knownSizeOnly });
    // Without a calibration (or on a plain pale table) a sure net card the classical localiser
    // outlined at another size is read too, as that outline's rival (sureCardsClaimedAmiss; on
    // other calibrated tables sureDetection is infinite).
    const amiss = refineLocated(part, sureCardsClaimedAmiss(firm, learned, sureDetection), { rivals: true, sureDetection });
    const secondLooks = dropFrameOutlines(amiss, part.width, part.height);
    const located = addAsRivals(unionOfLocated(firm, dropFrameOutlines(fitted, part.width, part.height)), [...edgeOnly, ...secondLooks]);
    this.trace?.({ stage: 'located', origin, cards: located });
    return located;
  }

  /** Whether the learned locator searches this frame besides the classical localiser: on every frame ('every-frame'), or on frames read whole (`wholeRead`). */
  private learnedLocatorSearches(wholeRead: boolean): boolean {
    return this.locatorModel !== null && (this.learnedLocatorOn === 'every-frame' || wholeRead);
  }

  /**
   * Whether the classical localiser looks for cards by their ink (LocateOptions.plainTable): on a
   * plain pale table without the learned locator. With it the net searches the piles the score
   * counts instead (withNetCardsOnCountedPiles), and ink outlines are kept in the centre only: on
   * 20 live frames of the white table the net alone found 92 % of the centre cards against 83 %
   * with the ink outlines too, and took less time (session 54).
   */
  private inkSearch(): boolean {
    return this.plainTable && !this.locatorModel;
  }

  /**
   * On a plain pale table, `located` (frame pixels) with the learned locator's cards where the
   * frame's searched `regions` cross the centre or a Nerts pile (countedBoxes). There a card is as
   * white as the table and the classical localiser finds it only by its ink: on a white laminate
   * under bright light (the simulated 3-player seed 24) live frames named 41 % of the centre cards
   * and 66 % of the Nerts piles' tops. Searched there with the net, whose sure cards stay whatever
   * their edge (refineLocated's sureDetection) and are fitted at the calibrated size only, 85 % and
   * 99 % (docs/VISION.md, "plain pale table"). The whole frame searched so cost that table about
   * twice the time a frame: only the piles the score counts are searched.
   */
  private async withNetCardsOnCountedPiles(image: RgbImage, regions: PixelRect[], located: LocatedCard[]): Promise<LocatedCard[]> {
    if (!this.plainTable || !this.locatorModel || this.learnedLocatorSearches(false)) return located;
    const minSide = this.plane!.cardWidthPx;
    const parts = regions.flatMap((region) => this.countedBoxes.map((box) => rectIntersection(region, box))).filter((part): part is PixelRect => part !== null && part.width >= minSide && part.height >= minSide);
    let result = located;
    // The net reads each part with half a card's length round it: a card whose centre lies in the
    // part lies whole in its crop (cut at the crop's edge the net lost a Nerts top it had found
    // the frame before, and the pile read empty: 30 live white-table frames, Nerts tops named 95
    // → 99 %, centre 78 → 85 %).
    const context = (this.plane!.cardWidthPx * CARD_ASPECT) / 2;
    for (const part of parts) {
      const crop = rectIntersection(grownRect(part, context), imageRect(image))!;
      const inPart = (card: LocatedCard) => rectContains(part, quadCentre(card.corners));
      const classical = result.filter(inPart).map((card) => ({ ...card, corners: inRegion(card.corners, crop) }));
      const found = await this.withLearnedCards(cropRegion(image, crop), image, classical, [crop.x, crop.y], true);
      result = [...result.filter((card) => !inPart(card)), ...found.map((card) => ({ ...card, corners: inFrame(card.corners, crop) })).filter(inPart)];
    }
    return result;
  }

  /**
   * The learned locator's cards in `part` (unrefined). Over a whole calibrated frame it looks only
   * where cards can lie (playArea: half a card's length round the table and its zones): the
   * simulated 3-player table fills 64 % of the frame's width, and the net over the whole frame
   * was 140 of a whole read's 230 ms of localisation (one thread). The classical localiser still
   * sees the whole frame: its thresholds follow what it sees (with both cropped a 6-player sort
   * counted one back more, session 40).
   */
  private async runLearnedLocator(part: RgbImage, frame: RgbImage, factors: number[]): Promise<LocatedCard[]> {
    const play = this.plane && part === frame ? playArea(this.plane, frame.width, frame.height, (this.plane.cardWidthPx * CARD_ASPECT) / 2) : null;
    // The crop starts on the net's own grid (the frame unscaled), so the net reads it as it reads
    // the whole frame, but within its reach (about 110 px) of the crop's edges. Measured on three
    // frames of the 6-player sort: the same 195 cards at the same places; with the crop off its
    // grid, 74 of them moved or were lost.
    const area = play && alignedRect(play, LOCATOR_ALIGN);
    const options = { factors, refine: false, ...(this.plane ? {} : { threshold: UNCALIBRATED_LOCATOR_THRESHOLD }) };
    if (!area || factors.some((f) => f !== 1) || area.width * area.height >= PLAY_AREA_WORTH_CROPPING * frame.width * frame.height) return runLocator(this.locatorModel!, part, options);
    const cards = await runLocator(this.locatorModel!, cropRegion(part, area), options);
    return cards.map((card) => ({ ...card, corners: inFrame(card.corners, area) }));
  }

  /**
   * What the calibration says of a card's outline, for the localiser: its width (the median),
   * the table plane (to size each outline where it lies, see card-size.ts), and the lowest
   * long/short ratio it shows anywhere on the table (a little under, for the outline's own error).
   */
  private tableSize(): Pick<LocateOptions, 'cardWidthPx' | 'table' | 'minAspect'> {
    if (!this.plane) return {};
    const { cardWidthPx, imageToTable, tableToImage, minCardAspect } = this.plane;
    return { cardWidthPx, table: { imageToTable, tableToImage }, minAspect: minCardAspect * 0.97 };
  }

  /** On a calibrated table, the card of the calibrated size about an outline in a part of the frame whose top-left lies at `origin`. */
  private cardAbout(origin: Point): ((quad: Quad) => Quad) | undefined {
    if (!this.plane) return undefined;
    const { imageToTable, tableToImage } = this.plane;
    return planeSizer({ imageToTable, tableToImage }, 1, origin).cardAbout;
  }

  /** Long side of a card in this frame, pixels: calibrated, else from the last frame's cards. */
  private typicalCardLength(image: RgbImage): number {
    if (this.plane) return this.plane.cardWidthPx * CARD_ASPECT;
    const sides = this.previousLocated.map((c) => Math.hypot(c.corners[2][0] - c.corners[1][0], c.corners[2][1] - c.corners[1][1])).sort((a, b) => a - b);
    return sides.length ? sides[Math.floor(sides.length / 2)] : Math.max(image.width, image.height) / 8;
  }

  /** The calibrated zone under a card's centre, if calibrated. */
  private zoneOf(corners: Quad): string | undefined {
    return this.plane ? zoneAt(this.plane, quadCentre(corners)) : undefined;
  }

  private observation(card: ReadCard): CardObservation {
    const { identity, embedding } = card.id;
    const { zone } = card;
    if (identity.kind === 'back') return { kind: 'back', ...this.backNamed(card.id), corners: card.corners, zone };
    const face: CardObservation = { kind: 'face', code: identity.kind === 'face' ? identity.code : undefined, confidence: identity.confidence, corners: card.corners, zone };
    if (card.visible) face.visible = card.visible;
    if (identity.kind === 'face' && identity.alternatives) face.alternatives = identity.alternatives;
    return isCountedZone(zone) ? { ...face, look: lookOf(embedding) } : face;
  }

  /** A back's design and how sure the recogniser is of it (the back reading times its nearest enrolled view's similarity). */
  private backNamed(read: TrackedIdentity): { backId?: string; confidence: number } {
    const match = this.enrolledFor(read.scale).nearestBack(read.embedding, 0, read.embedding.length);
    return { backId: this.backIdOf(read, match), confidence: match ? read.identity.confidence * match.similarity : read.identity.confidence * 0.5 };
  }

  /**
   * A frame of the score sort read whole: at each gap in its dealt rows (dealtGaps: between two
   * backs named at the floor, in a row, whole pitches apart) a card of their size and angle,
   * fitted to the edges about that place (refineGeometry from a few starts a few pixels apart),
   * read in a second batch (a place read as no card or an unsure face may still be one of those
   * designs' backs, backsInGaps); kept only where it reads as a back of that design, or of either
   * of the two, at DEALT_GAP_MIN or more.
   */
  private async fillDealtGaps(image: RgbImage, located: LocatedCard[], identities: Array<TrackedIdentity | undefined>, timestampMs: number): Promise<Array<{ card: LocatedCard; id: TrackedIdentity }>> {
    const backs = located.flatMap((card, i) => {
      const id = identities[i];
      if (id?.identity.kind !== 'back') return [];
      const { backId, confidence } = this.backNamed(id);
      return backId && confidence >= this.minConfidence ? [{ corners: card.corners, design: backId }] : [];
    });
    // A place is taken by an outline read as a card (a back, a face at the floor): one there read as
    // no card or an unsure face is a misfit round a pale back, which the gap's own outline may read.
    const counted = located.filter((_, i) => identities[i] !== undefined && !readAsNoCard(identities[i]!.identity, this.minConfidence));
    const gaps = dealtGaps(backs, counted.map((card) => card.corners));
    if (gaps.length === 0) return [];
    const grey = toGrey(image);
    const quads = gaps.map(({ geometry }) => {
      let best: ReturnType<typeof refineGeometry> | null = null;
      for (const dx of DEALT_GAP_STARTS)
        for (const dy of DEALT_GAP_STARTS) {
          const fit = refineGeometry(grey, { ...geometry, cx: geometry.cx + dx, cy: geometry.cy + dy }, { ...REFINE_DEFAULTS, coarse: false, maxRounds: 12 });
          if (!best || fit.edge > best.edge) best = fit;
        }
      // A fit that wandered off the place (onto the neighbour) is no fit: the place itself is read.
      const fitted = best && Math.hypot(best.cx - geometry.cx, best.cy - geometry.cy) <= geometry.short * 0.3;
      return geometryQuad(fitted ? best! : geometry);
    });
    const { crops, reads } = await this.readQuads(image, quads);
    await this.addBackLooks(reads, crops, () => true);
    await this.backsInGaps(reads, crops, gaps.map((gap) => gap.designs));
    return quads.flatMap((quad, k) => {
      const read = reads[k];
      if (read.identity.kind !== 'back') return [];
      const { backId, confidence } = this.backNamed(read);
      return backId !== undefined && gaps[k].designs.includes(backId) && confidence >= DEALT_GAP_MIN ? [{ card: { corners: quad, source: 'probe' as const, support: 1 }, id: { ...read, readAtMs: timestampMs } }] : [];
    });
  }

  /**
   * Each of `reads` (packed `crops`, same order) at a gap between two backs (of `designs[k]`: one
   * design, or either of two) read as no card or an unsure face becomes the back of one of those
   * designs where both embeddings put it close to that design's views (gapShowsDesign).
   */
  private async backsInGaps(reads: TrackedIdentity[], crops: Float32Array, designs: string[][]): Promise<void> {
    if (!this.backModel || this.backLooks.size === 0) return;
    const unsure = reads.flatMap((read, k) => {
      const { identity } = read;
      return identity.kind === 'other' || (identity.kind === 'face' && identity.confidence < GAP_LOOK.maxFace) ? [k] : [];
    });
    if (unsure.length === 0) return;
    const { packed, looks } = await this.backLooksAt(crops, unsure);
    unsure.forEach((k, j) => {
      const read = reads[k];
      const similarities = this.backLooks.similarities(looks[j]);
      const whole = this.enrolledFor(read.scale).backSimilarities(read.embedding, 0, read.embedding.length);
      const design = designs[k].find((candidate) => gapShowsDesign(candidate, similarities, whole));
      if (design === undefined) return;
      reads[k] = { ...read, identity: { kind: 'back', confidence: similarities.get(design)!, design }, backLook: looks[j], backColour: backColourOf(packed, j * CROP_SIZE, CROP_WIDTH, CROP_HEIGHT) };
    });
  }

  /**
   * The design of a card read as a back: by both embeddings and its colour where backs are
   * enrolled for the back-look model (see nameBackDesign), else the whole-card model's nearest
   * enrolled back (`match`).
   */
  private backIdOf(read: TrackedIdentity, match: { backId: string } | null): string | undefined {
    if (!read.backLook || this.backLooks.size === 0) return match?.backId;
    return nameBackDesign({
      looks: this.backLooks.similarities(read.backLook),
      whole: this.enrolledFor(read.scale).backSimilarities(read.embedding, 0, read.embedding.length),
      colourDistances: read.backColour && this.backColours.size > 0 ? designColourDistances(this.backColours, read.backColour) : undefined,
      wholeMatch: match !== null,
    });
  }

  /**
   * With no back enrolled there is no design to match a "back" against, so one must at least look
   * like a back: each of `reads` read as a back whose crop (packed `crops`, same order) is a plain
   * pale patch (paper, a pale stretch of cloth: plainPalePatch) is read as no card instead.
   */
  private noPlainBacks(reads: TrackedIdentity[], crops: Float32Array): void {
    if (this.enrolledBy.identity.backCount > 0 || this.enrolledBy['identity-live'].backCount > 0) return;
    reads.forEach((read, k) => {
      if (read.identity.kind === 'back' && plainPalePatch(crops, k * CROP_SIZE, CROP_WIDTH, CROP_HEIGHT)) reads[k] = { ...read, identity: { kind: 'other', confidence: read.identity.confidence } };
    });
  }

  /**
   * Adds the back-look embedding to each of `reads` read as a back (packed `crops`, same order),
   * when back looks are enrolled. Reads for which `wholeOutline` holds (an outline of a whole
   * card, not a split hypothesis) that the identity model calls an unsure face or no card are looked at too,
   * and become the enrolled back both embeddings say they are (see backByLooks).
   */
  private async addBackLooks(reads: TrackedIdentity[], crops: Float32Array, wholeOutline: (k: number) => boolean = () => false): Promise<void> {
    if (!this.backModel || this.backLooks.size === 0) return;
    // No card (`other`) is looked at without a calibration too, by a stricter rule (OTHER_RESCUE_UNCALIBRATED).
    const mayBe = (identity: Identity) => mayBeBack(identity, this.plane !== null) || identity.kind === 'other';
    const looked = reads.flatMap((read, k) => (read.identity.kind === 'back' || (mayBe(read.identity) && wholeOutline(k)) ? [k] : []));
    if (looked.length === 0) return;
    const { packed, looks } = await this.backLooksAt(crops, looked);
    looked.forEach((k, j) => {
      const read = reads[k];
      let identity = read.identity;
      const similarities = this.backLooks.similarities(looks[j]);
      if (identity.kind !== 'back') {
        // No card (`other`) without a calibration: only a look far nearer one design than the rest (OTHER_RESCUE_UNCALIBRATED).
        const rule = identity.kind === 'other' && this.plane === null ? OTHER_RESCUE_UNCALIBRATED : LOOK_RESCUE;
        const back = backByLooks(similarities, this.enrolledFor(read.scale).backSimilarities(read.embedding, 0, read.embedding.length), rule);
        if (!back) return;
        identity = { kind: 'back', confidence: back.confidence, design: back.backId };
      } else {
        identity = { ...identity, confidence: backConfidence(identity.confidence, similarities) };
      }
      reads[k] = { ...read, identity, backLook: looks[j], backColour: backColourOf(packed, j * CROP_SIZE, CROP_WIDTH, CROP_HEIGHT) };
    });
  }

  /**
   * On a calibrated table with enrolled backs, in a frame read whole (the score sort's, once a
   * second; tracking carries what it finds to the frames between): each whole-card outline read
   * as an unsure face or as no card (mayBeBack) is read again from a crop a little wider
   * (`backWiderLook`), and where that reads as a back, the wider read and its crop (in `crops`)
   * replace the first. Not on every live frame: there it cost a 3-player hand 11 ms a frame (p50).
   */
  private async lookWiderForBacks(image: RgbImage, reads: TrackedIdentity[], crops: Float32Array, quads: Quad[], wholeOutline: (k: number) => boolean): Promise<void> {
    if (!this.plane || this.backLooks.size === 0 || this.backWiderLook === 1) return;
    const again = reads.flatMap((read, k) => (mayBeBack(read.identity, true) && wholeOutline(k) ? [k] : []));
    if (again.length === 0) return;
    const wider = new Float32Array(again.length * CROP_SIZE);
    const widerQuads = again.map((k) => scaleQuad(quads[k], this.backWiderLook));
    widerQuads.forEach((quad, j) => cropCard(image, quad, CROP_WIDTH, CROP_HEIGHT, wider, j * CROP_SIZE));
    const corners = this.indexModel ? this.cornerCrops(image, widerQuads) : null;
    const widerReads = await this.readIdentities(wider, corners, again.length, { lengths: again.map((k) => quadLongSide(quads[k])) });
    again.forEach((k, j) => {
      const read = widerReads[j];
      if (read.identity.kind !== 'back' || read.identity.confidence < this.minConfidence) return;
      reads[k] = read;
      crops.set(wider.subarray(j * CROP_SIZE, (j + 1) * CROP_SIZE), k * CROP_SIZE);
    });
  }

  /**
   * Without a calibration: the card of the frame's own `size` (typicalCardSize of its `sure` faces)
   * about each outline clearly smaller than it that was read as no card or an unsure face, and lies
   * in no sure card (there it is that card's picture frame). A court card's picture frame is a
   * sharper rectangle than the card's own edge on a pale cloth, and the net's guess at a card
   * lying sideways is often a size too small and the wrong way round (rendered unseen art). Read
   * in a second batch; those read as sure faces join the frame's outlines ('grown').
   */
  private async lookAtTypicalSize(
    image: RgbImage,
    size: { short: number; long: number },
    sure: LocatedCard[],
    located: LocatedCard[],
    identities: Array<TrackedIdentity | undefined>,
    timestampMs: number,
  ): Promise<Array<{ card: LocatedCard; id: TrackedIdentity }>> {
    const small = located.filter((card, i) => {
      if (!readAsNoCard(identities[i]?.identity, this.minConfidence) || quadShortSide(card.corners) >= size.short * TYPICAL_SIZE_LOOK.smallerThan) return false;
      const [cx, cy] = quadCentre(card.corners);
      return !sure.some((other) => pointInPolygon(other.corners, cx, cy));
    });
    if (small.length === 0) return [];
    const grey = toGrey(image);
    const quads: Quad[] = [];
    // A card lying mostly over a sure card is that card's neighbourhood (a cascade's strips), not another card.
    const overSure = (quad: Quad) => liesOverSure(quad, sure, TYPICAL_SIZE_LOOK.maxOverSure);
    for (const card of small) {
      const quad = cardOfSizeAbout(grey, card.corners, size);
      if (!overSure(quad) && !quads.some((q) => sameCorners(q, quad, size.short * TYPICAL_SIZE_LOOK.sameWithin))) quads.push(quad);
    }
    if (quads.length === 0) return [];
    const { reads } = await this.readQuads(image, quads);
    return quads.flatMap((quad, k) => (sureFaceRead(reads[k].identity) ? [{ card: { corners: quad, source: 'grown' as const, support: 1 }, id: { ...reads[k], readAtMs: timestampMs } }] : []));
  }

  /**
   * Without a calibration: each squat outline (squatOutline: a far card foreshortened by a tilted
   * camera, or no card) read as no card or a face under the floor is read again a quarter turn on
   * (quarterTurned), in a second batch; kept where that reads as a face at the floor, as the
   * outline's rival (the surer reading stays). Rendered scenes under an oblique camera: a 3H of
   * the far row, 60 x 47 px, read AH 0.36 cut across its length and 3H 0.97 turned. Reading
   * every squat outline both ways, or every one read as no card, cost the real photos 2 cards found
   * of 527 (outlines round a sure card and its neighbour, read turned as the sure card, hid the
   * neighbour's strip): squat outlines lying mostly over a sure face are left alone.
   */
  private async lookQuarterTurned(image: RgbImage, located: LocatedCard[], identities: Array<TrackedIdentity | undefined>, timestampMs: number): Promise<Array<{ card: LocatedCard; id: TrackedIdentity }>> {
    // A squat outline lying mostly over a sure face is drawn round that card and its neighbourhood (photo IMG_2599: round a JD and the KC under it, read JD turned).
    const sure = located.filter((_, i) => sureFaceRead(identities[i]?.identity));
    const squat = located.flatMap((card, i) =>
      readAsNoCard(identities[i]?.identity, this.minConfidence) && squatOutline(card.corners) && !liesOverSure(card.corners, sure, QUARTER_TURN_LOOK.maxOverSure) ? [i] : [],
    );
    if (squat.length === 0) return [];
    const quads = squat.map((i) => quarterTurned(located[i].corners));
    const { reads } = await this.readQuads(image, quads);
    return squat.flatMap((i, k) => {
      const { identity } = reads[k];
      if (identity.kind !== 'face' || identity.confidence < this.minConfidence) return [];
      const rivalGroup = located[i].rivalGroup ?? newRivalGroup();
      located[i] = { ...located[i], rivalGroup };
      return [{ card: { ...located[i], corners: quads[k] }, id: { ...reads[k], readAtMs: timestampMs } }];
    });
  }

  /**
   * Without a calibration: the cards lying under each sure face whose strip shows beside it
   * (stripHypotheses: a card of that face's size, shifted by the strip's width), read in a second
   * batch. Kept only where the index corner names another face than the sure card's
   * (namedByStripCorner); they join the frame's outlines as hypotheses ('strip'), which
   * coveredCards reports by the strip that shows where it can tell. Followed down a cascade up to
   * STRIP_CHAIN_LEVELS cards.
   */
  private async lookForStrips(
    image: RgbImage,
    sure: LocatedCard[],
    located: LocatedCard[],
    identities: Array<TrackedIdentity | undefined>,
    timestampMs: number,
  ): Promise<Array<{ card: LocatedCard; id: TrackedIdentity }>> {
    const codeOf = (identity: Identity | null | undefined) => (identity?.kind === 'face' ? identity.code : undefined);
    const sureCodes = sure.map((card) => codeOf(identities[located.indexOf(card)]?.identity));
    // Each is read, even where an outline read surely lies already: as another hypothesis's rival it
    // may outrank a misreading (IMG_2623: a JD under an AS, outlined whole by the net too, read
    // 0.96 by its corner; off the JD's too-small outline, a hypothesis read KD 0.81).
    const grey = toGrey(image);
    // Down a cascade, level by level: the surest card found under each strip is where the next
    // strip beyond it, on the same side, begins (a work pile's third card shows beyond the second's strip).
    const kept: Array<{ strip: StripCard; read: TrackedIdentity; top: number }> = [];
    const chainCodes: Array<Set<CardCode>> = sureCodes.map((code) => new Set(code ? [code] : []));
    // Each card looked beyond: the sure card at the cascade's top (its index into `sure`).
    const topOf: number[] = sure.map((_, k) => k);
    // A squat sure outline may be a cascade outlined whole: looked beyond from its top card's part.
    const outlines = await this.topCardsOfSquat(image, sure.map((card) => card.corners), sureCodes);
    let frontier: Array<{ quad: Quad; side: number | undefined; id: number }> = outlines.map((quad, id) => ({ quad, side: undefined, id }));
    for (let level = 0; level < STRIP_CHAIN_LEVELS && frontier.length > 0; level++) {
      const strips = stripHypotheses(grey, frontier.map((card) => card.quad), STRIP_LOOK, frontier.map((card) => card.side)).map((strip) => ({ ...strip, under: frontier[strip.under].id }));
      if (strips.length === 0) break;
      const { reads } = await this.readQuads(image, strips.map((strip) => strip.corners));
      const found = strips.flatMap((strip, k) => (namedByStripCorner(reads[k], chainCodes[strip.under], this.minConfidence) ? [{ strip, read: reads[k], top: topOf[strip.under] }] : []));
      kept.push(...found);
      // The next level: per strip (one card's side), its surest card, where its corner names it at the floor.
      const surest = new Map<string, (typeof found)[number]>();
      for (const hit of found) {
        const corner = hit.read.fromIndex;
        if (corner?.kind !== 'face' || corner.confidence < this.minConfidence) continue;
        const key = `${hit.strip.under}:${hit.strip.side}`;
        const best = surest.get(key);
        if (!best || corner.confidence > (best.read.fromIndex?.confidence ?? 0)) surest.set(key, hit);
      }
      frontier = [...surest.values()].map(({ strip, read }) => {
        const id = chainCodes.length;
        topOf.push(topOf[strip.under]);
        chainCodes.push(new Set([...chainCodes[strip.under], ...(read.fromIndex?.kind === 'face' ? [read.fromIndex.code] : [])]));
        return { quad: strip.corners, side: strip.side, id };
      });
    }
    if (kept.length === 0) return [];
    // A squat outline with cards found under its top card's part was a cascade outlined whole: the top card is that part.
    outlines.forEach((quad, k) => {
      if (quad === sure[k].corners || !kept.some(({ top }) => top === k)) return;
      const i = located.indexOf(sure[k]);
      if (i >= 0) located[i] = { ...located[i], corners: quad };
    });
    const cornerCode = (read: TrackedIdentity) => (read.fromIndex?.kind === 'face' ? read.fromIndex.code : undefined);
    const groups = stripRivalGroups(kept.map(({ strip, read, top }) => ({ strip, code: cornerCode(read), cascade: `${top}:${strip.side}` })));
    const numbers = new Map<number, number>();
    return kept.map(({ strip, read }, k) => {
      if (!numbers.has(groups[k])) numbers.set(groups[k], newRivalGroup());
      return { card: { corners: strip.corners, source: 'strip' as const, support: 1, rivalGroup: numbers.get(groups[k]) }, id: { ...read, readAtMs: timestampMs } };
    });
  }

  /**
   * Where a sure face's outline is squat (squatOutline) on a table of many sure cards, the
   * card-shaped part of it at one end (cardShapedEnds) of the frame's card size
   * (SQUAT_TOP_SIZE_TOLERANCE) whose index corner names that face surest, at the floor: a cascade
   * outlined whole with its top card (rendered scenes: a 10C over a 9C and an 8S, one square
   * outline read 10C), whose strips lie under the rest. Else the outline as it is. Photos of a few
   * fanned cards show no reliable card size, and cut ends there outranked real cards.
   */
  private async topCardsOfSquat(image: RgbImage, quads: Quad[], codes: Array<CardCode | undefined>): Promise<Quad[]> {
    // Sure faces of several names: one card's rival outlines all read alike and show no table's card size.
    if (new Set(codes.filter((code) => code !== undefined)).size < SQUAT_TOP_MIN_SURE) return quads;
    const typical = typicalCardSize(quads);
    if (!typical) return quads;
    const near = (value: number, to: number) => Math.abs(value - to) <= SQUAT_TOP_SIZE_TOLERANCE * to;
    const ofSize = (quad: Quad) => {
      const { short, long } = cardGeometry(quad);
      return near(Math.max(short, long), typical.long) && near(Math.min(short, long), typical.short);
    };
    const trims = quads.flatMap((quad, k) => (codes[k] && squatOutline(quad) ? cardShapedEnds(quad).filter(ofSize).map((end) => ({ k, quad: orderCardQuad(end) })) : []));
    if (trims.length === 0) return quads;
    const { reads } = await this.readQuads(image, trims.map((trim) => trim.quad));
    const out = quads.slice();
    const best = new Map<number, number>();
    trims.forEach(({ k, quad }, j) => {
      const corner = reads[j].fromIndex;
      if (corner?.kind !== 'face' || corner.code !== codes[k] || corner.confidence < this.minConfidence) return;
      if (corner.confidence > (best.get(k) ?? 0)) {
        best.set(k, corner.confidence);
        out[k] = quad;
      }
    });
    return out;
  }

  /** A second batch: each of `quads` cropped from `image` (whole card and index corners) and read; the packed crops too. */
  private async readQuads(image: RgbImage, quads: Quad[]): Promise<{ crops: Float32Array; reads: TrackedIdentity[] }> {
    const crops = new Float32Array(quads.length * CROP_SIZE);
    quads.forEach((quad, k) => cropCard(image, quad, CROP_WIDTH, CROP_HEIGHT, crops, k * CROP_SIZE));
    const corners = this.indexModel ? this.cornerCrops(image, quads) : null;
    return { crops, reads: await this.readIdentities(crops, corners, quads.length, { lengths: quads.map(quadLongSide) }) };
  }

  /** The back-look embeddings of the crops at `indices` of packed `crops`, and those crops packed on their own (same order). */
  private async backLooksAt(crops: Float32Array, indices: number[]): Promise<{ packed: Float32Array; looks: Float32Array[] }> {
    const packed = new Float32Array(indices.length * CROP_SIZE);
    indices.forEach((k, j) => packed.set(crops.subarray(k * CROP_SIZE, (k + 1) * CROP_SIZE), j * CROP_SIZE));
    return { packed, looks: await this.backLookEmbeddings(packed, indices.length) };
  }

  /** The back-look model's L2-normalised embedding of each of `count` packed crops. */
  private async backLookEmbeddings(crops: Float32Array, count: number): Promise<Float32Array[]> {
    const data = await readBackLooks(this.backModel!, crops, count);
    return Array.from({ length: count }, (_, k) => data.slice(k * BACK_EMBED_SIZE, (k + 1) * BACK_EMBED_SIZE));
  }

  /** Both index corners of each card quad, packed for the index model. */
  private cornerCrops(image: RgbImage, quads: Quad[]): Float32Array {
    const corners = new Float32Array(quads.length * 2 * CORNER_SIZE);
    quads.forEach((quad, k) => {
      const [topLeft, bottomRight] = indexCornerQuads(quad);
      cropCard(image, topLeft, INDEX_WIDTH, INDEX_HEIGHT, corners, (k * 2) * CORNER_SIZE);
      cropCard(image, bottomRight, INDEX_WIDTH, INDEX_HEIGHT, corners, (k * 2 + 1) * CORNER_SIZE);
    });
    return corners;
  }

  /** Which models read a card this long in the image (pixels; unknown: the full ones), lying in `zone` (see LiveModelUse). */
  private scaleOf(lengthPx: number | undefined, zone?: string): ModelScale {
    if (this.liveModelUse === 'off' || (this.liveModelUse === 'seats' && !isSeatZone(zone))) return 'full';
    return (this.liveModel || this.liveIndexModel) && lengthPx !== undefined && lengthPx < this.liveBelowPx ? 'live' : 'full';
  }

  /** The enrolments that crops read at a model scale are compared with (those of its whole-card model). */
  private enrolledFor(scale: ModelScale): EnrollmentStore {
    return this.enrolledBy[this.modelsOf(scale).identity];
  }

  /** The CNNs of a model scale: each live-size model where loaded, else its full-size one. */
  private modelsOf(scale: ModelScale): { identity: 'identity' | 'identity-live'; index: 'index' | 'index-live' | null } {
    if (scale === 'full') return { identity: 'identity', index: this.indexModel ? 'index' : null };
    return { identity: this.liveModel ? 'identity-live' : 'identity', index: this.liveIndexModel ? 'index-live' : this.indexModel ? 'index' : null };
  }

  /** The whole-card model's reading of `count` packed crops, upright or turned 180 degrees. */
  private async readCrops(crops: Float32Array, count: number, turned = false, scale: ModelScale = 'full'): Promise<IdentityReading> {
    const [heads] = await runCnn(this.localCnn, this.helper, [{ model: this.modelsOf(scale).identity, data: crops, images: count, turned }]);
    return identityReadingOf(count, heads);
  }

  /** The whole-card reading of `count` crops upright, and the index model's of their corner pairs (none without the model). */
  private async readCropsAndCorners(crops: Float32Array, corners: Float32Array | null, count: number, scale: ModelScale): Promise<{ upright: IdentityReading; index: IndexOutputs | null }> {
    const models = this.modelsOf(scale);
    const index = corners !== null ? models.index : null;
    const heads = await runCnn(this.localCnn, this.helper, [
      { model: models.identity, data: crops, images: count, turned: false },
      ...(index && corners ? [{ model: index, data: corners, images: count * 2, turned: false }] : []),
    ]);
    return { upright: identityReadingOf(count, heads[0]), index: index ? indexOutputsOf(count, heads[1]) : null };
  }

  /**
   * The identities of `count` packed crops (and their index corners), each read by the models of
   * its size (`lengths`: each card's long side in the image; see LIVE_MODEL_BELOW_PX), turned as
   * `policy` says (see readScale).
   */
  private async readIdentities(
    crops: Float32Array,
    corners: Float32Array | null,
    count: number,
    { policy = () => 'when-unsure', lengths, zones }: { policy?: (k: number) => TurnPolicy; lengths?: number[]; zones?: Array<string | undefined> } = {},
  ): Promise<TrackedIdentity[]> {
    const scales = Array.from({ length: count }, (_, k) => this.scaleOf(lengths?.[k], zones?.[k]));
    const read: TrackedIdentity[] = new Array(count);
    for (const scale of ['full', 'live'] as const) {
      const members = scales.flatMap((s, k) => (s === scale ? [k] : []));
      if (members.length === 0) continue;
      const all = members.length === count;
      const pick = (buffer: Float32Array, size: number) => {
        const out = new Float32Array(members.length * size);
        members.forEach((k, j) => out.set(buffer.subarray(k * size, (k + 1) * size), j * size));
        return out;
      };
      const got = await this.readScale(all ? crops : pick(crops, CROP_SIZE), corners && !all ? pick(corners, 2 * CORNER_SIZE) : corners, members.length, (j) => policy(members[j]), scale);
      members.forEach((k, j) => (read[k] = got[j]));
    }
    return read;
  }

  /**
   * The identities of `count` packed crops (and their index corners) by one model scale: each
   * read upright, then also turned 180 degrees and the readings averaged where `bothWays` says so
   * (for 'when-unsure': where `policy(k)` says 'always', or says 'when-unsure' and one reading is
   * not surely a face).
   */
  private async readScale(crops: Float32Array, corners: Float32Array | null, count: number, policy: (k: number) => TurnPolicy, scale: ModelScale): Promise<TrackedIdentity[]> {
    const { upright, index: indexOutputs } = await this.readCropsAndCorners(crops, corners, count, scale);
    const index = (k: number) => (indexOutputs ? readIndex(indexOutputs, k) : undefined);
    const once = identityOutputs(upright);
    const read = Array.from({ length: count }, (_, k) => this.decide(once, k, index(k), scale));
    const again =
      this.bothWays === 'when-unsure'
        ? read.map((_, k) => k).filter((k) => {
            const turn = policy(k);
            return turn === 'always' || (turn === 'when-unsure' && (read[k].identity.kind !== 'face' || read[k].identity.confidence < ONE_WAY_SURE));
          })
        : this.bothWays
          ? read.map((_, k) => k)
          : [];
    if (again.length > 0) {
      const turnedCrops = new Float32Array(again.length * CROP_SIZE);
      again.forEach((k, j) => turnedCrops.set(crops.subarray(k * CROP_SIZE, (k + 1) * CROP_SIZE), j * CROP_SIZE));
      const both = identityOutputs(readingRows(upright, again), await this.readCrops(turnedCrops, again.length, true, scale));
      again.forEach((k, j) => (read[k] = this.decide(both, j, index(k), scale)));
    }
    return read;
  }

  /** Crop k's identity (and its embedding) from the whole-card outputs, its index reading and the enrolled faces. */
  private decide(outputs: IdentityOutputs, k: number, index: IndexReading | undefined, scale: ModelScale): TrackedIdentity {
    const embedding = outputs.embeddings.slice(k * outputs.embeddingSize, (k + 1) * outputs.embeddingSize);
    const enrolled = this.enrolledFor(scale);
    const faceBoost = enrolled.faceBoost(embedding, 0, outputs.embeddingSize);
    const backBoost = backEvidence(enrolled.backViewSimilarity(embedding, 0, outputs.embeddingSize));
    const identity = decideIdentity(outputs.probs, k * outputs.numClasses, outputs.numClasses, this.names, { faceBoost, backBoost, index, fusion: this.fusion });
    return { identity, scale, embedding, fromIndex: index ? decideFromIndex(index, this.fusion) : null, index };
  }

  /** Crops for whole-card views (each view is a card filling its image; `keep` < 1: the middle of it), and their index corners. */
  private async viewCrops(views: FrameInput[], withCorners: boolean, keep = 1): Promise<{ crops: Float32Array; corners: Float32Array | null; lengths: number[] }> {
    const crops = new Float32Array(views.length * CROP_SIZE);
    const corners = withCorners && this.indexModel ? new Float32Array(views.length * 2 * CORNER_SIZE) : null;
    const lengths: number[] = [];
    for (let i = 0; i < views.length; i++) {
      const image = await decodeFrame(views[i]);
      lengths.push(Math.max(image.width, image.height));
      // Landscape views are cards lying sideways: turn them upright.
      const whole = rectQuad(image.width, image.height);
      const quad = keep < 1 ? subQuad(whole, { x0: (1 - keep) / 2, y0: (1 - keep) / 2, x1: (1 + keep) / 2, y1: (1 + keep) / 2 }) : whole;
      const upright = image.width > image.height * 1.15 ? ([quad[3], quad[0], quad[1], quad[2]] as typeof quad) : quad;
      cropCard(image, upright, CROP_WIDTH, CROP_HEIGHT, crops, i * CROP_SIZE);
      if (corners) corners.set(this.cornerCrops(image, [upright]), i * 2 * CORNER_SIZE);
    }
    return { crops, corners, lengths };
  }

  async identifyCrops(views: FrameInput[]): Promise<Array<Identity & { backId?: string }>> {
    this.assertLive();
    const results: Array<Identity & { backId?: string }> = [];
    for (let start = 0; start < views.length; start += 32) {
      const chunk = views.slice(start, start + 32);
      const { crops, corners, lengths } = await this.viewCrops(chunk, true);
      const reads = await this.readIdentities(crops, corners, chunk.length, { lengths });
      await this.addBackLooks(reads, crops, () => true);
      for (const read of reads) {
        // Each view shows a whole card, so corners without an index say something (see rejectIndexless).
        const identity = rejectIndexless(read.identity, read.index);
        const { embedding } = read;
        const backId = identity.kind === 'back' ? this.backIdOf(read, this.enrolledFor(read.scale).nearestBack(embedding, 0, embedding.length)) : undefined;
        results.push({ ...identity, backId });
      }
    }
    return results;
  }

  /**
   * The views' embeddings by each whole-card model loaded, with the store they go to: a deck is
   * enrolled for both sizes, since the same back may be seen close up (full-size model) or across
   * the table (a live-size one).
   */
  private async embed(crops: Float32Array, count: number): Promise<Array<{ store: EnrollmentStore; embeddings: Float32Array[] }>> {
    if (count === 0) throw new Error('enrolment needs at least one view');
    // Enrolled looks are compared with cards read either way up: always both ways.
    const scales: ModelScale[] = this.liveModel ? ['full', 'live'] : ['full'];
    const result: Array<{ store: EnrollmentStore; embeddings: Float32Array[] }> = [];
    for (const scale of scales) {
      const upright = await this.readCrops(crops, count, false, scale);
      const outputs = identityOutputs(upright, this.bothWays !== false ? await this.readCrops(crops, count, true, scale) : undefined);
      result.push({ store: this.enrolledFor(scale), embeddings: Array.from({ length: count }, (_, k) => outputs.embeddings.slice(k * outputs.embeddingSize, (k + 1) * outputs.embeddingSize)) });
    }
    return result;
  }

  async enrollBack(backId: string, views: FrameInput[]): Promise<void> {
    this.assertLive();
    if (views.length > 5) throw new Error('enrol a back from at most 5 views');
    // Each view as shown, then its middle (see `backMiddle`).
    const whole = (await this.viewCrops(views, false)).crops;
    const crops = this.backMiddle < 1 ? concatCrops(whole, (await this.viewCrops(views, false, this.backMiddle)).crops) : whole;
    const count = crops.length / CROP_SIZE;
    for (const { store, embeddings } of await this.embed(crops, count)) store.setBack(backId, embeddings.slice(0, views.length), embeddings.slice(views.length));
    if (this.backModel) {
      // Each view also turned half a turn: a design with an emblem off centre must match either way up.
      this.backLooks.set(backId, [...(await this.backLookEmbeddings(crops, count)), ...(await this.backLookEmbeddings(turnedCrops(crops, count), count))]);
      this.backColours.set(backId, Array.from({ length: count }, (_, k) => backColourOf(crops, k * CROP_SIZE, CROP_WIDTH, CROP_HEIGHT)));
    }
    this.tracks.clear();
  }

  async enrollFace(code: CardCode, views: FrameInput[]): Promise<void> {
    this.assertLive();
    if (views.length === 0) for (const store of Object.values(this.enrolledBy)) store.setFace(code, []);
    else for (const { store, embeddings } of await this.embed((await this.viewCrops(views, false)).crops, views.length)) store.setFace(code, embeddings);
    this.tracks.clear();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.model.dispose();
    this.indexModel?.dispose();
    this.liveModel?.dispose();
    this.liveIndexModel?.dispose();
    this.locatorModel?.dispose();
    this.backModel?.dispose();
    this.tracks.clear();
  }

  private assertLive(): void {
    if (this.disposed) throw new Error('recognizer was disposed');
  }
}

/** Two runs of packed crops, one after the other. */
function concatCrops(first: Float32Array, second: Float32Array): Float32Array {
  const out = new Float32Array(first.length + second.length);
  out.set(first);
  out.set(second, first.length);
  return out;
}

/** `count` packed crops each turned half a turn (pixel order reversed, channels kept). */
function turnedCrops(crops: Float32Array, count: number): Float32Array {
  const out = new Float32Array(count * CROP_SIZE);
  const pixels = CROP_SIZE / 3;
  for (let k = 0; k < count; k++) {
    const o = k * CROP_SIZE;
    for (let p = 0; p < pixels; p++) {
      const from = o + p * 3;
      const to = o + (pixels - 1 - p) * 3;
      out[to] = crops[from];
      out[to + 1] = crops[from + 1];
      out[to + 2] = crops[from + 2];
    }
  }
  return out;
}
