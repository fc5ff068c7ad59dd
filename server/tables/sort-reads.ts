/**
 * When to read a score-sort frame whole (every card localised and read, RecognizeOptions.everyCard).
 *
 * After the call players gather the centre cards, deal each player's out face down and hold still
 * while the camera counts (back-count.ts). Change tracking reports every card it already knows in
 * each frame, but finds dealt backs poorly where they lie close together, so the sort needs whole
 * reads; a whole read of a 1280x720 frame takes about a second on this machine, and while it runs
 * the table's live frames are dropped. Until session 38 a frame was read whole every second of the
 * sort, a dozen a hand, half of them while hands were still gathering and dealing the cards, when
 * a whole read finds a spread that is about to change (and hands over it).
 *
 * So a frame is read whole:
 * - first when the sort begins (the call);
 * - then every `minGapMs` while the table is still: the frames since the last moving one have
 *   been still for `settleMs` (each whole read of a still spread is another try at the backs a
 *   frame reads or not by chance: a near-black check at webcam size, 5 of a player's 9 in one
 *   frame, all 9 in the next; back-count.ts counts each spot seen in two frames);
 * - and, while hands move, every `maxGapMs` (a camera whose noise shows as motion in every
 *   frame still gets its sort read);
 * - but never while one is still being read, nor sooner than `restMs` after it came back (when
 *   the live table reports it: `finished`). Until session 55 the count needed tracked frames
 *   between whole reads (tracking carried a whole read's backs on, and a spot counted once seen
 *   in two frames; it now votes over whole reads, back-count.ts): on a slow day (session 42)
 *   a 6-player sort's whole reads took about 1.9 s, each sent as the last came back, and the
 *   table read 1-8 frames a second through the hold (p5's 9 backs counted 6, never twice as 9).
 *   A rest as long as the read took was tried: on the blue gingham the spread's backs, which
 *   the tracked frames' refresh tiles lose one tile at a time, were all lost between whole reads
 *   4.6 s apart (p2's 20 counted 0). 300 ms leaves a whole read of up to 0.7 s (a usual day) as
 *   often as before. Until session 55 a frame offered while a whole read was still running
 *   could be marked whole (the rest only started once that read came back, and the live table
 *   decides when it offers a frame): on a slow day whole reads of 2 s ran back to back, and the
 *   sort read 0.7 frames a second with no tracked frame between them. A whole read that never
 *   comes back (a failure the table did not report) holds the next for `inFlightLimitMs` at most.
 * Pure: times are any one clock, ms (the live table uses the server's, the recorder the camera's).
 */

/** Timing of the sort's whole reads, ms. */
export interface SortReadTuning {
  /** Never two whole reads closer than this. */
  minGapMs: number;
  /** The table must have been still this long (after it last moved) to be read whole every minGapMs. */
  settleMs: number;
  /** Read whole at least this often during the sort, moving or not. */
  maxGapMs: number;
  /** After a whole read came back, wait at least this long before the next. */
  restMs: number;
  /** A whole read not back after this long no longer holds the next (see the file's comment). */
  inFlightLimitMs: number;
}

export const DEFAULT_SORT_READ_TUNING: SortReadTuning = { minGapMs: 1000, settleMs: 300, maxGapMs: 3000, restMs: 300, inFlightLimitMs: 8000 };

export class SortWholeReads {
  /** When a frame was last sent to be read whole. */
  private lastWholeMs = -Infinity;
  /** The latest frame that showed motion, and the latest that showed none. */
  private lastMotionMs = -Infinity;
  private lastStillMs = -Infinity;
  /** No whole read before this (the rest after the last one, see `finished`). */
  private restUntilMs = -Infinity;
  /** Whether the last whole read sent has not come back yet. */
  private inFlight = false;

  constructor(private readonly tuning: SortReadTuning = DEFAULT_SORT_READ_TUNING) {}

  /** A new sort begins (a new hand): the next sort frame is read whole. */
  reset(): void {
    this.lastWholeMs = -Infinity;
    this.lastMotionMs = -Infinity;
    this.lastStillMs = -Infinity;
    this.restUntilMs = -Infinity;
    this.inFlight = false;
  }

  /** A whole read came back (or failed) at `doneMs`: the next waits `restMs` after it. */
  finished(doneMs: number): void {
    this.restUntilMs = Math.max(this.restUntilMs, doneMs + this.tuning.restMs);
    this.inFlight = false;
  }

  /**
   * A sort frame came back from the recogniser: whether anything moved in it (`moving`; a frame
   * compared with no other, e.g. the first, says nothing and is not passed here). `atMs`: when it was taken.
   */
  observed(atMs: number, moving: boolean): void {
    if (moving) this.lastMotionMs = Math.max(this.lastMotionMs, atMs);
    else this.lastStillMs = Math.max(this.lastStillMs, atMs);
  }

  /** Whether the sort frame taken at `nowMs` is read whole (and if so, it is noted as the latest whole read). */
  take(nowMs: number): boolean {
    if (!this.due(nowMs)) return false;
    this.lastWholeMs = nowMs;
    this.inFlight = true;
    return true;
  }

  private due(nowMs: number): boolean {
    const sinceWhole = nowMs - this.lastWholeMs;
    if (this.inFlight && sinceWhole < this.tuning.inFlightLimitMs) return false;
    if (sinceWhole < this.tuning.minGapMs || nowMs < this.restUntilMs) return false;
    if (this.lastWholeMs === -Infinity || sinceWhole >= this.tuning.maxGapMs) return true;
    return this.lastStillMs - this.lastMotionMs >= this.tuning.settleMs;
  }
}
