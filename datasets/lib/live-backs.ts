/**
 * Back naming on the live simulated table, as the demo runs it: each deck's back enrolled from
 * the views the players show in the first seconds (its stock, seen by the whole-table webcam;
 * `BackShowings` in sim-feed.ts), then
 * every back the recogniser reports over the hand compared with the face-down card under it.
 * This is what the score sort's count by back hangs on (server/tables/back-count.ts).
 */
import { quadCentre } from '../../server/geometry';
import { createSimTable } from '../../server/sim/live';
import type { CardTruth } from '../../server/sim/render/index';
import { simCalibration } from '../../server/tables/sim-calibration';
import { ShownBacks } from '../../server/tables/sim-feed';
import type { CardRecognizer } from '../../server/vision/index';
import type { Quad } from '../../server/vision/types';

export interface LiveBacksResult {
  /** Back observations matched to a face-down card of the truth. */
  backs: number;
  /** ...named as that card's deck. */
  right: number;
  /** ...named as another deck, or as no enrolled deck. */
  wrong: number;
  unnamed: number;
  accuracy: number;
  /** Truth deck → named deck, for the wrong ones. */
  confusions: Record<string, number>;
}

/** The face-down truth card (at least 30 % visible) whose centre lies within half a card width of `quad`'s. */
export function backUnder(quad: Quad, truth: readonly CardTruth[]): CardTruth | undefined {
  const [cx, cy] = quadCentre(quad);
  const width = Math.hypot(quad[1][0] - quad[0][0], quad[1][1] - quad[0][1]);
  let best: CardTruth | undefined;
  let bestDistance = 0.5 * width;
  for (const card of truth) {
    if (card.faceUp || card.visibleFraction < 0.3) continue;
    const [tx, ty] = quadCentre(card.corners);
    const distance = Math.hypot(tx - cx, ty - cy);
    if (distance <= bestDistance) {
      best = card;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Plays `seeds` (one table each, `players` players, top camera) for `frames` frames at 10 fps,
 * reading every `every`-th; `make` gives a fresh recogniser per table (disposed here).
 */
export async function liveBackNaming(make: () => Promise<CardRecognizer>, { players = 4, seeds = [1, 2], frames = 200, every = 10 } = {}): Promise<LiveBacksResult> {
  const result: LiveBacksResult = { backs: 0, right: 0, wrong: 0, unnamed: 0, accuracy: 0, confusions: {} };
  for (const seed of seeds) {
    const sim = await createSimTable({ players, seed, fps: 10, camera: 'top' });
    const recognizer = await make();
    const shownBacks = new ShownBacks();
    try {
      recognizer.setCalibration(simCalibration(sim.layout, sim.camera!));
      for (let i = 0; i < frames; i++) {
        const frame = await sim.next();
        if (!frame) break;
        for (const [deckId, views] of await shownBacks.take(frame)) await recognizer.enrollBack(deckId, views.map((data) => ({ kind: 'encoded' as const, data })));
        if (i % every !== 0) continue;
        const read = await recognizer.recognize({ kind: 'encoded', data: new Uint8Array(frame.jpeg) }, frame.timeMs);
        for (const card of read.cards) {
          if (card.kind !== 'back') continue;
          const truth = backUnder(card.corners, frame.truth);
          if (!truth) continue;
          result.backs++;
          if (!card.backId) result.unnamed++;
          else if (card.backId === truth.deckId) result.right++;
          else {
            result.wrong++;
            const key = `${truth.deckId}→${card.backId}`;
            result.confusions[key] = (result.confusions[key] ?? 0) + 1;
          }
        }
      }
    } finally {
      recognizer.dispose();
    }
  }
  result.accuracy = result.right / Math.max(1, result.backs);
  return result;
}
