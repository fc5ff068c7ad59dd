/**
 * Training batches for the index-corner model: each face source becomes its index corner
 * (augmented, read from the top-left or, turned, the bottom-right); backs, reject textures and
 * the interior of faces become "no index" examples.
 */
import { isCardCode, parseCard, RANKS, SUITS } from '../../server/game/cards';
import { INDEX_HEIGHT, INDEX_REGION, INDEX_WIDTH, NO_RANK, NO_SUIT, type CardRegion } from '../../server/vision/classes';
import { augmentInto } from './augment';
import { weightedPool } from './batches';
import { uniform, type Rng } from './rng';
import { SOURCE_HEIGHT, SOURCE_WIDTH, sourceView, type SourceSet } from './sources';

/** Face decks whose corners carry no rank (deck-of-cards draws it as page text): not index examples. */
export const NO_INDEX_GROUPS = ['art:aguilar-mod', 'rendered:npm-deck-of-cards'];

/** The rank and suit classes of a source label ("no index" for backs and rejects). */
export function indexLabels(label: string): { rank: number; suit: number } {
  if (!isCardCode(label)) return { rank: NO_RANK, suit: NO_SUIT };
  const { rank, suit } = parseCard(label);
  return { rank: RANKS.indexOf(rank), suit: SUITS.indexOf(suit) };
}

/** The index model's training pool: as the identity model's, but backs only x3 (they are all one "no index" class). */
export function indexTrainingPool(set: SourceSet): number[] {
  return weightedPool(set, { art: 5, back: 3, other: 2, rendered: 1, skip: NO_INDEX_GROUPS });
}

/** A random card-interior region the size of the index region: pips or court art, no index. */
function interiorRegion(rng: Rng): CardRegion {
  const w = INDEX_REGION.x1 - INDEX_REGION.x0;
  const h = INDEX_REGION.y1 - INDEX_REGION.y0;
  const x0 = uniform(rng, 0.24, 0.5);
  const y0 = uniform(rng, 0.26, 0.44);
  return { x0, y0, x1: x0 + w, y1: y0 + h };
}

/** One batch: float corners [n, INDEX_HEIGHT, INDEX_WIDTH, 3] and their rank and suit classes. */
export function makeIndexBatch(
  set: SourceSet,
  indices: readonly number[],
  rng: Rng,
  strength: number,
  interiorShare = 0.12,
): { x: Float32Array; ranks: number[]; suits: number[] } {
  const size = INDEX_WIDTH * INDEX_HEIGHT * 3;
  const x = new Float32Array(indices.length * size);
  const ranks: number[] = [];
  const suits: number[] = [];
  indices.forEach((index, k) => {
    let { rank, suit } = indexLabels(set.entries[index].label);
    let region = INDEX_REGION;
    if (rank !== NO_RANK && strength > 0 && rng() < interiorShare) {
      region = interiorRegion(rng);
      rank = NO_RANK;
      suit = NO_SUIT;
    }
    const src = { data: sourceView(set, index), width: SOURCE_WIDTH, height: SOURCE_HEIGHT };
    augmentInto(src, rng, x, k * size, { strength, width: INDEX_WIDTH, height: INDEX_HEIGHT, region, occlusion: 0.08 });
    ranks.push(rank);
    suits.push(suit);
  });
  return { x, ranks, suits };
}
