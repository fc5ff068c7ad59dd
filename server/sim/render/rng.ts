/**
 * Seeded pseudo-random numbers for the renderer: every visual choice (surface, light, deck
 * style, noise) comes from here so a seed reproduces a frame exactly.
 */
import { createRandom } from '../../game/rng';

/** A seeded generator: `next()` returns a float in [0, 1). */
export interface Rng {
  next(): number;
  /** Uniform float in [min, max). */
  range(min: number, max: number): number;
  /** Uniform integer in [min, max] inclusive. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** Standard normal sample (Box-Muller). */
  normal(): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
}

/** mulberry32: tiny, fast and good enough for visuals; state is one 32-bit integer. */
export function createRng(seed: number): Rng {
  const next = createRandom((Math.floor(seed) ^ 0x9e3779b9) >>> 0);
  return {
    next,
    range: (min, max) => min + (max - min) * next(),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('rng.pick: empty list');
      return items[Math.floor(next() * items.length)];
    },
    normal: () => {
      const u = Math.max(next(), 1e-12);
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
    },
    chance: (p) => next() < p,
  };
}

/** Stable 32-bit hash of a string (FNV-1a), to derive per-card or per-deck seeds. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
