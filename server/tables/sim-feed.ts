/**
 * Feeds a live table from the simulated table (server/sim/live.ts): each rendered JPEG goes
 * through the same ingestion a camera's frame does (validation → latest-frame-wins slot →
 * recognition worker → tracker → rules → viewers). Hands start and end with the simulated ones.
 * The demo's camera; a table switched to source `camera` makes the feed idle.
 */
import type { SimFrame, SimTable } from '../sim/live';
import type { CardTruth } from '../sim/render/index';
import { validateFrame } from '../workers/frame-format';
import { cropQuad } from './crop';
import { withBackView, type LiveTable } from './live-table';
import type { Quad } from '../vision/types';

/** Feed options: real-time pacing (frames per second of wall time; 0 = as fast as rendered). */
export interface SimFeedOptions {
  fps: number;
  /** Wall-clock pause after a scored hand so viewers see the score sort, ms. */
  pauseAfterHandMs?: number;
  log?: (message: string) => void;
}

/** A running feed. */
export interface SimFeed {
  /** Resolves when the feed has stopped (after stop(), or when the simulation runs out of hands). */
  done: Promise<void>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until the pipeline has taken every frame received (processed, dropped or failed), at most `timeoutMs`. */
export async function drainTable(table: LiveTable, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  for (;;) {
    const stats = table.stats() as ReturnType<LiveTable['stats']> & { framesFailed?: number };
    if (stats.framesProcessed + stats.framesDropped + (stats.framesFailed ?? 0) >= stats.framesReceived) return;
    if (Date.now() - start > timeoutMs) return;
    await sleep(10);
  }
}

/** The best view of each deck's back in a frame: a face-down card mostly visible (its stock). */
export function backViews(truth: CardTruth[]): Map<string, Quad> {
  const views = new Map<string, { corners: Quad; visible: number }>();
  for (const card of truth) {
    if (card.faceUp || card.visibleFraction < 0.9) continue;
    const best = views.get(card.deckId);
    if (!best || card.visibleFraction > best.visible) views.set(card.deckId, { corners: card.corners, visible: card.visibleFraction });
  }
  return new Map([...views].map(([deck, view]) => [deck, view.corners]));
}

/**
 * When the simulated players show their backs to the camera: on the first frame fed, then once a
 * second for three seconds. A back enrolled from views at several moments is named better on the
 * live table than from one (docs/BENCHMARKS.md, live backs); the first showing starts each deck's
 * views over. Give it the frames in order.
 */
export class BackShowings {
  static readonly TIMES_MS: readonly number[] = [0, 1000, 2000, 3000];
  private shown = 0;

  /** Whether the backs are shown in `frame`: null, or whether this showing starts the views over. */
  take(frame: { handTimeMs: number }): { replace: boolean } | null {
    const times = BackShowings.TIMES_MS;
    if (this.shown >= times.length || frame.handTimeMs < times[this.shown]) return null;
    return { replace: this.shown++ === 0 };
  }
}

/**
 * Each deck's back views as the simulated players show them, kept as a table's server keeps them
 * (the newest 5; the first showing starts over): for callers that enrol a recogniser directly.
 */
export class ShownBacks {
  private readonly showings = new BackShowings();
  private readonly views = new Map<string, Uint8Array[]>();

  /** The decks shown in `frame`, each with all its views so far; empty when the backs are not shown. Frames in order. */
  async take(frame: { handTimeMs: number; truth: CardTruth[]; jpeg: Uint8Array }): Promise<Array<[deckId: string, views: Uint8Array[]]>> {
    const showing = this.showings.take(frame);
    if (!showing) return [];
    const shown: Array<[string, Uint8Array[]]> = [];
    for (const [deckId, corners] of backViews(frame.truth)) {
      const views = withBackView(this.views.get(deckId), await cropQuad(frame.jpeg, corners), showing.replace);
      this.views.set(deckId, views);
      shown.push([deckId, views]);
    }
    return shown;
  }
}

/** Adds a view of every deck's back from a frame of the simulated table, as players showing their backs to the camera would. */
export async function enrolBacksFromFrame(table: LiveTable, frame: SimFrame, replace: boolean, log: (message: string) => void): Promise<void> {
  for (const [deckId, corners] of backViews(frame.truth)) {
    if (!table.info().seats.some((seat) => seat.deckId === deckId)) continue;
    try {
      await table.enrollBack(deckId, await cropQuad(frame.jpeg, corners), { replace });
    } catch (error) {
      log(`enrolling the back of ${deckId} failed: ${(error as Error).message}`);
    }
  }
}

/** Starts feeding `table` from `sim`. */
export function startSimFeed(table: LiveTable, sim: SimTable, options: SimFeedOptions): SimFeed {
  const log = options.log ?? (() => {});
  let stopped = false;
  // Sleeps that end early when the feed stops (shutdown must not wait for a pause between hands).
  const pause = async (ms: number) => {
    const until = performance.now() + ms;
    while (!stopped && performance.now() < until) await sleep(Math.min(200, until - performance.now()));
  };
  const run = async () => {
    const showings = new BackShowings();
    let wallStart = performance.now();
    let sent = 0;
    while (!stopped) {
      if (table.source !== 'sim') {
        await pause(500);
        continue;
      }
      const frame = await sim.next();
      if (!frame || stopped) break;
      const showing = showings.take(frame);
      if (showing) await enrolBacksFromFrame(table, frame, showing.replace, log);
      if (frame.frameIndex === 0) {
        const phase = table.view().phase;
        if (phase === 'playing' || phase === 'called') table.endHand(frame.timeMs);
        table.startHand(frame.timeMs);
      }
      const header = validateFrame(frame.jpeg);
      table.acceptFrame(frame.jpeg, header, frame.timeMs);
      sent += 1;
      if (frame.lastOfHand) {
        await drainTable(table);
        table.endHand(frame.timeMs + 1);
        if (options.pauseAfterHandMs) await pause(options.pauseAfterHandMs);
        wallStart = performance.now();
        sent = 0;
      }
      if (options.fps > 0) {
        const due = wallStart + (sent * 1000) / options.fps;
        const wait = due - performance.now();
        if (wait > 0) await pause(wait);
      } else await sleep(0);
    }
  };
  const done = run().catch((error: Error) => log(`simulated feed stopped: ${error.message}`));
  return {
    done,
    async stop() {
      stopped = true;
      await done;
    },
  };
}
