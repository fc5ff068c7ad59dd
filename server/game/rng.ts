/**
 * A small seeded random number generator (mulberry32) whose whole state is one 32-bit integer,
 * so the state can live inside plain JSON game state and a replay reproduces every shuffle.
 * `server/game/` never uses Math.random.
 */

/** Generator state: an unsigned 32-bit integer. Store it in your state, pass it back in. */
export type RngState = number;

/** Normalises any number (a user's seed) into a generator state. */
export function seedRng(seed: number): RngState {
  // Fold fractions and negatives into 32 bits so every finite seed is usable.
  return (Math.floor(Math.abs(seed)) ^ 0x9e3779b9) >>> 0;
}

/** mulberry32's output for an already advanced state: a float in [0, 1). */
function mulberry32Output(state: number): number {
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** One draw: a float in [0, 1) and the next state. Pure. */
export function nextRandom(state: RngState): { value: number; state: RngState } {
  const next = (state + 0x6d2b79f5) >>> 0;
  return { value: mulberry32Output(next), state: next };
}

/**
 * The same generator as a mutable closure, for hot loops outside the rules (renderer, datasets,
 * bots, noise injection) where allocating a result per draw would cost. `state` is used as given
 * (low 32 bits), so each caller keeps its own seed mixing and its sequences.
 */
export function createRandom(state: number): () => number {
  let current = state >>> 0;
  return () => {
    current = (current + 0x6d2b79f5) >>> 0;
    return mulberry32Output(current);
  };
}

/** An integer in [0, bound) and the next state. */
export function nextInt(state: RngState, bound: number): { value: number; state: RngState } {
  const draw = nextRandom(state);
  return { value: Math.floor(draw.value * bound), state: draw.state };
}

/** Fisher–Yates shuffle of a copy of `items`; returns the shuffled copy and the next state. */
export function shuffle<T>(items: readonly T[], state: RngState): { items: T[]; state: RngState } {
  const copy = items.slice();
  let current = state;
  for (let i = copy.length - 1; i > 0; i--) {
    const draw = nextInt(current, i + 1);
    current = draw.state;
    const j = draw.value;
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return { items: copy, state: current };
}
