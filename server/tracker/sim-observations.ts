/**
 * Observation sequences built from the simulator's ground truth (no rendering, no recogniser):
 * what a perfect recogniser would report for a TableScene, then degraded with seeded noise
 * (dropped cards, misread codes, varied confidence). Cards under a hand or under another card of
 * the same pile are not seen. Zones come from the same calibration the demo table uses.
 * For tracker tests and the tracker-only benchmark (`bench:referee -- --observations truth`):
 * it measures the tracker and rules apart from the recogniser; it is never a recogniser.
 */
import { createRandom } from '../game/rng';
import { distanceToSegment, pointInPolygon } from '../geometry';
import { ALL_CARD_CODES, type CardCode } from '../game/cards';
import type { Calibration } from '../protocol';
import { cardCorners } from '../sim/layout';
import { cameraFrame, projectPoint, type CameraPose } from '../sim/render/camera';
import type { CardPose, HandPose, TableScene } from '../sim/scene';
import type { CardObservation, FrameObservations, MotionBlob, Quad } from '../vision/types';
import { parseZone } from './tracker';

/** Seeded noise levels: probabilities per visible card. */
export interface Noise {
  drop: number;
  misread: number;
  /** Report what moved (FrameObservations.motion, see sceneMotion), as a recogniser's change detector does; off: no motion at all. */
  motion?: boolean;
}

/** A small seeded generator (mulberry32) so failing seeds can be replayed. */
export function seededRandom(seed: number): () => number {
  return createRandom(seed);
}

const PRIORITY: Record<string, number> = { nerts: 0, work: 0, waste: 0, stock: 0, centre: 1, seat: 2 };

/** The calibration zone at a table point (centred mm), most specific first. */
export function zoneOf(calibration: Calibration, xMm: number, yMm: number): string | undefined {
  return calibration.zones
    .filter((zone) => pointInPolygon(zone.polygonMm, xMm, yMm))
    .sort((a, b) => PRIORITY[a.kind] - PRIORITY[b.kind])[0]?.id;
}

function pileKey(card: CardPose): string | null {
  const zone = card.zone;
  switch (zone.kind) {
    case 'nerts':
    case 'stock':
    case 'waste':
      return `${zone.kind}:${zone.seat}`;
    case 'centre':
    case 'aside':
      return `${zone.kind}:${zone.foundationId}`;
    default:
      return null; // work cascades and cards in hand all show
  }
}

/** Side of a motion cell, image pixels: the recogniser's change-detection grid (server/vision/change.ts) is 64 px. */
export const MOTION_CELL_PX = 64;
/** A hand moved when it travelled more than this since the previous frame, mm; a hand held still changes no pixels. */
const HAND_MOVED_MM = 3;
/** Half an arm's width, mm, and the step its length and width are sampled at, mm. */
const ARM_HALF_WIDTH_MM = 35;
const ARM_STEP_MM = 15;

/**
 * What moved between two scenes, as the recogniser's change detector reports it: the 64-px cells
 * under each hand and forearm that moved since `previous` (fingertips to where the forearm leaves
 * the table), arms whose cells touch merged into one blob, each blob with the seats whose zones
 * it touches. The real detector sees only the pixels that changed (often the hand and forearm
 * alone); this one sees the whole arm, so it is kinder to the tracker.
 */
export function sceneMotion(scene: TableScene, previous: TableScene | null, camera: CameraPose, calibration: Calibration): MotionBlob[] {
  const frame = cameraFrame(camera);
  const moved = (hand: HandPose) => {
    const before = previous?.hands.filter((h) => h.seat === hand.seat).sort((a, b) => Math.hypot(a.xMm - hand.xMm, a.yMm - hand.yMm) - Math.hypot(b.xMm - hand.xMm, b.yMm - hand.yMm))[0];
    return !before || Math.hypot(before.xMm - hand.xMm, before.yMm - hand.yMm) > HAND_MOVED_MM;
  };
  const arms = scene.hands.filter(moved).map((hand) => {
    const cells = new Set<string>();
    const seats = new Set<number>();
    const [dx, dy] = [hand.elbowXMm - hand.xMm, hand.elbowYMm - hand.yMm];
    const length = Math.hypot(dx, dy) || 1;
    const [nx, ny] = [-dy / length, dx / length];
    for (let along = 0; along <= length; along += ARM_STEP_MM) {
      for (let across = -ARM_HALF_WIDTH_MM; across <= ARM_HALF_WIDTH_MM; across += ARM_STEP_MM) {
        const [x, y] = [hand.xMm + (dx / length) * along + nx * across, hand.yMm + (dy / length) * along + ny * across];
        const point = projectPoint(frame, x, y, 0);
        if (!point || point[0] < 0 || point[1] < 0 || point[0] >= camera.width || point[1] >= camera.height) continue;
        cells.add(`${Math.floor(point[0] / MOTION_CELL_PX)},${Math.floor(point[1] / MOTION_CELL_PX)}`);
        const zone = parseZone(zoneOf(calibration, x, y));
        if (zone?.area === 'seat') seats.add(zone.seat);
      }
    }
    return { cells, seats };
  });
  // Arms whose cells touch (8-neighbours) are one blob, as the detector groups changed cells.
  const touching = (a: Set<string>, b: Set<string>) =>
    [...a].some((key) => {
      const [cx, cy] = key.split(',').map(Number);
      for (let ox = -1; ox <= 1; ox++) for (let oy = -1; oy <= 1; oy++) if (b.has(`${cx + ox},${cy + oy}`)) return true;
      return false;
    });
  const groups: Array<{ cells: Set<string>; seats: Set<number> }> = [];
  for (const arm of arms.filter((a) => a.cells.size > 0)) {
    const joined = groups.filter((group) => touching(group.cells, arm.cells));
    const merged = { cells: new Set([...arm.cells, ...joined.flatMap((g) => [...g.cells])]), seats: new Set([...arm.seats, ...joined.flatMap((g) => [...g.seats])]) };
    for (const group of joined) groups.splice(groups.indexOf(group), 1);
    groups.push(merged);
  }
  return groups.map(({ cells, seats }) => ({
    seats: [...seats].sort((a, b) => a - b),
    cells: [...cells].map((key) => key.split(',').map((n) => Number(n) * MOTION_CELL_PX + MOTION_CELL_PX / 2) as [number, number]),
    cellSize: MOTION_CELL_PX,
  }));
}

/** Builds the observations of one scene (with `noise.motion`, also what moved since `previous`). */
export function sceneObservations(scene: TableScene, camera: CameraPose, calibration: Calibration, noise: Noise, random: () => number, previous: TableScene | null = null): FrameObservations {
  const frame = cameraFrame(camera);
  const topOfPile = new Map<string, CardPose>();
  for (const card of scene.cards) {
    const key = pileKey(card);
    if (key) topOfPile.set(key, card); // listed bottom-most first: the last one is on top
  }
  const cards: CardObservation[] = [];
  for (const card of scene.cards) {
    const key = pileKey(card);
    if (key && topOfPile.get(key) !== card) continue;
    const inFlight = card.zone.kind === 'hand';
    const covered = scene.hands.some(
      (hand) =>
        !(inFlight && card.zone.kind === 'hand' && card.zone.seat === hand.seat) &&
        (Math.hypot(card.xMm - hand.xMm, card.yMm - hand.yMm) < 50 || distanceToSegment([card.xMm, card.yMm], [hand.xMm, hand.yMm], [hand.elbowXMm, hand.elbowYMm]) < 35),
    );
    if (covered || random() < noise.drop) continue;
    const corners = cardCorners({ xMm: card.xMm, yMm: card.yMm, rotationRad: card.rotationRad }).map((c) => projectPoint(frame, c.x, c.y, card.zMm));
    if (corners.some((c) => c === null)) continue;
    const quad = corners as Quad;
    const zone = zoneOf(calibration, card.xMm, card.yMm);
    const confidence = 0.6 + 0.39 * random();
    if (!card.faceUp) {
      cards.push({ kind: 'back', backId: card.deckId, confidence, corners: quad, ...(zone ? { zone } : {}) });
      continue;
    }
    const misread = random() < noise.misread;
    const code: CardCode = misread ? ALL_CARD_CODES[Math.floor(random() * 52)] : card.code;
    cards.push({ kind: 'face', code, confidence: misread ? confidence * 0.7 : confidence, corners: quad, ...(zone ? { zone } : {}) });
  }
  const observations: FrameObservations = { timestampMs: scene.timeMs, width: camera.width, height: camera.height, cards };
  return noise.motion ? { ...observations, motion: sceneMotion(scene, previous, camera, calibration) } : observations;
}
