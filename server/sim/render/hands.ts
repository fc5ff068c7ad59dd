/**
 * Hands and forearms reaching over the table, built from tapered capsules in table millimetres
 * and projected into the image. Crude on purpose: what matters to the recogniser is skin- and
 * sleeve-coloured blobs covering cards, with their shadows.
 */
import type { HandPose } from '../scene';
import { projectPoint, type CameraFrame } from './camera';
import type { Capsule } from './raster';

type Rgb = [number, number, number];

/** Skin tones, light to dark (index from HandPose.appearance). */
export const SKIN_TONES: Rgb[] = [[236, 200, 170], [224, 172, 135], [198, 140, 100], [160, 104, 70], [118, 76, 50], [88, 56, 38]];
/** Sleeve colours. */
export const SLEEVES: Rgb[] = [[40, 60, 120], [150, 30, 40], [60, 60, 64], [220, 220, 215], [40, 100, 60], [200, 160, 40], [20, 20, 24], [110, 70, 140]];

/** Heights above this cast shadows as if they were this high, millimetres. */
const SHADOW_HEIGHT_CAP_MM = 140;

interface Capsule3 {
  a: [number, number, number];
  b: [number, number, number];
  ra: number;
  rb: number;
  rgb: Rgb;
}

/** The arm as 3-D capsules, table millimetres (fingers first, so they win over the palm). */
export function handCapsulesMm(hand: HandPose): Capsule3[] {
  const skin = SKIN_TONES[Math.abs(hand.appearance) % SKIN_TONES.length];
  const sleeve = SLEEVES[Math.abs(Math.floor(hand.appearance / SKIN_TONES.length) + hand.appearance) % SLEEVES.length];
  let dx = hand.xMm - hand.elbowXMm;
  let dy = hand.yMm - hand.elbowYMm;
  const len = Math.hypot(dx, dy) || 1;
  dx /= len;
  dy /= len;
  // Perpendicular, for finger spread.
  const px = -dy;
  const py = dx;
  const z = hand.zMm;
  const tip: [number, number, number] = [hand.xMm, hand.yMm, z];
  const at = (back: number, side: number, lift: number): [number, number, number] => [
    hand.xMm - dx * back + px * side,
    hand.yMm - dy * back + py * side,
    z + lift,
  ];
  const elbow: [number, number, number] = [hand.elbowXMm - dx * 60, hand.elbowYMm - dy * 60, z + 140];
  const wrist = at(Math.min(172, len * 0.8), 0, 26);
  const capsules: Capsule3[] = [];
  // Fingers in two bent segments each, index finger (next to the thumb) first: it ends exactly
  // at the pose's point. [side offset mm, length mm].
  const fingers: Array<[number, number]> = [[-22, 74], [-7, 82], [8, 78], [22, 64]];
  fingers.forEach(([side, length], k) => {
    const knuckle = at(96, side * 1.08, 20);
    const middle = at(96 - length * 0.55, side, 14);
    const end = k === 0 ? tip : at(96 - length, side * 0.96, 5);
    const thickness = k === 3 ? 7.2 : 8.2;
    capsules.push({ a: knuckle, b: middle, ra: thickness + 0.6, rb: thickness, rgb: skin });
    capsules.push({ a: middle, b: end, ra: thickness, rb: thickness - 1.4, rgb: skin });
  });
  // Thumb on the inner side, two segments.
  const thumbBase = at(150, -26, 22);
  const thumbJoint = at(112, -46, 14);
  capsules.push({ a: thumbJoint, b: at(84, -50, 7), ra: 9.5, rb: 8, rgb: skin });
  capsules.push({ a: thumbBase, b: thumbJoint, ra: 14, rb: 10, rgb: skin });
  // Palm: knuckle bar, heel bar and a fill between them, so it is flat-ish rather than round.
  capsules.push({ a: at(102, -26, 20), b: at(102, 25, 20), ra: 17, rb: 15, rgb: skin });
  capsules.push({ a: at(122, 0, 22), b: at(140, 0, 24), ra: 33, rb: 32, rgb: skin });
  capsules.push({ a: at(152, -20, 24), b: at(152, 18, 24), ra: 22, rb: 22, rgb: skin });
  capsules.push({ a: wrist, b: at(Math.min(len, 330), 0, 60), ra: 25, rb: 38, rgb: skin }); // wrist and forearm
  capsules.push({ a: at(Math.min(len, 300), 0, 55), b: elbow, ra: 46, rb: 55, rgb: sleeve }); // sleeve
  // Upper arm rising towards the shoulder, beyond the table edge: arms enter from outside the frame.
  const shoulder: [number, number, number] = [elbow[0] - dx * 380, elbow[1] - dy * 380, elbow[2] + 320];
  capsules.push({ a: elbow, b: shoulder, ra: 55, rb: 68, rgb: sleeve });
  return capsules;
}

function projectCapsule(frame: CameraFrame, c: Capsule3, shift: [number, number] | null): Capsule | null {
  const za = shift ? 0 : c.a[2];
  const zb = shift ? 0 : c.b[2];
  // High parts (upper arm) cast faint, diffuse shadows near the table edge, not far-flung ones.
  const ha = Math.min(c.a[2], SHADOW_HEIGHT_CAP_MM);
  const hb = Math.min(c.b[2], SHADOW_HEIGHT_CAP_MM);
  const ax = c.a[0] + (shift ? shift[0] * ha : 0);
  const ay = c.a[1] + (shift ? shift[1] * ha : 0);
  const bx = c.b[0] + (shift ? shift[0] * hb : 0);
  const by = c.b[1] + (shift ? shift[1] * hb : 0);
  const pa = projectPoint(frame, ax, ay, za);
  const pb = projectPoint(frame, bx, by, zb);
  if (!pa || !pb) return null;
  // Local scale: project a point one radius to the side.
  const pa2 = projectPoint(frame, ax + c.ra, ay, za);
  const pb2 = projectPoint(frame, bx + c.rb, by, zb);
  if (!pa2 || !pb2) return null;
  const pxA = Math.hypot(pa2[0] - pa[0], pa2[1] - pa[1]);
  const pxB = Math.hypot(pb2[0] - pb[0], pb2[1] - pb[1]);
  return { ax: pa[0], ay: pa[1], bx: pb[0], by: pb[1], ra: pxA, rb: pxB, rgb: c.rgb };
}

/** The hand's capsules in image pixels. */
export function handCapsules(frame: CameraFrame, hand: HandPose): Capsule[] {
  return handCapsulesMm(hand)
    .map((c) => projectCapsule(frame, c, null))
    .filter((c): c is Capsule => c !== null);
}

/** The hand's shadow on the table: capsules pushed along the light by `shiftPerMm` x height. */
export function handShadowCapsules(frame: CameraFrame, hand: HandPose, shiftPerMm: [number, number]): Capsule[] {
  return handCapsulesMm(hand)
    .map((c) => projectCapsule(frame, c, shiftPerMm))
    .filter((c): c is Capsule => c !== null);
}
