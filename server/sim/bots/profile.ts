/**
 * How fast and how sharp a simulated player is, and the human-like durations that follow from it.
 * All durations in milliseconds, distances in table millimetres, speeds in mm per second.
 */
import type { SimRng } from './rng';

/** A simulated player's personality. Every field has a sensible default (see `makeProfile`). */
export interface BotProfile {
  /** 0 (beginner) … 1 (expert): scales thinking time, hand speed and how often plays are noticed. */
  skill: number;
  /** Median pause before each look at the table (deciding the next move), ms. */
  thinkMs: number;
  /** Speed of the hand over the cloth, mm/s. */
  handSpeedMmPerS: number;
  /** Time to pick a card up (or square a run) once the hand is there, ms. */
  grabMs: number;
  /** Time to let a card go at its destination, ms. */
  placeMs: number;
  /** Time to slide three cards off the stock and flip them onto the waste, ms. */
  turnMs: number;
  /** How long before the player notices a change in the centre (a foundation just played on), ms. */
  perceptionMs: number;
  /** Chance of noticing a possible foundation play from the Nerts pile on any look (0..1). */
  noticeNerts: number;
  /** Chance of noticing any other productive play on any look (0..1). */
  noticeOther: number;
  /**
   * Chance that a player whose Nerts pile has just emptied keeps playing a few cards to the centre
   * before calling (the rules allow it, and it scores more), 0..1.
   */
  keepPlayingChance: number;
  /** Index into the renderer's skin and sleeve palettes. */
  appearance: number;
}

function lerp(a: number, b: number, t: number): number {
  return a + (b - a) * t;
}

/**
 * A profile for `skill` (0..1), with overrides applied. Typical totals per move: about 2 s for a
 * beginner, 0.7 s for an expert (think + reach + grab + carry + place; longer to the centre).
 */
export function makeProfile(skill: number, overrides: Partial<BotProfile> = {}, appearance = 0): BotProfile {
  const s = Math.min(1, Math.max(0, skill));
  return {
    skill: s,
    thinkMs: lerp(950, 260, s),
    handSpeedMmPerS: lerp(550, 1200, s),
    grabMs: lerp(230, 110, s),
    placeMs: lerp(170, 80, s),
    turnMs: lerp(850, 380, s),
    perceptionMs: lerp(420, 200, s),
    noticeNerts: lerp(0.85, 0.99, s),
    noticeOther: lerp(0.6, 0.95, s),
    keepPlayingChance: lerp(0.05, 0.3, s),
    appearance,
    ...overrides,
  };
}

/** A seat's skill when none is given: spread round `mean` so players at one table differ. */
export function defaultSkill(rng: SimRng, mean = 0.6): number {
  return Math.min(1, Math.max(0, mean + rng.normal() * 0.15));
}

/** Pause before the next look at the table, ms (log-normal round the profile's median). */
export function thinkDuration(profile: BotProfile, rng: SimRng): number {
  return rng.logNormal(profile.thinkMs, 0.35, 120, 4000);
}

/** Time for the hand to travel `distanceMm` (with a human's acceleration overhead), ms. */
export function travelDuration(profile: BotProfile, distanceMm: number, rng: SimRng): number {
  return 90 + (distanceMm / profile.handSpeedMmPerS) * 1000 * rng.logNormal(1, 0.12, 0.75, 1.4);
}

/** Time to notice a change in the centre, ms. */
export function perceptionDuration(profile: BotProfile, rng: SimRng): number {
  return rng.logNormal(profile.perceptionMs, 0.2, 120, 900);
}
