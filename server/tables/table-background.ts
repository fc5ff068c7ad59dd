/**
 * The table as it looked during play, behind the score sort. The sort counts backs dealt out
 * after the call; a back the recogniser reports where the picture looks as it did at some moment
 * of play is no card dealt there: a gingham check or a wood knot outlined like a card and read as
 * a back, on bare table or where a foundation lay until it was swept up. Measured on the simulated
 * 3-player seed-2 sort (pale gingham, a pale blue lattice back): under each back truly dealt the
 * picture differs from every moment of play by 15 or more (mean absolute difference, 0..255 per
 * channel), under nearly all false backs from some moment by 3 or less.
 *
 * The table keeps small thumbnails of play frames, spread over the whole hand (every 4 s; when
 * full, every other one goes and the interval doubles). Only calibrated tables use it: a
 * calibration says the camera stands still. Pure but for `thumbOf`, which decodes with sharp.
 */
import sharp from 'sharp';
import { pointInPolygon, quadCentre, quadShortSide } from '../geometry';
import type { Point, Quad } from '../vision/types';

/** A small RGB picture of the whole frame, and the size of the frame it shows. */
export interface Thumb {
  width: number;
  height: number;
  rgb: Uint8Array;
  frameWidth: number;
  frameHeight: number;
}

/** Thumbnail size: a webcam card (about 36x50 of 1280x720 pixels) is about 9x12 here. */
export const THUMB_WIDTH = 320;
export const THUMB_HEIGHT = 180;

/** How the table's look is learned and compared. */
export interface BackgroundTuning {
  /** A play frame is sampled at most this often at first, ms (table time); doubles whenever the samples are thinned. */
  sampleEveryMs: number;
  /** At most this many samples are kept: when full, every other one goes. */
  maxSamples: number;
  /** Share of a card's width and height, about its centre, compared (clear of its edges). */
  middle: number;
  /** A back whose middle differs from some sample by less than this (0..255) lies where the table looked so during play. */
  unchangedBelow: number;
}

export const DEFAULT_BACKGROUND_TUNING: BackgroundTuning = {
  sampleEveryMs: 4000,
  maxSamples: 32,
  middle: 0.7,
  unchangedBelow: 8,
};

/** A frame's thumbnail, or null when it cannot be decoded (the table then judges no back by it). */
export async function thumbOf(image: Uint8Array): Promise<Thumb | null> {
  try {
    const decoded = sharp(image, { failOn: 'error' });
    const { width, height } = await decoded.metadata();
    if (!width || !height) return null;
    const rgb = await decoded.resize(THUMB_WIDTH, THUMB_HEIGHT, { fit: 'fill' }).removeAlpha().raw().toBuffer();
    return { width: THUMB_WIDTH, height: THUMB_HEIGHT, rgb: new Uint8Array(rgb), frameWidth: width, frameHeight: height };
  } catch {
    return null;
  }
}

/**
 * How much the middle of a card (its corners in frame pixels) differs between two thumbnails of
 * the same view: the mean absolute difference per channel, 0..255. Null when the thumbnails do
 * not show the same frame size or the middle lies outside them.
 */
export function changeUnder(now: Thumb, before: Thumb, corners: Quad, middle = DEFAULT_BACKGROUND_TUNING.middle): number | null {
  if (now.width !== before.width || now.height !== before.height || now.frameWidth !== before.frameWidth || now.frameHeight !== before.frameHeight) return null;
  const sx = now.width / now.frameWidth;
  const sy = now.height / now.frameHeight;
  const [cx, cy] = quadCentre(corners);
  const side = (a: number, b: number) => Math.hypot(corners[b][0] - corners[a][0], corners[b][1] - corners[a][1]);
  // Half the middle's extent along the image axes (cards on a sort lie about upright; a tilted
  // card's middle box stays inside it for tilts up to about 20 degrees).
  const halfW = Math.max(0.5, (side(0, 1) * middle * sx) / 2);
  const halfH = Math.max(0.5, (side(1, 2) * middle * sy) / 2);
  let sum = 0;
  let count = 0;
  for (let y = Math.round(cy * sy - halfH); y <= Math.round(cy * sy + halfH); y++) {
    if (y < 0 || y >= now.height) continue;
    for (let x = Math.round(cx * sx - halfW); x <= Math.round(cx * sx + halfW); x++) {
      if (x < 0 || x >= now.width) continue;
      const i = (y * now.width + x) * 3;
      sum += Math.abs(now.rgb[i] - before.rgb[i]) + Math.abs(now.rgb[i + 1] - before.rgb[i + 1]) + Math.abs(now.rgb[i + 2] - before.rgb[i + 2]);
      count += 3;
    }
  }
  return count === 0 ? null : sum / count;
}

/**
 * The table's looks over one hand: thumbnails of play frames until the sort begins (`freeze`).
 * Start a new one for every hand.
 */
export class TableBackground {
  private samples: Thumb[] = [];
  private everyMs: number;
  private lastSampleMs = -Infinity;
  private frozen = false;

  constructor(private readonly tuning: BackgroundTuning = DEFAULT_BACKGROUND_TUNING) {
    this.everyMs = tuning.sampleEveryMs;
  }

  /** Whether a play frame at `timeMs` should be sampled (call `sampling` then, before decoding it). */
  wantsSample(timeMs: number): boolean {
    return !this.frozen && (timeMs - this.lastSampleMs >= this.everyMs || timeMs < this.lastSampleMs);
  }

  /** Notes that the frame at `timeMs` is being sampled (so frames decoded meanwhile are not). */
  sampling(timeMs: number): void {
    this.lastSampleMs = timeMs;
  }

  /** Adds a play frame's thumbnail (ignored once frozen); when full, keeps every other sample and samples half as often. */
  addSample(thumb: Thumb): void {
    if (this.frozen) return;
    this.samples.push(thumb);
    if (this.samples.length > this.tuning.maxSamples) {
      this.samples = this.samples.filter((_, i) => i % 2 === 0);
      this.everyMs *= 2;
    }
  }

  /** Samples kept so far. */
  get size(): number {
    return this.samples.length;
  }

  /** Stops sampling (the sort has begun); returns whether there is anything to compare with. */
  freeze(): boolean {
    this.frozen = true;
    return this.samples.length > 0;
  }

  /** Whether a card (corners in frame pixels) lies, in `now`, where the table looked just so at some moment of play. */
  unchanged(now: Thumb, corners: Quad): boolean {
    return this.samples.some((sample) => {
      const change = changeUnder(now, sample, corners, this.tuning.middle);
      return change !== null && change < this.tuning.unchangedBelow;
    });
  }
}

/**
 * Whether a card lies on the table: its centre inside the table's outline (a calibration's image
 * corners) by at least half its short side, so the whole card's width is on the table. A card
 * dealt out for the sort does; an outline at the table's edge does not (on the seed-2 sort: a
 * gingham check against the table's border, outlined as a card, and a player's hand resting over
 * the edge, each read as a back).
 */
export function liesOnTable(corners: Quad, table: readonly Point[]): boolean {
  const [x, y] = quadCentre(corners);
  if (!pointInPolygon(table, x, y)) return false;
  const half = quadShortSide(corners) / 2;
  for (let i = 0; i < table.length; i++) {
    const [ax, ay] = table[i];
    const [bx, by] = table[(i + 1) % table.length];
    const length = Math.hypot(bx - ax, by - ay);
    if (length === 0) continue;
    // Distance from the centre to this side's segment.
    const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / (length * length)));
    if (Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))) < half) return false;
  }
  return true;
}

