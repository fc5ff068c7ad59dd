/**
 * Pile probes: on a calibrated table we know where each seat's Nerts pile lies and how big a card
 * is there. The score hangs on that pile (its count, and the call when it empties), yet the
 * classical localiser often misses it at webcam size: a pile touching its neighbours in a column
 * merges into one blob, and a face with big red pips breaks the white mask its split relies on.
 * So where the localiser found no card on a Nerts pile, a card-sized outline is fitted there
 * (refine.ts: the rectangle whose edge is the strongest brightness step) and, when the edge is
 * clear, that is a card for the identity model to read, like any other. Pure.
 */
import { pointInPolygon, quadCentre } from '../geometry';
import { cropRegion, type PixelRect } from './change';
import type { RgbImage } from './crop';
import { geometryQuad, type CardGeometry } from './locator';
import { REFINE_DEFAULTS, refineGeometry, toGrey } from './refine';
import type { LocatedCard } from './locate';
import type { Point, Quad } from './types';

/** Tunables of a probe. */
export const PROBE_DEFAULTS = {
  /** Sizes tried, as factors of the calibrated card width (perspective and calibration error). */
  scales: [0.85, 0.95, 1.05, 1.15],
  /** Long/short ratios tried (63x88 mm is 1.40). */
  aspects: [1.3, 1.4, 1.5],
  /** An outline whose inside is on average less than this much brighter than outside is no card (0..255). */
  minEdge: REFINE_DEFAULTS.minEdge,
  /** The window searched round the zone, in card widths beyond its bounding box. */
  marginCards: 0.5,
};

/** The whole-pixel rectangle from (x0, y0) to (x1, y1), clipped to the image. */
function clippedRect(image: RgbImage, x0: number, y0: number, x1: number, y1: number): PixelRect {
  const x = Math.max(0, Math.floor(x0));
  const y = Math.max(0, Math.floor(y0));
  return { x, y, width: Math.max(0, Math.min(image.width, Math.ceil(x1)) - x), height: Math.max(0, Math.min(image.height, Math.ceil(y1)) - y) };
}

/**
 * The card lying in the pile zone `polygon` (image pixels), found by fitting a card outline of
 * about `cardWidthPx` there; null when no outline with a clear edge has its centre in the zone
 * (an empty pile, a hand over it).
 */
export function probePile(image: RgbImage, polygon: Point[], cardWidthPx: number, params = PROBE_DEFAULTS): Quad | null {
  const xs = polygon.map((p) => p[0]);
  const ys = polygon.map((p) => p[1]);
  const margin = params.marginCards * cardWidthPx;
  const window = clippedRect(image, Math.min(...xs) - margin, Math.min(...ys) - margin, Math.max(...xs) + margin, Math.max(...ys) + margin);
  if (window.width < 4 || window.height < 4) return null;
  const grey = toGrey(cropRegion(image, window));
  const start: CardGeometry = {
    cx: xs.reduce((a, b) => a + b, 0) / xs.length - window.x,
    cy: ys.reduce((a, b) => a + b, 0) / ys.length - window.y,
    short: cardWidthPx,
    long: cardWidthPx * 1.4,
    angle: 0,
  };
  const fitted = refineGeometry(grey, start, { ...REFINE_DEFAULTS, scales: params.scales, aspects: params.aspects });
  const centre: Point = [fitted.cx + window.x, fitted.cy + window.y];
  if (fitted.edge < params.minEdge || !pointInPolygon(polygon, centre[0], centre[1])) return null;
  return geometryQuad({ ...fitted, cx: centre[0], cy: centre[1] });
}

/**
 * A face-up card the recogniser read in the centre: a foundation pile's top. The classical
 * localiser loses such a card now and then (a neighbouring pile merges with it, a hand has just
 * left it, a court card's picture breaks its white mask), and a pile not seen casts no vote, so
 * a run of plays onto it goes unseen. Cards read there a few times are remembered, and where the
 * localiser later finds nothing at one of them, a card outline is fitted at the remembered place
 * (as on a Nerts pile).
 *
 * Piles do not move: a place follows its readings slowly (a card carried over it, read once,
 * must not drag it off its pile), and a faint reading there (a court card at webcam size reads
 * at 0.2) keeps it from being forgotten, though it never starts a place.
 */
export interface RememberedCard extends LastProbe {
  centre: Point;
  corners: Quad;
  /** Last time a face was read here, ms (frame time). */
  lastMs: number;
  /** Faces read here so far. */
  sightings: number;
  /** The last probe's outline here (null: none found); undefined: not probed since the last reading. */
  probe?: Quad | null;
}

/** Tunables of the centre memory. */
export const MEMORY_DEFAULTS = {
  /** Two readings whose centres lie within this many card lengths are the same place. */
  samePlaceCards: 0.3,
  /** Readings needed before a place is probed (a card carried across the centre is read once or twice). */
  minSightings: 3,
  /** A place without a reading this long is forgotten (a completed pile set aside), ms. */
  forgetMs: 8000,
  /** The probe's outline must centre within this fraction of the remembered card's size of where it was. */
  probeSpan: 0.5,
  /** Weight of a new reading in a place's position (the rest is where it was). */
  follow: 0.25,
  /**
   * In the score sort, a place whose last probe found no card is probed again only this long
   * after it, ms (see probeDue).
   */
  sortEmptyProbeGapMs: 500,
};

/** A place's last probe: its outline (null: none found; undefined: not probed since it last changed for another reason) and when it ran. */
export interface LastProbe {
  probe?: Quad | null;
  probedAtMs?: number;
}

/**
 * Whether a place (a remembered centre place, a Nerts pile) is probed this frame, else it keeps
 * its last probe: when it has no probe yet, or the frame changed there (`changedThere`). Except
 * in the score sort (`scoreSort`: the frames after the call), where a place whose last probe
 * found nothing waits `sortEmptyProbeGapMs` for its next. After the call no card lands any
 * more, the players gather the centre piles and deal them out with hands sweeping over every
 * place, and a centre place stays remembered for `forgetMs` after its last face: the 3-player
 * seed-1 sort probed about ten places a frame for six seconds (with the caller's empty Nerts
 * pile, about 15 ms of a dealing frame's 50 on one thread), finding a card in one probe of
 * thirty. In play every changed place is probed at once (a pile's new top the localiser lost).
 */
export function probeDue(last: LastProbe, changedThere: boolean, timestampMs: number, scoreSort: boolean, params = MEMORY_DEFAULTS): boolean {
  if (last.probe === undefined) return true;
  if (!changedThere) return false;
  if (!scoreSort || last.probe !== null || last.probedAtMs === undefined) return true;
  return !(timestampMs >= last.probedAtMs && timestampMs - last.probedAtMs < params.sortEmptyProbeGapMs);
}

/**
 * The memory after a frame whose centre faces read at least as surely as the floor are `cards`,
 * and those read more faintly `faint` (they only keep a place they lie on alive). Pure.
 */
export function rememberCentreCards(
  memory: readonly RememberedCard[],
  cards: ReadonlyArray<{ corners: Quad }>,
  timestampMs: number,
  cardLengthPx: number,
  faint: ReadonlyArray<{ corners: Quad }> = [],
  params = MEMORY_DEFAULTS,
): RememberedCard[] {
  const next = memory.filter((place) => timestampMs - place.lastMs <= params.forgetMs).map((place) => ({ ...place }));
  const placeAt = (centre: Point) => next.find((p) => Math.hypot(p.centre[0] - centre[0], p.centre[1] - centre[1]) <= params.samePlaceCards * cardLengthPx);
  for (const card of cards) {
    const seen = quadCentre(card.corners);
    const place = placeAt(seen);
    if (!place) {
      next.push({ centre: seen, corners: card.corners, lastMs: timestampMs, sightings: 1 });
      continue;
    }
    // The place moves a little towards the reading; the card's outline is kept, centred there.
    const centre: Point = [place.centre[0] + params.follow * (seen[0] - place.centre[0]), place.centre[1] + params.follow * (seen[1] - place.centre[1])];
    const shift = ([x, y]: Point): Point => [x + centre[0] - seen[0], y + centre[1] - seen[1]];
    const corners: Quad = [shift(card.corners[0]), shift(card.corners[1]), shift(card.corners[2]), shift(card.corners[3])];
    Object.assign(place, { centre, corners, lastMs: timestampMs, sightings: place.sightings + 1, probe: undefined });
  }
  for (const card of faint) {
    const place = placeAt(quadCentre(card.corners));
    if (place) place.lastMs = timestampMs;
  }
  return next;
}

/** Remembered places (seen often enough) where none of `located` lies. */
export function placesToProbe(memory: readonly RememberedCard[], located: ReadonlyArray<{ corners: Quad }>, cardLengthPx: number, params = MEMORY_DEFAULTS): RememberedCard[] {
  const centres = located.map((card) => quadCentre(card.corners));
  return memory.filter((place) => place.sightings >= params.minSightings && !centres.some(([x, y]) => Math.hypot(place.centre[0] - x, place.centre[1] - y) <= params.samePlaceCards * cardLengthPx));
}

/** The polygon a probe's outline must centre in: the remembered card shrunk towards its centre. */
export function probeSpanPolygon(place: RememberedCard, params = MEMORY_DEFAULTS): Point[] {
  const [cx, cy] = place.centre;
  return place.corners.map(([x, y]) => [cx + (x - cx) * params.probeSpan, cy + (y - cy) * params.probeSpan] as Point);
}

/**
 * Whether a calibrated Nerts pile that holds outlines is to be probed all the same: every outline
 * on it was last read as no card (`rememberedKind`: the kind the track memory holds for an
 * outline, undefined when it holds none), and no probe lies there already. The localiser's split
 * outlines of a top touching its work pile change from frame to frame, one a few pixels off can
 * read as no card, and tracking reuses that reading (session 43: a pile holding its last card
 * showed nothing for 1.3 s, and the tracker called Nerts).
 */
export function pileReadAsNoCard(onPile: readonly LocatedCard[], rememberedKind: (card: LocatedCard) => string | undefined): boolean {
  return onPile.length > 0 && !onPile.some((card) => card.source === 'probe') && onPile.every((card) => rememberedKind(card) === 'other');
}
