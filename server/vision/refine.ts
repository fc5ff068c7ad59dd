/**
 * Edge refinement of a located card: the learned locator is good at *where* a card is and
 * roughly how big, less so at its exact angle. A card is a bright rectangle with straight edges,
 * so we search rectangles around the detection (angle, size, small shifts) and keep the one
 * whose outline sits on the strongest brightness step, inside against outside. Pure: grey pixels
 * in, geometry out.
 */
import type { RgbImage } from './crop';
import type { CardGeometry } from './locator';

/** A single-channel image, 0..255. */
export interface GreyImage {
  width: number;
  height: number;
  data: Float32Array;
}

/** Tunables of the search. */
export const REFINE_DEFAULTS = {
  /** Coarse angle step, degrees (the search covers half a turn). */
  coarseStepDeg: 6,
  /** Sizes tried, as factors of the detected short side (the net's size is often 20–40 % off). */
  scales: [0.7, 0.8, 0.9, 1, 1.12, 1.25, 1.4, 1.6],
  /** Long/short ratios tried (a 63x88 mm card is 1.40; an oblique camera shortens one side). */
  aspects: [1.25, 1.4, 1.55],
  /** Points sampled along the outline. */
  samples: 48,
  /**
   * Distance either side of the outline where brightness is compared, fraction of the short
   * side: wide first (a smooth fit that tolerates the detection being off), then narrow (exact).
   */
  probes: [0.06, 0.035],
  /**
   * A fitted outline whose inside is on average less than this much brighter than its outside
   * (0..255) is no card: on the real photos this drops about a quarter of the net's false
   * detections and 1 % of its true ones.
   */
  minEdge: 40,
  /** Whether to search angles, sizes and aspects coarsely first (false: the pattern search starts at the detection). */
  coarse: true,
  /** Rounds of the pattern search at most (0: the coarse search alone)... */
  maxRounds: 40,
  /** ...and whether it may change the size and aspect (false: angle and position only). */
  resize: true,
};

/** Luma of an RGB image. */
export function toGrey(image: RgbImage): GreyImage {
  const data = new Float32Array(image.width * image.height);
  for (let i = 0, j = 0; i < data.length; i++, j += 3) data[i] = 0.299 * image.data[j] + 0.587 * image.data[j + 1] + 0.114 * image.data[j + 2];
  return { width: image.width, height: image.height, data };
}

function sample(g: GreyImage, x: number, y: number): number {
  const xi = Math.min(g.width - 2, Math.max(0, Math.floor(x)));
  const yi = Math.min(g.height - 2, Math.max(0, Math.floor(y)));
  const fx = Math.min(1, Math.max(0, x - xi));
  const fy = Math.min(1, Math.max(0, y - yi));
  const o = yi * g.width + xi;
  const top = g.data[o] + (g.data[o + 1] - g.data[o]) * fx;
  const bottom = g.data[o + g.width] + (g.data[o + g.width + 1] - g.data[o + g.width]) * fx;
  return top + (bottom - top) * fy;
}

/**
 * How well the outline of rectangle `r` sits on a card's edge: the mean over outline points of
 * how much brighter it is just inside than just outside, probed along the outline's normal (a
 * card's white border is brighter than the cloth; a pip or picture edge inside the card is the
 * other way round, so it does not count). Points outside the image count as no step.
 */
export function outlineScore(g: GreyImage, r: CardGeometry, samples = REFINE_DEFAULTS.samples, probe = REFINE_DEFAULTS.probes[1]): number {
  // The rectangle's fields read once: callers pass objects of many shapes, whose double fields
  // a megamorphic load returns boxed (a fresh heap number per read, per sample).
  const { cx, cy, short, long } = r;
  const ax = Math.cos(r.angle);
  const ay = Math.sin(r.angle);
  // (ax, ay) runs along the long side; (-ay, ax) along the short side.
  const d = Math.max(1.5, probe * short);
  const perimeter = 2 * (short + long);
  let total = 0;
  for (let k = 0; k < samples; k++) {
    let s = ((k + 0.5) / samples) * perimeter;
    // Walk the outline: side 1 (long, at -short/2), side 2 (short, at +long/2), ...
    // (u, v): the point, along the long and short axes; (nu, nv): the outward normal. Assigned
    // one by one: a destructured array per sample was garbage the worker had to collect.
    let u: number;
    let v: number;
    let nu: number;
    let nv: number;
    if (s < long) {
      u = s - long / 2;
      v = -short / 2;
      nu = 0;
      nv = -1;
    } else if ((s -= long) < short) {
      u = long / 2;
      v = s - short / 2;
      nu = 1;
      nv = 0;
    } else if ((s -= short) < long) {
      u = long / 2 - s;
      v = short / 2;
      nu = 0;
      nv = 1;
    } else {
      u = -long / 2;
      v = short / 2 - (s - long);
      nu = -1;
      nv = 0;
    }
    const x = cx + u * ax - v * ay;
    const y = cy + u * ay + v * ax;
    const nx = nu * ax - nv * ay;
    const ny = nu * ay + nv * ax;
    const ox = x + d * nx;
    const oy = y + d * ny;
    const ix = x - d * nx;
    const iy = y - d * ny;
    if (ox < 0 || oy < 0 || ox >= g.width - 1 || oy >= g.height - 1 || ix < 0 || iy < 0 || ix >= g.width - 1 || iy >= g.height - 1) continue;
    total += Math.max(0, sample(g, ix, iy) - sample(g, ox, oy));
  }
  return total / samples;
}

/**
 * The rectangle near `detected` whose outline fits the image best: a coarse search over half a
 * turn of angles and the sizes and aspects in `params`, then a pattern search of angle, size,
 * aspect and position from the winner. Returns the geometry and its outline score (0..255).
 */
export function refineGeometry(g: GreyImage, detected: CardGeometry, params = REFINE_DEFAULTS): CardGeometry & { edge: number } {
  let probe = params.probes[0];
  let best = { ...detected, edge: -1 };
  const consider = (r: CardGeometry) => {
    const edge = outlineScore(g, r, params.samples, probe);
    if (edge > best.edge) best = { ...r, edge };
  };
  if (!params.coarse) consider(detected);
  const step = (params.coarseStepDeg * Math.PI) / 180;
  for (let angle = 0; params.coarse && angle < Math.PI; angle += step) {
    for (const scale of params.scales) {
      for (const aspect of params.aspects) {
        const short = detected.short * scale;
        consider({ cx: detected.cx, cy: detected.cy, short, long: short * aspect, angle });
      }
    }
  }
  // Then a pattern search from the winner, once per probe width: move one of angle, size,
  // aspect, x, y at a time while that improves the fit, halving the steps when nothing does.
  for (const [k, width] of params.probes.entries()) {
    if (k > 0) {
      probe = width;
      best = { ...best, edge: outlineScore(g, best, params.samples, probe) };
    }
    let steps = { angle: (2 * Math.PI) / 180, scale: 0.06, aspect: 0.06, shift: 0.06 * best.short };
    for (let round = 0; round < params.maxRounds && steps.shift > 0.3; round++) {
      const from = { ...best };
      const aspect = from.long / from.short;
      for (const sign of [1, -1]) {
        consider({ ...from, angle: from.angle + sign * steps.angle });
        if (params.resize) {
          const short = from.short * (1 + sign * steps.scale);
          consider({ ...from, short, long: short * aspect });
          consider({ ...from, long: from.short * aspect * (1 + sign * steps.aspect) });
        }
        consider({ ...from, cx: from.cx + sign * steps.shift });
        consider({ ...from, cy: from.cy + sign * steps.shift });
      }
      if (best.edge <= from.edge) steps = { angle: steps.angle / 2, scale: steps.scale / 2, aspect: steps.aspect / 2, shift: steps.shift / 2 };
    }
  }
  return best;
}
