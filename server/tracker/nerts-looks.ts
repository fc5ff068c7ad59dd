/**
 * Counting a Nerts pile's cards by how its top card looks, for tops the recogniser cannot name
 * (at webcam resolution a court card's index is a blur, and some deck styles read badly). Each
 * frame's top brings a look: a unit vector that stays put while the card does and moves for the
 * next card (see CardObservation.look). A look held steady for a few frames, by a card lying
 * still, is a top; a top unlike the latest card's looks and the one's before is a new card, so
 * the pile shrank by one (a look like an older card's is a look-alike: the 3C after the 3D).
 * Pure data and math.
 *
 * Measured on the simulated table (3 players, 1,500 frames at 10 fps): the same card's look in
 * consecutive frames has cosine ≥ 0.96 in 99 % of frames; consecutive different cards mostly
 * 0.1–0.7, a few pairs of near twins (2C then 2S) above 0.95, which this cannot separate.
 *
 * A look can also drift for one card (a hand resting over part of it, an outline fitted a little
 * differently), so a new look is not always a new card:
 * - a steady top that the recogniser names surely, with the same name as an earlier top, is that
 *   card again, however its look moved;
 * - a new card needs the pile to have been `open`: the player's hand took the top card and turned
 *   the next one, so for a moment the pile showed no face (the caller, tracker.ts, decides). A new
 *   look with no such break is the same card looking different: an alias of the latest card.
 */

import { isCardCode, parseCard } from '../game/cards';
import { TWIN_SUIT } from './pile-suit';

/** Plain-JSON state for one Nerts pile. */
export interface NertsLooks {
  /** The latest sightings of the pile's top, newest last (at most `steadyFrames`): look, centre (image px), sure name, first-choice name, frame time. */
  recent: Array<{ look: number[]; at: [number, number]; name?: string; guess?: string; timeMs?: number }>;
  /** Distinct steady tops, in the order they showed (each a unit look). */
  tops: number[][];
  /** Each top's sure name, when it had one (parallel to `tops`; absent in states saved before names). */
  topNames?: Array<string | null>;
  /** Which card each top is a look of, 0 first (parallel to `tops`; absent: each top its own card). */
  topCards?: number[];
  /** When each card first showed, by card number (ms; null when unknown; absent in older states and for sightings without times). */
  cardSinceMs?: Array<number | null>;
  /**
   * The recogniser's first choice for the top, sure or not, in each steady-or-not sighting since
   * the latest card showed (at most MAX_GUESSES, newest last; absent in older states).
   */
  latestGuesses?: string[];
}

export interface LookTuning {
  /** Two looks with at least this cosine are the same card. */
  sameCard: number;
  /** A look must hold this many frames in a row to be a top (a passing hand is not). */
  steadyFrames: number;
  /**
   * ... or, for sightings that carry their time, two in a row at least this far apart (ms): at
   * 4 frames a second, three frames are most of a second, and a Nerts top the player takes soon
   * after turning it was never counted. Unset: frames only.
   */
  steadyMs?: number;
  /** ... and its card stay within this fraction of the card's length of where it was (a card carried over the pile is not). */
  maxShift: number;
  /**
   * A top before the latest shows again (see addLook's `mayReturn`) only with at least this
   * cosine to one of its looks: two court cards in a row can look alike at webcam size.
   */
  returnSameCard: number;
}

export const DEFAULT_LOOK_TUNING: LookTuning = { sameCard: 0.93, steadyFrames: 3, maxShift: 0.5, returnSameCard: 0.97 };

export function initialLooks(): NertsLooks {
  return { recent: [], tops: [] };
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

function unitMean(looks: readonly number[][]): number[] {
  const mean = looks[0].map((_, i) => looks.reduce((s, look) => s + look[i], 0) / looks.length);
  const norm = Math.hypot(...mean) || 1;
  return mean.map((v) => Math.round((v / norm) * 1000) / 1000);
}

/** What the caller knows of the pile when adding a sighting (see addLook). */
export interface AddLookOptions {
  /** Whether a new card may be taken now (default true; the caller closes the pile while it settles). */
  open?: boolean;
  /** Whether the card before the latest may come back and take the latest back (default false). */
  mayReturn?: boolean;
  /** Whether the latest card left: the pile's back showed since (default false). */
  gone?: boolean;
  /** The name of a card just seen lifted off the pile, if any: a look only ever an alias of it is a new card (default null). */
  movedOff?: string | null;
}

/**
 * Adds one frame's sighting of the pile's top: its look, its centre and its length (image px).
 * `steadyKnown` is true when the top is steady and no new card: it looks like the latest card or
 * the one before (the caller closes the pile then: tracker.ts).
 * `newCard` is true when a steady top unlike the latest two cards' looks appears (a card left the pile); a
 * top that returns to an earlier look adds nothing, except that with `mayReturn` the card before
 * the latest showing steadily again takes the latest back (`returned`: the latest, never surely
 * named, was that card in another look, a hand over part of it or a card carried across it; or
 * it left and came back, a lost race), so the pile counts one card more. With `gone` (the
 * latest card left: the pile's back showed since) any steady top but that card is a new card.
 */
export function addLook(
  state: NertsLooks,
  sighting: { look: readonly number[]; at: [number, number]; cardLength: number; name?: string; guess?: string; timeMs?: number },
  tuning: LookTuning = DEFAULT_LOOK_TUNING,
  { open = true, mayReturn = false, gone = false, movedOff = null }: AddLookOptions = {},
): { state: NertsLooks; newCard: boolean; returned?: boolean; steadyKnown?: boolean } {
  const latestSighting = { look: [...sighting.look], at: sighting.at, ...(sighting.name ? { name: sighting.name } : {}), ...(sighting.guess ? { guess: sighting.guess } : {}), ...(sighting.timeMs !== undefined ? { timeMs: sighting.timeMs } : {}) };
  const recent = [...state.recent, latestSighting].slice(-tuning.steadyFrames);
  const topNames = namesOf(state);
  const topCards = cardsOf(state);
  const guesses = [...(state.latestGuesses ?? []), ...(sighting.guess ? [sighting.guess] : [])].slice(-MAX_GUESSES);
  const next: NertsLooks = { recent, tops: state.tops, topNames, topCards, ...(state.cardSinceMs ? { cardSinceMs: state.cardSinceMs } : {}), latestGuesses: guesses };
  // The sightings, newest last, that agree with the newest: the same look, lying still.
  const agrees = (other: (typeof recent)[number]) =>
    cosine(other.look, latestSighting.look) >= tuning.sameCard && Math.hypot(other.at[0] - latestSighting.at[0], other.at[1] - latestSighting.at[1]) <= tuning.maxShift * sighting.cardLength;
  let start = recent.length - 1;
  while (start > 0 && agrees(recent[start - 1])) start--;
  const held = recent.slice(start);
  const heldMs = latestSighting.timeMs !== undefined && held[0].timeMs !== undefined ? latestSighting.timeMs - held[0].timeMs : 0;
  const steady = held.length >= tuning.steadyFrames || (tuning.steadyMs !== undefined && held.length >= 2 && heldMs >= tuning.steadyMs);
  if (!steady) return { state: next, newCard: false };
  const top = unitMean(held.map((r) => r.look));
  /** A new card's guesses start with the sightings it showed in. */
  const heldGuesses = held.flatMap((r) => (r.guess ? [r.guess] : []));
  const latest = topCards.length ? Math.max(...topCards) : 0;
  const name = steadyName(held);
  const latestName = topNames.find((n, k) => topCards[k] === latest && n !== null) ?? null;
  if (gone && topCards.length > 0) {
    // The latest card left (the pile's back showed): a top is a new card unless it is that card
    // come back (a lost race), surely alike or surely named the same.
    const back = state.tops.some((seen, k) => topCards[k] === latest && cosine(seen, top) >= tuning.returnSameCard) || (name !== null && name === latestName);
    if (back) return { state: next, newCard: false, steadyKnown: true };
    const onsetMs = held[0].timeMs;
    const cardSinceMs = onsetMs === undefined ? state.cardSinceMs : sinceFrom(state.cardSinceMs, latest + 1, onsetMs);
    return { state: { ...next, tops: [...state.tops, top], topNames: [...topNames, name], topCards: [...topCards, latest + 1], ...(cardSinceMs ? { cardSinceMs } : {}), latestGuesses: heldGuesses }, newCard: true };
  }
  // Only the latest card and the one before can show again (a card that lost a race comes back
  // at once): a look like an older card's is a look-alike (3C after 3D at webcam size), a new card.
  const earlier = state.tops.findIndex((seen, k) => topCards[k] >= latest - 1 && cosine(seen, top) >= tuning.sameCard);
  if (earlier >= 0) {
    // The card before the latest shows again: when the caller allows it (the latest came by look,
    // a moment ago), the latest was that card looking different, or it left and came back.
    const unnamed = topCards.every((card, k) => card !== latest || topNames[k] === null);
    const sameAsBefore = state.tops.some((seen, k) => topCards[k] === latest - 1 && cosine(seen, top) >= tuning.returnSameCard);
    // Look-alike twins (a 2S after the 2C) are no return when the sightings since the latest card
    // showed, sure or not, mostly name another card than the one before (unseen art, session 32:
    // a 2S read 2S at 0.52-0.63 for most frames, 2C at 0.50 for three, was taken for the 2C back).
    const beforeName = topNames.find((n, k) => topCards[k] === latest - 1 && n !== null) ?? null;
    const guess = mostGuessed(guesses);
    const guessedApart = beforeName !== null && guess !== null && guess !== beforeName;
    if (mayReturn && latest > 0 && sameAsBefore && unnamed && !guessedApart) return { state: { ...takeBackLatest(next), latestGuesses: [] }, newCard: false, returned: true };
    // The latest card, named `movedOff`, was seen off the pile, and this look was only ever an
    // alias of it (unnamed, not its first): the card turned at once under the one lifted, a new card.
    const firstOfLatest = topCards.indexOf(latest);
    if (movedOff !== null && movedOff === latestName && topCards[earlier] === latest && earlier !== firstOfLatest && topNames[earlier] === null) {
      const onsetMs = held[0].timeMs;
      const cardSinceMs = onsetMs === undefined ? state.cardSinceMs : sinceFrom(state.cardSinceMs, latest + 1, onsetMs);
      const relabelled = topCards.map((card, k) => (k === earlier ? latest + 1 : card));
      return { state: { ...next, topCards: relabelled, ...(cardSinceMs ? { cardSinceMs } : {}), latestGuesses: heldGuesses }, newCard: true };
    }
    return { state: next, newCard: false, steadyKnown: true };
  }
  const named = name === null ? -1 : topNames.indexOf(name);
  const cards = topCards.length ? latest + 1 : 0;
  // The same card: surely named as an earlier top, or no break since the latest card showed (unless
  // the two are surely named apart).
  const namedApart = name !== null && latestName !== null && name !== latestName;
  const sameAs = named >= 0 ? topCards[named] : !open && !namedApart && cards > 0 ? cards - 1 : -1;
  const card = sameAs >= 0 ? sameAs : cards;
  const onsetMs = held[0].timeMs;
  const cardSinceMs = sameAs >= 0 || onsetMs === undefined ? state.cardSinceMs : sinceFrom(state.cardSinceMs, card, onsetMs);
  const newCard = sameAs < 0 && cards > 0;
  return {
    state: { recent, tops: [...state.tops, top], topNames: [...topNames, name], topCards: [...topCards, card], ...(cardSinceMs ? { cardSinceMs } : {}), latestGuesses: newCard ? heldGuesses : guesses },
    newCard,
  };
}

/** `since` with card `card` (and none after it) first shown at `timeMs`. */
function sinceFrom(since: ReadonlyArray<number | null> | undefined, card: number, timeMs: number): Array<number | null> {
  const kept = (since ?? []).slice(0, card);
  while (kept.length < card) kept.push(null);
  return [...kept, timeMs];
}

/**
 * The tracker's vote on names settled on a new name for the pile's top (tracker.ts): the name of
 * the latest card when the looks left it unnamed, else a card the looks missed (it lay on the pile
 * too briefly, or under a hand, to show a steady look), so the pile shrank by one. A card added
 * this way has no look (an empty one, like no other); its look, if it steadies later, is taken as
 * that card by its name, or as the latest card when the pile had no break (see addLook's `open`).
 * A name some top already carries adds nothing (see nameShowsAgain), nor does one that differs
 * from the latest card's only by the look-alike suit (it renames that card). With `gone` (the
 * latest card left: the pile's back showed since) a new name is always a new card.
 */
export function addName(state: NertsLooks, name: string, timeMs: number, gone = false): { state: NertsLooks; newCard: boolean } {
  const topNames = namesOf(state);
  const topCards = cardsOf(state);
  if (topNames.includes(name)) return { state, newCard: false };
  if (topCards.length === 0) {
    return { state: { ...state, tops: [[]], topNames: [name], topCards: [0], cardSinceMs: [timeMs] }, newCard: false };
  }
  const latest = Math.max(...topCards);
  const latestTops = topCards.flatMap((card, k) => (card === latest ? [k] : []));
  if (!gone && latestTops.every((k) => topNames[k] === null)) {
    // The looks saw this card without a sure name: now it has one.
    const named = [...topNames];
    named[latestTops[latestTops.length - 1]] = name;
    return { state: { ...state, topNames: named, topCards }, newCard: false };
  }
  const latestName = latestTops.map((k) => topNames[k]).find((n) => n !== null) ?? null;
  if (!gone && latestName !== null && twinNames(latestName, name)) {
    // The latest card's name and this one differ only by the look-alike suit (6C, 6S at webcam
    // size) and the pile's back has not shown since: the same card, now read better.
    return { state: { ...state, topNames: topNames.map((n, k) => (topCards[k] === latest && n === latestName ? name : n)), topCards }, newCard: false };
  }
  return {
    state: { ...state, tops: [...state.tops, []], topNames: [...topNames, name], topCards: [...topCards, latest + 1], cardSinceMs: sinceFrom(state.cardSinceMs, latest + 1, timeMs) },
    newCard: true,
  };
}

/**
 * The tracker's vote on names says the pile's top is `name` again, from sure readings at
 * `sureReadingsMs`. When that is the card before the latest, read surely at least `minReadings`
 * times since the latest card showed, the latest was no card gone: the card before it lay on the
 * pile all along (the latest was a drifting look of it, or a misread) or left and came back (a
 * lost race). Either way the latest is taken back (`returned`), its tops become looks of the card
 * before, and the names they carried, which the vote contradicts, are dropped. Only readings
 * within `withinMs` of the latest card's showing count: a lost race comes back at once, and a
 * card that left long ago, read on a work pile beside the Nerts pile, is not back. Cards before
 * that cannot come back, so a name like theirs changes nothing.
 */
export function nameShowsAgain(state: NertsLooks, name: string, sureReadingsMs: readonly number[], withinMs: number, minReadings = 2): { state: NertsLooks; returned: boolean } {
  const topNames = namesOf(state);
  const topCards = cardsOf(state);
  const named = topNames.indexOf(name);
  if (named < 0 || topCards.length === 0) return { state, returned: false };
  const latest = Math.max(...topCards);
  const card = topCards[named];
  const since = state.cardSinceMs?.[latest];
  if (card !== latest - 1 || since === undefined || since === null) return { state, returned: false };
  if (sureReadingsMs.filter((t) => t > since && t <= since + withinMs).length < minReadings) return { state, returned: false };
  return { state: takeBackLatest(state, name), returned: true };
}

/**
 * The latest card was no card gone (its tops become looks of the card before, their names other
 * than `keepName` dropped). Nothing to take back before a second card.
 */
export function takeBackLatest(state: NertsLooks, keepName?: string): NertsLooks {
  const topNames = namesOf(state);
  const topCards = cardsOf(state);
  const latest = topCards.length ? Math.max(...topCards) : 0;
  if (latest === 0) return state;
  return {
    ...state,
    topNames: topNames.map((n, k) => (topCards[k] === latest && n !== keepName ? null : n)),
    topCards: topCards.map((c) => (c === latest ? latest - 1 : c)),
    ...(state.cardSinceMs ? { cardSinceMs: state.cardSinceMs.slice(0, latest) } : {}),
  };
}

/** Whether two card names differ only by the look-alike suit (spades and clubs, hearts and diamonds). */
function twinNames(a: string, b: string): boolean {
  if (!isCardCode(a) || !isCardCode(b) || a === b) return false;
  const [x, y] = [parseCard(a), parseCard(b)];
  return x.rank === y.rank && TWIN_SUIT[x.suit] === y.suit;
}

/** At most this many guesses of the latest card are kept (see NertsLooks.latestGuesses). */
const MAX_GUESSES = 60;

/** The name more than half of `guesses` give, or null. */
function mostGuessed(guesses: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const guess of guesses) counts.set(guess, (counts.get(guess) ?? 0) + 1);
  for (const [guess, count] of counts) if (count * 2 > guesses.length) return guess;
  return null;
}

/** The name most of the steady window's sightings give, surely and without a rival; else null. */
function steadyName(recent: NertsLooks['recent']): string | null {
  const names = recent.map((r) => r.name).filter((n): n is string => n !== undefined);
  if (names.length * 2 <= recent.length || names.some((n) => n !== names[0])) return null;
  return names[0];
}

/** Cards that have left the pile by its looks: distinct cards after the first. */
export function cardsGoneByLook(state: NertsLooks): number {
  const cards = cardsOf(state);
  return cards.length ? Math.max(...cards) : 0;
}

/** The sure names the latest card's tops carry. */
export function latestNames(state: NertsLooks): string[] {
  const names = namesOf(state);
  const latest = cardsGoneByLook(state);
  return cardsOf(state).flatMap((card, k) => (card === latest && names[k] !== null ? [names[k]!] : []));
}

/** Each top's sure name (none in states saved before names). */
function namesOf(state: NertsLooks): Array<string | null> {
  return state.topNames ?? state.tops.map(() => null);
}

/** Which card each top is a look of (each its own in states saved before aliases). */
function cardsOf(state: NertsLooks): number[] {
  return state.topCards ?? state.tops.map((_, k) => k);
}
