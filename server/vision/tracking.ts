/**
 * Frame-to-frame reuse: a card whose quad has not moved and whose small grey thumbnail has not
 * changed keeps last frame's identity, so a steady table costs no CNN time. TrackMemory keeps
 * the cards of the last moments too, so a card that reappears where it lay, looking as it did
 * (a hand passed over it), keeps its identity rather than being read again.
 */
import { homographyFromPoints, rectQuad, warpInto, type RgbImage } from './crop';
import { sameCorners } from '../geometry';
import type { Quad } from './types';

/** Thumbnail used to detect change, pixels. */
export const THUMB_WIDTH = 12;
export const THUMB_HEIGHT = 18;
/** Corner movement (fraction of the card's short side) still counted as "not moved". */
export const MAX_CORNER_SHIFT = 0.06;
/** Mean absolute thumbnail difference (0..1) still counted as "unchanged". */
export const MAX_THUMB_DIFF = 0.04;

/** A small RGB thumbnail of the card under `quad` (float 0..1). */
export function cardThumbnail(image: RgbImage, quad: Quad): Float32Array {
  const out = new Float32Array(THUMB_WIDTH * THUMB_HEIGHT * 3);
  warpInto(image, homographyFromPoints(rectQuad(THUMB_WIDTH, THUMB_HEIGHT), quad), THUMB_WIDTH, THUMB_HEIGHT, out);
  return out;
}

/** A remembered card: where it was, what it looked like, and what we decided it is. */
export interface Track<T> {
  corners: Quad;
  thumbnail: Float32Array;
  value: T;
}

function shortSide(q: Quad): number {
  const ax = q[1][0] - q[0][0];
  const ay = q[1][1] - q[0][1];
  const bx = q[2][0] - q[1][0];
  const by = q[2][1] - q[1][1];
  return Math.sqrt(Math.min(ax * ax + ay * ay, bx * bx + by * by));
}

function cornerTolerance(corners: Quad): number {
  return MAX_CORNER_SHIFT * shortSide(corners) + 1;
}

/** The previous track this card continues, if it neither moved nor changed. */
export function findUnchanged<T>(tracks: readonly Track<T>[], corners: Quad, thumbnail: Float32Array): Track<T> | undefined {
  const tolerance = cornerTolerance(corners);
  for (const track of tracks) {
    if (!sameCorners(corners, track.corners, tolerance)) continue;
    let diff = 0;
    for (let i = 0; i < thumbnail.length; i++) diff += Math.abs(thumbnail[i] - track.thumbnail[i]);
    if (diff / thumbnail.length <= MAX_THUMB_DIFF) return track;
  }
  return undefined;
}

/**
 * How far (a multiple of the tracking tolerance, see MAX_CORNER_SHIFT) an outline may lie from
 * one of the last frame's and still count as steady (see steadyOutlines).
 */
export const STEADY_TOLERANCE = 2;

/**
 * For each of this frame's outlines, whether the last frame had an outline in the same place
 * (corners within STEADY_TOLERANCE times the tracking tolerance). A card put down stays where
 * it lands, so its outline is steady from its second frame; the outlines a localiser finds on
 * a moving hand or arm move with it and seldom are.
 */
export function steadyOutlines(current: readonly Quad[], previous: readonly Quad[]): boolean[] {
  return current.map((corners) => {
    const tolerance = STEADY_TOLERANCE * cornerTolerance(corners);
    return previous.some((old) => sameCorners(corners, old, tolerance));
  });
}

/** How long a card no longer seen is remembered where it lay, ms of frame time. */
export const TRACK_MEMORY_MS = 1500;

/**
 * The cards of the last TRACK_MEMORY_MS, newest first, at most one per place: a frame's cards
 * replace what was remembered where they lie (a card put on a pile hides the one below).
 */
export class TrackMemory<T> {
  private tracks: Array<Track<T> & { seenAtMs: number }> = [];
  private lastMs = -Infinity;

  constructor(private readonly memoryMs = TRACK_MEMORY_MS) {}

  /**
   * The remembered card this one continues, if it lies where that one did and looks the same;
   * `lastFrameOnly` looks among the last frame's cards alone (see the recogniser: on a pile a
   * new card lands where the last one lay, and a 12x18 thumbnail hardly tells 7C from 8C), and
   * among older cards only those whose value `olderIf` accepts.
   */
  find(corners: Quad, thumbnail: Float32Array, lastFrameOnly = false, olderIf?: (value: T) => boolean): Track<T> | undefined {
    if (!lastFrameOnly) return findUnchanged(this.tracks, corners, thumbnail);
    return findUnchanged(this.tracks.filter((track) => track.seenAtMs >= this.lastMs || olderIf?.(track.value) === true), corners, thumbnail);
  }

  /** Stores a frame's cards (seen at `timestampMs`) and forgets cards older than the memory. */
  remember(tracks: readonly Track<T>[], timestampMs: number): void {
    const tolerances = tracks.map((track) => cornerTolerance(track.corners));
    const older = this.tracks.filter(
      (old) => timestampMs - old.seenAtMs <= this.memoryMs && old.seenAtMs <= timestampMs && !tracks.some((track, k) => sameCorners(track.corners, old.corners, tolerances[k])),
    );
    this.tracks = [...tracks.map((track) => ({ ...track, seenAtMs: timestampMs })), ...older];
    this.lastMs = timestampMs;
  }

  /** Forgets everything (new calibration, enrolment: identities may read differently). */
  clear(): void {
    this.tracks = [];
    this.lastMs = -Infinity;
  }

  get size(): number {
    return this.tracks.length;
  }
}

/** A Nerts pile's zone ('seat-2/nerts'). */
export function isNertsZone(zone: string | undefined): boolean {
  return zone !== undefined && zone.endsWith('/nerts');
}

/** A zone of a player's own cards that the score does not count: their work piles, stock and waste. */
export function isSeatZone(zone: string | undefined): boolean {
  return zone !== undefined && zone.startsWith('seat-') && !isNertsZone(zone);
}

/** A zone whose cards the score counts: the centre or a Nerts pile. */
export function isCountedZone(zone: string | undefined): boolean {
  return zone === 'centre' || isNertsZone(zone);
}

/**
 * Most cards the CNNs read in one frame, unless more lie on Nerts piles and in the centre
 * (those are always read; see readsThisFrame). Measured on a live 3-player table (200 frames,
 * one worker): unbounded, a frame took 57 ms on average and 145 ms at the 95th percentile (up
 * to 27 cards read when hands moved everywhere, most of them cards in the players' hands).
 * 5 from session 7 to 41; 3 since session 42: the slowest frames were those that read 5 (about
 * 8 ms a card with its corners and its turned look), so a player's cards wait a frame or two
 * more and the tail shrinks. One thread, 280 frames of a 3-player hand back to back: 39-40 ms
 * a frame, p95 72-79, against 32-34, p95 55-58; through the server (3 players seed 1, two
 * hands) both hands exact either way, 21.4 -> 23.5 fps, p95 106 -> 90 ms on a slow day.
 */
export const READS_PER_FRAME = 3;

/**
 * The cards (indices into a frame's located cards) to read this frame: all of `unread` while
 * they fit the budget; beyond it, every card on a Nerts pile or in the centre (the score hangs
 * on them: a budget shared with them left a pile's new top unread for seconds on a busy table)
 * and as many of the others as there is room for, from a point that moves on with `rotation`
 * (the frame's number), so none waits long. The rest wait for a later frame.
 */
export function readsThisFrame(unread: readonly number[], zones: ReadonlyArray<string | undefined>, budget: number, rotation: number): number[] {
  if (unread.length <= budget) return [...unread];
  const always = unread.filter((i) => isCountedZone(zones[i]));
  const others = unread.filter((i) => !isCountedZone(zones[i]));
  const room = Math.max(0, budget - always.length);
  if (room === 0 || others.length === 0) return always;
  const start = (rotation * room) % others.length;
  const chosen = others.map((_, k) => others[(k + start) % others.length]).slice(0, room);
  return [...always, ...chosen].sort((a, b) => a - b);
}
