import { describe, expect, it } from 'vitest';
import { createRandom, nextRandom, seedRng } from '../../server/game/rng';

describe('seeded randomness', () => {
  it('the closure generator draws exactly the pure generator\'s sequence', () => {
    let state = seedRng(42);
    const draw = createRandom(state);
    for (let i = 0; i < 1000; i++) {
      const pure = nextRandom(state);
      state = pure.state;
      expect(draw()).toBe(pure.value);
    }
  });

  it('draws lie in [0, 1) and different seeds give different sequences', () => {
    const a = createRandom(1);
    const b = createRandom(2);
    const first = Array.from({ length: 200 }, a);
    expect(first.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(first).not.toEqual(Array.from({ length: 200 }, b));
    const mean = first.reduce((sum, v) => sum + v, 0) / first.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.1);
  });
});
