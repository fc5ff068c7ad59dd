/**
 * Geometry of the simulated Nerts table: where each seat's tableau lies, where each card of a
 * pile rests (with the small random offsets of a real, messy stack), where foundations are
 * started in the common centre and where completed ones are pushed aside.
 *
 * Units: table millimetres (origin at the table centre, x right, y towards the bottom of a
 * top-down image, z up), angles in radians. Pure functions, no I/O, no Math.random: messy
 * offsets are hashed from the card's identity and place, so any instant can be redrawn alone.
 */
import { CARD_HEIGHT_MM, CARD_THICKNESS_MM, CARD_WIDTH_MM, type SeatLayout } from './scene';
import { hashUnit, SimRng } from './bots/rng';

/** Distance between neighbouring pile columns in a tableau, mm (a card plus a finger's gap). */
export const COLUMN_PITCH_MM = 71;
/**
 * How far each card of a work pile sits below the one it covers (towards the player), mm.
 * Chosen so the covered card's top index strip (rank and suit, about 16 mm tall) stays visible.
 */
export const CASCADE_STEP_MM = 19;
/** Height of a card's index strip that must stay uncovered in a cascade, mm. */
export const INDEX_STRIP_MM = 16;
/** Sideways step between the (up to) three fanned waste cards of the latest turn, mm. */
export const WASTE_FAN_STEP_MM = 15;
/** The longest possible work pile: king down to ace. */
export const MAX_WORK_PILE_CARDS = 13;
/** Room kept between the table edge and any card, mm. */
const TABLE_MARGIN_MM = 45;

/** A position and orientation on the table plane. */
export interface PlanePose {
  xMm: number;
  yMm: number;
  /** Rotation of an upright card, radians (counter-clockwise as seen from above). */
  rotationRad: number;
}

/** One seat: the contract's SeatLayout plus what the simulator needs to place cards and arms. */
export interface SeatGeometry extends SeatLayout {
  /** Where the player's forearm crosses the table edge on their side, table mm. */
  edgeXMm: number;
  edgeYMm: number;
}

/** The common area where foundations are built: an ellipse round the table centre, mm. */
export interface CentreArea {
  radiusXMm: number;
  radiusYMm: number;
}

/** Static layout of a whole table. */
export interface TableLayout {
  table: { widthMm: number; heightMm: number };
  seats: SeatGeometry[];
  centre: CentreArea;
}

/** Who sits at the table, in seat order (seat 0 at the bottom of a top-down image, then round). */
export interface SeatAssignment {
  playerId: string;
  deckId: string;
}

// Tableau-local frame: u = the player's right, v = towards the player (away from the centre).
// Far row (nearest the centre): Nerts pile, four work piles, stock; the waste fans below the stock.
const TABLEAU_SHIFT_U = -18; // centres the tableau's footprint on the seat point
const FAR_ROW_V = -105;
const WASTE_ROW_V = FAR_ROW_V + CARD_HEIGHT_MM + 14;
const HALF_W = CARD_WIDTH_MM / 2;
const HALF_H = CARD_HEIGHT_MM / 2;

function columnU(column: number): number {
  return (column - 2.5) * COLUMN_PITCH_MM + TABLEAU_SHIFT_U;
}

/** Footprint of a full tableau in its local frame (worst case: 13-card cascades, full waste fan), mm. */
export const TABLEAU_FOOTPRINT = {
  minU: columnU(0) - HALF_W - 4,
  maxU: columnU(5) + 2 * WASTE_FAN_STEP_MM + HALF_W + 4,
  minV: FAR_ROW_V - HALF_H - 4,
  maxV: FAR_ROW_V + (MAX_WORK_PILE_CARDS - 1) * CASCADE_STEP_MM + HALF_H + 4,
} as const;

/** Rotates a local vector by `angle` (counter-clockwise as seen from above, y pointing down the image). */
export function rotateVector(u: number, v: number, angle: number): { x: number; y: number } {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return { x: u * c + v * s, y: -u * s + v * c };
}

/** Converts a point in a seat's tableau frame (u right, v towards the player) to table mm. */
export function seatToTable(seat: SeatLayout, u: number, v: number): { xMm: number; yMm: number } {
  const r = rotateVector(u, v, seat.facingRad);
  return { xMm: seat.xMm + r.x, yMm: seat.yMm + r.y };
}

/** Converts a table point to a seat's tableau frame (inverse of seatToTable). */
export function tableToSeat(seat: SeatLayout, xMm: number, yMm: number): { u: number; v: number } {
  const r = rotateVector(xMm - seat.xMm, yMm - seat.yMm, -seat.facingRad);
  return { u: r.x, v: r.y };
}

/** The four corners of a card lying at `pose`, table mm, TL TR BR BL as its owner sees it. */
export function cardCorners(pose: PlanePose): Array<{ x: number; y: number }> {
  return [
    [-HALF_W, -HALF_H],
    [HALF_W, -HALF_H],
    [HALF_W, HALF_H],
    [-HALF_W, HALF_H],
  ].map(([u, v]) => {
    const r = rotateVector(u, v, pose.rotationRad);
    return { x: pose.xMm + r.x, y: pose.yMm + r.y };
  });
}

/** A convex polygon on the table, mm. */
export interface Rect {
  corners: Array<{ x: number; y: number }>;
}

function footprintRect(seat: SeatLayout, grow: number): Rect {
  const f = TABLEAU_FOOTPRINT;
  const pts: Array<[number, number]> = [
    [f.minU - grow, f.minV - grow],
    [f.maxU + grow, f.minV - grow],
    [f.maxU + grow, f.maxV + grow],
    [f.minU - grow, f.maxV + grow],
  ];
  return { corners: pts.map(([u, v]) => { const p = seatToTable(seat, u, v); return { x: p.xMm, y: p.yMm }; }) };
}

/** Separating-axis test for two convex polygons. */
export function polygonsOverlap(a: Rect, b: Rect): boolean {
  for (const poly of [a, b]) {
    const n = poly.corners.length;
    for (let i = 0; i < n; i++) {
      const p = poly.corners[i];
      const q = poly.corners[(i + 1) % n];
      const axis = { x: -(q.y - p.y), y: q.x - p.x };
      const project = (r: Rect) => r.corners.map((c) => c.x * axis.x + c.y * axis.y);
      const pa = project(a);
      const pb = project(b);
      if (Math.max(...pa) < Math.min(...pb) || Math.max(...pb) < Math.min(...pa)) return false;
    }
  }
  return true;
}

function ellipsePolygon(area: CentreArea): Rect {
  const corners = [];
  for (let k = 0; k < 24; k++) {
    const a = (2 * Math.PI * k) / 24;
    corners.push({ x: area.radiusXMm * Math.cos(a), y: area.radiusYMm * Math.sin(a) });
  }
  return { corners };
}

function placeSeats(assignments: readonly SeatAssignment[], radiusX: number, radiusY: number): SeatLayout[] {
  const n = assignments.length;
  return assignments.map((a, seat) => {
    // Two players face each other across the short side, so the table suits a 16:9 camera.
    const angle = (2 * Math.PI * seat) / n + (n === 2 ? Math.PI / 2 : 0);
    const xMm = radiusX * Math.sin(angle);
    const yMm = radiusY * Math.cos(angle);
    // Upright for the player means the card's top points at the table centre.
    const facingRad = Math.atan2(xMm, yMm);
    return { seat, playerId: a.playerId, deckId: a.deckId, xMm, yMm, facingRad };
  });
}

/** Depth of the 2-player table, mm (see computeLayout). */
export const TWO_PLAYER_TABLE_DEPTH_MM = 1000;

/**
 * Seats 2–6 players round a common centre: the centre ellipse is sized for the foundations
 * (four per player at most), then the ring of tableaus is pushed out until no two tableaus
 * (with full-length cascades) overlap each other or the centre. Deterministic.
 */
export function computeLayout(assignments: readonly SeatAssignment[]): TableLayout {
  const n = assignments.length;
  if (n < 2 || n > 6) throw new Error(`layout: 2 to 6 players, got ${n}`);
  // Room for 4n foundations with their messy spread, plus an outer band for completed piles.
  const areaNeeded = 4 * n * 110 * 140;
  // Two players leave a tall band between them; more players ring a wide oval.
  const aspect = n === 2 ? 0.5 : 1.5;
  const radiusYMm = Math.sqrt(areaNeeded / (Math.PI * aspect));
  const centre: CentreArea = { radiusXMm: radiusYMm * aspect, radiusYMm };
  const centrePoly = ellipsePolygon({ radiusXMm: centre.radiusXMm + 15, radiusYMm: centre.radiusYMm + 15 });

  let scale = 0.3;
  let seats: SeatLayout[] = [];
  for (let attempt = 0; attempt < 400; attempt++, scale += 0.01) {
    const rx = (centre.radiusXMm + 200) * scale * 1.6;
    const ry = n === 2 ? 0 : (centre.radiusYMm + 200) * scale * 1.6;
    seats = placeSeats(assignments, rx, ry);
    const rects = seats.map((s) => footprintRect(s, 10));
    let clash = rects.some((r) => polygonsOverlap(r, centrePoly));
    for (let i = 0; i < n && !clash; i++) {
      for (let j = i + 1; j < n && !clash; j++) clash = polygonsOverlap(rects[i], rects[j]);
    }
    if (!clash) break;
  }

  let maxX = centre.radiusXMm;
  let maxY = centre.radiusYMm;
  for (const s of seats) {
    for (const c of footprintRect(s, 0).corners) {
      maxX = Math.max(maxX, Math.abs(c.x));
      maxY = Math.max(maxY, Math.abs(c.y));
    }
  }
  const widthMm = Math.ceil(2 * (maxX + TABLE_MARGIN_MM));
  // Two players sit at a card table about a metre across. Fitted round their tableaus alone the
  // table was 651 mm deep, which left no room to deal the score sort (server/sim/score-sort.ts):
  // the deeper table gives the dealt cards bands above and below the centre. Play is the same.
  const heightMm = Math.max(Math.ceil(2 * (maxY + TABLE_MARGIN_MM)), n === 2 ? TWO_PLAYER_TABLE_DEPTH_MM : 0);
  const table = { widthMm, heightMm };
  const geometry: SeatGeometry[] = seats.map((s) => {
    const edge = edgePoint(table, s, 1);
    return { ...s, edgeXMm: edge.xMm, edgeYMm: edge.yMm };
  });
  return { table, seats: geometry, centre };
}

/** Where a forearm crosses the table edge behind a seat: `side` 1 = the player's right, -1 = left (a partner). */
function edgePoint(table: { widthMm: number; heightMm: number }, s: SeatLayout, side: 1 | -1): { xMm: number; yMm: number } {
  const { widthMm, heightMm } = table;
  const out = rotateVector(0, 1, s.facingRad);
  const tx = out.x === 0 ? Infinity : (widthMm / 2 - Math.sign(out.x) * s.xMm) / Math.abs(out.x);
  const ty = out.y === 0 ? Infinity : (heightMm / 2 - Math.sign(out.y) * s.yMm) / Math.abs(out.y);
  const t = Math.min(tx, ty);
  const right = rotateVector(side, 0, s.facingRad);
  return {
    xMm: clamp(s.xMm + out.x * t + right.x * 90, -widthMm / 2, widthMm / 2),
    yMm: clamp(s.yMm + out.y * t + right.y * 90, -heightMm / 2, heightMm / 2),
  };
}

/** Where the forearm of a person at `seatIndex` leaves the table (side 1: right-handed player, -1: a partner beside them), mm. */
export function elbowPoint(layout: TableLayout, seatIndex: number, side: 1 | -1): { xMm: number; yMm: number } {
  return edgePoint(layout.table, layout.seats[seatIndex], side);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** A card's resting pose and height. */
export interface RestingPose extends PlanePose {
  zMm: number;
}

function jitter(key: string, positionMm: number, angleRad: number): { du: number; dv: number; da: number } {
  return { du: hashUnit(`${key}:u`) * positionMm, dv: hashUnit(`${key}:v`) * positionMm, da: hashUnit(`${key}:a`) * angleRad };
}

function tableauPose(seat: SeatLayout, u: number, v: number, index: number, key: string, spreadMm: number, spreadRad: number): RestingPose {
  const j = jitter(key, spreadMm, spreadRad);
  const p = seatToTable(seat, u + j.du, v + j.dv);
  return { xMm: p.xMm, yMm: p.yMm, rotationRad: seat.facingRad + j.da, zMm: (index + 1) * CARD_THICKNESS_MM };
}

/** Pose of card `index` (0 = bottom) of a seat's Nerts pile; `cardId` keys its messy offset. */
export function nertsPose(seat: SeatLayout, index: number, cardId: string): RestingPose {
  return tableauPose(seat, columnU(0), FAR_ROW_V, index, `nerts:${cardId}:${index}`, 1.2, 0.025);
}

/** Pose of card `index` (0 = base) of work pile `pile` (0..3): a cascade towards the player. */
export function workPose(seat: SeatLayout, pile: number, index: number, cardId: string): RestingPose {
  return tableauPose(seat, columnU(1 + pile), FAR_ROW_V + index * CASCADE_STEP_MM, index, `work:${cardId}:${pile}:${index}`, 1.0, 0.02);
}

/** Where an empty work pile's first card goes (its centre), table mm. */
export function workSlot(seat: SeatLayout, pile: number): PlanePose {
  const p = seatToTable(seat, columnU(1 + pile), FAR_ROW_V);
  return { ...p, rotationRad: seat.facingRad };
}

/** Pose of card `index` (0 = bottom) of a seat's face-down stock. */
export function stockPose(seat: SeatLayout, index: number, cardId: string): RestingPose {
  return tableauPose(seat, columnU(5), FAR_ROW_V, index, `stock:${cardId}:${index}`, 1.3, 0.03);
}

/**
 * Pose of waste card `index` (0 = bottom). Cards from `fanBase` up are the latest turn of (at
 * most) three and fan out to the right so each shows its index; older cards lie squared.
 */
export function wastePose(seat: SeatLayout, index: number, fanBase: number, cardId: string): RestingPose {
  const fanStep = index >= fanBase ? Math.min(index - fanBase, 2) : 0;
  return tableauPose(seat, columnU(5) + fanStep * WASTE_FAN_STEP_MM, WASTE_ROW_V, index, `waste:${cardId}:${index}`, 1.5, 0.03);
}

/** Resting pose for the whole Nerts, stock or waste pile's position (for hands and flights). */
export function pileAnchor(seat: SeatLayout, pile: 'nerts' | 'stock' | 'waste'): PlanePose {
  const u = pile === 'nerts' ? columnU(0) : columnU(5);
  const v = pile === 'waste' ? WASTE_ROW_V : FAR_ROW_V;
  return { ...seatToTable(seat, u, v), rotationRad: seat.facingRad };
}

/** Where a hand hovers while its player thinks: over the middle of their own tableau, table mm. */
export function idleHandPoint(seat: SeatLayout, wobble: number): { xMm: number; yMm: number } {
  return seatToTable(seat, TABLEAU_SHIFT_U + 40 * wobble, FAR_ROW_V + 150 + 25 * wobble);
}

/** Pose of card `index` of a foundation started at `spot`: a loosely squared, slightly turned heap. */
export function foundationPose(spot: PlanePose, index: number, cardId: string): RestingPose {
  const j = jitter(`found:${cardId}:${index}`, 2.5, 0.07);
  return { xMm: spot.xMm + j.du, yMm: spot.yMm + j.dv, rotationRad: spot.rotationRad + j.da, zMm: (index + 1) * CARD_THICKNESS_MM };
}

/** Pose of card `index` of a completed pile, turned face down and pushed aside to `spot`. */
export function asidePose(spot: PlanePose, index: number, cardId: string): RestingPose {
  const j = jitter(`aside:${cardId}:${index}`, 1.2, 0.03);
  return { xMm: spot.xMm + j.du, yMm: spot.yMm + j.dv, rotationRad: spot.rotationRad + j.da, zMm: (index + 1) * CARD_THICKNESS_MM };
}

/** Fraction of the usable centre used by live foundations; the outer band holds completed piles. */
const LIVE_FOUNDATION_FRACTION = 0.78;
/** Half a card's diagonal, mm: a card centred this far inside the centre's rim stays inside it. */
const CARD_HALF_DIAGONAL_MM = 0.5 * Math.hypot(CARD_WIDTH_MM, CARD_HEIGHT_MM);

/** Semi-axes of the ellipse in which card centres may lie so that whole cards stay in the centre, mm. */
function usableCentre(area: CentreArea): { rx: number; ry: number } {
  return {
    rx: Math.max(10, area.radiusXMm - CARD_HALF_DIAGONAL_MM),
    ry: Math.max(10, area.radiusYMm - CARD_HALF_DIAGONAL_MM),
  };
}

/**
 * Chooses where a player starts a new foundation: somewhere in the centre near their own side,
 * clear of live foundations where possible (a little overlap is allowed, as on a real table),
 * turned roughly towards the player.
 */
export function chooseFoundationSpot(layout: TableLayout, seatIndex: number, occupied: readonly PlanePose[], rng: SimRng): PlanePose {
  const seat = layout.seats[seatIndex];
  const { rx, ry } = usableCentre(layout.centre);
  let best: PlanePose | null = null;
  let bestScore = Infinity;
  for (let k = 0; k < 40; k++) {
    const a = rng.range(0, 2 * Math.PI);
    const r = Math.sqrt(rng.next()) * LIVE_FOUNDATION_FRACTION;
    const x = rx * r * Math.cos(a);
    const y = ry * r * Math.sin(a);
    let crowding = 0;
    for (const o of occupied) {
      const d = Math.hypot(o.xMm - x, o.yMm - y);
      if (d < 78) crowding += (78 - d) * 40;
    }
    const reach = Math.hypot(seat.xMm - x, seat.yMm - y);
    const score = crowding + reach * 0.6;
    if (score < bestScore) {
      bestScore = score;
      best = { xMm: x, yMm: y, rotationRad: seat.facingRad + rng.normal() * 0.2 };
    }
  }
  return best as PlanePose;
}

/**
 * Where a completed foundation ends up: pushed straight out from where it lay into the outer
 * band of the centre area, turned face down.
 */
export function chooseAsideSpot(layout: TableLayout, from: PlanePose, rng: SimRng): PlanePose {
  const { rx, ry } = usableCentre(layout.centre);
  let angle = Math.atan2(from.yMm / ry, from.xMm / rx);
  if (Math.hypot(from.xMm, from.yMm) < 1) angle = rng.range(0, 2 * Math.PI);
  angle += rng.normal() * 0.15;
  const r = rng.range(0.9, 1);
  return {
    xMm: Math.cos(angle) * rx * r,
    yMm: Math.sin(angle) * ry * r,
    rotationRad: from.rotationRad + rng.normal() * 0.3,
  };
}
