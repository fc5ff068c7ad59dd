/**
 * Cards landing on a centre pile that are never named. At webcam resolution a court card on a
 * foundation often reads at 0.2 (a queen of hearts: QD 0.23, QH 0.17, JH 0.13), under every
 * floor and with the pile's own top as a close rival, so the votes (tracker.ts) never move the
 * pile past its jack and every later play on it is lost. Its look does move: a new card is a new
 * picture (see nerts-looks.ts; the same card's look holds at cosine ≥ 0.96, the next card's mostly
 * lies under 0.7). Foundations only grow by the next card in suit, so a pile that was just covered
 * (a hand over it, or no face seen on it for a moment) and then shows a steady new look took a
 * card: the next in suit, unless a reading names it within `lookLandingMs`. Pure data and math.
 *
 * A named card brings its new look too, a frame before or after its name: the two are paired, so
 * it is not counted twice. Measured on recordings of the real recogniser on simulated hands
 * (tracker + rules, centre error per player): seed 1, 3 players 1.5 → 1.17; seed 2 and seed 3 (4
 * players) unchanged.
 *
 * What this cannot see: a card that looks like the one under it (at 36 px wide one deck's JH and
 * QH are at cosine 0.96), and a card put down with no hand seen over the pile.
 */
import { addLook, cosine, DEFAULT_LOOK_TUNING, initialLooks, type LookTuning, type NertsLooks } from './nerts-looks';

/** One pile's watch on its top's look (plain JSON, saved with the tracker's state). */
export interface PileLookWatch {
  looks: NertsLooks;
  /** When a face was last seen on the pile, ms. */
  lastSeenMs: number;
  /** When the pile was last covered (a hand over it, or a gap in its sightings), ms; null once a new look closed it. */
  coveredMs: number | null;
  /**
   * A new look no reading has explained yet: when it showed, when the cover before it ended, the
   * look it replaced, and the summed shares its readings gave the next card in suit and the top.
   */
  landing: { sinceMs: number; landMs: number; replaced: number[]; next: number; top: number } | null;
  /** Cards the pile held at the previous frame. */
  cardsNow: number;
  /** When a reading last added a card whose new look has not shown yet, ms (null: none waiting). */
  namedMs: number | null;
  /** Where the latest top (by look) was last seen, image px. */
  topAt?: [number, number];
}

export interface PileLookTuning {
  /** No face on a pile for this long means a hand covered it, ms. */
  pileBreakMs: number;
  /**
   * A new look counts as a landing only this soon after the pile was covered, and a new look this
   * soon after a reading added a card is that card's, ms.
   */
  lookSettleMs: number;
  /** A new look stands this long for a reading to name it; then it is taken for the next card in suit, ms. */
  lookLandingMs: number;
  /**
   * ... if its readings gave the next card in suit at least this share of what they gave the top
   * (a top whose look drifts reads as itself; a queen at webcam size reads QH 0.19, JH 0.18).
   */
  lookNextShare: number;
  /**
   * A card lands squarely on a foundation: a new look further than this many card lengths from
   * where the top lay is another card nearby (one carried over the pile, a neighbouring pile's).
   */
  lookLandingShift: number;
}

/**
 * What one reading of the pile's top says: its shares for the next card in suit and for the top
 * card (from CardObservation.alternatives; 0 when absent), and whether it surely names some
 * other card (a different card lies there: no landing of the next one).
 */
export interface TopReading {
  next: number;
  top: number;
  other: boolean;
}

export function initialPileWatch(now: number, cards: number): PileLookWatch {
  return { looks: initialLooks(), lastSeenMs: now, coveredMs: null, landing: null, cardsNow: cards, namedMs: null };
}

/** What the watch sees of its pile in one frame. */
export interface PileFrame {
  /** The top's sighting; null when no face showed on the pile. `name` only when surely named. */
  sighting: { look: readonly number[]; at: [number, number]; cardLength: number; name?: string } | null;
  /** A moving hand covered the pile in this frame. */
  touched: boolean;
  /** Cards the pile holds now, and its top card's code. */
  cards: number;
  top: string;
  /** What this frame's reading of the top says (null without a sighting). */
  reading: TopReading | null;
}

/**
 * One frame of a pile. Returns the new watch, and `landMs` when an unnamed card is taken to have
 * landed (the caller adds the next card in suit). A new look shortly after a reading added a card
 * is that card's (unless it reads more like the card after it). A landing is called off when a
 * reading adds the card, when the top is surely named as the pile's top card (the look drifted)
 * or as some card neither the top nor the next, or when the replaced look comes back (a card
 * lifted off again, or a hand resting on the pile); it is taken only if its readings gave the
 * next card a fair share (lookNextShare).
 * `secondCopy` is true when a new look after a cover is surely named as the top card: another
 * deck's copy of it came down (a race; the caller watches whose copy goes back).
 */
export function watchPileLook(
  watch: PileLookWatch,
  frame: PileFrame,
  now: number,
  tuning: PileLookTuning,
  lookTuning: LookTuning = DEFAULT_LOOK_TUNING,
): { watch: PileLookWatch; landMs: number | null; secondCopy: boolean } {
  const { sighting, cards } = frame;
  const next: PileLookWatch = { ...watch };
  // A card and its new look show within a moment of each other, in either order: a reading that
  // adds a card pairs with the new look waiting, or else with the next one.
  if (cards > watch.cardsNow) {
    next.namedMs = next.landing ? null : now;
    next.landing = null;
  }
  next.cardsNow = cards;
  const lookOwed = next.namedMs !== null && now - next.namedMs <= tuning.lookSettleMs;
  let secondCopy = false;

  const gap = sighting !== null && now - next.lastSeenMs >= tuning.pileBreakMs;
  if (frame.touched || gap) next.coveredMs = now;
  if (sighting) {
    next.lastSeenMs = now;
    const open = next.coveredMs !== null && now - next.coveredMs <= tuning.lookSettleMs;
    const before = next.looks.tops;
    const added = addLook(next.looks, sighting, lookTuning, { open });
    // Foundation cards never come back, so only the latest tops matter (the one before comes
    // back when a card is lifted off again); a long pile's early looks would pass for new cards.
    next.looks = keepLatestTops(added.state, 2);
    const shift = next.topAt ? Math.hypot(sighting.at[0] - next.topAt[0], sighting.at[1] - next.topAt[1]) / sighting.cardLength : 0;
    const top = added.state.tops[added.state.tops.length - 1];
    if (top && cosine(top, sighting.look) >= lookTuning.sameCard) next.topAt = sighting.at;
    if (added.newCard) {
      // The card a reading just added, unless this one reads more like the card after it.
      const named = lookOwed && !(frame.reading && frame.reading.next > frame.reading.top);
      // Surely named as the top card though it looks new: another deck's copy of it.
      secondCopy = !named && sighting.name === frame.top;
      next.namedMs = null;
      if (!named && shift <= tuning.lookLandingShift) next.landing = { sinceMs: now, landMs: next.coveredMs ?? now, replaced: before[before.length - 1], next: 0, top: 0 };
    }
    // The first steady look is the top's.
    if (before.length === 0 && added.state.tops.length === 1) next.namedMs = null;
    if (added.newCard || before.length === 0) next.coveredMs = null;
  }
  if (next.landing) {
    const read = sighting ? frame.reading : null;
    const landing = (next.landing = { ...next.landing, next: next.landing.next + (read?.next ?? 0), top: next.landing.top + (read?.top ?? 0) });
    const recent = next.looks.recent;
    const backToReplaced = recent.length >= lookTuning.steadyFrames && recent.every((r) => cosine(r.look, landing.replaced) >= lookTuning.sameCard);
    if (sighting?.name === frame.top || read?.other || backToReplaced) next.landing = null;
    else if (now - landing.sinceMs >= tuning.lookLandingMs) {
      next.landing = null;
      if (landing.next > 0 && landing.next >= tuning.lookNextShare * landing.top) {
        // The caller adds the card: its look has shown.
        next.cardsNow = cards + 1;
        return { watch: next, landMs: landing.landMs, secondCopy };
      }
    }
  }
  return { watch: next, landMs: null, secondCopy };
}

/** `looks` with only its latest `count` tops. */
function keepLatestTops(looks: NertsLooks, count: number): NertsLooks {
  if (looks.tops.length <= count) return looks;
  return { ...looks, tops: looks.tops.slice(-count), ...(looks.topNames ? { topNames: looks.topNames.slice(-count) } : {}), ...(looks.topCards ? { topCards: looks.topCards.slice(-count) } : {}) };
}
