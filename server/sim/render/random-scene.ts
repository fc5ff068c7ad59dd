/**
 * Random cluttered Nerts tables for training data and contact sheets, independent of the bots:
 * per seat a nerts pile (face down, top card up), a face-down stock, a fanned waste of three,
 * four cascaded work piles (only the index strip of each covered card shows); messy foundation
 * stacks in the centre mixing decks; loose cards; hands reaching in, some holding a moving card.
 * All positions in table millimetres (see scene.ts).
 */
import { ALL_CARD_CODES, RANKS, SUITS, type CardCode } from '../../game/cards';
import { CARD_HEIGHT_MM, CARD_THICKNESS_MM, CARD_WIDTH_MM, type CardPose, type HandPose, type SeatLayout, type TableScene, type Zone } from '../scene';
import { createRng, type Rng } from './rng';

/** Knobs for random scenes. */
export interface RandomSceneOptions {
  seed: number;
  /** Number of players, 2..6 (default: random 2..4). */
  players?: number;
  /** Table size, millimetres (default: random around 1200x800). */
  table?: { widthMm: number; heightMm: number };
  /** Maximum hands reaching in (default 2). */
  maxHands?: number;
  /** Scene time, milliseconds. */
  timeMs?: number;
}

interface SeatPlacement {
  seat: number;
  x: number;
  y: number;
  /** Unit vector from the seat towards the table centre. */
  fx: number;
  fy: number;
}

/** Card rotation that makes a card upright for a player facing (fx, fy): its top points away from them. */
export function uprightRotation(fx: number, fy: number): number {
  return Math.atan2(-fx, -fy);
}

function seatPlacements(count: number, table: { widthMm: number; heightMm: number }): SeatPlacement[] {
  // Seats around the rectangle: bottom, top, left, right, then the bottom and top corners.
  const hx = table.widthMm / 2 - 95;
  const hy = table.heightMm / 2 - 95;
  const spots: Array<[number, number]> = count <= 2
    ? [[0, hy], [0, -hy]]
    : count <= 4
      ? [[0, hy], [0, -hy], [-hx, 0], [hx, 0]]
      : [[-hx * 0.5, hy], [hx * 0.5, -hy], [-hx, 0], [hx, 0], [hx * 0.5, hy], [-hx * 0.5, -hy]];
  return spots.slice(0, count).map(([x, y], seat) => {
    const len = Math.hypot(x, y) || 1;
    return { seat, x, y, fx: -x / len, fy: -y / len };
  });
}

/** A random table scene; deterministic for the seed. */
export function randomScene(options: RandomSceneOptions): TableScene {
  const rng = createRng(options.seed);
  const table = options.table ?? { widthMm: Math.round(rng.range(1000, 1400)), heightMm: Math.round(rng.range(700, 950)) };
  const players = options.players ?? rng.int(2, 4);
  if (!(players >= 1 && players <= 6)) throw new Error('randomScene: players must be 1..6');
  const places = seatPlacements(players, table);
  const seats: SeatLayout[] = places.map((p) => ({
    seat: p.seat,
    playerId: `player-${p.seat}`,
    deckId: `deck-${p.seat}`,
    xMm: p.x,
    yMm: p.y,
    facingRad: Math.atan2(p.fy, p.fx),
  }));
  // Each deck deals its 52 physical cards at most once.
  const remaining = new Map<string, CardCode[]>();
  for (const seat of seats) remaining.set(seat.deckId, shuffle(rng, [...ALL_CARD_CODES]));
  const take = (deckId: string, code?: CardCode): CardCode | null => {
    const list = remaining.get(deckId) as CardCode[];
    if (code === undefined) return list.pop() ?? null;
    const at = list.indexOf(code);
    if (at < 0) return null;
    list.splice(at, 1);
    return code;
  };
  const cards: CardPose[] = [];
  const add = (seat: SeatLayout, code: CardCode, faceUp: boolean, x: number, y: number, rotation: number, z: number, zone: Zone, velocity?: { x: number; y: number }) => {
    cards.push({ id: `${seat.deckId}/${code}`, code, deckId: seat.deckId, owner: seat.playerId, faceUp, xMm: x, yMm: y, rotationRad: rotation, zMm: z, zone, velocityMmPerS: velocity });
  };

  // Centre foundations first (they lie lowest in the middle of the table).
  const foundationCount = rng.int(0, Math.min(10, players * 3));
  for (let f = 0; f < foundationCount; f++) {
    const suit = rng.pick(SUITS);
    const height = rng.int(1, 13);
    const fx = rng.range(-0.28, 0.28) * table.widthMm;
    const fy = rng.range(-0.22, 0.22) * table.heightMm;
    const baseRotation = rng.range(-Math.PI, Math.PI);
    let z = 0;
    for (let v = 1; v <= height; v++) {
      const seat = rng.pick(seats);
      const code = take(seat.deckId, `${RANKS[v - 1]}${suit}` as CardCode);
      if (!code) continue;
      const messy = rng.range(2, 9);
      add(seat, code, true, fx + rng.normal() * messy * 0.5, fy + rng.normal() * messy * 0.5, baseRotation + rng.normal() * 0.18, z, { kind: 'centre', foundationId: `f${f}` });
      z += CARD_THICKNESS_MM;
    }
  }

  for (const place of places) {
    const seat = seats[place.seat];
    const rot = uprightRotation(place.fx, place.fy);
    // Player's right-hand direction and "towards the player" direction.
    const rx = -place.fy;
    const ry = place.fx;
    const tx = -place.fx;
    const ty = -place.fy;
    const at = (right: number, towards: number): [number, number] => [place.x + rx * right + tx * towards, place.y + ry * right + ty * towards];
    const wobble = () => rng.normal() * 0.04;
    const spacing = CARD_WIDTH_MM + rng.range(6, 16);

    // Nerts pile, left: face down with the top card face up.
    const nertsCount = rng.int(1, 13);
    const [nx, ny] = at(-2.6 * spacing, rng.range(-8, 8));
    for (let k = 0; k < nertsCount; k++) {
      const code = take(seat.deckId);
      if (!code) break;
      add(seat, code, k === nertsCount - 1, nx + rng.normal() * 1.2, ny + rng.normal() * 1.2, rot + wobble() * 0.5, k * CARD_THICKNESS_MM, { kind: 'nerts', seat: seat.seat });
    }
    // Four work piles, cascaded towards the player.
    for (let pile = 0; pile < 4; pile++) {
      const depth = rng.chance(0.1) ? 0 : rng.int(1, 6);
      const [wx, wy] = at((pile - 1.5) * spacing, -30);
      const step = rng.range(14, 22);
      const pileRot = rot + wobble();
      for (let k = 0; k < depth; k++) {
        const code = take(seat.deckId);
        if (!code) break;
        add(seat, code, true, wx + tx * step * k + rng.normal() * 0.8, wy + ty * step * k + rng.normal() * 0.8, pileRot + rng.normal() * 0.02, k * CARD_THICKNESS_MM, { kind: 'work', seat: seat.seat, pile });
      }
    }
    // Stock (face down) and waste fanned in threes, right of the work piles.
    const stockCount = rng.int(0, 25);
    const [sx, sy] = at(2.6 * spacing, rng.range(-5, 10));
    for (let k = 0; k < stockCount; k++) {
      const code = take(seat.deckId);
      if (!code) break;
      add(seat, code, false, sx + rng.normal() * 0.8, sy + rng.normal() * 0.8, rot + wobble() * 0.3, k * CARD_THICKNESS_MM, { kind: 'stock', seat: seat.seat });
    }
    const wasteCount = rng.int(0, 8);
    const fanStep = rng.range(11, 17);
    const [ux, uy] = at(3.6 * spacing + 10, rng.range(-5, 10));
    for (let k = 0; k < wasteCount; k++) {
      const code = take(seat.deckId);
      if (!code) break;
      const fan = Math.max(0, k - (wasteCount - 3)); // only the last three are fanned
      add(seat, code, true, ux + rx * fan * fanStep, uy + ry * fan * fanStep, rot + wobble() * 0.5, k * CARD_THICKNESS_MM, { kind: 'waste', seat: seat.seat });
    }
  }

  // Loose cards anywhere (dropped, pushed aside), on top of the rest.
  const looseCount = rng.int(0, 6);
  for (let k = 0; k < looseCount; k++) {
    const seat = rng.pick(seats);
    const code = take(seat.deckId);
    if (!code) continue;
    add(seat, code, rng.chance(0.7), rng.range(-0.45, 0.45) * table.widthMm, rng.range(-0.42, 0.42) * table.heightMm, rng.range(-Math.PI, Math.PI), 1 + k * CARD_THICKNESS_MM, { kind: 'centre', foundationId: 'loose' });
  }

  // Hands reaching in, some holding a card in flight.
  const hands: HandPose[] = [];
  const handCount = rng.int(0, options.maxHands ?? 2);
  for (let h = 0; h < handCount; h++) {
    const place = rng.pick(places);
    const seat = seats[place.seat];
    const tipX = rng.range(-0.35, 0.35) * table.widthMm * 0.9 + place.x * 0.3;
    const tipY = rng.range(-0.3, 0.3) * table.heightMm * 0.9 + place.y * 0.3;
    const elbowX = place.x - place.fx * 120 + rng.range(-120, 120);
    const elbowY = place.y - place.fy * 120 + rng.range(-60, 60);
    const z = rng.range(8, 70);
    const velocity = rng.chance(0.5) ? { x: rng.range(-900, 900), y: rng.range(-900, 900) } : undefined;
    hands.push({ seat: seat.seat, xMm: tipX, yMm: tipY, elbowXMm: elbowX, elbowYMm: elbowY, zMm: z, appearance: rng.int(0, 47), velocityMmPerS: velocity });
    if (rng.chance(0.5)) {
      const code = take(seat.deckId);
      if (code) {
        // The held card hangs under the fingertips, pointing along the arm.
        const dx = tipX - elbowX;
        const dy = tipY - elbowY;
        const len = Math.hypot(dx, dy) || 1;
        const holdX = tipX + (dx / len) * (CARD_HEIGHT_MM * 0.3);
        const holdY = tipY + (dy / len) * (CARD_HEIGHT_MM * 0.3);
        add(seat, code, rng.chance(0.85), holdX, holdY, Math.atan2(-dx, -dy) + rng.normal() * 0.3, Math.max(0, z - 6), { kind: 'hand', seat: seat.seat }, velocity);
      }
    }
  }
  return { timeMs: options.timeMs ?? 0, table, seats, cards, hands };
}

function shuffle<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}
