/**
 * Seeded randomness for the simulated table (never Math.random): a small mutable generator
 * for the simulation loop, plus stateless hashing so a card's messy offset can be recomputed
 * from its identity and place alone (the timeline can then draw any instant without replaying).
 */
import { nextRandom } from '../../game/rng';

/** A seeded pseudo-random source; every draw advances its state. */
export class SimRng {
  private state: number;

  /** `seed` is any finite number; equal seeds give equal sequences. */
  constructor(seed: number) {
    this.state = hashString(`sim-rng:${seed}`);
  }

  /** A float in [0, 1) (mulberry32). */
  next(): number {
    const draw = nextRandom(this.state);
    this.state = draw.state;
    return draw.value;
  }

  /** A float in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** An integer in [0, bound). */
  int(bound: number): number {
    return Math.floor(this.next() * bound);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A standard normal draw (Box–Muller). */
  normal(): number {
    const u = Math.max(this.next(), 1e-12);
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** A positive duration around `median` with multiplicative spread `sigma` (log-normal), clamped to [min, max]. */
  logNormal(median: number, sigma: number, min: number, max: number): number {
    return Math.min(max, Math.max(min, median * Math.exp(sigma * this.normal())));
  }

  /** A child generator whose sequence depends on this one's seed path and `label`, not on draw order elsewhere. */
  fork(label: string): SimRng {
    const child = new SimRng(0);
    child.state = hashString(`${this.state}:${label}`);
    return child;
  }
}

/** FNV-1a 32-bit hash of a string, mixed; used as a seed and for stateless jitter. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A deterministic float in [-1, 1) from a key: the same key always gives the same value. */
export function hashUnit(key: string): number {
  return (hashString(key) / 4294967296) * 2 - 1;
}
