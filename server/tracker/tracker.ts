/**
 * The tracker: per-frame card observations → table events. Pure: `step(state, frame, config)`
 * returns the next state and the events it decided; no clock (time is the frame's capture time),
 * no I/O. State is plain JSON so it can be persisted and resumed after a restart.
 *
 * Robustness comes from temporal voting: a pile's top card or a Nerts pile's top card changes
 * only when the new reading wins enough confidence-weighted votes over several frames. A pile
 * that is not seen (a hand covers it, a dropped frame) casts no vote, so occlusion never reads
 * as a change. Zones come from the recogniser ('centre', 'seat-<n>', 'seat-<n>/nerts', ...).
 */
import { cardFrom, parseCard, rankValue, SUIT_NAMES, suitOf, type CardCode, type Suit } from '../game/cards';
import type { CardObservation, FrameObservations, Point } from '../vision/types';
import { distanceToSegment, quadCentre, quadLongSide } from '../geometry';
import type { OwnerEvidence, TableEvent } from '../protocol';
import { addLook, addName, cardsGoneByLook, DEFAULT_LOOK_TUNING, initialLooks, latestNames, nameShowsAgain, takeBackLatest, type NertsLooks } from './nerts-looks';
import { initialPileWatch, watchPileLook, type PileLookTuning, type TopReading, type PileLookWatch } from './pile-looks';
import { cardsBetween, pilePrior, readWithPrior, type ReadingTuning } from './readings';
import { addSuitLean, TWIN_SUIT, twinLean, type SuitLean } from './pile-suit';

export { cardsBetween } from './readings';

/** Tunables of the tracker; times in ms, distances in image pixels relative to card size. */
export interface TrackerConfig extends ReadingTuning, PileLookTuning {
  /** Seat index → player id, in seat order. */
  /** `hands`: people playing this tableau (partners sharing one), each laying one card at a time; default 1. */
  players: Array<{ seat: number; playerId: string; nertsPileSize: number; hands?: number }>;
  /** Reading must win this share of the recent votes to change a top card. */
  voteShare: number;
  /** Minimum frames a new reading must be seen in before it counts. */
  minFrames: number;
  /** Only the latest this-many readings of a pile vote (frames where it was seen). */
  voteFrames: number;
  /** Votes older than this are forgotten, ms. */
  voteWindowMs: number;
  /** Observations below this confidence are ignored (but see expectedCardMinConfidence). */
  minConfidence: number;
  /**
   * A centre face read, in the light of the pile it lies on, as that pile's top or its next card
   * in suit counts from this confidence: where the game all but dictates the card, a faint
   * reading that agrees is evidence (a court card at webcam size often reads under
   * minConfidence, and a pile whose top is never read stops there). Measured on four recordings
   * (seeds 1 and 2, two recogniser versions) against 0.35, centre error per player: 2.17 → 1.5,
   * 6.83 → 6.67, 2.5 → 1.5, 4.5 → 5.33 (0.2 and 0.3 no better).
   */
  expectedCardMinConfidence: number;
  /** A Nerts top named at least this surely keeps its name through a drifting look (see nerts-looks.ts). */
  sureNameConfidence: number;
  /**
   * No face on a Nerts pile for this long opens it for a new top (see SeatState.nertsBreak), ms:
   * taking the top card and turning the next takes a player 0.3 s or more; a card missed in one
   * frame (or by one of several recognition workers) is no break.
   */
  nertsBreakMs: number;
  /**
   * A new Nerts top within this long of the previous one is that card still arriving (a hand
   * still turning it shows it partly covered, then whole), ms.
   */
  nertsMinGapMs: number;
  /** Two cards of the same code leaving two seats within this window onto one pile = dispute, ms. */
  disputeWindowMs: number;
  /** How long ago a card must have been seen in a seat to be attributed to it, ms. */
  attributionWindowMs: number;
  /**
   * A seat's sighting of the card this long before the landing no longer outweighs the hand seen
   * reaching the pile: a card leaves its seat and lands within about a second, so an older
   * sighting is as often another card misread or a copy the seat still holds out of view, ms.
   */
  staleSightingMs: number;
  /**
   * One hand at a time (the rules): a player whose card landed elsewhere within this window did
   * not put this one down. Simulated players land their own cards 1.25 s apart or more; real
   * ones may be quicker, so the window is shorter, ms.
   */
  oneHandGapMs: number;
  /**
   * Motion is remembered this long, ms (a play's owner is decided from the motion round its
   * landing, up to about 2.5 s later). It is saved with every snapshot: 3 s rather than 5 s
   * gave the same owners on four recordings (1.5 s lost some) and a smaller state.
   */
  motionKeepMs: number;
  /** A hand reaching a pile from this long before a card landed there to this long after may have put it down, ms. */
  reachBeforeMs: number;
  reachAfterMs: number;
  /**
   * Of those frames, the ones from this long before the landing to the landing count in full
   * when picking the hand that put the card down, the others `reachOutsideWeight` each: the
   * hand that lays a card is over the pile just before it lands, while others hover earlier or
   * come after for the next card. A blob touching several seats (arms merged) gives each of
   * them a share. Measured on ten recordings: the owner of a play right 686 → 704 of 900 times
   * (the hand alone decides about a third of the plays), centre counts unchanged.
   */
  reachFocusMs: number;
  reachOutsideWeight: number;
  /**
   * Whose arm a moving blob over a pile is, by where it reaches: the seats whose side of the
   * table the blob stretches towards from the pile (see armSeats), rather than the seats whose
   * zones it touches. A card carried from far across the table often moves only the hand and
   * forearm near the pile, touching no seat zone or a neighbour's, and two arms over one pile
   * merge into one blob.
   */
  reachByArm: boolean;
  /**
   * A play nobody was seen holding goes to a seat whose Nerts pile showed a new top (its card
   * had left) at most this long before the play landed (or since), ms.
   */
  nertsDepartureMs: number;
  /**
   * A play's owner is decided this long after it landed, ms: a copy that was only covered by a
   * hand shows up again in its seat meanwhile and is ruled out. Viewers see plays this much later.
   */
  attributionDelayMs: number;
  /**
   * A copy followed from its seat names a play's owner only if it came to rest no later than
   * this after the pile first showed the card (about a frame at 30 fps): one that came to rest
   * later is a second copy racing for the slot, and the first copy was not followed (it was
   * credited to the loser, and the race went unseen). On ground-truth observations (seeds 1-6,
   * 3-6 players, 3 hands each): 6 players seeds 3 and 5 went from 1 to 2 hands exact of 3, the
   * centre error per player of 6 players seed 2 0.89 → 0.78 and of 5 players seed 4 0.27 → 0.13,
   * nothing worse; 80 ms gave up the seed-2 gain; 0 ms lost 5 exact hands elsewhere (a first
   * copy's rest and the pile's first sighting can fall a frame apart).
   */
  firstLanderSlackMs: number;
  /** A pile showing a queen that vanishes this long (other centre cards still seen) was completed and set aside, ms. */
  setAsideMs: number;
  /**
   * ... and one showing a card at most this many below the king: the cards between landed unseen
   * (a queen at webcam size can read as the jack under it), then the pile was set aside.
   */
  setAsideUnseenMax: number;
  /**
   * ... and a queen pile a tracked king was seen landing on (`kingLander`) that vanishes this
   * long, ms: the king was played, and the pile is often turned aside at once (3 players seed 6:
   * p3's KH, set aside 2.5 s before the hand ended, was never reported with setAsideMs alone).
   */
  setAsideKingMs: number;
  /** A Nerts pile seen empty this long (and in this many frames) = the call, ms. */
  emptyNertsMs: number;
  emptyNertsFrames: number;
  /**
   * After the call, the caller's Nerts pile seen empty this long (and in `emptyNertsFrames` frames)
   * is empty whatever count the camera had: the rules say a caller's pile is empty, and the camera
   * can miss the last cards leaving it (a count stuck at 3 used to stay there to the score), ms.
   */
  callerEmptyNertsMs: number;
  /**
   * After the call nobody plays: another player's Nerts pile first seen empty later than this
   * after the call (as heard: its last card's landing plus the reaction time, never before the
   * real call) was moved or covered in the score sort, not played out, and its count stands
   * (3-player recordings: a last Nerts card counted gone 0.6 s after the call heard, 1.5 s after
   * the real one, its card shown again 4 s later), ms.
   */
  nertsEmptyAfterCallMs: number;
  /**
   * While a call waits for the emptied pile's last card to land: another sure face than that card
   * on the pile in this many frames, over at least `pendingFaceMs`, means the pile was not empty
   * (the count was a card short), and no call (a 3-player hand: a false call 30 s early, the next
   * Nerts card read at 0.96 on the pile all the while).
   */
  pendingFaceFrames: number;
  pendingFaceMs: number;
  /** A seat sighting counts when the same code was seen there this recently too, ms. */
  sightingRepeatMs: number;
  /**
   * A runner-up reading of a seat card with at least this share is remembered as "maybe seen"
   * there (TrackedSeat.maybeSeen): a play nobody was surely seen holding goes to such a seat.
   */
  maybeSeenShare: number;
  /** Gap in a card's sightings over the centre that still counts as one flight, ms. */
  flightGapMs: number;
  /** How long after a card lands a racing copy may still show and go back, ms. */
  raceWatchMs: number;
  /** A player calls about this long after their last Nerts card lands (the camera cannot hear), ms. */
  callReactionMs: number;
  /** A copy must be away from its seat at least this long to count as having flown, ms. */
  raceAwayMs: number;
  /** A race's second player: their hand is over the pile in at least this many frames from the landing to raceReachWindowMs after it. */
  raceReachFrames: number;
  raceReachWindowMs: number;
  /** ... and their copy shows back in their seat with at least this confidence. */
  raceBackConfidence: number;
  /** A copy is back home (a racer's, or the card's owner's: ownerCameHome) once it shows there in this many frames. */
  raceHomeFrames: number;
  /**
   * A sure reading more than three cards ahead in a pile's suit that holds this long means the
   * cards between were played unseen (they are filled in), ms.
   */
  farAheadSteadyMs: number;
  /**
   * A pile that shows, surely and steadily for this long, a card it already had under its top:
   * the cards above it never came (a top misread surely, or a card held over the pile and taken
   * away) and are withdrawn, ms.
   */
  withdrawSteadyMs: number;
  /** An illegal card (or start) is reported once read surely and decided without a break for this long, ms. */
  illegalSteadyMs: number;
  /**
   * A pile of at most this many cards whose next card reads surely in another suit takes that
   * suit (its ace was misread; see misreadSuit).
   */
  suitRevisionMaxCards: number;
  /**
   * A pile whose readings together favour its look-alike suit (spades for clubs, hearts for
   * diamonds) by at least these natural log odds, over at least twinSuitMinCards of its cards,
   * takes that suit, whatever its size (see pile-suit.ts).
   */
  twinSuitLean: number;
  twinSuitMinCards: number;
  /** A pile of any size takes its look-alike suit from one sure reading (see misreadSuit) when its readings lean at least this much that way. */
  twinSuitLeanWhenSure: number;
  /**
   * At the hand's end, a Nerts pile that lay bare to the end with at most this many cards counted
   * left is taken as emptied (its count stalled on tops it could not tell apart).
   */
  bareAtEndMaxLeft: number;
  /** For this long after a Nerts pile's new top by look, the top before it showing steadily again takes it back (see addLook), ms. */
  nertsLookReturnMs: number;
  /**
   * A Nerts card counted this soon before the pile's back shows was the top itself on its way off
   * (read as another card in the hand: an 8S as 10C), ms. A card stays on top longer than this:
   * it is turned, seen, then taken.
   */
  nertsLiftMs: number;
  /**
   * The top's name seen off the Nerts pile is a break (the card was taken) only when it was not
   * seen off the pile within this long before: a copy lying elsewhere all along is another deck's, ms.
   */
  nertsTopElsewhereGapMs: number;
  /**
   * A Nerts top's look is steady when held 3 frames, or 2 frames at least this far apart, ms (see
   * LookTuning.steadyMs): at 4–5 frames a second, tops taken soon after they were turned had gone
   * uncounted (recorded 5- and 6-player games: Nerts error 5.3 → 3.5 cards in sum over 7).
   */
  nertsLookSteadyMs: number;
  /** After a Nerts pile is seen empty, the call is placed when its last card lands, or after this long, ms. */
  callWaitMs: number;
  /**
   * While cards keep landing (the caller may play on before calling, and the others play until
   * they hear the call), the call waits for callSettleMs without a landing, up to this long after
   * the pile was seen empty, ms.
   */
  callQuietWaitMs: number;
  /**
   * The call is decided this long after the last Nerts card landed, ms, and placed no earlier than
   * the last landing seen meanwhile: the camera cannot hear the call, and the others play on until
   * they hear it (a card landing after it would have been taken back, or counts within the grace).
   */
  callSettleMs: number;
  /** Nothing played for this long = stall prompt, ms. */
  stallMs: number;
  /** A centre card within this many card heights of a pile belongs to it. */
  pileRadiusCards: number;
  /**
   * A centre card votes only while it lies still: it moved less than this many card heights since
   * its previous sighting (within `stillGapMs`). A card carried across the centre never votes, so
   * it can neither start a phantom pile nor be read as an illegal play.
   */
  stillCards: number;
  /** The previous sighting must be this recent for the card to count as still, ms. */
  stillGapMs: number;
  /** A card track (see CardTrack) unseen this long ends, ms. */
  trackGapMs: number;
  /** Fastest hand the tracks follow, in card heights per second (a card may travel this far between sightings). */
  trackSpeedCards: number;
  /**
   * Travel allowed for gaps up to this long between sightings, ms: a card hidden longer must show
   * up again where it was (a copy that vanished face down is not the one flying elsewhere).
   */
  trackReachMs: number;
  /** A card last seen in flight may be hidden this long and still be followed, where its speed takes it, ms. */
  flightReachMs: number;
  /**
   * A card last seen in flight and hidden up to this long is looked for anywhere along the path
   * its speed takes it in flightReachMs, within half a card's length: it came down on the way,
   * under the hand that put it there (6-player seed-5 8D: p4's, found lying 24 px on from its last
   * sighting 300 ms later, began a track of no seat; seed-6 3S: p6's, found 27 px on 530 ms later).
   */
  landingReachMs: number;
  /**
   * Two tracked copies of a card in the centre this close (card heights) lie stacked: the one
   * that came there later is on top, and only it can be seen until it leaves (see updateTracks).
   */
  stackedCards: number;
}

/** Defaults tuned on simulated tables (10–30 fps). */
export const DEFAULT_TRACKER_TUNING: Omit<TrackerConfig, 'players'> = {
  voteShare: 0.5,
  minFrames: 3,
  voteFrames: 5,
  voteWindowMs: 1200,
  minConfidence: 0.35,
  expectedCardMinConfidence: 0.25,
  sureNameConfidence: 0.6,
  nertsBreakMs: 200,
  nertsMinGapMs: 600,
  disputeWindowMs: 700,
  attributionWindowMs: 6000,
  staleSightingMs: 2500,
  oneHandGapMs: 700,
  attributionDelayMs: 1000,
  firstLanderSlackMs: 40,
  nertsDepartureMs: 3000,
  motionKeepMs: 3000,
  reachBeforeMs: 1200,
  reachAfterMs: 200,
  reachFocusMs: 300,
  reachOutsideWeight: 0.5,
  reachByArm: true,
  setAsideMs: 3000,
  setAsideUnseenMax: 2,
  setAsideKingMs: 1000,
  emptyNertsMs: 600,
  emptyNertsFrames: 4,
  callerEmptyNertsMs: 2000,
  nertsEmptyAfterCallMs: 0,
  pendingFaceFrames: 3,
  pendingFaceMs: 200,
  callWaitMs: 2500,
  callQuietWaitMs: 8000,
  nertsLookReturnMs: 5000,
  nertsLiftMs: 450,
  nertsTopElsewhereGapMs: 1000,
  nertsLookSteadyMs: 100,
  bareAtEndMaxLeft: 5,
  suitRevisionMaxCards: 3,
  twinSuitLean: 2.5,
  twinSuitMinCards: 3,
  twinSuitLeanWhenSure: 0,
  pileBreakMs: 200,
  lookSettleMs: 2500,
  lookLandingMs: 1200,
  lookNextShare: 0.5,
  lookLandingShift: 0.15,
  farAheadSteadyMs: 1500,
  withdrawSteadyMs: 2000,
  illegalSteadyMs: 1500,
  callSettleMs: 1800,
  raceWatchMs: 5000,
  callReactionMs: 800,
  flightGapMs: 2000,
  sightingRepeatMs: 500,
  maybeSeenShare: 0.2,
  unexpectedCardPrior: 0.1,
  alternativeMinShare: 0.05,
  jumpPriors: [0.3, 0.1],
  raceAwayMs: 300,
  raceReachFrames: 3,
  raceReachWindowMs: 1000,
  raceBackConfidence: 0.5,
  raceHomeFrames: 3,
  stallMs: 30000,
  pileRadiusCards: 0.45,
  stillCards: 0.08,
  stillGapMs: 400,
  trackGapMs: 2000,
  trackSpeedCards: 17,
  trackReachMs: 150,
  flightReachMs: 400,
  landingReachMs: 1000,
  stackedCards: 0.45,
};

interface Vote {
  code: CardCode | null; // null = pile/zone seen empty
  weight: number;
  timeMs: number;
}

/** A centre pile as the tracker believes it. */
export interface TrackedPile {
  id: string;
  /** Image position of the pile's centre, pixels. */
  center: Point;
  /** Card height in the image at that place, pixels (for matching radius). */
  cardSizePx: number;
  /** Cards the tracker has accepted onto it, bottom first. */
  cards: Array<{ code: CardCode; player: string }>;
  completed: boolean;
  votes: Vote[];
  /** Last illegal reading reported for this pile, so it is raised once. */
  reportedIllegal: CardCode | null;
  lastSeenMs: number;
  /** Other seats the current top card also left lately (possible second lander). */
  rivals: string[];
  /** Frames in which two copies of the top card lay on this pile at once. */
  doubleFrames: number;
  /** Since when the pile has not been seen while other centre cards were, ms (set-aside detection). */
  missingSinceMs?: number | null;
  /** Watching for a race on the latest card: a second copy flying in and going back. */
  race?: RaceWatch | null;
  /** Watches of earlier cards still open when a later card landed on them (the loser takes its copy back from under it). */
  earlierRaces?: RaceWatch[];
  /**
   * The reading its votes decide, and since when without a break, ms (see decidedFor): how long a
   * reading far ahead, one withdrawn before, one under the top or an illegal card has held.
   */
  steady?: { code: CardCode; sinceMs: number } | null;
  /** The readings that withdrawals took back from this pile (the top each time; see withdrawAbove): read again, they must hold like one far ahead. */
  withdrawn?: CardCode[];
  /** Per suit, the surest reading the recogniser itself (before the pile's prior) gave a card lying on this pile. */
  suitSeen?: Partial<Record<Suit, number>>;
  /** Per rank, how the recogniser's own readings of cards on this pile lean between its suit and the look-alike (see pile-suit.ts). */
  suitLean?: SuitLean;
  /** The pile's top by look, for cards that land and are never named (see pile-looks.ts); absent in older saved states. */
  lookWatch?: PileLookWatch;
  /** On a queen pile: the first tracked king seen landing on it (it may be set aside before it is voted in). */
  kingLander?: { origin: string; landedMs: number } | null;
}

/**
 * After a card X lands on a pile: if a second copy of X shows in the centre while another seat's
 * X is away, and that X then comes back to its seat, two players raced for the slot; the first
 * to land stays and the returned copy is reported as the second player's play (the rules engine
 * rules the dispute).
 */
export interface RaceWatch {
  code: CardCode;
  landMs: number;
  untilMs: number;
  /** First frame with two copies of X in the centre (once seen in two frames), ms. */
  secondSeenMs: number | null;
  doubleFrames?: number;
  firstDoubleMs?: number;
  /** Seats whose X went away after the landing: when it was last seen there, ms. */
  away: Record<string, number>;
  /** Seats whose copy, followed, was last seen carried from where it lay before it went away (it flew, it was not merely covered). */
  awayFlying?: Record<string, boolean>;
  /** Tracked copies of X seen lying still on the pile: track id → origin and landing time, ms. */
  landers?: Record<string, { origin: string; landedMs: number }>;
  /** Players already reported as having lost this race (three copies can race for one slot). */
  losers?: string[];
  /** When the next card landed on this one, ms: a copy that left its seat later raced for that card's slot, not this one. */
  coveredMs?: number;
  /** Per player, their hand's frames over the pile from the landing to raceReachWindowMs after (kept once the window closed). */
  reachers?: Record<string, { frames: number; firstMs: number }>;
  /** Per player, frames their copy was seen back at home after going away (see raceHomeFrames). */
  backFrames?: Record<string, number>;
  /** Frames the card's owner's copy was seen back at home (ownerCameHome). */
  ownerHomeFrames?: number;
  /** The card's owner was found to have lost the race (ownerCameHome): judged once. */
  ownerJudged?: true;
  /** Per player, when their tracked copy was last seen, flying into the pile, before it vanished (see landerUnderOwners). */
  vanishedNear?: Record<string, number>;
  /** Per player, their landed copy was seen carried off the pile while a copy still showed on it (see landerUnderOwners). */
  leftWhileShown?: Record<string, true>;
  /** Races ruled by which tracked copy landed first, with the two copies' tracks, until the players' handling confirms or reverses them (see reverseCarriedRace). */
  byLanding?: Array<{ winner: string; loser: string; winnerTrack: number; loserTrack: number; settled?: true }>;
}

/**
 * One physical card followed from sighting to sighting (same code, near enough for a hand's speed):
 * where it was first seen tells whose it is. A card lying in a seat that flies to the centre keeps
 * its track, so the owner of a play, and which of two racing copies landed first, are read off the
 * tracks; a track that starts in the centre (the card was hidden as it left) knows no owner.
 */
export interface CardTrack {
  id: number;
  code: CardCode;
  /** Latest image position, pixels, and card height there. */
  x: number;
  y: number;
  sizePx: number;
  /** Velocity at the latest sighting, pixels per ms (where to look for it next). */
  vx?: number;
  vy?: number;
  lastMs: number;
  /** The player whose seat the track began in; null when it began in the centre. */
  origin: string | null;
  /** Last sighting that had moved since the one before (a card in flight), ms; null if never seen moving. */
  movingMs: number | null;
  /** Sightings in a row without moving. */
  stillFrames: number;
  /** First sighting, ms, and where (pixels; absent in older saved states). */
  bornMs?: number;
  bornAt?: { x: number; y: number };
  /** Zone of the latest sighting (a card that vanished in its Nerts zone is covered, not gone). */
  zone?: string;
  /** Seen outside its origin's seat since it began (in the centre, between zones, in another seat). */
  wentOut?: boolean;
  /** Where it last came to rest (pixels), and when it landed there (its last moving sighting), ms. */
  rest?: { x: number; y: number; landedMs: number } | null;
  /**
   * Where and when it came into the neighbourhood it lies in now (within pileRadiusCards of a
   * card's length of that first sighting), pixels and ms: a card slowing over a pile came there
   * when the pile first showed it, a few frames before it came to rest.
   */
  arrival?: { x: number; y: number; atMs: number };
  /**
   * Where it was before its latest sighting, when that sighting was a jump of more than half a
   * card: perhaps another card misread as it, so the next sighting may find it back there.
   */
  jumpedFrom?: { x: number; y: number } | null;
}

/** A play seen landing whose owner is decided a little later (see attributionDelayMs). */
export interface PendingPlay {
  foundationId: string;
  code: CardCode;
  newPile: boolean;
  landMs: number;
  decideAtMs: number;
  /** Seats the code had lately left when it landed: player id and when last seen there, ms. */
  candidates: Array<{ playerId: string; seenMs: number }>;
  /** Seats where a card read as a likely runner-up of this code lay lately (see maybeSeenShare); absent in older saved states. */
  maybe?: Array<{ playerId: string; seenMs: number }>;
  /** False for a card that may not go there (reported once; the pile keeps its legal top). */
  legal: boolean;
  /** The owner read off the first copy's track that landed there (see CardTrack), when known. */
  trackOwner?: string;
  /** That track's id (see ownRestingCopies: two copies' tracks found swapped before the play is decided change its owner). */
  trackId?: number;
  /** Filled in under the card seen (its own landing was never seen), so the hands over the pile then say nothing of who played it. */
  unseen?: boolean;
}

/** A candidate new pile (a card seen where no pile is), waiting for enough votes. */
interface PileCandidate {
  center: Point;
  cardSizePx: number;
  votes: Vote[];
  reportedIllegal: CardCode | null;
  /** The reading its votes decide, and since when without a break, ms (see decidedFor). */
  steady?: { code: CardCode; sinceMs: number } | null;
}

/** Per seat: what the camera shows of the Nerts pile and which codes were lately visible there. */
export interface TrackedSeat {
  seat: number;
  playerId: string;
  /** The mean image position (px) of the cards seen in this seat's zones, over up to SEAT_HOME_FRAMES frames: where the player's side of the table lies. Replaced, never changed in place. */
  home?: { x: number; y: number; frames: number };
  nertsSize: number;
  nertsTop: CardCode | null;
  /** Distinct tops the Nerts pile has shown (cards only ever leave it). */
  nertsSeen: CardCode[];
  nertsLeft: number;
  nertsVotes: Vote[];
  /** The pile's tops by look, for tops that cannot be named (see nerts-looks.ts); absent in older saved states. */
  nertsLooks?: NertsLooks;
  /**
   * Breaks on the Nerts pile: when a face was last seen on it (ms), and whether the pile has been
   * open (no face for nertsBreakMs) since the latest new top by name and by look. A new top needs
   * one: the player's hand took the card and turned the next. `gone`: the pile's back showed
   * since the latest new card (that card left; the next top is a new card unless it is that one
   * come back). `topElsewhere`: the top's name and when it was last seen off the pile. Absent in
   * older saved states.
   */
  nertsBreak?: { lastFaceMs: number; name: boolean; look: boolean; newTopMs?: number; lookTopMs?: number; gone?: boolean; movedOff?: CardCode | null; topElsewhere?: { code: CardCode; atMs: number } };
  emptySinceMs: number | null;
  emptyFrames: number;
  /** Code → last time it was seen face up anywhere in this seat's zones (confirmed by a repeat), ms. */
  lastSeen: Record<string, number>;
  /** Code → last raw sighting, confirmed or not, ms. */
  rawSeen?: Record<string, number>;
  /** Code → last time a card there was read with this code as a likely runner-up (see maybeSeenShare), ms. */
  maybeSeen?: Record<string, number>;
  /** Where the Nerts pile lies in the image (from its sure readings), px; absent until one. */
  nertsAt?: Point;
  /** New Nerts tops shown lately: their previous top had left (one departure explains one play). */
  nertsDepartures?: NertsDeparture[];
  /** Nerts pile seen empty: the call follows when its last card lands (`landedMs`) or after callWaitMs. */
  callPending?: {
    sinceMs: number;
    lastCard: CardCode | null;
    landedMs: number | null;
    leftBefore?: number;
    /** A sure face seen on the pile since: its code, since when, in how many frames (see pendingFaceFrames). */
    faceOn?: { code: CardCode; sinceMs: number; frames: number };
  } | null;
}

/** A Nerts pile's top that left: when the next showed (ms), and its name when it had one. */
export interface NertsDeparture {
  atMs: number;
  card?: CardCode;
}

/** One frame's moving blobs that touched a seat: the seats, and the cells' centres as flat x, y pixels. */
export interface MotionFrame {
  atMs: number;
  blobs: Array<{ seats: number[]; cells: number[]; cellSize: number }>;
}

/** A dispute awaiting or past its automatic ruling. */
export interface TrackedDispute {
  id: string;
  foundationId: string;
  first: { player: string; card: CardCode };
  second: { player: string; card: CardCode };
}

/** Everything the tracker remembers; plain JSON. */
export interface TrackerState {
  piles: TrackedPile[];
  candidates: PileCandidate[];
  seats: TrackedSeat[];
  disputes: TrackedDispute[];
  pending: PendingPlay[];
  /** Owners decided for the latest plays and when each landed, ms (see oneHandGapMs); absent in older saved states. */
  recentOwners?: Array<{ player: string; landMs: number }>;
  /** Per player, the plays given them with no evidence at all this hand (they are spread evenly); absent in older saved states. */
  blindGuesses?: Record<string, number>;
  /** Code → the current run of sightings of that code in the centre off its own pile (a card in flight or landing), ms. */
  flights: Record<string, { startMs: number; lastMs: number; movingMs?: number }>;
  /** Code → its latest sightings in the centre (image px, ms): only a card lying still votes (see stillCards). */
  centreSightings?: Record<string, Array<{ x: number; y: number; timeMs: number }>>;
  /** Every face-up card followed across frames (see CardTrack). */
  tracks?: CardTrack[];
  /** Recent motion that touched a seat (see FrameObservations.motion), newest last: who reached where. */
  motion?: MotionFrame[];
  /** Whether the frames report motion at all (a recogniser does; ground-truth observations may not). */
  motionReported?: boolean;
  nextTrackId?: number;
  nextPileNumber: number;
  nextDisputeNumber: number;
  called: boolean;
  /** Who called, once known (the camera's own call or a manual one naming the player). */
  caller?: string;
  /** When the call was heard (the camera's own call, else a manual one's time; absent in older saved states), ms. */
  calledAtMs?: number;
  lastPlayMs: number | null;
  /** Latest landing time of a play accepted onto a pile, ms. */
  lastLandingMs?: number | null;
  stallRaised: boolean;
  lastFrameMs: number | null;
  frames: number;
}

/** Fresh state for a new hand. */
export function initialTrackerState(config: Pick<TrackerConfig, 'players'>): TrackerState {
  return {
    piles: [],
    candidates: [],
    seats: config.players.map((p) => ({
      seat: p.seat,
      playerId: p.playerId,
      nertsSize: p.nertsPileSize,
      nertsTop: null,
      nertsSeen: [],
      nertsLeft: p.nertsPileSize,
      nertsVotes: [],
      emptySinceMs: null,
      emptyFrames: 0,
      lastSeen: {},
    })),
    disputes: [],
    pending: [],
    flights: {},
    nextPileNumber: 1,
    nextDisputeNumber: 1,
    called: false,
    lastPlayMs: null,
    stallRaised: false,
    lastFrameMs: null,
    frames: 0,
  };
}

function cloneRace(race: RaceWatch): RaceWatch {
  return {
    ...race,
    away: { ...race.away },
    landers: { ...(race.landers ?? {}) },
    losers: [...(race.losers ?? [])],
    ...(race.awayFlying ? { awayFlying: { ...race.awayFlying } } : {}),
    ...(race.backFrames ? { backFrames: { ...race.backFrames } } : {}),
    ...(race.byLanding ? { byLanding: race.byLanding.map((ruling) => ({ ...ruling })) } : {}),
    ...(race.vanishedNear ? { vanishedNear: { ...race.vanishedNear } } : {}),
    ...(race.leftWhileShown ? { leftWhileShown: { ...race.leftWhileShown } } : {}),
  };
}

/**
 * Copies everything `step` may change (a structuredClone of the whole state costs more than the
 * step itself). Votes and flights are replaced, never edited, so their entries are shared.
 */
function cloneState(s: TrackerState): TrackerState {
  return {
    ...s,
    piles: s.piles.map((p) => ({
      ...p,
      center: [p.center[0], p.center[1]],
      votes: [...p.votes],
      cards: p.cards.map((c) => ({ ...c })),
      rivals: [...p.rivals],
      race: p.race ? cloneRace(p.race) : p.race,
      ...(p.earlierRaces ? { earlierRaces: p.earlierRaces.map(cloneRace) } : {}),
    })),
    candidates: s.candidates.map((c) => ({ ...c, center: [c.center[0], c.center[1]], votes: [...c.votes] })),
    seats: s.seats.map((seat) => ({
      ...seat,
      nertsSeen: [...seat.nertsSeen],
      nertsVotes: [...seat.nertsVotes],
      lastSeen: { ...seat.lastSeen },
      rawSeen: { ...(seat.rawSeen ?? {}) },
      maybeSeen: { ...(seat.maybeSeen ?? {}) },
      nertsDepartures: (seat.nertsDepartures ?? []).map((d) => ({ ...d })),
      callPending: seat.callPending ? { ...seat.callPending } : seat.callPending,
      ...(seat.nertsBreak ? { nertsBreak: { ...seat.nertsBreak } } : {}),
    })),
    disputes: s.disputes.map((d) => ({ ...d, first: { ...d.first }, second: { ...d.second } })),
    pending: s.pending.map((p) => ({ ...p, candidates: p.candidates.map((c) => ({ ...c })), maybe: (p.maybe ?? []).map((c) => ({ ...c })) })),
    flights: { ...s.flights },
    centreSightings: { ...(s.centreSightings ?? {}) },
    tracks: (s.tracks ?? []).map((t) => ({ ...t })),
    motion: [...(s.motion ?? [])],
    recentOwners: (s.recentOwners ?? []).map((o) => ({ ...o })),
    ...(s.blindGuesses ? { blindGuesses: { ...s.blindGuesses } } : {}),
  };
}

/** A tracker decision: the event plus the frame time that decided it (ms). */
export interface TimedEvent {
  timeMs: number;
  event: TableEvent;
}

/**
 * Per seat, the surest face with a look on its Nerts pile this frame, at any confidence (such
 * faces come below the confidence floor too).
 */
function lookedTops(cards: readonly CardObservation[]): Map<number, CardObservation[]> {
  const looked = new Map<number, CardObservation[]>();
  for (const card of cards) {
    if (card.kind !== 'face' || !card.look) continue;
    const zone = parseZone(card.zone);
    if (zone?.area !== 'seat' || zone.part !== 'nerts') continue;
    looked.set(zone.seat, [...(looked.get(zone.seat) ?? []), card]);
  }
  return looked;
}

/**
 * The top of a Nerts pile among the faces seen on it: the surest of those lying where the pile
 * has been seen surely (`at`), else the surest of all. A pile's zone can also hold a stray
 * outline (part of a neighbouring work pile, a pip group) with a look and name of its own.
 */
function pileTop(faces: readonly CardObservation[], at: Point | undefined): CardObservation | undefined {
  const surest = (list: readonly CardObservation[]) => [...list].sort((a, b) => b.confidence - a.confidence)[0];
  if (!at) return surest(faces);
  const inPlace = faces.filter((card) => {
    const [x, y] = quadCentre(card.corners);
    return Math.hypot(x - at[0], y - at[1]) <= NERTS_PLACE_CARDS * cardHeightPx(card.corners);
  });
  return surest(inPlace.length > 0 ? inPlace : faces);
}

/**
 * Whether a back lies on a Nerts pile (its face-down next card: the top was just taken): within
 * half a card's length of where the pile lies (`at`), or anywhere in its zone before that is known.
 */
function backOnPile(seen: readonly CardObservation[], at: Point | undefined): boolean {
  return seen.some((card) => {
    if (card.kind !== 'back') return false;
    if (!at) return true;
    const [x, y] = quadCentre(card.corners);
    return Math.hypot(x - at[0], y - at[1]) <= cardHeightPx(card.corners) / 2;
  });
}

/** A Nerts pile's top lies within this many card lengths of where the pile was seen surely. */
const NERTS_PLACE_CARDS = 0.3;

/** Parsed zone id. */
export function parseZone(zone: string | undefined): { area: 'centre' } | { area: 'seat'; seat: number; part: string } | null {
  if (!zone) return null;
  if (zone === 'centre' || zone.startsWith('centre')) return { area: 'centre' };
  const match = /^seat-(\d+)(?:\/(\w+))?/.exec(zone);
  if (!match) return null;
  return { area: 'seat', seat: Number(match[1]), part: match[2] ?? 'seat' };
}


function cardHeightPx(corners: CardObservation['corners']): number {
  return Math.max(quadLongSide(corners), 1);
}

/** `code`'s rank in `suit`. */
function inSuit(code: CardCode, suit: Suit): CardCode {
  return `${parseCard(code).rank}${suit}` as CardCode;
}

/**
 * The suit a pile really has when `reading` (decided by the votes) shows its suit was misread: at
 * webcam size an ace of spades passes for the ace of clubs, and the pile then refuses every
 * spade after it. Only a young pile is revised (suitRevisionMaxCards), by a sure reading of its
 * top's rank or up to three ahead in another suit, and only when the recogniser itself, before the
 * pile's prior (see readings.ts), was surer of the new suit on this pile than of the old one
 * (so an illegal card of another suit put on a pile whose suit was read surely leaves it as it was).
 */
function misreadSuit(state: TrackerState, pile: TrackedPile, reading: CardCode, config: TrackerConfig): Suit | null {
  const top = pile.cards.at(-1)?.code;
  const suit = suitOf(reading);
  // Each deck has one card of each suit's ace: no suit has more piles than there are decks. A
  // pile never takes a suit that is full; in a suit with too many piles, one of any size may leave.
  if (!top || pilesOfSuit(state, suit) >= config.players.length) return null;
  // An older pile only when its suit is overfull, or the reading is in the look-alike suit and
  // the pile's readings together do not say otherwise (see pile-suit.ts).
  const young = pile.cards.length <= config.suitRevisionMaxCards;
  const overfull = pilesOfSuit(state, suitOf(top)) > config.players.length;
  const leansTwin = suit === TWIN_SUIT[suitOf(top)] && pile.suitLean !== undefined && twinLean(pile.suitLean, suitOf(top)).lean >= config.twinSuitLeanWhenSure;
  if (!young && !overfull && !leansTwin) return null;
  // The top itself, or a card up to three ahead, read in another suit.
  if (suit === suitOf(top) || (reading !== inSuit(top, suit) && !cardsBetween(inSuit(top, suit), reading))) return null;
  if (!hasSureVote(pile.votes, reading, config)) return null;
  // The recogniser must have been surer of the new suit than of the old one on this pile.
  return (pile.suitSeen?.[suit] ?? 0) > (pile.suitSeen?.[suitOf(top)] ?? 0) ? suit : null;
}

/** How many piles (open or completed) the tracker has of `suit`. */
function pilesOfSuit(state: TrackerState, suit: Suit): number {
  return state.piles.filter((pile) => pile.cards.length > 0 && suitOf(pile.cards[0].code) === suit).length;
}

/**
 * The look-alike suit a pile's readings together say it has (see pile-suit.ts), when they say so
 * strongly enough over enough cards and that suit has room for another pile; else null.
 */
function twinSuitByLean(state: TrackerState, pile: TrackedPile, config: TrackerConfig): Suit | null {
  if (pile.completed || pile.cards.length === 0 || !pile.suitLean) return null;
  const suit = suitOf(pile.cards[0].code);
  const twin = TWIN_SUIT[suit];
  const { lean, cards } = twinLean(pile.suitLean, suit);
  if (cards < config.twinSuitMinCards || lean < config.twinSuitLean) return null;
  if (pilesOfSuit(state, twin) >= config.players.length && pilesOfSuit(state, suit) <= config.players.length) return null;
  return twin;
}

/** Gives `pile` the suit `suit` and tells the rules (see revisePileSuit, reownRevised). */
function reviseSuit(state: TrackerState, pile: TrackedPile, suit: Suit, reason: string, emit: Emit): void {
  revisePileSuit(state, pile, suit);
  const owners = reownRevised(state, pile);
  // Plays still waiting for their owner go out in the new suit; the rules hear of the rest.
  if (pile.cards.some((card) => card.player !== '')) emit({ type: 'pile-revised', foundationId: pile.id, suit, reason, ...(owners.length ? { owners } : {}) });
}

/**
 * A new pile's first card in a suit that has room: as read, or else in its look-alike suit (an
 * ace of spades read as the ace of clubs while every club pile is already down).
 */
function roomyStart(state: TrackerState, code: CardCode, config: TrackerConfig): CardCode {
  const full = (suit: Suit) => pilesOfSuit(state, suit) >= config.players.length;
  const twin = TWIN_SUIT[suitOf(code)];
  return full(suitOf(code)) && !full(twin) ? inSuit(code, twin) : code;
}

/** Gives a pile's cards (and the plays still waiting for their owner there) the suit `suit`. */
function revisePileSuit(state: TrackerState, pile: TrackedPile, suit: Suit): void {
  for (const card of pile.cards) card.code = inSuit(card.code, suit);
  for (const play of state.pending) if (play.foundationId === pile.id && play.legal) play.code = inSuit(play.code, suit);
  for (const race of [pile.race, ...(pile.earlierRaces ?? [])]) if (race) race.code = inSuit(race.code, suit);
  pile.reportedIllegal = null;
}

/**
 * After a pile took another suit (revisePileSuit): each of its cards whose owner now holds that
 * card twice in the centre (each deck has one copy) goes to the one player who does not hold it
 * yet, else to the seat among those that showed it last; the owners were chosen for a card that
 * was not there. With no such seat it keeps its owner: taking the card from them (to nobody)
 * made the counts worse on five recordings (a wrong owner is often cancelled by another
 * misplaced card, a card owned by nobody never is). Returns the changes (pile card, new owner).
 */
function reownRevised(state: TrackerState, pile: TrackedPile): Array<{ card: CardCode; player: string }> {
  const changes: Array<{ card: CardCode; player: string }> = [];
  for (const card of pile.cards) {
    if (card.player === '') continue;
    const holders = new Set(state.piles.filter((p) => p !== pile).flatMap((p) => p.cards.filter((c) => c.code === card.code && c.player !== '').map((c) => c.player)));
    if (!holders.has(card.player)) continue;
    const free = state.seats.filter((seat) => !holders.has(seat.playerId));
    const shown = free.filter((seat) => seat.lastSeen[card.code] !== undefined).sort((a, b) => b.lastSeen[card.code]! - a.lastSeen[card.code]!);
    const owner = free.length === 1 ? free[0] : shown[0];
    if (!owner) continue;
    card.player = owner.playerId;
    changes.push({ card: card.code, player: owner.playerId });
  }
  return changes;
}

/**
 * The open pile a centre card lies on, if any: among the piles within pileRadiusCards, the one
 * the game most expects the card on (its top or next card before one it would skip to; see
 * pilePrior), then the nearest. Two piles can lie half a card apart, and a card landing on one
 * would otherwise be read on the other as a card further ahead.
 */
function pileUnder(state: TrackerState, card: CardObservation, config: TrackerConfig): TrackedPile | null {
  const center = quadCentre(card.corners);
  const size = cardHeightPx(card.corners);
  let best: TrackedPile | null = null;
  let bestScore = -Infinity;
  let bestDistance = Infinity;
  for (const pile of state.piles) {
    if (pile.completed && !(card.code && underItsKing(pile) === card.code)) continue;
    const distance = Math.hypot(pile.center[0] - center[0], pile.center[1] - center[1]);
    if (distance >= config.pileRadiusCards * Math.max(size, pile.cardSizePx)) continue;
    const score = card.code ? pilePrior(pile.cards.at(-1)?.code, card.code, config) : 0;
    if (score > bestScore || (score === bestScore && distance < bestDistance)) {
      best = pile;
      bestScore = score;
      bestDistance = distance;
    }
  }
  return best;
}

/** A completed pile's queen, the card under its king; null for a pile not completed by a king. */
function underItsKing(pile: TrackedPile): CardCode | null {
  const top = pile.cards.at(-1)?.code;
  return pile.completed && top && rankValue(top) === 13 ? (pile.cards.at(-2)?.code ?? null) : null;
}

/** The winning reading of a vote list, if it has enough support; `undefined` = no decision. */
function tally(allVotes: Vote[], config: TrackerConfig): { code: CardCode | null } | undefined {
  const votes = allVotes.slice(-config.voteFrames);
  if (votes.length < config.minFrames) return undefined;
  const weights = new Map<CardCode | null, { weight: number; frames: number }>();
  let total = 0;
  for (const vote of votes) {
    const entry = weights.get(vote.code) ?? { weight: 0, frames: 0 };
    entry.weight += vote.weight;
    entry.frames += 1;
    weights.set(vote.code, entry);
    total += vote.weight;
  }
  let best: { code: CardCode | null; weight: number; frames: number } | null = null;
  for (const [code, entry] of weights) if (!best || entry.weight > best.weight) best = { code, ...entry };
  if (!best || best.frames < config.minFrames || best.weight < config.voteShare * total) return undefined;
  return { code: best.code };
}

/**
 * When a card landed, ms: its last sighting still moving (the hand that put it down then covers
 * it, so the first still sighting can come much later), if that flight ended shortly before it
 * was first seen lying still; otherwise that first still sighting. The rules compare plays with
 * the call to the millisecond.
 */
function landedAt(state: TrackerState, code: CardCode, firstStillMs: number, config: TrackerConfig): number {
  const moving = state.flights[code]?.movingMs;
  return moving !== undefined && moving <= firstStillMs && firstStillMs - moving <= config.flightGapMs ? moving : firstStillMs;
}

/**
 * A card first seen on a pile after the call, when the pile's top before it was not seen since
 * the call either: it landed under a hand, unseen, and play stops at the call, so it is taken to
 * have landed just before it (at the end of a hand hands cover the centre; cards they uncover
 * after the call were otherwise all refused as played after it). A top seen after the call and
 * then covered keeps the landing time seen.
 */
function landedBeforeCall(state: TrackerState, pile: TrackedPile, landMs: number): number {
  const callMs = state.calledAtMs;
  if (callMs === undefined || landMs < callMs) return landMs;
  const top = pile.cards.at(-1)?.code;
  const topSeenSinceCall = pile.votes.some((vote) => vote.code === top && vote.timeMs >= callMs);
  return topSeenSinceCall ? landMs : callMs - 1;
}

/**
 * A pile gone from view since the call was gathered for the score sort, not completed and set
 * aside: play stops at the call, so its missing cards were never played. Only a king seen landing
 * on it before the call still completes it (the king's play keeps its landing). Without this the
 * sort's gathering had the rules refuse a queen and king "played after the call" on most hands
 * (bench:tracker: 95 of 101 false alarms).
 */
function gatheredAfterCall(state: TrackerState, pile: TrackedPile): boolean {
  const callMs = state.calledAtMs;
  if (callMs === undefined || pile.missingSinceMs == null || pile.missingSinceMs < callMs) return false;
  return !(pile.kingLander && pile.kingLander.landedMs < callMs);
}

/** When a reading was first seen among the current votes, ms. */
function firstSeen(votes: Vote[], code: CardCode): number {
  return votes.find((vote) => vote.code === code)?.timeMs ?? Infinity;
}

/** Whether one of the votes read `code` at least as surely as sureNameConfidence. */
function hasSureVote(votes: readonly Vote[], code: CardCode, config: TrackerConfig): boolean {
  return votes.some((vote) => vote.code === code && vote.weight >= config.sureNameConfidence);
}

function pruneVotes(votes: Vote[], nowMs: number, config: TrackerConfig): Vote[] {
  return votes.filter((vote) => nowMs - vote.timeMs <= config.voteWindowMs);
}

function nextInSuit(top: CardCode | undefined, code: CardCode): boolean {
  if (!top) return rankValue(code) === 1;
  return suitOf(top) === suitOf(code) && rankValue(code) === rankValue(top) + 1;
}

/** Reports an event decided at this frame, at the time the change was first seen (ms). */
type Emit = (event: TableEvent, atMs?: number) => void;

/**
 * One frame in: returns the new state and the events decided at this frame. Pure. The frame's
 * cards are sorted by where they lie (readFrame), every face is followed (updateTracks), then
 * the Nerts piles (followNertsPiles) and the centre piles (followCentre) are updated; plays
 * whose owner is due are decided, races watched, and a stall raised.
 */
export function step(previous: TrackerState, frame: FrameObservations, config: TrackerConfig): { state: TrackerState; events: TimedEvent[] } {
  const state: TrackerState = cloneState(previous);
  const now = frame.timestampMs;
  const events: TimedEvent[] = [];
  // Events carry the time the change was first seen (a card's landing, a pile going empty), not
  // the later frame that confirmed it: the rules compare plays with the call to the millisecond.
  const emit = (event: TableEvent, atMs = now) => events.push({ timeMs: Math.min(atMs, now), event });
  if (state.lastFrameMs !== null && now < state.lastFrameMs) return { state: previous, events }; // out of order: ignore
  state.lastFrameMs = now;
  state.frames += 1;

  rememberMotion(state, frame, now, config);
  // Where each seat's side lies matters only to telling arms by where they reach.
  if (config.reachByArm) noteSeatHomes(state, frame);
  const sight = readFrame(state, frame, now, config);
  updateTracks(state, sight.usable, now, config);
  followNertsPiles(state, frame, sight, now, config, emit);
  followCentre(state, frame, sight, now, config, emit);
  resolvePending(state, now, config, emit, false);
  for (const pile of state.piles) watchRaces(state, pile, sight.centreCards, sight.seenInSeat, now, config, emit);
  ownRestingCopies(state, now, config, emit);

  // --- Stall: nothing played for a while.
  const since = state.lastPlayMs ?? null;
  if (since !== null && !state.called && !state.stallRaised && now - since >= config.stallMs) {
    state.stallRaised = true;
    emit({ type: 'stall', sinceMs: since });
  }
  return { state, events };
}

/** Keeps this frame's moving blobs that touched a seat (an arm reaching from a player's side), with reachByArm every blob, for motionKeepMs. */
function rememberMotion(state: TrackerState, frame: FrameObservations, now: number, config: TrackerConfig): void {
  const kept = (state.motion ?? []).filter((m) => now - m.atMs <= config.motionKeepMs);
  // With reachByArm a blob touching no seat zone is an arm too: where it reaches says whose.
  const blobs = (frame.motion ?? [])
    .filter((blob) => blob.seats.length > 0 || config.reachByArm)
    .map((blob) => ({ seats: blob.seats, cells: blob.cells.flatMap(([x, y]) => [Math.round(x), Math.round(y)]), cellSize: blob.cellSize }));
  if (blobs.length > 0) kept.push({ atMs: now, blobs });
  state.motion = kept;
  if (frame.motion !== undefined) state.motionReported = true;
}

/** Frames a seat's home is averaged over (see TrackedSeat.home): it follows a camera nudged mid-hand within about 10 s. */
const SEAT_HOME_FRAMES = 300;

/** Moves each seat's home towards the mean position of this frame's cards in its zones. */
function noteSeatHomes(state: TrackerState, frame: FrameObservations): void {
  const sums = new Map<number, { x: number; y: number; count: number }>();
  for (const card of frame.cards) {
    const zone = parseZone(card.zone);
    if (zone?.area !== 'seat') continue;
    const [x, y] = quadCentre(card.corners);
    const sum = sums.get(zone.seat) ?? { x: 0, y: 0, count: 0 };
    sums.set(zone.seat, { x: sum.x + x, y: sum.y + y, count: sum.count + 1 });
  }
  for (const seat of state.seats) {
    const sum = sums.get(seat.seat);
    if (!sum) continue;
    const frames = Math.min((seat.home?.frames ?? 0) + 1, SEAT_HOME_FRAMES);
    const [x, y] = [sum.x / sum.count, sum.y / sum.count];
    seat.home = seat.home ? { x: seat.home.x + (x - seat.home.x) / frames, y: seat.home.y + (y - seat.home.y) / frames, frames } : { x, y, frames };
  }
}

/** A cell counts towards a seat's reach when it lies within this angle of the direction from the pile to the seat's home, radians. */
const ARM_CONE_RAD = (30 * Math.PI) / 180;
/** Seats reached at least this share as far as the farthest-reached one share the blob (two arms merged over a pile). */
const ARM_SHARE = 0.6;

/**
 * The seats whose arm a blob over `point` is (see reachByArm): for each seat with a home, how far
 * the blob's cells stretch from the point towards that home (cells within ARM_CONE_RAD of the
 * direction); the seats reached at least ARM_SHARE as far as the farthest. Null when no seat is
 * reached a cell's length, or fewer than two seats have a home (nothing to tell apart).
 */
function armSeats(state: TrackerState, blob: { cells: number[]; cellSize: number }, point: Point): number[] | null {
  const homes = state.seats.filter((seat) => seat.home);
  if (homes.length < 2) return null;
  const cosCone = Math.cos(ARM_CONE_RAD);
  const extents = homes.map((seat) => {
    const [ux, uy] = [seat.home!.x - point[0], seat.home!.y - point[1]];
    const norm = Math.hypot(ux, uy) || 1;
    let extent = 0;
    for (let i = 0; i < blob.cells.length; i += 2) {
      const [vx, vy] = [blob.cells[i] - point[0], blob.cells[i + 1] - point[1]];
      const length = Math.hypot(vx, vy);
      if (length < blob.cellSize / 2) continue;
      const along = (vx * ux + vy * uy) / norm;
      if (along >= cosCone * length) extent = Math.max(extent, along);
    }
    return { seat: seat.seat, extent };
  });
  const farthest = Math.max(...extents.map((e) => e.extent));
  if (farthest < blob.cellSize) return null;
  return extents.filter((e) => e.extent >= ARM_SHARE * farthest).map((e) => e.seat);
}

/**
 * How much each seat's hand reached `point` (image px) around `landMs`: per player, the frames in
 * which a moving blob touching their seat covered the point (within `slackPx`), weighted by
 * when (see reachFocusMs) and shared among the seats a blob touched. The hand that puts a card
 * down is there as it lands, its arm reaching back to its player's side of the table.
 */
function reachesAt(state: TrackerState, point: Point, slackPx: number, landMs: number, config: TrackerConfig): Map<string, number> {
  const weigh = (atMs: number, seats: number) => {
    const focused = atMs >= landMs - config.reachFocusMs && atMs <= landMs;
    return (focused ? 1 : config.reachOutsideWeight) / seats;
  };
  const reaches = reachesBetween(state, point, slackPx, landMs - config.reachBeforeMs, landMs + config.reachAfterMs, config.reachByArm, weigh);
  return new Map([...reaches].map(([playerId, reach]) => [playerId, reach.weight]));
}

/** One player's hand over a point in a span of frames (see reachesBetween). */
interface Reach {
  frames: number;
  firstMs: number;
  /** The frames' total weight. */
  weight: number;
}

/**
 * Per player, the frames from `fromMs` to `toMs` in which their hand covered `point` (see
 * reachesAt), the first of them, and those frames' total weight by `weigh` (of the frame's time
 * and how many seats the arm is; 1 each by default). `byArm`: whose arm by where it reaches
 * (TrackerConfig.reachByArm).
 */
function reachesBetween(
  state: TrackerState,
  point: Point,
  slackPx: number,
  fromMs: number,
  toMs: number,
  byArm: boolean,
  weigh: (atMs: number, seats: number) => number = () => 1,
): Map<string, Reach> {
  const reaches = new Map<string, Reach>();
  for (const motion of state.motion ?? []) {
    if (motion.atMs < fromMs || motion.atMs > toMs) continue;
    // The blob with the cell nearest the point (within reach) is the hand there in this frame.
    let nearest: { blob: MotionFrame['blobs'][number]; distance: number } | null = null;
    for (const blob of motion.blobs) {
      const half = blob.cellSize / 2 + slackPx;
      for (let i = 0; i < blob.cells.length; i += 2) {
        const [dx, dy] = [Math.abs(blob.cells[i] - point[0]), Math.abs(blob.cells[i + 1] - point[1])];
        if (dx > half || dy > half) continue;
        const distance = Math.hypot(dx, dy);
        if (!nearest || distance < nearest.distance) nearest = { blob, distance };
      }
    }
    if (!nearest) continue;
    // Whose arm it is: where it reaches (reachByArm), else the seats whose zones it touches.
    const seats = (byArm ? armSeats(state, nearest.blob, point) : null) ?? nearest.blob.seats;
    if (seats.length === 0) continue;
    const weight = weigh(motion.atMs, seats.length);
    for (const seat of seats) {
      const playerId = state.seats.find((s) => s.seat === seat)?.playerId;
      if (!playerId) continue;
      const reach = reaches.get(playerId) ?? { frames: 0, firstMs: motion.atMs, weight: 0 };
      reach.frames += 1;
      reach.weight += weight;
      reaches.set(playerId, reach);
    }
  }
  return reaches;
}

/** One frame's cards sorted by where they lie, after the confidence floor (see readFrame). */
interface Sighting {
  /** Cards at or above the floor, centre cards read in the light of their pile. */
  usable: CardObservation[];
  /** Faces in the centre. */
  centreCards: CardObservation[];
  /** Per seat: what lies on its Nerts pile, and the faces anywhere in its area. */
  nertsObserved: Map<number, CardObservation[]>;
  seenInSeat: Map<number, CardObservation[]>;
  /** What the recogniser itself said of a centre card the pile's prior read otherwise. */
  rawReading: Map<CardObservation, CardObservation>;
  /** Faces in the centre with a look, at any confidence (see pile-looks.ts). */
  lookedCentre: CardObservation[];
  /**
   * Per pile id, the surest face the recogniser itself read lying on it, before the pile's prior
   * and any confidence floor: a 7S read at 0.86 on a pile taken for clubs becomes a 7C at 0.1 and
   * is dropped, yet says the most about the pile's suit (see pile-suit.ts).
   */
  rawOnPile: Map<string, CardObservation>;
}

/**
 * Sorts a frame's cards by where they lie and notes the seats' sightings (a code seen twice in a
 * moment counts as seen there; a close runner-up as maybe seen). Centre cards are read in the
 * light of the pile they lie on (see readings.ts).
 */
function readFrame(state: TrackerState, frame: FrameObservations, now: number, config: TrackerConfig): Sighting {
  // What the recogniser itself said of a centre card read otherwise in the light of its pile.
  const rawReading = new Map<CardObservation, CardObservation>();
  const rawOnPile = new Map<string, CardObservation>();
  const expected = new Set<CardObservation>();
  const usable = frame.cards
    .map((card) => {
      if (parseZone(card.zone)?.area !== 'centre') return card;
      const pile = pileUnder(state, card, config);
      const top = pile?.cards.at(-1)?.code;
      if (pile && card.kind === 'face' && card.code && card.confidence > (rawOnPile.get(pile.id)?.confidence ?? -1)) rawOnPile.set(pile.id, card);
      const read = readWithPrior(card, (code) => pilePrior(top, code, config), config);
      if (read !== card) rawReading.set(read, card);
      if (pile && read.kind === 'face' && read.code && pilePrior(top, read.code, config) === 1) expected.add(read);
      return read;
    })
    .filter((card) => card.confidence >= (expected.has(card) ? Math.min(config.minConfidence, config.expectedCardMinConfidence) : config.minConfidence));
  const centreCards: CardObservation[] = [];
  const seatByIndex = new Map(state.seats.map((seat) => [seat.seat, seat]));
  const nertsObserved = new Map<number, CardObservation[]>();
  const seenInSeat = new Map<number, CardObservation[]>();

  for (const card of usable) {
    const zone = parseZone(card.zone);
    if (!zone) continue;
    if (zone.area === 'centre') {
      if (card.kind === 'face' && card.code) centreCards.push(card);
      continue;
    }
    const seat = seatByIndex.get(zone.seat);
    if (!seat) continue;
    if (card.kind === 'face' && card.code) {
      // A sighting counts once repeated within a moment: a one-frame misread names no card.
      seat.rawSeen ??= {};
      const previous = seat.rawSeen[card.code];
      seat.rawSeen[card.code] = now;
      if (previous !== undefined && now - previous <= config.sightingRepeatMs) seat.lastSeen[card.code] = now;
      for (const alternative of card.alternatives?.slice(1) ?? []) if (alternative.p >= config.maybeSeenShare) (seat.maybeSeen ??= {})[alternative.code] = now;
      const list = seenInSeat.get(zone.seat) ?? [];
      list.push(card);
      seenInSeat.set(zone.seat, list);
    }
    if (zone.part === 'nerts') {
      const list = nertsObserved.get(zone.seat) ?? [];
      list.push(card);
      nertsObserved.set(zone.seat, list);
    }
  }

  const lookedCentre = frame.cards.filter((card) => card.kind === 'face' && card.look && parseZone(card.zone)?.area === 'centre');
  return { usable, centreCards, nertsObserved, seenInSeat, rawReading, lookedCentre, rawOnPile };
}

/** Nerts piles: the top card's changes count cards leaving; a pile seen empty is the call. */
function followNertsPiles(state: TrackerState, frame: FrameObservations, { usable, nertsObserved, seenInSeat }: Sighting, now: number, config: TrackerConfig, emit: Emit): void {
  const looks = lookedTops(frame.cards);
  for (const seat of state.seats) {
    const seen = nertsObserved.get(seat.seat) ?? [];
    const face = pileTop(seen.filter((c) => c.kind === 'face' && c.code), seat.nertsAt);
    // The top's look, however unsure its name.
    const looked = pileTop(looks.get(seat.seat) ?? [], seat.nertsAt);
    // Where the pile lies: followed from its sure readings.
    const sureTop = [face, looked].find((card) => card && card.confidence >= config.sureNameConfidence);
    if (sureTop) {
      const [x, y] = quadCentre(sureTop.corners);
      seat.nertsAt = seat.nertsAt ? [seat.nertsAt[0] * 0.8 + x * 0.2, seat.nertsAt[1] * 0.8 + y * 0.2] : [x, y];
    }
    // A new top needs a break first: a moment with no face on the pile, or its top card seen
    // elsewhere (taken to the centre or a work pile).
    const pause = (seat.nertsBreak ??= { lastFaceMs: now, name: true, look: true });
    let lookReturned = false;
    // The top's name seen off the pile is a break when it shows there anew: seen there all along,
    // it is another deck's copy (on a foundation), not this card taken.
    const topElsewhere = seat.nertsTop !== null && usable.some((card) => card.code === seat.nertsTop && card.kind === 'face' && card.zone !== `seat-${seat.seat}/nerts`);
    const seenOffBefore = pause.topElsewhere?.code === seat.nertsTop && now - pause.topElsewhere.atMs <= config.nertsTopElsewhereGapMs;
    // Only while it is the pile's latest card: once the looks counted a card after it (the next
    // top, not yet named), its sighting off the pile says nothing of the top now (3 players seed 2:
    // the 7S, taken 4 s before, showing again on its foundation, opened the pile, and a new look
    // of the JS lying there since counted it twice).
    const topLooks = seat.nertsLooks;
    const topMoved = topElsewhere && !seenOffBefore && (!topLooks || topLooks.tops.length === 0 || latestNames(topLooks).includes(seat.nertsTop ?? ''));
    if (topElsewhere && seat.nertsTop !== null) pause.topElsewhere = { code: seat.nertsTop, atMs: now };
    if (face || looked) {
      if (now - pause.lastFaceMs >= config.nertsBreakMs) pause.name = pause.look = true;
      pause.lastFaceMs = now;
    }
    if (topMoved) {
      pause.name = pause.look = true;
      pause.movedOff = seat.nertsTop;
    }
    // The pile's face-down card showing: its top has just been taken (the next is not turned yet).
    const backShows = backOnPile(seen, seat.nertsAt);
    if (backShows) {
      pause.name = pause.look = true;
      const looks = seat.nertsLooks;
      const since = looks?.cardSinceMs?.at(-1);
      if (!pause.gone && looks && since !== undefined && since !== null && now - since <= config.nertsLiftMs && cardsGoneByLook(looks) > 0) {
        // The card counted a moment ago was the top in the hand, misread: no card gone yet (the
        // next top, after this back, is the one).
        const misread = new Set<string | null>(latestNames(looks));
        seat.nertsLooks = takeBackLatest(looks);
        seat.nertsSeen = seat.nertsSeen.filter((code) => !misread.has(code));
        seat.nertsVotes = seat.nertsVotes.filter((vote) => !misread.has(vote.code));
        if (seat.nertsTop !== null && misread.has(seat.nertsTop)) seat.nertsTop = seat.nertsSeen.at(-1) ?? null;
        seat.nertsDepartures = (seat.nertsDepartures ?? []).filter((departure) => departure.atMs < since);
        lookReturned = true;
      }
      pause.gone = true;
      // Readings of a card never on top before the back showed were of the card on its way up
      // misread, not of the next top: left in, they could name the next top (unseen art, session
      // 32: a lifted 9D read as 9H over three frames, counted as a new top once the back had
      // shown, and the real next top, 9S, counted again 2 s later). The tops' own readings stay.
      seat.nertsVotes = seat.nertsVotes.filter((vote) => vote.code === null || seat.nertsSeen.includes(vote.code));
    }
    // Just after a new top, another is the same card still arriving.
    const settled = pause.newTopMs === undefined || now - pause.newTopMs >= config.nertsMinGapMs;
    if (looked?.look) {
      const sureName = looked.code && looked.confidence >= config.sureNameConfidence ? looked.code : undefined;
      const before = seat.nertsLooks?.tops.length ?? 0;
      // The card before may show again for a while after a new top by look (see addLook).
      const mayReturn = pause.lookTopMs !== undefined && now - pause.lookTopMs <= config.nertsLookReturnMs;
      const added = addLook(
        seat.nertsLooks ?? initialLooks(),
        { look: looked.look, at: quadCentre(looked.corners), cardLength: cardHeightPx(looked.corners), name: sureName, guess: looked.code, timeMs: now },
        { ...DEFAULT_LOOK_TUNING, steadyMs: config.nertsLookSteadyMs },
        { open: pause.look && settled, mayReturn, gone: pause.gone === true, movedOff: pause.movedOff ?? null },
      );
      seat.nertsLooks = added.state;
      if (added.returned) {
        // The departure that new top noted explains no play.
        const takenBack = pause.lookTopMs;
        seat.nertsDepartures = (seat.nertsDepartures ?? []).filter((departure) => departure.atMs !== takenBack);
        pause.lookTopMs = undefined;
        lookReturned = true;
      }
      // A break is used up by the first steady top after it: a card the pile showed before still
      // lying there closes it again (a card lifted off shows a look of its own on the way, no new
      // card; its successor comes after the next break: the pile's back, or a hand over it).
      if (added.steadyKnown && !backShows) {
        pause.look = false;
        // The latest card's own look, steady after its name was seen elsewhere: it is still here (another deck's copy was).
        pause.movedOff = null;
      }
      // The first top, or a new card, closes the pile until the next break.
      if (added.newCard || (before === 0 && added.state.tops.length === 1)) {
        pause.look = false;
        pause.gone = false;
        pause.movedOff = null;
        if (added.newCard) {
          pause.newTopMs = pause.lookTopMs = now;
          noteNertsDeparture(seat, now, config);
        }
      }
    }
    const back = seat.callPending;
    if (back && !state.called) {
      const sure = face?.code && face.confidence >= config.sureNameConfidence ? face.code : null;
      if (sure) back.faceOn = back.faceOn?.code === sure ? { ...back.faceOn, frames: back.faceOn.frames + 1 } : { code: sure, sinceMs: now, frames: 1 };
      const on = back.faceOn;
      if (back.lastCard !== null && face?.code === back.lastCard) {
        // The last Nerts card is back on the pile (it lost a race, or a hand had covered the pile):
        // no call, and the count stands.
        seat.callPending = null;
        seat.nertsTop = back.lastCard;
        seat.nertsLeft = back.leftBefore ?? 1;
      } else if (on && on.code !== back.lastCard && on.frames >= config.pendingFaceFrames && now - on.sinceMs >= config.pendingFaceMs) {
        // Another card stays on the pile: the one counted last left, and the count had been a
        // card short (no card is ever put on a Nerts pile). No call; at least this card is left.
        seat.callPending = null;
        seat.nertsTop = on.code;
        seat.nertsLeft = Math.max(1, (back.leftBefore ?? 1) - 1);
      }
    }
    if (face?.code) seat.nertsVotes.push({ code: face.code, weight: face.confidence, timeMs: now });
    if (face?.code || looked) {
      // A face on the pile, named or not: it is not empty.
      seat.emptySinceMs = null;
      seat.emptyFrames = 0;
    } else if (seen.length === 0) {
      seat.emptySinceMs ??= now;
      seat.emptyFrames += 1;
    }
    seat.nertsVotes = pruneVotes(seat.nertsVotes, now, config);
    const decided = tally(seat.nertsVotes, config);
    if (decided?.code && decided.code !== seat.nertsTop) {
      // A card seen on the pile before may show again (a lost race); a new one needs a break, and
      // one sure reading (unsure tops are counted by look).
      const known = seat.nertsSeen.includes(decided.code);
      const sure = hasSureVote(seat.nertsVotes, decided.code, config);
      if (known || (pause.name && settled && sure)) {
        seat.nertsTop = decided.code;
        if (!known) {
          seat.nertsSeen.push(decided.code);
          pause.name = false;
          // The name joins the looks' cards: it names the latest, or it is a card they missed.
          // Timed from its first reading on the pile: the card showed then (see nertsLiftMs).
          const named = addName(seat.nertsLooks ?? initialLooks(), decided.code, firstSeen(seat.nertsVotes, decided.code), pause.gone === true);
          seat.nertsLooks = named.state;
          if (named.newCard) pause.look = pause.gone = false;
          pause.movedOff = null;
          if (seat.nertsSeen.length > 1) {
            pause.newTopMs = now;
            noteNertsDeparture(seat, now, config, seat.nertsSeen[seat.nertsSeen.length - 2]);
          }
        }
      }
    }
    if (decided?.code && seat.nertsLooks) {
      // The card before the latest read surely again since the latest showed: the latest is no card gone.
      const sureReadings = seat.nertsVotes.filter((vote) => vote.code === decided.code && vote.weight >= config.sureNameConfidence).map((vote) => vote.timeMs);
      const latestSince = seat.nertsLooks.cardSinceMs?.at(-1);
      const again = nameShowsAgain(seat.nertsLooks, decided.code, sureReadings, config.nertsLookReturnMs);
      if (again.returned) {
        seat.nertsLooks = again.state;
        seat.nertsTop = decided.code;
        seat.nertsDepartures = (seat.nertsDepartures ?? []).filter((departure) => latestSince === null || latestSince === undefined || departure.atMs < latestSince);
        lookReturned = true;
      }
    }
    // Cards gone: distinct cards after the first, by look and by name together (see addName).
    const gone = cardsGoneByLook(seat.nertsLooks ?? initialLooks());
    const left = Math.max(1, seat.nertsSize - gone);
    if (left < seat.nertsLeft) {
      seat.nertsLeft = left;
      emit({ type: 'nerts-count', player: seat.playerId, left });
    } else if (lookReturned && left > seat.nertsLeft && seat.nertsLeft > 0) {
      seat.nertsLeft = left;
      emit({ type: 'nerts-count', player: seat.playerId, left, revised: 'its previous top showed again' });
    }
    const emptyLongEnough =
      seat.emptySinceMs !== null && now - seat.emptySinceMs >= config.emptyNertsMs && seat.emptyFrames >= config.emptyNertsFrames;
    // Only a pile already down to its last cards can be empty; otherwise a hand is covering it. Its
    // top card followed to where it vanished, still in the Nerts zone, is covered too.
    const topStillHome =
      seat.nertsTop !== null &&
      (state.tracks ?? []).some(
        (t, _, tracks) =>
          t.code === seat.nertsTop &&
          t.origin === seat.playerId &&
          t.lastMs < now &&
          /\/nerts/.test(t.zone ?? '') &&
          // unless it showed up elsewhere since (it was carried off hidden under the hand)
          !tracks.some((other) => other !== t && other.code === t.code && (other.origin === null || other.origin === t.origin) && (other.bornMs ?? 0) > t.lastMs),
      );
    // After the call, a pile that only now looks empty was disturbed by the sort (nobody plays).
    const emptiedAfterCall =
      state.called && state.calledAtMs !== undefined && seat.emptySinceMs !== null && seat.emptySinceMs > state.calledAtMs + config.nertsEmptyAfterCallMs;
    if (emptyLongEnough && !topStillHome && !emptiedAfterCall && seat.nertsLeft <= 2 && (seat.nertsSeen.length > 0 || (seat.nertsLooks?.tops.length ?? 0) > 0) && seat.nertsLeft > 0) {
      const lastCard = seat.nertsTop;
      const leftBefore = seat.nertsLeft;
      seat.nertsLeft = 0;
      seat.nertsTop = null;
      // The player calls once their last Nerts card has landed: wait for it (or a while). The empty
      // pile is reported with the call, since the card may still come back (a lost race).
      if (!state.called) seat.callPending = { sinceMs: seat.emptySinceMs ?? now, lastCard, landedMs: null, leftBefore };
      else emit({ type: 'nerts-count', player: seat.playerId, left: 0 }, seat.emptySinceMs ?? now);
    }
    // The caller's pile, seen before, seen bare a good while after the call is empty, whatever the
    // count said (a pile the camera never saw says nothing).
    const callerBare =
      state.called &&
      state.caller === seat.playerId &&
      seat.nertsLeft > 0 &&
      (seat.nertsSeen.length > 0 || (seat.nertsLooks?.tops.length ?? 0) > 0) &&
      seat.emptySinceMs !== null &&
      now - seat.emptySinceMs >= config.callerEmptyNertsMs &&
      seat.emptyFrames >= config.emptyNertsFrames;
    if (callerBare) {
      seat.nertsLeft = 0;
      seat.nertsTop = null;
      emit({ type: 'nerts-count', player: seat.playerId, left: 0 }, seat.emptySinceMs ?? now);
    }
    const pending = seat.callPending;
    if (pending && !state.called) {
      const movedToWork = (seenInSeat.get(seat.seat) ?? []).some((card) => card.code === pending.lastCard && /\/work/.test(card.zone ?? ''));
      if (movedToWork) pending.landedMs ??= now;
      // Cards still landing say the call has not come yet (everyone stops at it): the call waits
      // for a quiet centre, up to callQuietWaitMs after the pile was seen empty.
      const lastActivity = Math.max(pending.landedMs ?? pending.sinceMs, state.lastLandingMs ?? -Infinity);
      const quiet = now >= lastActivity + config.callSettleMs;
      if ((pending.landedMs !== null && quiet) || (now - pending.sinceMs >= config.callWaitMs && (quiet || now - pending.sinceMs >= config.callQuietWaitMs))) {
        state.called = true;
        state.caller = seat.playerId;
        seat.callPending = null;
        const heard = pending.landedMs !== null ? Math.max(pending.landedMs + config.callReactionMs, (state.lastLandingMs ?? -Infinity) + 1) : now;
        state.calledAtMs = heard;
        emit({ type: 'nerts-count', player: seat.playerId, left: 0 }, pending.sinceMs);
        emit({ type: 'call', player: seat.playerId, manual: false }, heard);
      }
    }
  }

}

/** Centre piles: which cards lie still, which pile each lies on, the votes on tops, new piles and set-aside ones. */
function followCentre(state: TrackerState, frame: FrameObservations, { centreCards, rawReading, lookedCentre, rawOnPile }: Sighting, now: number, config: TrackerConfig, emit: Emit): void {
  // Which centre cards lie still (a copy seen at the same place a moment ago); two copies of one
  // code are told apart by place, each matched to its nearest previous sighting.
  const still = new Set<CardObservation>();
  const sightings = state.centreSightings ?? (state.centreSightings = {});
  const byCode = new Map<CardCode, CardObservation[]>();
  for (const card of centreCards) byCode.set(card.code!, [...(byCode.get(card.code!) ?? []), card]);
  for (const [code, cards] of byCode) {
    const previous = (sightings[code] ?? []).filter((p) => now - p.timeMs <= config.stillGapMs);
    for (const card of cards) {
      const [x, y] = quadCentre(card.corners);
      const limit = config.stillCards * cardHeightPx(card.corners);
      if (previous.some((p) => Math.hypot(p.x - x, p.y - y) <= limit)) still.add(card);
    }
    sightings[code] = cards.map((card) => {
      const [x, y] = quadCentre(card.corners);
      return { x, y, timeMs: now };
    });
  }
  for (const code of Object.keys(sightings)) if (!byCode.has(code as CardCode) && now - (sightings[code][0]?.timeMs ?? -Infinity) > config.stillGapMs) delete sightings[code];

  // Match each centre card to a pile (or a candidate), then vote on tops.
  const pileHits = new Map<string, CardObservation[]>();
  const unmatched: CardObservation[] = [];
  for (const card of centreCards) {
    const best = pileUnder(state, card, config);
    if (best) {
      const list = pileHits.get(best.id) ?? [];
      list.push(card);
      pileHits.set(best.id, list);
    } else unmatched.push(card);
  }

  // Sightings in flight: a centre card that is not the accepted top of the pile it lies on.
  for (const card of centreCards) {
    const pile = state.piles.find((p) => (pileHits.get(p.id) ?? []).includes(card));
    if (pile && pile.cards[pile.cards.length - 1]?.code === card.code) continue;
    const run = state.flights[card.code!];
    const continued = run && now - run.lastMs <= config.flightGapMs;
    const movingMs = still.has(card) ? (continued ? run.movingMs : undefined) : now;
    state.flights[card.code!] = { startMs: continued ? run.startMs : now, lastMs: now, ...(movingMs !== undefined ? { movingMs } : {}) };
  }

  // The recogniser's readings of centre cards seen moving: one carried across a pile to a pile
  // beside it is not that pile's card (one read under the vote floors has no place to compare).
  const rawMoving = new Set(centreCards.filter((card) => !still.has(card)).map((card) => rawReading.get(card) ?? card));

  for (const pile of state.piles) {
    if (pile.completed) {
      reopenUnderKing(state, pile, (pileHits.get(pile.id) ?? []).filter((card) => still.has(card)), now, config, emit);
      continue;
    }
    const hits = (pileHits.get(pile.id) ?? []).filter((card) => still.has(card));
    if (hits.length > 0) {
      // The top card is the one the recogniser trusts most where several overlap.
      const top = hits.sort((a, b) => b.confidence - a.confidence)[0];
      pile.votes.push({ code: top.code!, weight: top.confidence, timeMs: now });
      // How surely the recogniser itself has read each suit on this pile (see misreadSuit).
      const raw = rawReading.get(top) ?? top;
      const rawSuit = suitOf(raw.code!);
      pile.suitSeen = { ...pile.suitSeen, [rawSuit]: Math.max(pile.suitSeen?.[rawSuit] ?? 0, raw.confidence) };
      pile.lastSeenMs = now;
    }
    // The pile's suit from all its readings, the recogniser's own (see pile-suit.ts), but for a
    // card seen moving over it (see rawMoving).
    const rawHere = rawOnPile.get(pile.id);
    const pileTop = pile.cards.at(-1)?.code;
    if (rawHere && !rawMoving.has(rawHere) && pileTop) pile.suitLean = addSuitLean(pile.suitLean ?? {}, rawHere, suitOf(pileTop), rankValue(pileTop));
    const twin = twinSuitByLean(state, pile, config);
    if (twin) {
      const was = suitOf(pile.cards[0].code);
      reviseSuit(state, pile, twin, `its cards read as ${SUIT_NAMES[twin]} rather than ${SUIT_NAMES[was]} (${Object.keys(pile.suitLean ?? {}).length} cards weighed)`, emit);
      // Readings the old suit's prior turned into its cards were of the new suit.
      // (New votes: the old ones are shared with the previous state, see cloneState.)
      pile.votes = pile.votes.map((vote) => (vote.code && suitOf(vote.code) === was ? { ...vote, code: inSuit(vote.code, twin) } : vote));
    }
    pile.votes = pruneVotes(pile.votes, now, config);
    const decided = tally(pile.votes, config);
    if (!decided?.code) continue;
    const heldMs = decidedFor(pile, decided.code, now);
    const under = pile.cards.findIndex((card) => card.code === decided.code);
    // At most as many cards as a reading may skip ahead (see cardsBetween): a card further below is another pile's.
    if (under >= 0 && under < pile.cards.length - 1 && pile.cards.length - 1 - under <= WITHDRAW_MAX_CARDS) {
      if (hasSureVote(pile.votes, decided.code, config) && heldMs >= config.withdrawSteadyMs) withdrawAbove(state, pile, under, now, emit);
      continue;
    }
    if (decided.code === pile.cards.at(-1)?.code) continue;
    const suit = misreadSuit(state, pile, decided.code, config);
    if (suit) reviseSuit(state, pile, suit, `${decided.code} was read surely on it: its cards were taken for ${SUIT_NAMES[suitOf(pile.cards[0].code)]}`, emit);
    const currentTop = pile.cards.at(-1)?.code;
    let added = cardsBetween(currentTop, decided.code);
    // The reading a withdrawal took back (see withdrawAbove), read again: likely the same
    // misreading, so it must hold as long as a reading far ahead.
    const againAfterWithdrawal = added !== null && (pile.withdrawn ?? []).includes(decided.code);
    if ((!added || againAfterWithdrawal) && currentTop && suitOf(currentTop) === suitOf(decided.code) && rankValue(decided.code) > rankValue(currentTop)) {
      // Far ahead in suit: a fast run of plays under hands was missed, or a misread. Taken once
      // the reading has held, surely, for a while; never reported as an illegal play.
      const sure = againAfterWithdrawal || hasSureVote(pile.votes, decided.code, config);
      if (!sure || heldMs < config.farAheadSteadyMs) continue;
      added ??= cardsBetween(currentTop, decided.code, 13);
    }
    if (added) {
      const landMs = landedBeforeCall(state, pile, landedAt(state, decided.code, firstSeen(pile.votes, decided.code), config));
      for (const code of added) queuePlay(state, pile, code, false, landMs, now, config, true, code !== decided.code);
      pile.reportedIllegal = null;
      if (rankValue(decided.code) === 13) pile.completed = true;
    } else if (pile.reportedIllegal !== decided.code && rankValue(decided.code) > rankValue(pile.cards.at(-1)!.code)) {
      // A card ahead of the top that is not next in suit: an illegal play, once it has been read
      // surely and held (a misread flickers; a wrong card lies there until someone takes it
      // back). The rules engine records the violation; the tracker keeps the pile's legal top
      // (the card must go back). A card of the top's rank or lower is no play: it is the top or a
      // card under it misread (a 7C under the 8C read as the 7S), or another pile's card.
      if (!hasSureVote(pile.votes, decided.code, config) || heldMs < config.illegalSteadyMs) continue;
      pile.reportedIllegal = decided.code;
      queuePlay(state, pile, decided.code, false, firstSeen(pile.votes, decided.code), now, config, false);
    }
  }

  followPileLooks(state, frame, lookedCentre, now, config);

  // A queen pile that vanished while the rest of the centre stays in view was completed (its king
  // landed under a hand) and set aside face down; so was a jack pile (its queen was never named).
  // A face on it at any confidence (one with a look) means it is still there.
  const lookedOn = new Set(lookedCentre.flatMap((card) => pileUnder(state, card, config)?.id ?? []));
  for (const pile of state.piles) {
    if (pile.completed) continue;
    if (pileHits.has(pile.id) || lookedOn.has(pile.id)) pile.missingSinceMs = null;
    else if (centreCards.length > 0) pile.missingSinceMs ??= now;
    const top = pile.cards[pile.cards.length - 1];
    if (!top || 13 - rankValue(top.code) > config.setAsideUnseenMax || rankValue(top.code) === 13) continue;
    const king = `K${suitOf(top.code)}` as CardCode;
    // The king's track is remembered while it lies there: the pile may be set aside (and the track
    // gone) before the king is voted in.
    if (!pile.kingLander && rankValue(top.code) === 12) {
      const first = landedTracks(state, pile, king, -Infinity, now, config)[0];
      if (first) pile.kingLander = { origin: first.track.origin!, landedMs: first.landedMs };
    }
    if (pile.missingSinceMs != null && now - pile.missingSinceMs >= (pile.kingLander ? config.setAsideKingMs : config.setAsideMs) && !gatheredAfterCall(state, pile)) {
      const lander = pile.kingLander;
      for (const code of cardsBetween(top.code, king, 13)!) queuePlay(state, pile, code, false, (code === king ? lander?.landedMs : undefined) ?? pile.missingSinceMs, now, config, true);
      // The king seen landing first is the play's, whichever tracks of it lie there now (two
      // racers' copies last seen together over the pile tie on their landing).
      const play = state.pending[state.pending.length - 1];
      if (lander && play.trackOwner !== lander.origin) {
        play.trackOwner = lander.origin;
        delete play.trackId;
      }
      pile.completed = true;
    }
  }

  // Candidates: a stable card where no pile lies starts a pile (an ace) or is an illegal start.
  for (const card of unmatched) {
    if (!still.has(card)) continue;
    const center = quadCentre(card.corners);
    const size = cardHeightPx(card.corners);
    let candidate = state.candidates.find(
      (c) => Math.hypot(c.center[0] - center[0], c.center[1] - center[1]) < config.pileRadiusCards * Math.max(size, c.cardSizePx),
    );
    if (!candidate) {
      candidate = { center, cardSizePx: size, votes: [], reportedIllegal: null };
      state.candidates.push(candidate);
    }
    candidate.votes.push({ code: card.code!, weight: card.confidence, timeMs: now });
    // Follow the card while it settles.
    candidate.center = [(candidate.center[0] + center[0]) / 2, (candidate.center[1] + center[1]) / 2];
  }
  const keptCandidates: PileCandidate[] = [];
  for (const candidate of state.candidates) {
    candidate.votes = pruneVotes(candidate.votes, now, config);
    if (candidate.votes.length === 0) continue;
    const decided = tally(candidate.votes, config);
    const start = decided?.code ? roomyStart(state, decided.code, config) : null;
    const startsPile = start ? cardsBetween(undefined, start) : null;
    if (decided?.code && start && startsPile) {
      // Started in the look-alike suit: its readings so far are of that suit too.
      if (start !== decided.code) candidate.votes = candidate.votes.map((vote) => (vote.code ? { ...vote, code: inSuit(vote.code, suitOf(start)) } : vote));
      const pile: TrackedPile = {
        id: `f${state.nextPileNumber++}`,
        center: candidate.center,
        cardSizePx: candidate.cardSizePx,
        cards: [],
        completed: false,
        votes: candidate.votes,
        reportedIllegal: null,
        lastSeenMs: now,
        rivals: [],
        doubleFrames: 0,
        missingSinceMs: null,
      };
      state.piles.push(pile);
      // An ace (and two) covered by hands while they landed are filled in under the card seen.
      for (const code of startsPile) queuePlay(state, pile, code, code === startsPile[0], landedAt(state, decided.code, firstSeen(candidate.votes, start), config), now, config, true, code !== decided.code);
      continue;
    }
    if (decided?.code && candidate.reportedIllegal !== decided.code && hasSureVote(candidate.votes, decided.code, config) && decidedFor(candidate, decided.code, now) >= config.illegalSteadyMs) {
      candidate.reportedIllegal = decided.code;
      const pseudo = { id: `f${state.nextPileNumber}`, cards: [] } as unknown as TrackedPile;
      queuePlay(state, pseudo, decided.code, true, firstSeen(candidate.votes, decided.code), now, config, false);
    }
    keptCandidates.push(candidate);
  }
  state.candidates = keptCandidates;

}

/**
 * How long the votes of a pile (or of a place where no pile lies) have decided `code` without a
 * break, ms; deciding another reading restarts the clock.
 */
function decidedFor(holder: { steady?: { code: CardCode; sinceMs: number } | null }, code: CardCode, now: number): number {
  if (holder.steady?.code !== code) holder.steady = { code, sinceMs: now };
  return now - holder.steady.sinceMs;
}

/**
 * A pile taken for completed that shows its queen on top again, surely and steadily (as a
 * withdrawal must, see withdrawSteadyMs): the king was never put there (it was carried over the
 * pile and back, or the queen pile was only covered a long while), so it is withdrawn and the
 * pile is open again. `hits`: the still cards lying on it this frame, which pileUnder gives a
 * completed pile only when they read as its queen. Why: 4 players seed 3's KS, carried to the
 * QS pile and back to p3's waste, was taken as played; the QS still lying there was then read as
 * a new pile (a must-start-with-ace false alarm) and the KS stayed credited.
 */
function reopenUnderKing(state: TrackerState, pile: TrackedPile, hits: CardObservation[], now: number, config: TrackerConfig, emit: Emit): void {
  const queen = underItsKing(pile);
  if (!queen || hits.length === 0) return;
  const top = hits.sort((a, b) => b.confidence - a.confidence)[0];
  pile.votes.push({ code: top.code!, weight: top.confidence, timeMs: now });
  pile.lastSeenMs = now;
  pile.votes = pruneVotes(pile.votes, now, config);
  const decided = tally(pile.votes, config);
  if (decided?.code !== queen) return;
  if (!hasSureVote(pile.votes, queen, config) || decidedFor(pile, queen, now) < config.withdrawSteadyMs) return;
  pile.completed = false;
  withdrawAbove(state, pile, pile.cards.length - 2, now, emit);
}

/** A pile gives back at most this many cards at once (see withdrawAbove). */
const WITHDRAW_MAX_CARDS = 3;

/**
 * Takes back the cards above `pile.cards[under]`: the pile has shown that card as its top, surely
 * and steadily, since they were accepted (see withdrawSteadyMs). A card whose owner is still
 * pending is dropped unheard; the rules are told of the others (`play-withdrawn`).
 */
function withdrawAbove(state: TrackerState, pile: TrackedPile, under: number, now: number, emit: Emit): void {
  const top = pile.cards[under].code;
  const withdrawn = pile.cards.splice(under + 1).reverse();
  for (const card of withdrawn) {
    const pending = state.pending.findIndex((play) => play.foundationId === pile.id && play.code === card.code && play.legal);
    if (pending >= 0) state.pending.splice(pending, 1);
    else emit({ type: 'play-withdrawn', foundationId: pile.id, card: card.code, reason: `${pile.id} showed ${top} on top again: ${card.code} was not there` }, pile.steady?.sinceMs);
  }
  const gone = new Set(withdrawn.map((card) => card.code));
  pile.withdrawn = [...new Set([...(pile.withdrawn ?? []), withdrawn[0].code])];
  if (pile.race && gone.has(pile.race.code)) pile.race = null;
  // A king taken back was never there: the one seen landing on the queen was carried off again,
  // and must not complete the pile when it vanishes (set aside, or gathered after the call).
  if (withdrawn.some((card) => rankValue(card.code) === 13)) pile.kingLander = null;
  pile.earlierRaces = pile.earlierRaces?.filter((race) => !gone.has(race.code));
  pile.lookWatch = initialPileWatch(now, pile.cards.length);
  pile.reportedIllegal = null;
  pile.rivals = [];
}

/**
 * Cards that land on a pile and are never named (see pile-looks.ts): a pile that was covered and
 * then shows a steady new look, which no reading explains in time, took the next card in suit.
 */
function followPileLooks(state: TrackerState, frame: FrameObservations, lookedCentre: readonly CardObservation[], now: number, config: TrackerConfig): void {
  // Each pile's top: the face lying on it that the recogniser trusts most.
  const tops = new Map<string, CardObservation>();
  for (const card of lookedCentre) {
    const pile = pileUnder(state, card, config);
    const best = pile && tops.get(pile.id);
    if (pile && (!best || card.confidence > best.confidence)) tops.set(pile.id, card);
  }
  for (const pile of state.piles) {
    const top = pile.cards.at(-1)?.code;
    if (pile.completed || !top) continue;
    const seen = tops.get(pile.id);
    const sureName = seen?.code && seen.confidence >= config.sureNameConfidence ? seen.code : undefined;
    const sighting = seen?.look ? { look: seen.look, at: quadCentre(seen.corners), cardLength: cardHeightPx(seen.corners), ...(sureName ? { name: sureName } : {}) } : null;
    const touched = handOver(frame, pile.center, pile.cardSizePx * HAND_OVER_PILE_CARDS);
    const { watch, landMs, secondCopy } = watchPileLook(pile.lookWatch ?? initialPileWatch(now, pile.cards.length), { sighting, touched, cards: pile.cards.length, top, reading: topReading(seen, top, config) }, now, config);
    pile.lookWatch = watch;
    // A second copy of the top card lay on the pile: a race, if another seat's copy comes back (see watchRace).
    if (secondCopy && pile.race?.code === top && pile.race.secondSeenMs === null) pile.race.secondSeenMs = now;
    if (landMs === null || rankValue(top) === 13) continue;
    const next = cardFrom(rankValue(top) + 1, suitOf(top));
    queuePlay(state, pile, next, false, landMs, now, config, true);
    pile.reportedIllegal = null;
    if (rankValue(next) === 13) pile.completed = true;
  }
}

/** What a reading of a pile's top says of its next card in suit and of its top card `top` (see TopReading). */
function topReading(seen: CardObservation | undefined, top: CardCode, config: TrackerConfig): TopReading | null {
  if (!seen?.code) return null;
  const next = rankValue(top) < 13 ? cardFrom(rankValue(top) + 1, suitOf(top)) : null;
  const likely = seen.alternatives ?? [{ code: seen.code, p: 1 }];
  const share = (code: CardCode | null) => likely.find((face) => face.code === code)?.p ?? 0;
  return { next: share(next), top: share(top), other: seen.confidence >= config.sureNameConfidence && seen.code !== top && seen.code !== next };
}

/** A hand covers a pile when a moving cell comes within this fraction of a card's length of the pile's centre. */
const HAND_OVER_PILE_CARDS = 0.3;

/** Whether a moving blob from a seat (a hand) covers `point` in this frame (within `slackPx`). */
function handOver(frame: FrameObservations, point: Point, slackPx: number): boolean {
  return (frame.motion ?? []).some(
    (blob) => blob.seats.length > 0 && blob.cells.some(([x, y]) => Math.abs(x - point[0]) <= blob.cellSize / 2 + slackPx && Math.abs(y - point[1]) <= blob.cellSize / 2 + slackPx),
  );
}

/** Within this many card lengths of a place, a copy in flight may be coming down on it from any side. */
const HEADING_FREE_CARDS = 0.3;

/**
 * Whether a copy may come down at `point`: one last seen moving only if it was heading for it
 * (within 60° of its course) or nearly there already. A copy carried past a pile to the pile
 * beside it, half a card to the side, neither covers the copy lying there nor lands on that pile
 * (5 players seed 2's 3S: its track took the sighting of the copy on the pile it passed, and
 * was raised as a racer there).
 */
function headingFor(track: CardTrack, point: Point): boolean {
  const [dx, dy] = [point[0] - track.x, point[1] - track.y];
  const [vx, vy] = [track.vx ?? 0, track.vy ?? 0];
  const off = Math.hypot(dx, dy);
  const speed = Math.hypot(vx, vy);
  return track.movingMs !== track.lastMs || speed === 0 || off <= HEADING_FREE_CARDS * track.sizePx || dx * vx + dy * vy >= 0.5 * off * speed;
}

/** A copy still again this soon where it came to rest had not moved (see updateTracks), ms. */
const RETURN_TO_REST_MS = 300;

/** Follows every face-up card from its previous sighting (greedy, nearest first). */
function updateTracks(state: TrackerState, cards: CardObservation[], now: number, config: TrackerConfig): void {
  const seatPlayer = new Map(state.seats.map((seat) => [seat.seat, seat.playerId]));
  const alive = (state.tracks ?? []).filter((t) => now - t.lastMs <= config.trackGapMs);
  const byCode = new Map<string, CardObservation[]>();
  // A card in flight crosses the ground between a seat's zones and the centre, in no zone: such a
  // sighting carries a track on (it starts none).
  for (const card of cards) {
    if (card.kind !== 'face' || !card.code) continue;
    byCode.set(card.code, [...(byCode.get(card.code) ?? []), card]);
  }
  let nextId = state.nextTrackId ?? 1;
  for (const [code, observed] of byCode) {
    const tracks = alive.filter((t) => t.code === code && t.lastMs < now);
    const pairs: Array<{ track: CardTrack; card: CardObservation; distance: number }> = [];
    const places = new Map(observed.map((card) => [card, { center: quadCentre(card.corners), size: cardHeightPx(card.corners) }]));
    for (const track of tracks) {
      const gap = now - track.lastMs;
      const dt = Math.min(gap, config.trackReachMs);
      const reach = track.sizePx * (gap <= config.trackReachMs ? 0.5 + (config.trackSpeedCards * dt) / 1000 : 0.5);
      // Where it should be now if it kept its speed: two copies crossing keep their own tracks.
      const px = track.x + (track.vx ?? 0) * dt;
      const py = track.y + (track.vy ?? 0) * dt;
      // Where its speed takes it in the gap, up to flightReachMs. A card last seen in flight and
      // hidden longer (under the arm carrying it) may have flown on: it is looked for there too,
      // within a card's length...
      const hiddenInFlight = gap > config.trackReachMs && track.movingMs === track.lastMs;
      const flying = hiddenInFlight && gap <= config.flightReachMs;
      const path = Math.min(gap, config.flightReachMs);
      const pathEnd: Point = [track.x + (track.vx ?? 0) * path, track.y + (track.vy ?? 0) * path];
      // ... or it came down on the way there, under the hand that put it down: anywhere along that
      // path, found up to landingReachMs after it vanished.
      const landing = hiddenInFlight && gap <= config.landingReachMs;
      for (const card of observed) {
        const { center } = places.get(card)!;
        if (flying) {
          const ahead = Math.hypot(center[0] - pathEnd[0], center[1] - pathEnd[1]);
          if (ahead <= track.sizePx) {
            pairs.push({ track, card, distance: ahead });
            continue;
          }
        }
        if (Math.hypot(center[0] - track.x, center[1] - track.y) > reach) {
          // (After any track that reaches it otherwise: a racing copy followed in to the spot,
          // seen a frame ago, is the one lying there.)
          const off = landing ? distanceToSegment(center, [track.x, track.y], pathEnd) : Infinity;
          if (off <= 0.5 * track.sizePx) pairs.push({ track, card, distance: off + 2 * track.sizePx });
          continue;
        }
        pairs.push({ track, card, distance: Math.hypot(center[0] - px, center[1] - py) });
      }
      // Just jumped more than half a card: that sighting may have been another card misread as
      // this one, and the copy is seen again where it was (after any track that reaches it plainly).
      if (track.jumpedFrom && gap <= config.trackReachMs) {
        for (const card of observed) {
          const { center } = places.get(card)!;
          const back = Math.hypot(center[0] - track.jumpedFrom.x, center[1] - track.jumpedFrom.y);
          if (back <= 0.5 * track.sizePx && !pairs.some((p) => p.track === track && p.card === card)) pairs.push({ track, card, distance: back + 2 * track.sizePx });
        }
      }
    }
    // Racing copies stacked on a pile: the one that came later lies on top, so a sighting there is
    // its copy (lifted, or lying), and the copy under it takes a sighting only once the top one has
    // one elsewhere (it was carried off). By distance alone, the copy a loser lifted off went to
    // the winner's track, and the winner's card, left lying, to the loser's.
    const restsHere = (t: CardTrack) => t.rest !== undefined && t.rest !== null && Math.hypot(t.rest.x - t.x, t.rest.y - t.y) <= config.stackedCards * t.sizePx;
    // When a copy came to lie where it is (near `other`): its landing there; one last seen in
    // flight, once it had covered the rest of the way (slowing to a stop, in about twice the time
    // its speed would take, as touchdown below reckons).
    const cameAt = (t: CardTrack, other: CardTrack): number => {
      if (restsHere(t)) return t.rest!.landedMs;
      const speed = Math.hypot(t.vx ?? 0, t.vy ?? 0);
      if (t.movingMs === t.lastMs && speed > 0) return t.lastMs + (2 * Math.hypot(other.x - t.x, other.y - t.y)) / speed;
      return t.movingMs ?? t.bornMs ?? t.lastMs;
    };
    // One seen moving off the place it came to rest is being lifted away: it covers nothing now.
    const liftedOff = (t: CardTrack) => t.movingMs === t.lastMs && restsHere(t);
    const covers = (top: CardTrack, under: CardTrack) =>
      top !== under &&
      !liftedOff(top) &&
      Math.hypot(top.x - under.x, top.y - under.y) <= config.stackedCards * Math.max(top.sizePx, under.sizePx) &&
      headingFor(top, [under.x, under.y]) &&
      cameAt(top, under) > cameAt(under, top);
    // (Only a copy lying still can be under another: one last seen moving is in a hand.)
    const buried = new Set(tracks.length < 2 ? [] : tracks.filter((under) => parseZone(under.zone)?.area === 'centre' && under.movingMs !== under.lastMs && tracks.some((top) => covers(top, under))));
    // A track seen in one frame only is likely a misread (a 2D on its pile read once as the 3D):
    // a copy followed in flight that came down there takes the sighting before it.
    const once = (t: CardTrack) => t.bornMs === t.lastMs && now - t.lastMs > config.trackReachMs;
    pairs.sort((a, b) => Number(buried.has(a.track)) - Number(buried.has(b.track)) || Number(once(a.track)) - Number(once(b.track)) || a.distance - b.distance);
    const usedTracks = new Set<CardTrack>();
    const usedCards = new Set<CardObservation>();
    for (const { track, card, distance } of pairs) {
      if (usedTracks.has(track) || usedCards.has(card)) continue;
      usedTracks.add(track);
      usedCards.add(card);
      const { center, size } = places.get(card)!;
      const dt = Math.max(1, now - track.lastMs);
      const moved = Math.hypot(center[0] - track.x, center[1] - track.y);
      // When it touched down: a card slowing to a stop covers the rest of the way from its last
      // moving sighting in about twice the time its speed there would take (two copies landing
      // within one frame are ordered by it).
      const speed = Math.hypot(track.vx ?? 0, track.vy ?? 0);
      const touchdown = (): number => {
        const last = track.movingMs ?? track.lastMs;
        if (track.movingMs !== track.lastMs || speed <= 0) return last;
        return last + Math.min(now - last, (LANDING_SLOWDOWN * moved) / speed);
      };
      track.vx = (center[0] - track.x) / dt;
      track.vy = (center[1] - track.y) / dt;
      if (dt > config.trackReachMs && moved <= 0.5 * size) {
        // Hidden a while and found again where it vanished: it came to rest there meanwhile (a card
        // last seen in the air lands a few pixels from where it was last seen). One found further
        // on flew on while hidden (see flightReachMs).
        track.vx = 0;
        track.vy = 0;
        track.stillFrames = 1;
        track.rest = { x: center[0], y: center[1], landedMs: touchdown() };
      } else if (moved > config.stillCards * size) {
        track.movingMs = now;
        track.stillFrames = 0;
      } else {
        track.stillFrames += 1;
        // Still again where it came to rest a moment ago: one sighting off that place (another
        // card misread as it, a pile or two away) was no move, and it landed when it first did.
        const back = (rest: NonNullable<CardTrack['rest']>) => now - rest.landedMs <= RETURN_TO_REST_MS && Math.hypot(center[0] - rest.x, center[1] - rest.y) <= config.stillCards * size;
        if (track.stillFrames === 1 && !(track.rest && back(track.rest))) track.rest = { x: center[0], y: center[1], landedMs: touchdown() };
      }
      // A copy still in the seat it began in, seen now in another seat's zones, did not get there
      // through the centre: its first sightings were of another card (a misread at the seats'
      // border) or another copy, and it is that seat's (5-player seed-5 6C: a faint "6C" on p5's
      // side began a track that p4's 6C, turned up from p4's stock 100 px away, took over).
      const zone = parseZone(card.zone);
      const seatHere = zone?.area === 'seat' ? seatPlayer.get(zone.seat) : undefined;
      if (!track.wentOut && track.origin !== null && seatHere !== undefined && seatHere !== track.origin) track.origin = seatHere;
      else if (seatHere !== track.origin) track.wentOut = true;
      track.jumpedFrom = moved > 0.5 * size ? { x: track.x, y: track.y } : null;
      Object.assign(track, { x: center[0], y: center[1], sizePx: size, lastMs: now, zone: card.zone });
      if (!track.arrival || Math.hypot(center[0] - track.arrival.x, center[1] - track.arrival.y) > config.pileRadiusCards * size) track.arrival = { x: center[0], y: center[1], atMs: now };
    }
    for (const card of observed) {
      const zone = parseZone(card.zone);
      if (usedCards.has(card) || !zone) continue;
      const { center, size } = places.get(card)!;
      alive.push({ id: nextId++, code: code as CardCode, x: center[0], y: center[1], sizePx: size, lastMs: now, origin: zone.area === 'seat' ? (seatPlayer.get(zone.seat) ?? null) : null, movingMs: null, stillFrames: 0, bornMs: now, bornAt: { x: center[0], y: center[1] }, zone: card.zone, arrival: { x: center[0], y: center[1], atMs: now } });
    }
  }
  state.tracks = alive;
  state.nextTrackId = nextId;
}

/**
 * A copy lying at rest in a seat is that seat's player's: players move only their own cards
 * between their seat and the centre, so a track seen still in a seat's zones in raceHomeFrames
 * frames takes that seat's player as its origin. Runs after the races (reverseCarriedRace swaps
 * two racers' tracks by the same evidence, and must see the origins the tracks landed with).
 * Why: racing copies lying on one place swap tracks as they are lifted (the 5-player seed-4
 * hand's three-way 9S race: p4's copy was picked up on p3's track, carried to p4's work pile,
 * and p4's 9S played 14 s later went to p3), and a copy carried home from the centre began no
 * seat's track, so its next play had no track to tell whose it was.
 */
function ownRestingCopies(state: TrackerState, now: number, config: TrackerConfig, emit: (event: TableEvent, atMs?: number) => void): void {
  const tracks = state.tracks ?? [];
  const lying = (other: CardTrack) => other.movingMs !== other.lastMs && other.stillFrames >= 1 && now - other.lastMs <= config.trackReachMs;
  for (const track of tracks) {
    const seat = seatAtRest(track, now, config);
    if (seat === null) continue;
    const player = state.seats.find((s) => s.seat === seat)?.playerId;
    if (player === undefined || track.origin === player) continue;
    // The player's own copy was followed on another track, which lies on a pile now (seen lying
    // there a moment ago): the two tracks swapped copies (two copies lying as one on the pile,
    // one lifted off), so that track holds this one's player's copy, and a play still to be
    // decided by it is that player's. (A track that took up a lifted copy while the copy it had
    // followed stayed unseen on the pile is only re-owned: its play stays the first origin's.)
    const swapped = track.origin === null ? [] : tracks.filter((other) => other !== track && other.code === track.code && other.origin === player && lying(other) && state.piles.some((pile) => liesOnPile(pile, other.x, other.y, other.sizePx, config)));
    if (swapped.length === 1) {
      const [other] = swapped;
      other.origin = track.origin;
      for (const play of state.pending) if (play.trackId === other.id) play.trackOwner = track.origin!;
    }
    reviseHomeCopyCredit(state, track.code, player, track.origin, emit);
    track.origin = player;
  }
}

/**
 * `player`'s copy of `code` lies at home, on a track followed from `from`'s side (null: a track
 * begun in the centre): a centre card of that code already credited to `player` is not theirs (a
 * deck holds one copy). It is `from`'s, whose copy the track was thought to carry; from the
 * centre, the one player whose copy was last seen flying into that pile under the race watch
 * (`vanishedNear`, see landerUnderOwners). Only a player with no copy of it credited. Why: two
 * racing copies lying as one on a pile swap tracks as the loser's is lifted off, or the lifted
 * copy begins a new track, so the pile's card went to the loser by track; the loser's later play
 * of their copy was then refused as a second copy from their deck (bench:tracker's duplicate-card
 * false alarms: 4 players seed 6 5S, p1 beat p3 by 201 ms; 6 players seed 2 4C, p1's copy
 * hidden under p3's, which p3 took home on a track begun on the pile; seed 4 4C).
 */
function reviseHomeCopyCredit(state: TrackerState, code: CardCode, player: string, from: string | null, emit: (event: TableEvent, atMs?: number) => void): void {
  const credited = state.piles.flatMap((pile) => pile.cards.filter((card) => card.code === code && card.player === player).map((card) => ({ pile, card })));
  if (credited.length !== 1) return;
  const [{ pile, card }] = credited;
  const has = (other: string) => state.piles.some((p) => p.cards.some((c) => c.code === code && c.player === other));
  const race = [pile.race, ...(pile.earlierRaces ?? [])].find((watch) => watch?.code === code);
  const hidden = Object.keys(race?.vanishedNear ?? {}).filter((other) => other !== player && !(race?.losers ?? []).includes(other));
  const owner = from ?? (hidden.length === 1 ? hidden[0] : null);
  if (owner === null || owner === player || has(owner)) return;
  card.player = owner;
  emit({ type: 'owner-revised', foundationId: pile.id, card: code, from: player, to: owner, reason: `${player}'s ${code} lies at home in their seat, so the one on the pile is ${owner}'s` });
}

/** The seat whose zones a track has lain still in, in raceHomeFrames frames up to now; null when it has not. */
function seatAtRest(track: CardTrack, now: number, config: TrackerConfig): number | null {
  if (track.lastMs !== now || track.stillFrames < config.raceHomeFrames) return null;
  const zone = parseZone(track.zone);
  return zone?.area === 'seat' ? zone.seat : null;
}

/** Whether a card `sizePx` tall centred at (x, y) lies on the pile: within pileRadiusCards of the larger of its and the pile's card size. */
function liesOnPile(pile: { center: Point; cardSizePx: number }, x: number, y: number, sizePx: number, config: TrackerConfig): boolean {
  return Math.hypot(x - pile.center[0], y - pile.center[1]) <= config.pileRadiusCards * Math.max(sizePx, pile.cardSizePx);
}

/**
 * Whether a copy last seen in flight, hidden since, flew on onto the pile: the path its speed
 * takes it in flightReachMs (as updateTracks looks for it) passes over the pile. It came down
 * under the hand that carried it, just short of where it was last seen (5 players seed 5's 9H:
 * p4's copy, last seen moving 28 px short of the pile and heading for it, lay hidden under two
 * hands for 1.2 s; the pile's card then began a track of no seat and the play went to a seat
 * whose copy had never left). When it did: about when it came over the pile (flightEndMs), ms.
 */
function flewOnto(track: CardTrack, pile: { center: Point; cardSizePx: number }, now: number, config: TrackerConfig): number | undefined {
  if (track.movingMs !== track.lastMs || !headingFor(track, pile.center)) return undefined;
  const [vx, vy] = [track.vx ?? 0, track.vy ?? 0];
  if (vx === 0 && vy === 0) return undefined;
  const path = Math.min(now - track.lastMs, config.flightReachMs);
  const pathEnd: Point = [track.x + vx * path, track.y + vy * path];
  if (distanceToSegment(pile.center, [track.x, track.y], pathEnd) > config.pileRadiusCards * Math.max(track.sizePx, pile.cardSizePx)) return undefined;
  return flightEndMs(track, pile.center, now, config);
}

/**
 * A card slowing to a stop covers the rest of the way from its last moving sighting in about this
 * many times what its speed there would take (two copies landing within one frame are ordered by it).
 */
const LANDING_SLOWDOWN = 2;

/**
 * About when a copy last seen in flight, and not since, came down at `point`, ms: its last
 * sighting plus the rest of the way along its course at its slowing speed (LANDING_SLOWDOWN), up
 * to flightReachMs; undefined for one not last seen moving. The same estimate as a copy found
 * lying again where it vanished gets (updateTracks), so racers hidden under two hands are ordered
 * alike whichever of them shows again.
 */
function flightEndMs(track: CardTrack, point: Point, now: number, config: TrackerConfig): number | undefined {
  const [vx, vy] = [track.vx ?? 0, track.vy ?? 0];
  const speed2 = vx * vx + vy * vy;
  if (track.movingMs !== track.lastMs || speed2 === 0) return undefined;
  const along = ((point[0] - track.x) * vx + (point[1] - track.y) * vy) / speed2;
  return track.lastMs + Math.max(0, Math.min(LANDING_SLOWDOWN * along, now - track.lastMs, config.flightReachMs));
}

/**
 * Tracked copies of `code` that landed on `pile` since `sinceMs` and whose owner is known, first
 * landed first: each came to rest there (even if carried away since, as a race's loser is), or was
 * last seen there before a hand or a racing copy on top hid it.
 */
function landedTracks(state: TrackerState, pile: { center: Point; cardSizePx: number }, code: CardCode, sinceMs: number, now: number, config: TrackerConfig): Array<{ track: CardTrack; landedMs: number; arrivedMs: number }> {
  const near = (x: number, y: number, size: number) => liesOnPile(pile, x, y, size, config);
  // When it came over the pile: its arrival there, when that lies over the pile (see CardTrack.arrival).
  const arrivedBy = (track: CardTrack, landedMs: number) => (track.arrival && near(track.arrival.x, track.arrival.y, track.sizePx) ? Math.min(track.arrival.atMs, landedMs) : landedMs);
  const landed: Array<{ track: CardTrack; landedMs: number; arrivedMs: number }> = [];
  for (const track of state.tracks ?? []) {
    if (track.code !== code || track.origin === null) continue;
    const rest = track.rest;
    let landedMs: number | undefined;
    if (rest && rest.landedMs >= sinceMs && near(rest.x, rest.y, track.sizePx)) landedMs = rest.landedMs;
    else if (track.lastMs < now && near(track.x, track.y, track.sizePx) && headingFor(track, pile.center) && (track.movingMs ?? track.lastMs) >= sinceMs) landedMs = flightEndMs(track, pile.center, now, config) ?? track.movingMs ?? track.lastMs;
    else if (track.lastMs < now && track.lastMs >= sinceMs) landedMs = flewOnto(track, pile, now, config);
    if (landedMs !== undefined) landed.push({ track, landedMs, arrivedMs: arrivedBy(track, landedMs) });
  }
  return landed.sort((a, b) => a.landedMs - b.landedMs);
}

/**
 * Records that a seat's Nerts pile showed a new top at `now`: its previous top (`card`, when it
 * was named) had left. One record per card.
 */
function noteNertsDeparture(seat: TrackedSeat, now: number, config: TrackerConfig, card?: CardCode): void {
  const departures = seat.nertsDepartures ?? (seat.nertsDepartures = []);
  const last = departures.at(-1);
  if (last !== undefined && now - last.atMs < config.nertsMinGapMs) return;
  departures.push({ atMs: now, ...(card ? { card } : {}) });
  if (departures.length > 4) departures.shift();
}

/**
 * The seat whose Nerts pile lost its top closest to a play of `code` landing at `landMs`
 * (between nertsDepartureMs before it and now), with the departure it would use up. A departed
 * top known by name explains only a play of that card.
 */
function nertsDepartureNear(state: TrackerState, code: CardCode, landMs: number, now: number, config: TrackerConfig, fresh: (c: { playerId: string }) => boolean): { seat: TrackedSeat; departure: NertsDeparture } | undefined {
  let best: { seat: TrackedSeat; departure: NertsDeparture } | undefined;
  for (const seat of state.seats) {
    if (!fresh(seat)) continue;
    for (const departure of seat.nertsDepartures ?? []) {
      if (departure.atMs < landMs - config.nertsDepartureMs || departure.atMs > now || (departure.card !== undefined && departure.card !== code)) continue;
      if (!best || Math.abs(departure.atMs - landMs) < Math.abs(best.departure.atMs - landMs)) best = { seat, departure };
    }
  }
  return best;
}

/** Reach weights (sums of shares such as 1/3) this close are equal. */
const WEIGHT_EPSILON = 1e-9;

/**
 * The one player whose hand reached the play's pile most as it landed (see reachesAt); undefined
 * when none or a tie (breaking ties by the hand there last before the landing named the wrong
 * player more often on two recordings, session 18).
 */
function reachingPlayer(state: TrackerState, play: PendingPlay, config: TrackerConfig, fresh: (c: { playerId: string }) => boolean): string | undefined {
  const pile = state.piles.find((p) => p.id === play.foundationId);
  if (!pile) return undefined;
  const reaches = [...reachesAt(state, pile.center, pile.cardSizePx * HAND_OVER_PILE_CARDS, play.landMs, config)]
    .filter(([playerId]) => fresh({ playerId }))
    .sort(([, a], [, b]) => b - a);
  if (reaches.length === 0) return undefined;
  return reaches.length === 1 || reaches[0][1] - reaches[1][1] > WEIGHT_EPSILON ? reaches[0][0] : undefined;
}

/** Records a play seen landing; its owner is decided later by resolvePending. */
function queuePlay(state: TrackerState, pile: TrackedPile, code: CardCode, newPile: boolean, landMs: number, now: number, config: TrackerConfig, legal: boolean, unseen = false): void {
  // A king voted in after a tracked king was seen landing on the queen first (kingLander) is that
  // king's play: the pile may be set aside at once and another player's king land where it lay
  // and be seen there instead (6-player seed-1 KH: p3 completed the pile, turned it aside; p6's
  // KH, 2 s behind, landed on the spot and was voted in as p6's).
  const kingFirst = rankValue(code) === 13 && pile.kingLander && pile.kingLander.landedMs < landMs ? pile.kingLander : null;
  if (kingFirst) landMs = kingFirst.landedMs;
  // The card left its seat before it was first seen over the centre: a copy still seen in a seat
  // after that moment is another deck's, not the one in flight.
  const flight = state.flights[code];
  const flightStart = flight && flight.lastMs >= Math.min(landMs, now) - config.flightGapMs ? Math.min(flight.startMs, landMs) : landMs;
  const seenBefore = (sightings: (seat: TrackedSeat) => Record<string, number> | undefined) =>
    state.seats
      .map((seat) => ({ playerId: seat.playerId, seenMs: sightings(seat)?.[code] }))
      .filter((c): c is { playerId: string; seenMs: number } => c.seenMs !== undefined && c.seenMs < flightStart && now - c.seenMs <= config.attributionWindowMs);
  const candidates = seenBefore((seat) => seat.lastSeen);
  const maybe = seenBefore((seat) => seat.maybeSeen);
  if (legal) {
    pile.cards.push({ code, player: '' });
    if (pile.race) (pile.earlierRaces ??= []).push({ ...pile.race, coveredMs: Math.min(landMs, now) });
    pile.race = { code, landMs: Math.min(landMs, now), untilMs: Math.min(landMs, now) + config.raceWatchMs, secondSeenMs: null, away: {} };
    pile.doubleFrames = 0;
    state.lastPlayMs = now;
    state.lastLandingMs = Math.max(state.lastLandingMs ?? -Infinity, Math.min(landMs, now));
    state.stallRaised = false;
  }
  // The copy that landed first on this pile, followed from its seat, names the owner.
  const landed = pile.center ? landedTracks(state, pile, code, Math.min(landMs, now) - config.flightGapMs, now, config) : [];
  // A copy followed in that came to rest only after the pile already showed the card is a second
  // copy (a racer), not the card that landed: the first copy was not followed.
  const first = landed.find(({ arrivedMs }) => arrivedMs <= Math.min(landMs, now) + config.firstLanderSlackMs);
  const trackOwner = first?.track.origin ?? kingFirst?.origin ?? undefined;
  const trackId = first?.track.origin ? first.track.id : undefined;
  if (legal && pile.race) pile.race.landers = Object.fromEntries(landed.map(({ track, landedMs }) => [String(track.id), { origin: track.origin!, landedMs }]));
  state.pending.push({ foundationId: pile.id, code, newPile, landMs: Math.min(landMs, now), decideAtMs: now + config.attributionDelayMs, candidates, maybe, legal, ...(trackOwner ? { trackOwner } : {}), ...(trackId !== undefined ? { trackId } : {}), ...(unseen ? { unseen } : {}) });
  for (const seat of state.seats) if (seat.callPending && seat.callPending.lastCard === code) seat.callPending.landedMs ??= Math.min(landMs, now);
}

/**
 * Decides the owners of plays whose delay is over (all of them when `flush`). In order of
 * evidence: the seat the card's track came from; the seats the code had left (dropping those
 * where it showed up again after landing: it was only covered), the one whose hand reached the
 * pile as the card landed if it is among them, else the one that saw it last; the seat whose
 * hand reached the pile (see reachesAt; not for a card filled in under the one seen landing,
 * `unseen`); a seat whose Nerts pile just lost its top; a seat
 * where a card read as a close runner-up of this code lay; the seat that saw the code most
 * recently; else (nothing points anywhere) the player with the fewest such blind guesses so far. A
 * player whose copy is already in the centre is never chosen.
 * One hand at a time (oneHandGapMs): a hand seen reaching the pile is passed over for the next
 * one there when its player put another card down just before, or when a play pending beside
 * this one needs that player more (see chooseOwner).
 */
function resolvePending(state: TrackerState, now: number, config: TrackerConfig, emit: (event: TableEvent, atMs?: number) => void, flush: boolean): void {
  while (state.pending.length > 0 && (flush || state.pending[0].decideAtMs <= now)) {
    const play = state.pending.shift()!;
    // One hand at a time: a player who put a card down elsewhere within oneHandGapMs did not play this one.
    const nearby = (other: { landMs: number }) => Math.abs(other.landMs - play.landMs) < config.oneHandGapMs;
    const recent = (state.recentOwners ?? []).filter((owner) => play.landMs - owner.landMs < config.oneHandGapMs * 2);
    state.recentOwners = recent;
    // Partners sharing a tableau have a hand each.
    const handsOf = (player: string) => config.players.find((p) => p.playerId === player)?.hands ?? 1;
    const playing = (player: string) => recent.filter((owner) => owner.player === player && nearby(owner)).length;
    const busy = new Set(recent.filter((owner) => nearby(owner) && playing(owner.player) >= handsOf(owner.player)).map((owner) => owner.player));
    let choice = chooseOwner(state, play, config, busy, now);
    // A play still pending beside this one that names the same player: of the two ways to give
    // them one of the plays, the one with the stronger evidence in all (a play that can name
    // nobody else keeps them).
    for (const other of state.pending.filter(nearby)) {
      const rival = chooseOwner(state, other, config, busy, now);
      if (rival.player !== choice.player || playing(choice.player) + 2 <= handsOf(choice.player)) continue;
      const without = new Set([...busy, choice.player]);
      const instead = chooseOwner(state, play, config, without, now);
      if (instead.player === choice.player) break;
      const rivalInstead = chooseOwner(state, other, config, without, now);
      const rivalStuck = rivalInstead.player === choice.player;
      if (rivalStuck || rival.strength + instead.strength > choice.strength + rivalInstead.strength) choice = instead;
      break;
    }
    const { player, departed, ranked, evidence } = choice;
    recent.push({ player, landMs: play.landMs });
    if (choice.blind) state.blindGuesses = { ...state.blindGuesses, [player]: (state.blindGuesses?.[player] ?? 0) + 1 };
    // One departure explains one arrival.
    if (departed && player === departed.seat.playerId) departed.seat.nertsDepartures = (departed.seat.nertsDepartures ?? []).filter((d) => d !== departed.departure);
    // One sighting explains one arrival.
    const chosen = seatOfPlayer(state, player);
    if ((chosen.lastSeen[play.code] ?? Infinity) <= play.landMs) delete chosen.lastSeen[play.code];
    const pile = state.piles.find((p) => p.id === play.foundationId);
    if (play.legal && pile) {
      const card = pile.cards.find((c) => c.code === play.code && c.player === '');
      if (card) card.player = player;
      pile.rivals = ranked[0] ? ranked.filter((c) => c.playerId !== player && ranked[0].seenMs - c.seenMs <= config.disputeWindowMs).map((c) => c.playerId) : [];
    }
    emit({ type: 'card-played', player, card: play.code, foundationId: play.foundationId, newPile: play.newPile, ownerBy: evidence }, play.landMs);
    if (play.legal && pile?.completed && rankValue(play.code) === 13) emit({ type: 'foundation-completed', foundationId: pile.id }, play.landMs);
  }
}

/** The seat a player sits at (every player id the tracker decides on has one). */
function seatOfPlayer(state: TrackerState, playerId: string): TrackedSeat {
  return state.seats.find((seat) => seat.playerId === playerId)!;
}

/** Who played a pending card (see resolvePending), and how strong the evidence is: higher is surer. */
interface OwnerChoice {
  player: string;
  strength: number;
  /** What decided it (reported with the play, see OwnerEvidence). */
  evidence: OwnerEvidence;
  /** The Nerts departure it used up, when that decided. */
  departed?: { seat: TrackedSeat; departure: NertsDeparture };
  /** Seats the card had left, latest sighting first. */
  ranked: Array<{ playerId: string; seenMs: number }>;
  /** Nothing pointed anywhere: a blind guess (see TrackerState.blindGuesses). */
  blind?: boolean;
}

/**
 * The owner of a pending play by the evidence, strongest first (see resolvePending). The hand
 * seen reaching the pile is passed over when its player is one of `busy` (their hand was
 * putting another card down) and another hand reached there too. Reads the state, changes nothing.
 */
function chooseOwner(state: TrackerState, play: PendingPlay, config: TrackerConfig, busy: ReadonlySet<string>, now: number): OwnerChoice {
  // Each deck holds one copy of a card: a player whose copy is already in the centre cannot play it again.
  const used = new Set(state.piles.flatMap((p) => p.cards.filter((c) => c.code === play.code && c.player !== '').map((c) => c.player)));
  const fresh = (c: { playerId: string }) => !used.has(c.playerId);
  // A seat where the code was seen again after the landing still holds its copy: it was only
  // covered by a hand, or it never left (every deck has every card). Such seats are the last resort.
  const home = (c: { playerId: string }) => (seatOfPlayer(state, c.playerId).lastSeen[play.code] ?? -Infinity) > play.landMs;
  const possible = (c: { playerId: string }) => fresh(c) && !home(c);
  const ranked = play.candidates.filter(possible).sort((a, b) => b.seenMs - a.seenMs);
  const byLastSeen = (seats: TrackedSeat[]) => [...seats].sort((a, b) => (b.lastSeen[play.code] ?? -1) - (a.lastSeen[play.code] ?? -1))[0];
  const freshSeats = state.seats.filter((seat) => fresh({ playerId: seat.playerId }));
  const fallback = byLastSeen(freshSeats.filter((seat) => !home({ playerId: seat.playerId }))) ?? byLastSeen(freshSeats);
  const tracked = play.trackOwner !== undefined && fresh({ playerId: play.trackOwner }) ? play.trackOwner : undefined;
  if (tracked) return { player: tracked, strength: 7, evidence: 'track', ranked };
  // The hand that reached the pile as the card landed; it also picks among several seats the card had left.
  // A hand busy putting another card down nearby was only passing: the next hand there, if any, put this one down.
  // A card filled in under the one seen landed unseen, earlier: the hands there then put the seen one down.
  const anyReacher = play.unseen ? undefined : reachingPlayer(state, play, config, possible);
  const reacher = anyReacher !== undefined && busy.has(anyReacher) ? (reachingPlayer(state, play, config, (c) => possible(c) && !busy.has(c.playerId)) ?? anyReacher) : anyReacher;
  // The reacher also outweighs a seat that last showed the card long before it landed (staleSightingMs).
  const stale = reacher !== undefined && ranked.length > 0 && play.landMs - ranked[0].seenMs >= config.staleSightingMs;
  const seen = (ranked.length > 1 || stale) && ranked.some((c) => c.playerId === reacher) ? reacher : stale ? undefined : ranked[0]?.playerId;
  if (seen) return { player: seen, strength: ranked.length > 1 ? 5 : 6, evidence: seen === reacher ? 'left-seat+hand' : 'left-seat', ranked };
  if (reacher) return { player: reacher, strength: 4, evidence: 'hand', ranked };
  // Nobody was seen holding it and no hand was seen putting it down: a seat whose Nerts pile
  // just lost its top, else a seat where a card lay that was read as this one's close runner-up.
  const departed = ranked.length > 0 ? undefined : nertsDepartureNear(state, play.code, play.landMs, now, config, possible);
  if (departed) return { player: departed.seat.playerId, strength: 3, evidence: 'nerts-pile', departed, ranked };
  const maybe = (play.maybe ?? []).filter(possible).sort((a, b) => b.seenMs - a.seenMs)[0]?.playerId;
  if (maybe) return { player: maybe, strength: 2, evidence: 'look-alike', ranked };
  // Seats the card had left but showed again: only if nothing else points anywhere.
  const returned = play.candidates.filter(fresh).sort((a, b) => b.seenMs - a.seenMs)[0]?.playerId;
  if (returned) return { player: returned, strength: 1, evidence: 'guess', ranked };
  // Nothing at all: no seat ever showed the code. A blind guess; spread them over the players
  // (the fewest blind guesses so far), so that no one player's count takes them all.
  const shown = fallback && fallback.lastSeen[play.code] !== undefined ? fallback : undefined;
  // (Twelve recordings: centre error per player 31.1 -> 28.2 in sum; balancing all credited
  // cards instead, 29.0: a player who plays much is credited much.)
  const blind = [...freshSeats].sort((a, b) => (state.blindGuesses?.[a.playerId] ?? 0) - (state.blindGuesses?.[b.playerId] ?? 0))[0];
  return { player: (shown ?? blind ?? state.seats[0]).playerId, strength: 0, evidence: 'guess', ranked, ...(shown ? {} : { blind: true }) };
}

/** Decides every pending play now (end of hand): returns the new state and the plays' events. Pure. */
export function flushPending(previous: TrackerState, config: TrackerConfig): { state: TrackerState; events: TimedEvent[] } {
  const state: TrackerState = structuredClone(previous);
  const events: TimedEvent[] = [];
  const now = state.lastFrameMs ?? 0;
  resolvePending(state, now, config, (event, atMs = now) => events.push({ timeMs: Math.min(atMs, now), event }), true);
  // A Nerts pile seen empty whose call was still being settled: the count stands at 0.
  const callers: Array<{ seat: TrackedSeat; sinceMs: number }> = [];
  for (const seat of state.seats) {
    if (!seat.callPending) continue;
    callers.push({ seat, sinceMs: seat.callPending.sinceMs });
    seat.callPending = null;
  }
  // Nobody's pile was seen emptying, yet the hand ended: a pile that lay bare to the end was
  // emptied, though its count had stalled above the last cards (tops that were never named nor
  // told apart by look). At the end hands are off the table, so bare means empty.
  if (callers.length === 0 && !state.called) {
    const bare = state.seats.filter((seat) => {
      const longEnough = seat.emptySinceMs !== null && now - seat.emptySinceMs >= config.emptyNertsMs && seat.emptyFrames >= config.emptyNertsFrames;
      const everSeen = seat.nertsSeen.length > 0 || (seat.nertsLooks?.tops.length ?? 0) > 0;
      return longEnough && everSeen && seat.nertsLeft > 0;
    });
    const nearlyDone = bare.filter((seat) => seat.nertsLeft <= config.bareAtEndMaxLeft);
    // A count stalled above that: the only pile bare at the end that was seen shrinking (the hand
    // ended, so someone went out; a pile no card was seen to leave is more likely under a hand).
    const shrunk = bare.filter((seat) => seat.nertsLeft < seat.nertsSize);
    const chosen = nearlyDone.length > 0 ? nearlyDone : bare.length === 1 && shrunk.length === 1 ? shrunk : [];
    for (const seat of chosen) callers.push({ seat, sinceMs: seat.emptySinceMs! });
  }
  for (const { seat, sinceMs } of callers) {
    seat.nertsLeft = 0;
    seat.nertsTop = null;
    events.push({ timeMs: Math.min(sinceMs, now), event: { type: 'nerts-count', player: seat.playerId, left: 0 } });
  }
  // The first to empty their pile called (placed at the end: no play seen is after it).
  const caller = callers.sort((a, b) => a.sinceMs - b.sinceMs)[0];
  if (caller && !state.called) {
    state.called = true;
    state.caller = caller.seat.playerId;
    events.push({ timeMs: now, event: { type: 'call', player: caller.seat.playerId, manual: false } });
  }
  return { state, events };
}

/** Follows a pile's race watches for one frame: the latest card's, and earlier cards' still open (see RaceWatch). */
/**
 * Whether `player` is credited with `code` on a pile other than `pile`: a deck holds one copy of
 * each card, so that player cannot also be racing for it here (their copy lies there, on a pile
 * near this one, or a misread of it does). Why: 4 players seed 1's 4C: p3's copy, rightly
 * credited on f1, lay within reach of the next pile of clubs, where it was taken for a second
 * lander of that pile's 4C race, and p3's play there was refused as a second copy.
 */
function creditedElsewhere(state: TrackerState, pile: TrackedPile, code: CardCode, player: string): boolean {
  return state.piles.some((other) => other !== pile && other.cards.some((card) => card.code === code && card.player === player));
}

function watchRaces(
  state: TrackerState,
  pile: TrackedPile,
  centreCards: CardObservation[],
  seenInSeat: Map<number, CardObservation[]>,
  now: number,
  config: TrackerConfig,
  emit: (event: TableEvent, atMs?: number) => void,
): void {
  const watches = [...(pile.earlierRaces ?? []), ...(pile.race ? [pile.race] : [])];
  const open = watches.filter((race) => watchRace(state, pile, race, centreCards, seenInSeat, now, config, emit));
  pile.race = pile.race && open.includes(pile.race) ? pile.race : null;
  pile.earlierRaces = open.filter((race) => race !== pile.race);
}

/** Follows one race watch for one frame; emits the second player's play when a race is confirmed. Returns whether it stays open. */
function watchRace(
  state: TrackerState,
  pile: TrackedPile,
  race: RaceWatch,
  centreCards: CardObservation[],
  seenInSeat: Map<number, CardObservation[]>,
  now: number,
  config: TrackerConfig,
  emit: (event: TableEvent, atMs?: number) => void,
): boolean {
  if (now > race.untilMs) return false;
  for (const ruling of race.byLanding ?? []) if (!ruling.settled) reverseCarriedRace(state, pile, race, ruling, now, config, emit);
  // Per player, their hand's frames over the pile from the landing to raceReachWindowMs after;
  // kept once the window closed (a copy may come home after the motion is forgotten).
  const reachers = () =>
    Object.fromEntries(
      [...reachesBetween(state, pile.center, pile.cardSizePx * HAND_OVER_PILE_CARDS, race.landMs, race.landMs + config.raceReachWindowMs, config.reachByArm)].map(([playerId, { frames, firstMs }]) => [playerId, { frames, firstMs }]),
    );
  if (!race.reachers && now >= race.landMs + config.raceReachWindowMs) race.reachers = reachers();
  let winner = pile.cards.find((card) => card.code === race.code)?.player ?? '';
  const byHand = winner !== '' && !race.ownerJudged ? ownerCameHome(state, pile, race, winner, seenInSeat, reachers, now, config) : null;
  noteHiddenLanders(state, pile, race, centreCards, now, config);
  const byTrack = winner !== '' && !race.ownerJudged && !byHand ? landerUnderOwners(state, race, winner, now, config) : null;
  const first = byHand ?? byTrack;
  if (first && !creditedElsewhere(state, pile, race.code, first)) {
    // The card's owner raced for the slot and took their copy back: the card on the pile is the
    // first racer's, played a moment before (the rules engine then rules the race: first stays).
    race.ownerJudged = true;
    // (A ruling by landing order this overturns is not reversed again.)
    for (const ruling of race.byLanding ?? []) if (ruling.winner === winner) ruling.settled = true;
    pile.cards.find((card) => card.code === race.code)!.player = first;
    (race.losers ??= []).push(winner);
    state.disputes.push({ id: `d${state.nextDisputeNumber++}`, foundationId: pile.id, first: { player: first, card: race.code }, second: { player: winner, card: race.code } });
    emit({ type: 'card-played', player: first, card: race.code, foundationId: pile.id, newPile: false, ownerBy: byHand ? 'hand' : 'track' }, race.landMs - 1);
    winner = first;
  }
  // Every tracked copy seen lying still on the pile (two frames): the first one landed is the winner's.
  race.landers ??= {};
  for (const { track, landedMs } of landedTracks(state, pile, race.code, race.landMs - config.flightGapMs, now, config)) race.landers[String(track.id)] ??= { origin: track.origin!, landedMs };
  if (winner !== '') {
    const losers = race.losers ?? (race.losers = []);
    const byTime = Object.entries(race.landers).sort(([, a], [, b]) => a.landedMs - b.landedMs);
    const [secondTrack, second] = byTime.find(([, lander]) => lander.origin !== winner && !losers.includes(lander.origin) && !creditedElsewhere(state, pile, race.code, lander.origin)) ?? [];
    if (secondTrack && second) {
      // The race stays watched: a third copy may still come.
      losers.push(second.origin);
      const winnerTrack = byTime.find(([, lander]) => lander.origin === winner)?.[0];
      if (winnerTrack) (race.byLanding ??= []).push({ winner, loser: second.origin, winnerTrack: Number(winnerTrack), loserTrack: Number(secondTrack) });
      state.disputes.push({ id: `d${state.nextDisputeNumber++}`, foundationId: pile.id, first: { player: winner, card: race.code }, second: { player: second.origin, card: race.code } });
      emit({ type: 'card-played', player: second.origin, card: race.code, foundationId: pile.id, newPile: false, ownerBy: 'race' }, Math.min(Math.max(second.landedMs, race.landMs + 1), race.landMs + config.disputeWindowMs));
      return true;
    }
  }
  // Without tracks: two copies on this pile in two consecutive frames (one frame could be a misread of another card).
  // A copy lying on another pile of the same suit (another deck's) is no racer.
  const onOtherPile = (card: CardObservation) => {
    const [x, y] = quadCentre(card.corners);
    return state.piles.some(
      (other) => other !== pile && other.cards[other.cards.length - 1]?.code === race.code && liesOnPile(other, x, y, cardHeightPx(card.corners), config),
    );
  };
  if (centreCards.filter((card) => card.code === race.code && !onOtherPile(card)).length >= 2) {
    race.doubleFrames = (race.doubleFrames ?? 0) + 1;
    race.firstDoubleMs ??= now;
    if (race.doubleFrames >= 2) race.secondSeenMs ??= race.firstDoubleMs;
  } else if (race.secondSeenMs === null) {
    // A flying copy shows in consecutive frames; a lone double is a misread of another card.
    race.doubleFrames = 0;
    race.firstDoubleMs = undefined;
  }
  for (const seat of state.seats) {
    if (seat.playerId === winner || (race.losers ?? []).includes(seat.playerId) || creditedElsewhere(state, pile, race.code, seat.playerId)) continue;
    const copies = (seenInSeat.get(seat.seat) ?? []).filter((card) => card.code === race.code);
    const visible = copies.length > 0;
    const lastSeen = seat.lastSeen[race.code];
    if (!visible) {
      if (lastSeen !== undefined && lastSeen >= race.landMs - config.disputeWindowMs && race.away[seat.playerId] === undefined) {
        race.away[seat.playerId] = lastSeen;
        const track = (state.tracks ?? []).find((t) => t.code === race.code && t.origin === seat.playerId);
        // Flying: picked up from where it lay (it had come to rest) and carried at least a card's length.
        const flying = track && track.movingMs === track.lastMs && track.rest && Math.hypot(track.x - track.rest.x, track.y - track.rest.y) >= track.sizePx;
        if (flying) (race.awayFlying ??= {})[seat.playerId] = true;
      }
      continue;
    }
    const awaySince = race.away[seat.playerId];
    if (awaySince === undefined || now - awaySince < config.raceAwayMs || winner === '' || awaySince > (race.coveredMs ?? Infinity)) continue;
    // The copy is back for sure (a faint reading of another card is not it), in raceHomeFrames
    // frames (one or two are a misread, or a card of that name turned up from the stock).
    if (!copies.some((card) => card.confidence >= config.raceBackConfidence)) continue;
    const backFrames = ((race.backFrames ??= {})[seat.playerId] ?? 0) + 1;
    race.backFrames[seat.playerId] = backFrames;
    if (backFrames < config.raceHomeFrames) continue;
    // The racer's hand went to the pile as its copy landed, within the dispute window, and covers
    // its card there until it takes it back (so the second copy itself is rarely seen). Without
    // motion in the frames, only a second copy seen in the centre tells.
    const reach = (race.reachers ?? reachers())[seat.playerId];
    const reached = reach !== undefined && reach.frames >= config.raceReachFrames;
    if (!reached && (race.secondSeenMs === null || state.motionReported)) continue;
    const secondSeen = race.secondSeenMs ?? reach!.firstMs;
    // This seat's copy was followed lying in the seat while the second copy showed in the centre: not the racer.
    const stayedHome =
      race.secondSeenMs !== null &&
      // (A copy last seen flying, before the second copy showed, did leave: its track can be
      // picked up again at home when it comes back, born long before; that is no stay.)
      !(race.awayFlying?.[seat.playerId] && awaySince < secondSeen) &&
      (state.tracks ?? []).some((t) => t.code === race.code && t.origin === seat.playerId && t.lastMs === now && (t.bornMs ?? Infinity) <= secondSeen && !(t.rest && liesOnPile(pile, t.rest.x, t.rest.y, t.sizePx, config)));
    if (stayedHome) continue;
    // The copy flew to the centre and came back: the second lander of a race.
    state.disputes.push({ id: `d${state.nextDisputeNumber++}`, foundationId: pile.id, first: { player: winner, card: race.code }, second: { player: seat.playerId, card: race.code } });
    emit({ type: 'card-played', player: seat.playerId, card: race.code, foundationId: pile.id, newPile: false, ownerBy: 'race' }, Math.min(Math.max(secondSeen, race.landMs + 1), race.landMs + config.disputeWindowMs));
    return false;
  }
  return true;
}

/**
 * A race ruled by landing order (the landers' tracks) the players handled the other way: the copy
 * ruled first is carried off the pile and comes to rest back in its player's seat (seen still
 * there in raceHomeFrames frames, or last seen come to rest there), while the copy ruled second still lies on the pile, seen there
 * after the other came home or covered by a later card. The players' rule is that the second card
 * goes back, so who took their card back is the best evidence of who was second: two copies that
 * land within a frame or during a hand's cover can be told apart by their landing times only by
 * luck (the 5-player seed-4 hand's 4C: p2 beat p4 by 9 ms under two hands; p4 was ruled first,
 * took their 4C home and played it on another pile 15 s later, which then went to p2 by guess).
 * Reverses the ruling: the pile's card, the dispute, the losers, and a race-reversed event.
 */
function reverseCarriedRace(
  state: TrackerState,
  pile: TrackedPile,
  race: RaceWatch,
  ruling: NonNullable<RaceWatch['byLanding']>[number],
  now: number,
  config: TrackerConfig,
  emit: (event: TableEvent, atMs?: number) => void,
): void {
  const tracks = state.tracks ?? [];
  const onPile = (x: number, y: number, size: number) => liesOnPile(pile, x, y, size, config);
  // The seat a copy lies at home in, off the pile: seen there still in raceHomeFrames frames up to
  // now, or last seen there come to rest (a card taken back is often covered, or turned down on
  // the stock, at once; followed there from the pile, it is no misread).
  const homeSeat = (track: CardTrack): number | null => {
    const zone = parseZone(track.zone);
    if (zone?.area !== 'seat' || onPile(track.x, track.y, track.sizePx) || track.stillFrames < 1) return null;
    return track.lastMs < now || track.stillFrames >= config.raceHomeFrames ? zone.seat : null;
  };
  const seatOf = (player: string) => seatOfPlayer(state, player).seat;
  let stays = tracks.find((track) => track.id === ruling.loserTrack);
  let gone = tracks.find((track) => track.id === ruling.winnerTrack) ?? liftedOffInstead(tracks, pile, race, ruling, homeSeat, seatOf(ruling.winner), config);
  if (!gone || !stays) return;
  // Two copies lying together on the pile can swap tracks as one is lifted off (their landing
  // times a few ms apart, which lies on top is a guess): the copy carried home lies in the seat of
  // the player it belongs to (each takes back their own), so the tracks take each other's origin.
  // (The 4-player seed-4 hand's 6D: p1 beat p2 by 1 ms; p2's copy went home on p1's track.)
  if (homeSeat(gone) === seatOf(ruling.loser) || homeSeat(stays) === seatOf(ruling.winner)) {
    [gone.origin, stays.origin] = [stays.origin, gone.origin];
    [gone, stays] = [stays, gone];
    ruling.winnerTrack = gone.id;
    ruling.loserTrack = stays.id;
    const landers = (race.landers ??= {});
    for (const track of [gone, stays]) if (landers[String(track.id)]) landers[String(track.id)] = { ...landers[String(track.id)], origin: track.origin! };
  }
  // The ruled winner's copy lies at home, in their seat.
  if (homeSeat(gone) !== seatOf(ruling.winner)) return;
  // The ruled loser's copy lies on the pile: last seen there, still, once the other came home, or covered since.
  const covered = pile.cards.findIndex((card) => card.code === race.code) < pile.cards.length - 1;
  const cameHomeMs = gone.arrival?.atMs ?? gone.rest?.landedMs ?? now;
  const lying = onPile(stays.x, stays.y, stays.sizePx) && stays.movingMs !== stays.lastMs && (covered || stays.lastMs >= cameHomeMs);
  if (!lying || creditedElsewhere(state, pile, race.code, ruling.loser)) return;
  ruling.settled = true;
  const card = pile.cards.find((c) => c.code === race.code);
  if (card) card.player = ruling.loser;
  const losers = race.losers ?? (race.losers = []);
  race.losers = [...losers.filter((player) => player !== ruling.loser), ruling.winner];
  const dispute = state.disputes.find((d) => d.foundationId === pile.id && d.first.player === ruling.winner && d.second.player === ruling.loser && d.first.card === race.code);
  if (dispute) [dispute.first, dispute.second] = [dispute.second, dispute.first];
  emit({ type: 'race-reversed', foundationId: pile.id, card: race.code, winner: ruling.loser, loser: ruling.winner, reason: `${ruling.winner} took their ${race.code} back off the pile; ${ruling.loser}'s stayed` });
}

/**
 * The track that carried the ruled winner's copy home when the track it landed on is forgotten:
 * two copies hidden together under hands lose their tracks, and the copy lifted off begins a new
 * one as it comes out from under the other. Exactly one track of the card begun within a card's
 * length of the pile after the ruled winner's copy landed there, now lying at home in the ruled
 * winner's seat (`homeSeat`), or undefined. (The 5-player seed-6 hand's 7D: p4 beat p1 by 37 ms
 * under both hands, p1 was ruled first; p1's copy went home on a track begun on the pile, and
 * p1's track, last seen in flight, was forgotten.)
 */
function liftedOffInstead(
  tracks: CardTrack[],
  pile: TrackedPile,
  race: RaceWatch,
  ruling: NonNullable<RaceWatch['byLanding']>[number],
  homeSeat: (track: CardTrack) => number | null,
  winnerSeat: number,
  config: TrackerConfig,
): CardTrack | undefined {
  const landedMs = race.landers?.[String(ruling.winnerTrack)]?.landedMs ?? race.landMs;
  const lifted = tracks.filter(
    (track) =>
      track.code === race.code &&
      track.id !== ruling.loserTrack &&
      track.bornAt !== undefined &&
      (track.bornMs ?? -Infinity) >= landedMs &&
      Math.hypot(track.bornAt.x - pile.center[0], track.bornAt.y - pile.center[1]) <= Math.max(track.sizePx, pile.cardSizePx) &&
      homeSeat(track) === winnerSeat,
  );
  return lifted.length === 1 ? lifted[0] : undefined;
}

/**
 * The player whose copy lay hidden under the card's owner's, when the owner (as decided) took
 * theirs back: while the race is watched, another player's tracked copy was last seen in flight a
 * card's length or less from the pile, heading for it, and never seen again (it lies under the
 * copy that covered it), and the owner's copy that landed there was seen carried off the pile while
 * a copy of the card still showed on it; once the owner's copy lies still at home in their seat
 * (raceHomeFrames frames), the card on the pile is the other's. Exactly one such other player, or
 * null. Why: a copy landing a moment before another that lands squarely on it is never seen on
 * the pile, so the play went to the one on top (the 5-player seed-1 hand's 4H: p4 beat p2 by 0 ms;
 * p2's copy was carried home and p4's showed on the pile as a card of no track). The tracks are
 * forgotten (trackGapMs) before the owner's copy is home, so what was seen is kept on the watch.
 */
function landerUnderOwners(state: TrackerState, race: RaceWatch, owner: string, now: number, config: TrackerConfig): string | null {
  if (!race.leftWhileShown?.[owner]) return null;
  const tracks = (state.tracks ?? []).filter((track) => track.code === race.code);
  const ownerSeat = seatOfPlayer(state, owner).seat;
  const home = tracks.some((track) => track.origin === owner && race.landers?.[String(track.id)] !== undefined && seatAtRest(track, now, config) === ownerSeat);
  if (!home) return null;
  const losers = race.losers ?? [];
  // (A copy seen again since it vanished did not lie under the owner's.)
  const hidden = Object.entries(race.vanishedNear ?? {}).filter(([player, lastMs]) => player !== owner && !losers.includes(player) && !tracks.some((track) => track.origin === player && track.lastMs > lastMs));
  return hidden.length === 1 ? hidden[0][0] : null;
}

/** Notes for landerUnderOwners what this frame shows: copies vanishing as they fly into the pile, and landed copies carried off it while a copy still shows there. */
function noteHiddenLanders(state: TrackerState, pile: TrackedPile, race: RaceWatch, centreCards: CardObservation[], now: number, config: TrackerConfig): void {
  const tracks = (state.tracks ?? []).filter((track) => track.code === race.code && track.origin !== null);
  const distance = (x: number, y: number) => Math.hypot(x - pile.center[0], y - pile.center[1]);
  for (const track of tracks) {
    if (track.movingMs !== track.lastMs || track.lastMs < race.landMs - config.flightGapMs || track.lastMs >= now) continue;
    const heading = (track.vx ?? 0) * (pile.center[0] - track.x) + (track.vy ?? 0) * (pile.center[1] - track.y) > 0;
    if (heading && distance(track.x, track.y) <= track.sizePx) (race.vanishedNear ??= {})[track.origin!] = track.lastMs;
  }
  const onPile = (card: CardObservation) => liesOnPile(pile, ...quadCentre(card.corners), cardHeightPx(card.corners), config);
  if (!centreCards.some((card) => card.code === race.code && onPile(card))) return;
  for (const track of tracks) {
    if (race.landers?.[String(track.id)] === undefined || track.movingMs !== now || distance(track.x, track.y) <= track.sizePx) continue;
    (race.leftWhileShown ??= {})[track.origin!] = true;
  }
}

/**
 * The player who really played a race's card when its owner, as decided (resolvePending), lost
 * the race: the owner's copy is back in their seat, surely (raceBackConfidence) in raceHomeFrames
 * frames from raceAwayMs after the landing (one or two frames are a misread: the 6-player seed-1
 * hand's p1, whose 3D was on the pile, showed a "3D" on their waste at 0.57 twice), their hand having reached the pile
 * (raceReachFrames, counted by `reachersAfterLanding`, the race watch's reachers); the first racer is the other player whose hand was over the pile earliest,
 * from a dispute window before the landing up to it. Null when that is not so, or no other hand was there.
 * Why: the loser's copy is often the only one the camera saw leave its seat (the winner's came
 * from under a card or out of a hand), so the play was given to them (the 6-player seed-1 hand:
 * p5's 7S lost to p1's by 0.49 s, and came home 0.18 s after it was carried back).
 */
function ownerCameHome(
  state: TrackerState,
  pile: TrackedPile,
  race: RaceWatch,
  owner: string,
  seenInSeat: Map<number, CardObservation[]>,
  reachersAfterLanding: () => Record<string, { frames: number }>,
  now: number,
  config: TrackerConfig,
): string | null {
  const seat = seatOfPlayer(state, owner);
  if (now < race.landMs + config.raceAwayMs) return null;
  if (!(seenInSeat.get(seat.seat) ?? []).some((card) => card.code === race.code && card.confidence >= config.raceBackConfidence)) return null;
  race.ownerHomeFrames = (race.ownerHomeFrames ?? 0) + 1;
  if (race.ownerHomeFrames < config.raceHomeFrames) return null;
  if ((reachersAfterLanding()[owner]?.frames ?? 0) < config.raceReachFrames) return null;
  // The first racer's hand put the card down: it was over the pile by the landing.
  const others = [...reachesBetween(state, pile.center, pile.cardSizePx * HAND_OVER_PILE_CARDS, race.landMs - config.disputeWindowMs, race.landMs, config.reachByArm)].filter(([playerId]) => playerId !== owner);
  others.sort(([, a], [, b]) => a.firstMs - b.firstMs || b.frames - a.frames);
  return others[0]?.[0] ?? null;
}

/**
 * Marks the hand as called from outside (manual call, naming the caller when known, at `atMs` on
 * the camera's clock): later plays are after the call. A call the camera heard first keeps its
 * time; otherwise the manual call's time is the call's for the tracker's after-the-call rules
 * (cards uncovered after it landed before it, piles gone after it were gathered).
 */
export function markCalled(previous: TrackerState, caller?: string, atMs?: number): TrackerState {
  const calledAtMs = previous.calledAtMs ?? atMs;
  return { ...previous, called: true, ...(caller !== undefined ? { caller } : {}), ...(calledAtMs !== undefined ? { calledAtMs } : {}) };
}
