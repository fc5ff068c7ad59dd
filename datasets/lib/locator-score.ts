/**
 * How well the locator finds cards in whole stored frames: one-to-one matching of predicted
 * centres to the true cards at least MIN_FIND_VISIBLE visible. A prediction on a barely visible
 * card (a sliver under a stack) is neither right nor wrong.
 */
import type * as tf from '@tensorflow/tfjs';
import { cardGeometry, runLocator } from '../../server/vision/locator';
import type { LocatedCard } from '../../server/vision/locate';
import { MIN_FIND_VISIBLE, STORED_HEIGHT, STORED_WIDTH, type LocatorFrames, type StoredCard } from './locator-data';

/** A prediction matches a card when its centre is within this fraction of the card's short side. */
export const MATCH_DISTANCE = 0.3;

/** Counts of one frame's matching. */
export interface LocatorMatch {
  cards: number;
  found: number;
  predictions: number;
  wrong: number;
}

/** Matches `predicted` to `truth` (greedy, best score first). Pure. */
export function matchLocated(predicted: LocatedCard[], truth: StoredCard[]): LocatorMatch {
  const geometry = truth.map((card) => ({ ...cardGeometry(card.corners), findable: card.visible >= MIN_FIND_VISIBLE }));
  const used = new Set<number>();
  let found = 0;
  let wrong = 0;
  let neutral = 0;
  for (const p of predicted.slice().sort((a, b) => b.support - a.support)) {
    const c = cardGeometry(p.corners);
    let best = -1;
    let bestDistance = Infinity;
    let nearSliver = false;
    geometry.forEach((g, i) => {
      const d = Math.hypot(g.cx - c.cx, g.cy - c.cy);
      if (d >= MATCH_DISTANCE * g.short) return;
      if (!g.findable) nearSliver = true;
      else if (!used.has(i) && d < bestDistance) {
        best = i;
        bestDistance = d;
      }
    });
    if (best >= 0) {
      used.add(best);
      found++;
    } else if (nearSliver) neutral++;
    else wrong++;
  }
  return { cards: geometry.filter((g) => g.findable).length, found, predictions: predicted.length - neutral, wrong };
}

/** Recall and precision of `model` over every stored frame (default scales and threshold). */
export async function scoreLocatorOnFrames(model: tf.LayersModel, frames: LocatorFrames, limit = Infinity): Promise<{ recall: number; precision: number }> {
  const total: LocatorMatch = { cards: 0, found: 0, predictions: 0, wrong: 0 };
  const bytes = STORED_WIDTH * STORED_HEIGHT * 3;
  for (let i = 0; i < Math.min(limit, frames.count); i++) {
    const image = { width: STORED_WIDTH, height: STORED_HEIGHT, data: frames.pixels.subarray(i * bytes, (i + 1) * bytes) };
    const m = matchLocated(await runLocator(model, image), frames.cards[i]);
    total.cards += m.cards;
    total.found += m.found;
    total.predictions += m.predictions;
    total.wrong += m.wrong;
  }
  return { recall: total.cards ? total.found / total.cards : 0, precision: total.predictions ? (total.predictions - total.wrong) / total.predictions : 0 };
}
