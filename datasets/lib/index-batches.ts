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
import { RENDERED_STRIP_GROUP, SOURCE_HEIGHT, SOURCE_WIDTH, sourceView, type SourceSet } from './sources';

/** Face decks whose corners carry no rank (deck-of-cards draws it as page text): not index examples. */
export const NO_INDEX_GROUPS = ['art:aguilar-mod', 'rendered:npm-deck-of-cards'];

/** The rank and suit classes of a source label ("no index" for backs and rejects). */
export function indexLabels(label: string): { rank: number; suit: number } {
  if (!isCardCode(label)) return { rank: NO_RANK, suit: NO_SUIT };
  const { rank, suit } = parseCard(label);
  return { rank: RANKS.indexOf(rank), suit: SUITS.indexOf(suit) };
}

/**
 * The index model's training pool: as the identity model's, but backs only x3 (they are all one
 * "no index" class), and rendered strip crops (RENDERED_STRIP_GROUP) `strip` times each.
 */
export function indexTrainingPool(set: SourceSet, strip = 1): number[] {
  return weightedPool(set, { art: 5, back: 3, other: 2, rendered: 1, strip, skip: NO_INDEX_GROUPS });
}

/** Whether a source is a rendered strip crop: a card under another, its corner already covered. */
export function isStripCrop(set: SourceSet, index: number): boolean {
  return set.entries[index].group.startsWith(RENDERED_STRIP_GROUP);
}

/** A random card-interior region the size of the index region: pips or court art, no index. */
function interiorRegion(rng: Rng): CardRegion {
  const w = INDEX_REGION.x1 - INDEX_REGION.x0;
  const h = INDEX_REGION.y1 - INDEX_REGION.y0;
  const x0 = uniform(rng, 0.24, 0.5);
  const y0 = uniform(rng, 0.26, 0.44);
  return { x0, y0, x1: x0 + w, y1: y0 + h };
}

/**
 * One batch: float corners [n, INDEX_HEIGHT, INDEX_WIDTH, 3] and their rank and suit classes.
 * `interiorShare` of the faces become a card-interior "no index" example; `stripShare` of the
 * others are covered as the card under a cascade is (coverAsCascade), keeping their label.
 * Rendered strip crops (isStripCrop) read turned show their covered corner: "no index".
 */
export function makeIndexBatch(
  set: SourceSet,
  indices: readonly number[],
  rng: Rng,
  strength: number,
  { interiorShare = 0.12, stripShare = 0 }: { interiorShare?: number; stripShare?: number } = {},
): { x: Float32Array; ranks: number[]; suits: number[] } {
  const size = INDEX_WIDTH * INDEX_HEIGHT * 3;
  const x = new Float32Array(indices.length * size);
  const ranks: number[] = [];
  const suits: number[] = [];
  const faces = stripShare > 0 ? indices.filter((i) => indexLabels(set.entries[i].label).rank !== NO_RANK && !isStripCrop(set, i)) : [];
  indices.forEach((index, k) => {
    let { rank, suit } = indexLabels(set.entries[index].label);
    let region = INDEX_REGION;
    if (rank !== NO_RANK && strength > 0 && rng() < interiorShare) {
      region = interiorRegion(rng);
      rank = NO_RANK;
      suit = NO_SUIT;
    }
    const src = { data: sourceView(set, index), width: SOURCE_WIDTH, height: SOURCE_HEIGHT };
    const { upsideDown } = augmentInto(src, rng, x, k * size, { strength, width: INDEX_WIDTH, height: INDEX_HEIGHT, region, occlusion: 0.08 });
    // A strip crop shows its index at the top left only: turned, its corner is the covered one.
    if (upsideDown && isStripCrop(set, index)) {
      rank = NO_RANK;
      suit = NO_SUIT;
    }
    if (rank !== NO_RANK && region === INDEX_REGION && faces.length > 0 && !isStripCrop(set, index) && rng() < stripShare) {
      const cover = faces[Math.floor(rng() * faces.length)];
      const over = new Float32Array(size);
      augmentInto({ data: sourceView(set, cover), width: SOURCE_WIDTH, height: SOURCE_HEIGHT }, rng, over, 0, { strength, width: INDEX_WIDTH, height: INDEX_HEIGHT, region: INDEX_REGION, occlusion: 0 });
      coverAsCascade(x, k * size, over, rng);
    }
    ranks.push(rank);
    suits.push(suit);
  });
  return { x, ranks, suits };
}

/**
 * Lays another card's corner (`over`, an index crop) over the crop at `offset` of `x` as a cascade
 * or a fan does: the card above covers the crop from a cut across it (below the index, down the
 * crop; or beside it, across), its own edge a thin dark line and its own index just past it. The
 * index that shows whole nearest the crop's corner is the card's: a strip of a cascaded work pile
 * as the recogniser crops it (session 58: strips about 15 pixels wide read as "no index").
 */
export function coverAsCascade(x: Float32Array, offset: number, over: Float32Array, rng: Rng): void {
  const down = rng() < 0.5;
  // The index spans about 2-17 mm of the 26 mm crop down and 1.5-8 of 16 mm across.
  const cut = down ? Math.round(uniform(rng, 0.66, 0.95) * INDEX_HEIGHT) : Math.round(uniform(rng, 0.55, 0.95) * INDEX_WIDTH);
  const edge = uniform(rng, 0.25, 0.7);
  const shadow = uniform(rng, 0, 0.25);
  for (let y = 0; y < INDEX_HEIGHT; y++) {
    for (let xx = 0; xx < INDEX_WIDTH; xx++) {
      const past = down ? y - cut : xx - cut;
      if (past < -2) continue;
      const i = offset + (y * INDEX_WIDTH + xx) * 3;
      if (past < 0) {
        // The shadow the card above casts just before its edge.
        for (let c = 0; c < 3; c++) x[i + c] *= 1 - shadow * (past === -1 ? 1 : 0.5);
        continue;
      }
      const j = ((down ? past : y) * INDEX_WIDTH + (down ? xx : past)) * 3;
      for (let c = 0; c < 3; c++) x[i + c] = past === 0 ? x[i + c] * edge : over[j + c];
    }
  }
}
