/**
 * The camera's check of the score sort. After the call, players turn the centre cards over, sort
 * them by back design (every deck has its own back) and deal each player's out face down, apart.
 * This counts, per back design, the backs the camera sees, except on the players' own
 * face-down piles (where backs lay during the last seconds of play), robustly over a short window of frames,
 * and compares each player's count with the centre cards the tracker credited them. Pure: the
 * live table feeds it frames and shows the result; nothing here changes a score.
 *
 * Why a window: a hand sorting the cards hides some for a frame or two, a recogniser can misread
 * one back in a single frame, and a hard back design (a near-black check at 31 x 44 pixels) is
 * read surely enough in some frames and not in others. Dealt cards lie still, so the count is of
 * places: every spot where a back lay in at least `minAgreeingFrames` of the last few frames read
 * whole (sort-reads.ts), or of the tracked frames since the newest where that one saw none (a card
 * dealt since; without any whole read, of the frames of the last `windowMs`), named by the design
 * most of those frames saw there. A hand hiding cards, or a card read in other frames than its
 * neighbours, lowers nothing; a one-frame misreading raises nothing.
 * (Until session 34 a deck's count was the highest one frame's count that two frames reached: the
 * 6-player sort's dark backs, each seen in most frames but never all nine in two, counted 7.)
 *
 * Why whole reads (session 55): only they look for every card afresh. Tracked frames between them
 * lose backs the classical localiser does not outline again (3 players seed 2: p2's 22 dealt backs
 * in every whole read and in none of the 14 tracked frames after one) and carry the rest on
 * unread, so a back one whole read imagined on the cloth (read once at 0.46) was "seen" in the
 * five tracked frames after it and counted; and on a slow day two whole reads lay 2.3-2.5 s apart,
 * never two in a 2 s window, so backs only whole reads found went uncounted (p1 counted 23 of 26
 * in both hands of a run). A spot now counts once the newest whole read and one of the three before
 * it saw it, or the newest surely, or (where the newest missed it but the table there is not bare)
 * two older whole reads or one surely, or two tracked frames since the newest where that one saw
 * nothing (see backCounts). Two of the last three alone (tried) counted the stack the centre is
 * gathered into before the deal, seen by the two whole reads before the hold and gone by the
 * third: where it lay the table is bare again.
 */
import type { CardObservation } from '../vision/types';
import { quadCentre, quadLongSide, shareInside, type Point, type Quad } from '../geometry';
import { DEFAULT_TRACKER_TUNING, parseZone } from '../tracker/tracker';

/** Tuning of the back count (times are table time of the frames, ms). */
export interface BackCountTuning {
  /** Frames older than this (behind the newest) no longer count, ms. */
  windowMs: number;
  /** At most this many frames are kept, whatever their times. */
  maxFrames: number;
  /** Backs seen with less confidence (0..1) are not counted. */
  minConfidence: number;
  /** A spot must be seen in this many of the frames that vote for it (see backCounts) to be counted. */
  minAgreeingFrames: number;
  /** The newest this many frames read whole are kept, however old (up to `wholeReadReachMs`), and vote with the newest (see backCounts). */
  keptWholeReads: number;
  /** ...but not a whole read older than this behind the newest frame, ms (on a slow day whole reads lie 2.6-3.7 s apart: the oldest of four was 8.5 s behind). */
  wholeReadReachMs: number;
  /** A back the newest whole read saw at least this surely counts at once (see backCounts). */
  sureInOneWholeRead: number;
  /** Backs seen in play frames this long before the call mark the players' own piles, ms. */
  ownBacksWindowMs: number;
  /** ...from at most this many play frames, at least `ownBacksWindowMs / ownBacksFrames` apart. */
  ownBacksFrames: number;
}

/**
 * Defaults: a spot seen by the newest whole read and one of the three before it (within 9 s), or by
 * the newest at 0.8 or more, else in two frames of the last two seconds; the tracker's confidence
 * floor; own piles from the last 5 s of play.
 */
export const DEFAULT_BACK_COUNT_TUNING: BackCountTuning = {
  windowMs: 2000,
  maxFrames: 40,
  minConfidence: DEFAULT_TRACKER_TUNING.minConfidence,
  minAgreeingFrames: 2,
  keptWholeReads: 4,
  wholeReadReachMs: 9000,
  sureInOneWholeRead: 0.8,
  ownBacksWindowMs: 5000,
  ownBacksFrames: 20,
};

/** Backs per back design (deck id) in one frame. */
export type BackTally = Record<string, number>;

/** A back counted in one frame: its design (deck id) and where it lay. */
export interface CountedBack {
  deckId: string;
  spot: BackSpot;
  /** Its outline (image pixels). */
  corners: Quad;
  /** How surely it was read a back (0..1). */
  confidence: number;
}

/** Where a back lay (image pixels) and how near another back must lie to be the same card (half its short side). */
export interface BackSpot {
  centre: Point;
  radius: number;
}

/** The counter's state: the recent frames' counted backs, oldest first. Plain JSON. */
export interface BackCountState {
  /**
   * `wholeRead`: the frame was read whole (RecognizeOptions.everyCard). `stillThere` (whole reads
   * given the bare-table check, see BackFrameOptions.lies): spots where the whole reads before it
   * saw a back and it saw none, though the table there does not look bare.
   */
  frames: Array<{ timeMs: number; backs: CountedBack[]; wholeRead?: true; stillThere?: BackSpot[] }>;
  /** Whether any back has been counted since the counter started (the sort has begun). */
  anyBackSeen: boolean;
  /** Backs in the last play frames before the call (addPlayFrame), oldest first. */
  playFrames: Array<{ timeMs: number; backs: OwnBack[] }>;
  /**
   * The players' own face-down piles (their stocks) as the call found them: every back seen in
   * `playFrames`, frozen by the first sort frame. A back of that design lying there is no centre card. Null before.
   */
  ownBacks: OwnBack[] | null;
}

/** A back seen during play: where, and its design as read then (none: not named). */
export interface OwnBack extends BackSpot {
  deckId?: string;
}

/** A counter before the first frame. */
export function initialBackCountState(): BackCountState {
  return { frames: [], anyBackSeen: false, playFrames: [], ownBacks: null };
}

function spotOf(card: CardObservation): BackSpot {
  const [a, b, c] = card.corners;
  const shortSide = Math.min(Math.hypot(b[0] - a[0], b[1] - a[1]), Math.hypot(c[0] - b[0], c[1] - b[1]));
  return { centre: quadCentre(card.corners), radius: shortSide / 2 };
}

function onSpot(card: CardObservation, spots: readonly BackSpot[]): boolean {
  const [x, y] = quadCentre(card.corners);
  return spots.some((spot) => Math.hypot(spot.centre[0] - x, spot.centre[1] - y) < spot.radius);
}

/**
 * Notes where backs lie during play (the players' stocks), so that the sort does not count them:
 * a real table's seat zones hold a player's stock and the free table in front of them alike.
 * Not a back in the centre within `completedPiles` (the tracker's completed foundations, a card's
 * length about each): that pile is turned face down and set aside, centre cards the sort deals
 * out (3 players seed 2: a set-aside clubs pile's last card, p3's, left where it lay 30 px from
 * the tracker's pile centre, was never counted, 28 of 29, sessions 34-41). Other backs in the
 * centre stay marked: outlines on a patterned cloth read as backs during play, which the sort
 * must not count either (leaving out every centre back, the same table counted p1 27 for 26 and
 * 21 for 20). Frames closer than the window allows are skipped; older ones dropped.
 */
export function addPlayFrame(
  state: BackCountState,
  timeMs: number,
  cards: CardObservation[],
  completedPiles: readonly BackSpot[] = [],
  tuning: BackCountTuning = DEFAULT_BACK_COUNT_TUNING,
): BackCountState {
  const newest = state.playFrames[state.playFrames.length - 1];
  if (newest && timeMs >= newest.timeMs && timeMs - newest.timeMs < tuning.ownBacksWindowMs / tuning.ownBacksFrames) return state;
  const setAside = (card: CardObservation) => parseZone(card.zone)?.area === 'centre' && onSpot(card, completedPiles);
  const backs = cards
    .filter((card) => card.kind === 'back' && card.confidence >= tuning.minConfidence && !setAside(card))
    .map((card): OwnBack => ({ ...spotOf(card), ...(card.backId ? { deckId: card.backId } : {}) }));
  const kept = newest && timeMs < newest.timeMs ? [] : state.playFrames.filter((frame) => frame.timeMs > timeMs - tuning.ownBacksWindowMs);
  return { ...state, playFrames: [...kept, { timeMs, backs }].slice(-tuning.ownBacksFrames) };
}

/**
 * Whether a card in `zone` lies where the centre cards are sorted: anywhere but a seat's stock
 * and Nerts pile, whose backs are that player's own cards, not centre cards. Players deal their
 * sorted cards out in the free space in front of them, which may lie inside their seat's area.
 */
export function isSortArea(zone: string | undefined): boolean {
  const parsed = parseZone(zone);
  return parsed === null || parsed.area === 'centre' || (parsed.part !== 'stock' && parsed.part !== 'nerts');
}

/**
 * Outlines sharing at least this much of either's area are one card: sorted cards are dealt
 * apart, so two of them never overlap. (Session 32, the unseen-art 3-player sort: an outline 20 px
 * along from a back it half covered, its centre outside the half-width radius, counted as a
 * ninth card of eight for 2.5 s, long enough to be adopted.)
 */
export const SAME_BACK_OVERLAP = 0.3;

/**
 * The backs one frame's cards show for the count: confident backs with a known design in the sort
 * area and not on one of the players' own piles (`ownBacks`: a back lying where one of the same
 * design, or of no known design, lay during play). A face-down stack counts as the one back the
 * camera sees on top; spread cards each count; two outlines of one card count once.
 *
 * Why the design (session 56): on the 6-player gingham a pale face-down pile lay in the centre
 * for the last seconds of play (set aside, unknown to the tracker as a completed pile), and the
 * sort dealt one of p5's green backs onto that very place: a different card, never counted (p5
 * 20 of 21). A player's stock shows its own design in play and at the sort alike.
 */
export function countedBacks(cards: CardObservation[], minConfidence: number, ownBacks: readonly OwnBack[] = []): CountedBack[] {
  // Two outlines of one card (centres within half its width, or overlapping; see SAME_BACK_OVERLAP) count once: the surer reading.
  const counted: CardObservation[] = [];
  const countedSpots: BackSpot[] = [];
  const overlaps = (a: Quad, b: Quad) => {
    const [[ax, ay], [bx, by]] = [quadCentre(a), quadCentre(b)];
    if (Math.hypot(ax - bx, ay - by) > (quadLongSide(a) + quadLongSide(b)) / 2) return false;
    return Math.max(shareInside(a, b), shareInside(b, a)) >= SAME_BACK_OVERLAP;
  };
  const sameCard = (card: CardObservation) => onSpot(card, countedSpots) || counted.some((other) => overlaps(card.corners, other.corners));
  const ownPile = (card: CardObservation) => onSpot(card, ownBacks.filter((own) => own.deckId === undefined || own.deckId === card.backId));
  const backs = cards.filter((card) => card.kind === 'back' && card.backId && card.confidence >= minConfidence && isSortArea(card.zone) && !ownPile(card));
  for (const card of backs.sort((a, b) => b.confidence - a.confidence)) {
    if (sameCard(card)) continue;
    counted.push(card);
    countedSpots.push(spotOf(card));
  }
  return counted.map((card, k) => ({ deckId: card.backId!, spot: countedSpots[k], corners: card.corners, confidence: card.confidence }));
}

/** Backs per back design in one frame's cards (see countedBacks). */
export function tallyBacks(cards: CardObservation[], minConfidence: number, ownBacks: readonly OwnBack[] = []): BackTally {
  const tally: BackTally = {};
  for (const { deckId } of countedBacks(cards, minConfidence, ownBacks)) tally[deckId] = (tally[deckId] ?? 0) + 1;
  return tally;
}

/** How a sort frame was read (addBackFrame). */
export interface BackFrameOptions {
  /** Read whole (every card localised and read, RecognizeOptions.everyCard), not tracked. */
  wholeRead?: boolean;
  /**
   * For a whole read: whether, in this frame, something lies at these corners (image pixels) where
   * the table looked bare during play (the live table's check, table-background.ts). Given, a
   * back the older kept whole reads saw and this one missed is kept as `stillThere` when
   * something still lies there, so an unsure card one read missed is not lost; where the table
   * looks bare again (the gathered stack, dealt out) it is gone.
   */
  lies?: (corners: Quad) => boolean;
  tuning?: BackCountTuning;
}

function nearSpot(spot: BackSpot, spots: readonly BackSpot[]): boolean {
  return spots.some((other) => Math.hypot(other.centre[0] - spot.centre[0], other.centre[1] - spot.centre[1]) < Math.max(other.radius, spot.radius));
}

/**
 * Adds one frame of the sort (its table time in ms and its cards); frames out of the window are
 * dropped, but for the newest `keptWholeReads` frames read whole (within `wholeReadReachMs`).
 * A clock that jumps back restarts the window. The first sort frame freezes `ownBacks`.
 */
export function addBackFrame(state: BackCountState, timeMs: number, cards: CardObservation[], { wholeRead = false, lies, tuning = DEFAULT_BACK_COUNT_TUNING }: BackFrameOptions = {}): BackCountState {
  const ownBacks = state.ownBacks ?? state.playFrames.flatMap((frame) => frame.backs);
  const backs = countedBacks(cards, tuning.minConfidence, ownBacks);
  const newest = state.frames[state.frames.length - 1];
  const earlier = newest && timeMs < newest.timeMs ? [] : state.frames;
  const olderWholeReads = earlier.filter((f) => f.wholeRead && f.timeMs > timeMs - tuning.wholeReadReachMs);
  const stillThere: BackSpot[] = [];
  if (wholeRead && lies) {
    const seen = backs.map((back) => back.spot);
    for (const back of olderWholeReads.slice(-(tuning.keptWholeReads - 1)).flatMap((f) => f.backs)) {
      if (!nearSpot(back.spot, seen) && !nearSpot(back.spot, stillThere) && lies(back.corners)) stillThere.push(back.spot);
    }
  }
  const frame = { timeMs, backs, ...(wholeRead ? { wholeRead: true as const } : {}), ...(stillThere.length > 0 ? { stillThere } : {}) };
  const wholeReads = (wholeRead ? [...olderWholeReads, frame] : olderWholeReads).slice(-tuning.keptWholeReads);
  const kept = earlier.filter((f) => f.timeMs > timeMs - tuning.windowMs || wholeReads.includes(f));
  const frames = [...kept, frame];
  // Over maxFrames, the oldest tracked frames go first.
  for (let i = 0; frames.length > tuning.maxFrames && i < frames.length - 1; ) {
    if (frames[i].wholeRead) i++;
    else frames.splice(i, 1);
  }
  return { ...state, frames, anyBackSeen: state.anyBackSeen || backs.length > 0, ownBacks };
}

/**
 * The robust counts now, per back design: the spots where backs lay (a back within half a card's
 * width of a spot's first back is that card), each named by the design most of its frames saw
 * there (a tie: the newest). Without a whole read a spot counts once seen in `minAgreeingFrames`
 * frames of the window (fewer frames: all of them). With whole reads, once the newest saw it and
 * it was seen in that many of the kept whole reads (fewer: all of them), or by the newest at
 * `sureInOneWholeRead` or more, or, where the newest missed it but the table does not look bare
 * (its `stillThere`, see BackFrameOptions.lies), by that many of the older kept whole reads or
 * one of them at `sureInOneWholeRead` or more, or,
 * where the newest whole read saw no back, in `minAgreeingFrames` tracked frames since it: a
 * card dealt since is outlined and read afresh there, while what the newest whole read saw,
 * tracked frames only carry on unread and do not vote for.
 *
 * Why the newest and one of the three before it (session 56), not both of the last two: an unsure
 * back at the end of a dealt row, outlined in some whole reads and missed in others, is lost
 * whenever the read before the newest missed it (3 players seed 2, p1 one short in each hand of
 * session 55's final run), and so is one the newest missed. A spot the newest missed counts only
 * where the table does not look bare: the gathered stack, seen by the reads before and dealt out
 * since, leaves the cloth bare; one sure look there is enough, as for the newest (6 players seed 1:
 * whole reads 1.2 s apart each missed two or three of p5's dark backs, a different few each time,
 * so one read at 0.83 was missed by the newest and by the read before it). Four whole reads, not
 * three: a back at a dealt row's end on the gingham's light band is outlined in about half of
 * them, and twice in a row the newest two missed one the two before saw. Replayed over six
 * recorded 3-player seed-2 runs with their pictures: p1 exact in all 12 sorts (session 55's rule:
 * 5 of 12; three whole reads: 10); 6 players seed 1, three recordings: all exact (the newest
 * recording 8 of 9 for p5 before); 6 players seed 2: p6 7 → 9 of 14 (docs/BENCHMARKS.md,
 * session 56).
 *
 * One sure look is enough because the sort's hold is short: the simulated players hold the spread
 * still for 4 s, and on a slow day a whole read takes 2.4 s, so the backs dealt last were seen by
 * one whole read only (3 players seed 2, session 55: p3 27 of 29). Of the backs whole reads saw
 * at no dealt place on that table's recorded sorts none read 0.8 or more but the gathered
 * stack being dealt from (a real back, gone once dealt); 62 read less (cloth, a hand's shadow).
 */
export function backCounts(state: BackCountState, tuning: BackCountTuning = DEFAULT_BACK_COUNT_TUNING): BackTally {
  // The newest keptWholeReads only: a whole read younger than windowMs but older than those stays
  // in the frames (the window keeps it) and must not vote.
  const wholeReads = state.frames.filter((frame) => frame.wholeRead).slice(-tuning.keptWholeReads);
  const newestWhole = wholeReads[wholeReads.length - 1];
  const voters = newestWhole ? state.frames.filter((frame) => wholeReads.includes(frame) || frame.timeMs > newestWhole.timeMs) : state.frames;
  const spots: Array<{ spot: BackSpot; frames: Set<number>; sureInNewest: boolean; sureInOlder: boolean; byDeck: Map<string, { frames: Set<number>; last: number }> }> = [];
  voters.forEach((frame, i) => {
    for (const { deckId, spot, confidence } of frame.backs) {
      let nearest: (typeof spots)[number] | undefined;
      let nearestDistance = Infinity;
      for (const place of spots) {
        const distance = Math.hypot(place.spot.centre[0] - spot.centre[0], place.spot.centre[1] - spot.centre[1]);
        if (distance < Math.max(place.spot.radius, spot.radius) && distance < nearestDistance) [nearest, nearestDistance] = [place, distance];
      }
      const place = nearest ?? spots[spots.push({ spot, frames: new Set(), sureInNewest: false, sureInOlder: false, byDeck: new Map() }) - 1];
      place.frames.add(i);
      if (frame.wholeRead && confidence >= tuning.sureInOneWholeRead) {
        if (frame === newestWhole) place.sureInNewest = true;
        else place.sureInOlder = true;
      }
      const design = place.byDeck.get(deckId) ?? { frames: new Set<number>(), last: i };
      design.frames.add(i);
      design.last = i;
      place.byDeck.set(deckId, design);
    }
  });
  const newestIndex = newestWhole ? voters.indexOf(newestWhole) : -1;
  const counted = (place: (typeof spots)[number]): boolean => {
    const { frames, sureInNewest, sureInOlder } = place;
    if (!newestWhole) return frames.size >= Math.min(tuning.minAgreeingFrames, voters.length);
    const whole = [...frames].filter((i) => voters[i].wholeRead).length;
    if (sureInNewest) return true;
    if (frames.has(newestIndex)) return whole >= Math.min(tuning.minAgreeingFrames, wholeReads.length);
    if ((whole >= tuning.minAgreeingFrames || sureInOlder) && nearSpot(place.spot, newestWhole.stillThere ?? [])) return true;
    return frames.size - whole >= tuning.minAgreeingFrames;
  };
  const counts: BackTally = {};
  for (const place of spots) {
    if (!counted(place)) continue;
    const [deckId] = [...place.byDeck].reduce((a, b) => (b[1].frames.size > a[1].frames.size || (b[1].frames.size === a[1].frames.size && b[1].last > a[1].last) ? b : a));
    counts[deckId] = (counts[deckId] ?? 0) + 1;
  }
  return counts;
}

/** The robust count of `backId` now (see backCounts). */
export function backCountOf(state: BackCountState, backId: string, tuning: BackCountTuning = DEFAULT_BACK_COUNT_TUNING): number {
  return backCounts(state, tuning)[backId] ?? 0;
}

/** A player as the check needs them: id, deck (back design) and the centre cards the tracker credited. */
export interface BackCheckPlayer {
  id: string;
  deckId: string;
  centreCards: number;
}

/** Per player: the backs the camera counted against the centre cards credited (protocol TableView.backCheck). */
export interface BackCheck {
  /** Frames in the window the counts come from. */
  frames: number;
  players: Array<{ player: string; deckId: string; backsSeen: number; centreCards: number; agrees: boolean }>;
}

/** The check for these players, or null before the sort has shown any back (nothing to compare yet). */
export function backCheck(state: BackCountState, players: BackCheckPlayer[], tuning: BackCountTuning = DEFAULT_BACK_COUNT_TUNING): BackCheck | null {
  if (!state.anyBackSeen || state.frames.length === 0) return null;
  const counts = backCounts(state, tuning);
  return {
    frames: state.frames.length,
    players: players.map((player) => {
      const backsSeen = counts[player.deckId] ?? 0;
      return { player: player.id, deckId: player.deckId, backsSeen, centreCards: player.centreCards, agrees: backsSeen === player.centreCards };
    }),
  };
}
