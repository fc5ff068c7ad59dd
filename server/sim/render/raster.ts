/**
 * Software rasteriser for the frame renderer. Layers are drawn front to back (hands first, then
 * cards from the top of the pile down) into a premultiplied colour buffer with coverage, so a
 * pixel already covered is skipped cheaply: a 13-card stack costs one card. The background goes
 * under everything at the end. The first layer to cover a pixel past half owns it, which gives
 * each card's visible pixel count for ground truth.
 *
 * All coordinates here are image pixels unless named `Mm` (card millimetres).
 */
import { CARD_CORNER_RADIUS_MM, CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../scene';
import type { Mat3 } from './camera';
import type { TextureLevel } from '../art/texture';

/** Owner value of a pixel nothing covers. */
export const OWNER_NONE = -1;
/** Owner value of a pixel covered by a hand or arm. */
export const OWNER_HAND = -2;

/** Per-frame drawing buffers, reused between frames. */
export interface Layers {
  width: number;
  height: number;
  /** Premultiplied colour of everything drawn so far, 0..255 per channel, RGB interleaved. */
  colour: Float32Array;
  /** Coverage of everything drawn so far, 0..1. */
  alpha: Float32Array;
  /** Which layer covers the pixel (card index, OWNER_HAND or OWNER_NONE). */
  owner: Int32Array;
  /** Darkness cast on the table by cards, 0..1 (applies to the background only). */
  cardShadow: Float32Array;
  /** Darkness cast by hands, 0..1 (applies to everything below the hands). */
  handShadow: Float32Array;
}

/** Allocates buffers for a frame size, pixels. */
export function createLayers(width: number, height: number): Layers {
  const n = width * height;
  return {
    width,
    height,
    colour: new Float32Array(n * 3),
    alpha: new Float32Array(n),
    owner: new Int32Array(n).fill(OWNER_NONE),
    cardShadow: new Float32Array(n),
    handShadow: new Float32Array(n),
  };
}

/** Clears buffers before a new frame. */
export function clearLayers(layers: Layers): void {
  layers.colour.fill(0);
  layers.alpha.fill(0);
  layers.owner.fill(OWNER_NONE);
  layers.cardShadow.fill(0);
  layers.handShadow.fill(0);
}

/** Integer pixel box, inclusive-exclusive. */
export interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Bounding box of points grown by `pad`, clipped to the image; null when empty. */
export function clippedBox(points: Array<[number, number]>, width: number, height: number, pad = 1): PixelBox | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of points) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  const x0 = Math.max(0, Math.floor(minX - pad));
  const y0 = Math.max(0, Math.floor(minY - pad));
  const x1 = Math.min(width, Math.ceil(maxX + pad));
  const y1 = Math.min(height, Math.ceil(maxY + pad));
  return x1 > x0 && y1 > y0 ? { x0, y0, x1, y1 } : null;
}

const HALF_W = CARD_WIDTH_MM / 2;
const HALF_H = CARD_HEIGHT_MM / 2;
const RADIUS = CARD_CORNER_RADIUS_MM;

/** Signed distance from card point (s, t) mm to the card's rounded outline; negative inside. */
export function cardSignedDistanceMm(s: number, t: number): number {
  const qx = Math.abs(s - HALF_W) - (HALF_W - RADIUS);
  const qy = Math.abs(t - HALF_H) - (HALF_H - RADIUS);
  if (qx > 0 && qy > 0) return Math.sqrt(qx * qx + qy * qy) - RADIUS;
  return (qx > qy ? qx : qy) - RADIUS;
}

/** Everything needed to draw one card side. */
export interface CardDraw {
  /** Image pixels -> card millimetres (s across 0..63, t down 0..88). */
  imageToCard: Mat3;
  box: PixelBox;
  texture: TextureLevel;
  /** Image pixels per card millimetre, for edge antialiasing. */
  pxPerMm: number;
  /** Per-card brightness, multiplies the texture. */
  brightness: number;
  /** Image-space motion during the exposure, pixels; zero for a still card. */
  blurX: number;
  blurY: number;
  ownerId: number;
}

/**
 * Draws one card under what is already drawn; returns how many pixels it newly owns.
 * Moving cards take several samples along their motion to smear like a real exposure.
 */
export function drawCard(layers: Layers, card: CardDraw): number {
  const { colour, alpha, owner, width } = layers;
  const m = card.imageToCard;
  const tex = card.texture;
  const tw = tex.width;
  const th = tex.height;
  const td = tex.data;
  const texPerMmX = tw / CARD_WIDTH_MM;
  const texPerMmY = th / CARD_HEIGHT_MM;
  const aa = card.pxPerMm;
  const edgeMm = 0.45;
  const bright = card.brightness;
  const moving = Math.abs(card.blurX) + Math.abs(card.blurY) > 0.75;
  const steps = moving ? Math.min(9, 2 + Math.ceil(Math.hypot(card.blurX, card.blurY) / 2)) : 1;
  let owned = 0;
  const { x0, y0, x1, y1 } = card.box;
  for (let y = y0; y < y1; y++) {
    let i = y * width + x0;
    for (let x = x0; x < x1; x++, i++) {
      const covered = alpha[i];
      if (covered >= 0.996) continue;
      let cov = 0;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < steps; k++) {
        const f = steps === 1 ? 0 : k / (steps - 1) - 0.5;
        const px = x + 0.5 - card.blurX * f;
        const py = y + 0.5 - card.blurY * f;
        const w = m[6] * px + m[7] * py + m[8];
        const s = (m[0] * px + m[1] * py + m[2]) / w;
        const t = (m[3] * px + m[4] * py + m[5]) / w;
        // Rounded-rectangle distance, inlined for speed.
        const qx = (s > HALF_W ? s - HALF_W : HALF_W - s) - (HALF_W - RADIUS);
        const qy = (t > HALF_H ? t - HALF_H : HALF_H - t) - (HALF_H - RADIUS);
        const d = qx > 0 && qy > 0 ? Math.sqrt(qx * qx + qy * qy) - RADIUS : (qx > qy ? qx : qy) - RADIUS;
        let c = 0.5 - d * aa;
        if (c <= 0) continue;
        if (c > 1) c = 1;
        // Bilinear texture sample.
        let u = s * texPerMmX - 0.5;
        let v = t * texPerMmY - 0.5;
        if (u < 0) u = 0;
        else if (u > tw - 1.001) u = tw - 1.001;
        if (v < 0) v = 0;
        else if (v > th - 1.001) v = th - 1.001;
        const ui = u | 0;
        const vi = v | 0;
        const fu = u - ui;
        const fv = v - vi;
        const p = (vi * tw + ui) * 3;
        const q = p + tw * 3;
        const w00 = (1 - fu) * (1 - fv);
        const w10 = fu * (1 - fv);
        const w01 = (1 - fu) * fv;
        const w11 = fu * fv;
        // The card's cut edge reads slightly darker, as paper edges and contact shadows do.
        const shade = d > -edgeMm ? bright * (0.72 - 0.28 * (d / edgeMm)) : bright;
        const k2 = c * shade;
        r += k2 * (td[p] * w00 + td[p + 3] * w10 + td[q] * w01 + td[q + 3] * w11);
        g += k2 * (td[p + 1] * w00 + td[p + 4] * w10 + td[q + 1] * w01 + td[q + 4] * w11);
        b += k2 * (td[p + 2] * w00 + td[p + 5] * w10 + td[q + 2] * w01 + td[q + 5] * w11);
        cov += c;
      }
      if (cov <= 0) continue;
      const inv = 1 / steps;
      const remaining = 1 - covered;
      const a = cov * inv * remaining;
      const j = i * 3;
      colour[j] += r * inv * remaining;
      colour[j + 1] += g * inv * remaining;
      colour[j + 2] += b * inv * remaining;
      const after = covered + a;
      alpha[i] = after;
      if (covered < 0.5 && after >= 0.5) {
        owner[i] = card.ownerId;
        owned++;
      }
    }
  }
  return owned;
}

/** A capsule (segment with a radius) in image pixels: a finger, a palm, a forearm. */
export interface Capsule {
  ax: number;
  ay: number;
  bx: number;
  by: number;
  /** Radius at a and at b, pixels (tapered capsule). */
  ra: number;
  rb: number;
  rgb: [number, number, number];
}

function capsuleBox(c: Capsule, grow: number, width: number, height: number): PixelBox | null {
  const r = Math.max(c.ra, c.rb) + grow;
  return clippedBox([[c.ax - r, c.ay - r], [c.bx + r, c.by + r], [c.ax + r, c.ay + r], [c.bx - r, c.by - r]], width, height);
}

/**
 * Draws a hand and arm under what is already drawn, one capsule at a time in list order (the
 * first capsule is in front); returns pixels owned. Each capsule only scans its own box.
 * `edgeSoftPx` widens the edge ramp (pixels) for motion blur.
 */
export function drawCapsules(layers: Layers, capsules: Capsule[], ownerId: number, edgeSoftPx = 1): number {
  const { colour, alpha, owner, width, height } = layers;
  // A moving hand smears: its silhouette fades over `edgeSoftPx` pixels instead of one.
  const soft = 1 / Math.max(1, edgeSoftPx);
  let owned = 0;
  for (const c of capsules) {
    const box = capsuleBox(c, Math.max(1, edgeSoftPx), width, height);
    if (!box) continue;
    const vx = c.bx - c.ax;
    const vy = c.by - c.ay;
    const len2 = vx * vx + vy * vy;
    const inv = len2 > 0 ? 1 / len2 : 0;
    const [cr, cg, cb] = c.rgb;
    for (let y = box.y0; y < box.y1; y++) {
      let i = y * width + box.x0;
      for (let x = box.x0; x < box.x1; x++, i++) {
        const covered = alpha[i];
        if (covered >= 0.996) continue;
        const px = x + 0.5 - c.ax;
        const py = y + 0.5 - c.ay;
        let h = (px * vx + py * vy) * inv;
        if (h < 0) h = 0;
        else if (h > 1) h = 1;
        const dx = px - vx * h;
        const dy = py - vy * h;
        const r = c.ra + (c.rb - c.ra) * h;
        const dist = Math.sqrt(dx * dx + dy * dy);
        let cov = 0.5 - (dist - r) * soft;
        if (cov <= 0) continue;
        if (cov > 1) cov = 1;
        // Round limbs: lit in the middle, darker towards their silhouette.
        const across = dist < r ? dist / r : 1;
        const shade = 0.62 + 0.45 * Math.sqrt(1 - across * across);
        const a = cov * (1 - covered);
        const j = i * 3;
        colour[j] += a * cr * shade;
        colour[j + 1] += a * cg * shade;
        colour[j + 2] += a * cb * shade;
        alpha[i] = covered + a;
        if (covered < 0.5 && covered + a >= 0.5) {
          owner[i] = ownerId;
          owned++;
        }
      }
    }
  }
  return owned;
}

/**
 * Soft shadow of a card on the table: the card outline shifted by (offsetX, offsetY) pixels,
 * blurred over `softMm`. Only pixels the cards leave uncovered matter, so covered ones are skipped.
 */
export function drawCardShadow(
  layers: Layers,
  imageToCard: Mat3,
  box: PixelBox,
  offsetX: number,
  offsetY: number,
  softMm: number,
  strength: number,
): void {
  const { alpha, cardShadow, width } = layers;
  const m = imageToCard;
  const soft = 1 / softMm;
  for (let y = box.y0; y < box.y1; y++) {
    let i = y * width + box.x0;
    for (let x = box.x0; x < box.x1; x++, i++) {
      if (alpha[i] >= 0.996) continue;
      const px = x + 0.5 - offsetX;
      const py = y + 0.5 - offsetY;
      const w = m[6] * px + m[7] * py + m[8];
      const s = (m[0] * px + m[1] * py + m[2]) / w;
      const t = (m[3] * px + m[4] * py + m[5]) / w;
      const d = cardSignedDistanceMm(s, t);
      let v = 0.5 - d * soft;
      if (v <= 0) continue;
      if (v > 1) v = 1;
      // Smoothstep so the penumbra fades without a visible edge.
      v = v * v * (3 - 2 * v) * strength;
      if (v > cardShadow[i]) cardShadow[i] = v;
    }
  }
}

/** Soft shadow of a hand (its capsules, already shifted onto the table) with `softPx` penumbra. */
export function drawCapsuleShadow(layers: Layers, capsules: Capsule[], softPx: number, strength: number): void {
  const { handShadow, owner, width, height } = layers;
  const soft = 1 / softPx;
  for (const c of capsules) {
    const box = capsuleBox(c, softPx, width, height);
    if (!box) continue;
    const vx = c.bx - c.ax;
    const vy = c.by - c.ay;
    const len2 = vx * vx + vy * vy;
    const inv = len2 > 0 ? 1 / len2 : 0;
    for (let y = box.y0; y < box.y1; y++) {
      let i = y * width + box.x0;
      for (let x = box.x0; x < box.x1; x++, i++) {
        if (owner[i] === OWNER_HAND) continue;
        const px = x + 0.5 - c.ax;
        const py = y + 0.5 - c.ay;
        let h = (px * vx + py * vy) * inv;
        if (h < 0) h = 0;
        else if (h > 1) h = 1;
        const dx = px - vx * h;
        const dy = py - vy * h;
        const d = Math.sqrt(dx * dx + dy * dy) - (c.ra + (c.rb - c.ra) * h);
        let v = 0.5 - d * soft;
        if (v <= 0) continue;
        if (v > 1) v = 1;
        v = v * v * (3 - 2 * v) * strength;
        if (v > handShadow[i]) handShadow[i] = v;
      }
    }
  }
}
