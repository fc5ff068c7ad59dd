import { createRandom } from '../../server/game/rng';

/** A small seeded PRNG (mulberry32) so datasets, splits and augmentation are reproducible. */
export type Rng = () => number;

/** Returns a generator of floats in [0, 1) from a 32-bit seed. */
export function makeRng(seed: number): Rng {
  return createRandom(seed);
}

/** Uniform float in [lo, hi). */
export function uniform(rng: Rng, lo: number, hi: number): number {
  return lo + (hi - lo) * rng();
}

/** Standard normal sample (Box–Muller). */
export function normal(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(rng() + 1e-12)) * Math.cos(2 * Math.PI * rng());
}

/** Integer in [0, n). */
export function randInt(rng: Rng, n: number): number {
  return Math.floor(rng() * n);
}

/** In-place Fisher–Yates shuffle. */
export function shuffle<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randInt(rng, i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}
