/**
 * Feeds a live table from the simulated table (server/sim/live.ts): each rendered JPEG goes
 * through the same ingestion a camera's frame does (validation → latest-frame-wins slot →
 * recognition worker → tracker → rules → viewers). Hands start and end with the simulated ones.
 * The demo's camera; a table switched to source `camera` makes the feed idle.
 */
import type { SimFrame, SimTable } from '../sim/live';
import type { CardTruth } from '../sim/render/index';
import type { RecognitionPool } from '../workers/pool';
import { validateFrame } from '../workers/frame-format';
import { cropQuad } from './crop';
import type { LiveTable } from './live-table';
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

/** Enrols every deck's back from a frame of the simulated table, as players showing their backs to the camera would. */
export async function enrolBacksFromFrame(table: LiveTable, pool: RecognitionPool, frame: SimFrame, log: (message: string) => void): Promise<void> {
  for (const [deckId, corners] of backViews(frame.truth)) {
    if (!table.info().seats.some((seat) => seat.deckId === deckId)) continue;
    try {
      await pool.enrollBack(table.id, deckId, [await cropQuad(frame.jpeg, corners)]);
      table.markEnrolled(deckId);
    } catch (error) {
      log(`enrolling the back of ${deckId} failed: ${(error as Error).message}`);
    }
  }
}

/** Starts feeding `table` from `sim`. */
export function startSimFeed(table: LiveTable, sim: SimTable, pool: RecognitionPool, options: SimFeedOptions): SimFeed {
  const log = options.log ?? (() => {});
  let stopped = false;
  // Sleeps that end early when the feed stops (shutdown must not wait for a pause between hands).
  const pause = async (ms: number) => {
    const until = performance.now() + ms;
    while (!stopped && performance.now() < until) await sleep(Math.min(200, until - performance.now()));
  };
  const run = async () => {
    let enrolled = false;
    let wallStart = performance.now();
    let sent = 0;
    while (!stopped) {
      if (table.source !== 'sim') {
        await pause(500);
        continue;
      }
      const frame = await sim.next();
      if (!frame || stopped) break;
      if (!enrolled) {
        enrolled = true;
        await enrolBacksFromFrame(table, pool, frame, log);
      }
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
