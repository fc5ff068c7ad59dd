/**
 * Observation sequences built from the simulator's ground truth (no rendering, no recogniser):
 * what a perfect recogniser would report for a TableScene, then degraded with seeded noise
 * (dropped cards, misread codes, varied confidence). Cards under a hand or under another card of
 * the same pile are not seen. Zones come from the same calibration the demo table uses.
 * For tracker tests and the tracker-only benchmark (`bench:referee -- --observations truth`):
 * it measures the tracker and rules apart from the recogniser; it is never a recogniser.
 */
import { createRandom } from '../game/rng';
import { pointInPolygon } from '../geometry';
import { ALL_CARD_CODES, type CardCode } from '../game/cards';
import type { Calibration } from '../protocol';
import { cardCorners } from '../sim/layout';
import { cameraFrame, projectPoint, type CameraPose } from '../sim/render/camera';
import type { CardPose, TableScene } from '../sim/scene';
import type { CardObservation, FrameObservations, Quad } from '../vision/types';

/** Seeded noise levels: probabilities per visible card. */
export interface Noise {
  drop: number;
  misread: number;
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

function distanceToSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/** Builds the observations of one scene. */
export function sceneObservations(scene: TableScene, camera: CameraPose, calibration: Calibration, noise: Noise, random: () => number): FrameObservations {
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
        (Math.hypot(card.xMm - hand.xMm, card.yMm - hand.yMm) < 50 || distanceToSegment(card.xMm, card.yMm, hand.xMm, hand.yMm, hand.elbowXMm, hand.elbowYMm) < 35),
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
  return { timestampMs: scene.timeMs, width: camera.width, height: camera.height, cards };
}
