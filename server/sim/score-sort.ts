/**
 * The score sort after the call, on the simulated table. Real players end a hand by turning the
 * centre cards over, sorting them by back (every deck has its own) and counting each player's.
 * Here that is done the way our referee asks players to, so the camera can count too:
 *   1. gather: every centre card (foundations and completed piles set aside) is swept into one
 *      face-down stack in the middle of the table;
 *   2. deal: each player deals their own cards from it, face down, one by one, into the free
 *      table space nearest their seat, each card apart from the others (a card under another
 *      hides its back, so the camera could not count it);
 *   3. hold: the spread lies still for a few seconds, hands drawn back, while the referee looks.
 * The tableaus (and so each Nerts pile) stay as they were.
 *
 * `withScoreSort(data)` appends this to a hand's timeline data; pure, deterministic (small
 * messy offsets are hashed from card ids). Units: ms, table mm.
 */
import { idleHandPoint, pileAnchor, polygonsOverlap, seatToTable, TABLEAU_FOOTPRINT, type PlanePose, type Rect, type RestingPose, type TableLayout } from './layout';
import { hashUnit } from './bots/rng';
import { CARD_HEIGHT_MM, CARD_THICKNESS_MM, CARD_WIDTH_MM, type SeatLayout, type Zone } from './scene';
import { cardId, HOVER_HEIGHT_MM, restingPoses, type CardFlight, type HandMotion, type HandTimelineData, type PhysicalState, type TimelineSnapshot } from './timeline';

/** Timing and spacing of the score sort. */
export interface ScoreSortOptions {
  /** Pause after play has settled before the gathering starts, ms. */
  pauseMs: number;
  /** How long the sweep of all centre cards into one stack takes, ms. */
  gatherMs: number;
  /** Between two cards dealt by the same player, ms (each deal: reach the stack, carry the card out). */
  dealStepMs: number;
  /** How long the dealt cards lie still at the end, hands drawn back, ms. */
  holdMs: number;
  /** Free table between two dealt cards, mm. */
  gapMm: number;
}

export const DEFAULT_SCORE_SORT: ScoreSortOptions = { pauseMs: 800, gatherMs: 1500, dealStepMs: 520, holdMs: 4000, gapMm: 12 };

/** Room kept between the table edge and a dealt card, mm. */
const EDGE_MARGIN_MM = 30;
/** Room kept round a seat's stock and Nerts pile (their calibration zones reach 10 mm past the card), mm. */
const PILE_CLEARANCE_MM = 16;
/** How far from its seat, towards the table centre, a player deals first (fraction of the way). */
const DEAL_ANCHOR_SHARE = 0.5;

function rectOf(pose: PlanePose, grow: number): Rect {
  const c = Math.cos(pose.rotationRad);
  const s = Math.sin(pose.rotationRad);
  const hw = CARD_WIDTH_MM / 2 + grow;
  const hh = CARD_HEIGHT_MM / 2 + grow;
  return {
    corners: [
      [-hw, -hh],
      [hw, -hh],
      [hw, hh],
      [-hw, hh],
    ].map(([u, v]) => ({ x: pose.xMm + u * c + v * s, y: pose.yMm - u * s + v * c })),
  };
}

/** Where a player's hand rests while the dealt cards are counted: their own edge of the tableau. */
function restPoint(seat: SeatLayout): { xMm: number; yMm: number } {
  return seatToTable(seat, 0, TABLEAU_FOOTPRINT.maxV - 40);
}

/** The table round a resting hand and its forearm, where no card is dealt (the hand would hide it). */
function restArea(seat: SeatLayout): Rect {
  const f = TABLEAU_FOOTPRINT;
  const corners = [
    [f.minU - 40, f.maxV - 110],
    [f.maxU + 40, f.maxV - 110],
    [f.maxU + 40, f.maxV + 400],
    [f.minU - 40, f.maxV + 400],
  ].map(([u, v]) => {
    const p = seatToTable(seat, u, v);
    return { x: p.xMm, y: p.yMm };
  });
  return { corners };
}

/** Where the gathered stack lies: the middle of the table. */
export const GATHER_SPOT: PlanePose = { xMm: 0, yMm: 0, rotationRad: 0 };

/**
 * Free places for dealt cards: an upright grid over the table, clear of the table's edge, of
 * every card still lying in a tableau (`obstacles`), of each seat's stock and Nerts pile (the
 * backs there are not centre cards, even when the pile is empty now) and of the gathered stack.
 * Each seat gets `counts[seat]` places, the players taking turns to pick the free place nearest
 * a point between their seat and the centre, so each player's cards lie together on their side.
 * Null when the table has too little room.
 */
export function sortPlaces(layout: TableLayout, counts: readonly number[], obstacles: readonly PlanePose[] = [], gapMm = DEFAULT_SCORE_SORT.gapMm): PlanePose[][] | null {
  const pitchX = CARD_WIDTH_MM + gapMm;
  const pitchY = CARD_HEIGHT_MM + gapMm;
  const halfW = layout.table.widthMm / 2 - EDGE_MARGIN_MM - CARD_WIDTH_MM / 2;
  const halfH = layout.table.heightMm / 2 - EDGE_MARGIN_MM - CARD_HEIGHT_MM / 2;
  const blocked = [
    ...obstacles.map((pose) => rectOf(pose, gapMm)),
    ...layout.seats.flatMap((seat) => (['stock', 'nerts'] as const).map((pile) => rectOf(pileAnchor(seat, pile), PILE_CLEARANCE_MM))),
    ...layout.seats.map(restArea),
    rectOf(GATHER_SPOT, gapMm),
  ];
  const free: PlanePose[] = [];
  // The grid is centred on the table (a cell may sit on the centre line) and walks outwards.
  for (let j = -Math.floor(halfH / pitchY); j <= Math.floor(halfH / pitchY); j += 1) {
    for (let i = -Math.floor(halfW / pitchX); i <= Math.floor(halfW / pitchX); i += 1) {
      const pose = { xMm: i * pitchX, yMm: j * pitchY, rotationRad: 0 };
      const card = rectOf(pose, 0);
      if (!blocked.some((rect) => polygonsOverlap(card, rect))) free.push(pose);
    }
  }
  const total = counts.reduce((a, b) => a + b, 0);
  if (total > free.length) return null;
  const anchors = layout.seats.map((seat) => ({ x: seat.xMm * DEAL_ANCHOR_SHARE, y: seat.yMm * DEAL_ANCHOR_SHARE }));
  const places: PlanePose[][] = counts.map(() => []);
  const taken = new Set<number>();
  while (places.some((p, seat) => p.length < counts[seat])) {
    for (let seat = 0; seat < counts.length; seat += 1) {
      if (places[seat].length >= counts[seat]) continue;
      let best = -1;
      let bestDistance = Infinity;
      free.forEach((pose, k) => {
        if (taken.has(k)) return;
        const d = Math.hypot(pose.xMm - anchors[seat].x, pose.yMm - anchors[seat].y);
        if (d < bestDistance) {
          best = k;
          bestDistance = d;
        }
      });
      taken.add(best);
      places[seat].push(free[best]);
    }
  }
  return places;
}

/** A dealt card's resting pose at `place`: a little off the grid, as a hand lays it. */
function dealtPose(place: PlanePose, id: string): RestingPose {
  return {
    xMm: place.xMm + 3 * hashUnit(`${id}:sort-x`),
    yMm: place.yMm + 3 * hashUnit(`${id}:sort-y`),
    rotationRad: 0.05 * hashUnit(`${id}:sort-a`),
    zMm: CARD_THICKNESS_MM,
  };
}

/** The `index`-th card (from the bottom) of the gathered stack. */
function gatheredPose(index: number, id: string): RestingPose {
  return {
    xMm: GATHER_SPOT.xMm + 2 * hashUnit(`${id}:gather-x`),
    yMm: GATHER_SPOT.yMm + 2 * hashUnit(`${id}:gather-y`),
    rotationRad: 0.04 * hashUnit(`${id}:gather-a`),
    zMm: (index + 1) * CARD_THICKNESS_MM,
  };
}

/**
 * The hand's timeline with the score sort appended after it (see the file comment). A hand with
 * no centre cards, or with more than the free table has room for dealt apart (the simulated
 * 2-player table is fitted tightly round its two tableaus), is returned as it is.
 */
export function withScoreSort(data: HandTimelineData, options: ScoreSortOptions = DEFAULT_SCORE_SORT): HandTimelineData {
  const last = data.snapshots[data.snapshots.length - 1];
  const table = last.table;
  const centre = table.foundations.flatMap((foundation) => foundation.cards.map((card) => ({ card, id: cardId(card) })));
  if (centre.length === 0) return data;
  const seatOf = new Map(table.seats.map((player, seat) => [player, seat]));
  const bySeat: string[][] = table.seats.map(() => []);
  for (const { card, id } of centre) bySeat[seatOf.get(card.owner) ?? 0].push(id);
  const before = restingPoses(data.layout, table, last.physical);
  const centreIds = new Set(centre.map(({ id }) => id));
  const tableauCards = [...before.values()].filter((pose) => !centreIds.has(pose.id));
  const places = sortPlaces(data.layout, bySeat.map((ids) => ids.length), tableauCards, options.gapMm);
  if (!places) return data;

  const flights: CardFlight[] = [];
  const motions: HandMotion[] = [];
  // Each change of a card's resting place, in time order, becomes a snapshot.
  const landings: Array<{ timeMs: number; id: string; pose: RestingPose; zone: Zone }> = [];

  // 1. Gather: piles swept one after another into a face-down stack, dealt later from the top,
  //    so the stack is built in the reverse of the dealing order (round by round, seat by seat).
  const dealOrder: Array<{ seat: number; index: number; id: string }> = [];
  const rounds = Math.max(...bySeat.map((ids) => ids.length));
  for (let k = 0; k < rounds; k += 1) bySeat.forEach((ids, seat) => { if (k < ids.length) dealOrder.push({ seat, index: k, id: ids[k] }); });
  const stackIndex = new Map(dealOrder.map((deal, i) => [deal.id, dealOrder.length - 1 - i]));
  const gatherStart = data.durationMs + options.pauseMs;
  const piles = table.foundations.filter((f) => f.cards.length > 0);
  piles.forEach((foundation, p) => {
    const ids = foundation.cards.map(cardId);
    // Piles leave one after another over the first half; the last lands as the gathering ends.
    const startMs = gatherStart + (p * options.gatherMs) / 2 / piles.length;
    const endMs = startMs + options.gatherMs / 2;
    const to = ids.map((id) => gatheredPose(stackIndex.get(id)!, id));
    flights.push({
      seat: 0,
      cardIds: ids,
      startMs,
      endMs,
      from: ids.map((id) => before.get(id)!),
      to,
      faceUpFrom: ids.map((id) => before.get(id)!.faceUp),
      faceUpTo: ids.map(() => false),
      liftMm: 20,
      zone: { kind: 'sorted', seat: null },
    });
    ids.forEach((id, k) => landings.push({ timeMs: endMs, id, pose: to[k], zone: { kind: 'sorted', seat: null } }));
  });

  // 2. Deal: every player at once, each dealing their own cards from the stack into their places.
  const dealStart = gatherStart + options.gatherMs + 300;
  const handOfSeat = new Map<number, number>();
  data.hands.forEach((hand, index) => { if (!handOfSeat.has(hand.seat)) handOfSeat.set(hand.seat, index); });
  const above = (pose: PlanePose, zMm: number) => ({ xMm: pose.xMm, yMm: pose.yMm, zMm });
  let lastLand = dealStart;
  for (const deal of dealOrder) {
    const seat = data.layout.seats[deal.seat];
    const hand = handOfSeat.get(deal.seat) ?? 0;
    const reachStart = dealStart + deal.index * options.dealStepMs + deal.seat * 70;
    const pickMs = reachStart + options.dealStepMs * 0.4;
    const landMs = reachStart + options.dealStepMs * 0.95;
    const from = gatheredPose(stackIndex.get(deal.id)!, deal.id);
    const to = dealtPose(places[deal.seat][deal.index], deal.id);
    const previous = deal.index === 0 ? { ...idleHandPoint(seat, 0), zMm: HOVER_HEIGHT_MM } : above(places[deal.seat][deal.index - 1], 25);
    motions.push({ seat: deal.seat, hand, startMs: reachStart, endMs: pickMs, from: previous, to: above(from, 25), holding: false });
    motions.push({ seat: deal.seat, hand, startMs: pickMs, endMs: landMs, from: above(from, 25), to: above(to, 25), holding: true });
    flights.push({ seat: deal.seat, cardIds: [deal.id], startMs: pickMs, endMs: landMs, from: [from], to: [to], faceUpFrom: [false], faceUpTo: [false], liftMm: 25, zone: { kind: 'hand', seat: deal.seat } });
    landings.push({ timeMs: landMs, id: deal.id, pose: to, zone: { kind: 'sorted', seat: deal.seat } });
    lastLand = Math.max(lastLand, landMs);
  }
  // Hands drawn back once a player's last card is down.
  bySeat.forEach((ids, seatIndex) => {
    if (ids.length === 0) return;
    const seat = data.layout.seats[seatIndex];
    const startMs = dealStart + (ids.length - 1) * options.dealStepMs + seatIndex * 70 + options.dealStepMs;
    // Back to the player's own edge of the table, off the dealt cards, while they are counted.
    const rest = { ...restPoint(seat), zMm: HOVER_HEIGHT_MM };
    motions.push({ seat: seatIndex, hand: handOfSeat.get(seatIndex) ?? 0, startMs, endMs: startMs + 700, from: above(places[seatIndex][ids.length - 1], 25), to: rest, holding: false });
  });

  landings.sort((a, b) => a.timeMs - b.timeMs);
  const snapshots: TimelineSnapshot[] = [...data.snapshots];
  let sorted: PhysicalState['sorted'] = { ...(last.physical.sorted ?? {}) };
  for (let i = 0; i < landings.length; ) {
    const timeMs = landings[i].timeMs;
    sorted = { ...sorted };
    for (; i < landings.length && landings[i].timeMs === timeMs; i += 1) sorted[landings[i].id] = { ...landings[i].pose, zone: landings[i].zone };
    snapshots.push({ timeMs, table, physical: { ...last.physical, sorted } });
  }
  return {
    ...data,
    snapshots,
    flights: [...data.flights, ...flights],
    motions: [...data.motions, ...motions],
    durationMs: lastLand + options.holdMs,
  };
}
