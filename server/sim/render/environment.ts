/**
 * The room around the cards: generated table surfaces (wood, felt, cloth patterns, laminate),
 * uneven light, glare, white balance, sensor noise and lens softness. Chosen from a seed and
 * baked once per renderer into per-pixel buffers, because the camera does not move.
 */
import { cameraFrame, invert3, planeHomography, type CameraPose } from './camera';
import { createRng, type Rng } from './rng';

/** How the table surface looks; `kind` names the generator. */
export interface SurfaceStyle {
  kind: 'wood' | 'felt' | 'gingham' | 'stripes' | 'laminate' | 'dots';
  base: [number, number, number];
  accent: [number, number, number];
  /** Pattern period or plank width, table millimetres. */
  periodMm: number;
  angleRad: number;
  seed: number;
  /** How strongly the grain or mottling shows, 0..1 (varnished figured wood is high). */
  contrast: number;
}

/** Lighting and camera imperfections for one renderer. */
export interface LightStyle {
  exposure: number;
  /** Linear brightness gradient across the image: direction and strength. */
  gradientAngleRad: number;
  gradientStrength: number;
  vignette: number;
  /** A lamp's bright pool, image-relative position and radius. */
  spot: { x: number; y: number; radius: number; strength: number };
  glare: Array<{ x: number; y: number; radius: number; strength: number }>;
  whiteBalance: [number, number, number];
  noiseSigma: number;
  /** Gaussian blur sigma applied to the whole frame, pixels (0 = sharp). */
  defocusSigma: number;
  /** Direction light comes from, in the image, and how far shadows fall per mm of height. */
  shadowAngleRad: number;
  shadowPxPerMmHeight: number;
  shadowStrength: number;
  jpegQuality: number;
}

type Rgb = [number, number, number];

const FELTS: Rgb[] = [[28, 92, 52], [22, 70, 110], [110, 28, 36], [60, 62, 66], [30, 84, 86], [70, 40, 90], [36, 60, 40]];
const WOODS: Rgb[] = [[168, 118, 72], [120, 78, 46], [196, 152, 104], [86, 56, 36], [150, 100, 60], [210, 180, 140]];
const CLOTHS: Rgb[] = [[200, 40, 40], [40, 70, 160], [40, 120, 60], [230, 220, 200], [90, 90, 100], [200, 150, 60], [120, 60, 110]];
const LAMINATES: Rgb[] = [[225, 225, 220], [200, 200, 195], [70, 72, 76], [235, 228, 210], [150, 155, 160], [40, 40, 42]];

/** A random surface style. */
export function randomSurface(rng: Rng): SurfaceStyle {
  const kind = rng.pick(['wood', 'wood', 'felt', 'felt', 'gingham', 'stripes', 'laminate', 'dots'] as const);
  const palette = kind === 'wood' ? WOODS : kind === 'felt' ? FELTS : kind === 'laminate' ? LAMINATES : CLOTHS;
  const base = rng.pick(palette);
  const jitter = (c: Rgb): Rgb => c.map((v) => Math.max(0, Math.min(255, v + rng.range(-18, 18)))) as Rgb;
  const patterned = kind === 'gingham' || kind === 'stripes' || kind === 'dots';
  const baseColour = jitter(base);
  // Printed cloth rarely has full-contrast patterns: pull the accent part way to the base.
  const accentFull = jitter(rng.chance(0.6) ? [238, 236, 228] : rng.pick(CLOTHS));
  const strength = rng.range(0.3, 0.75);
  const accent = patterned ? (accentFull.map((v, c) => baseColour[c] + (v - baseColour[c]) * strength) as Rgb) : baseColour;
  return {
    kind,
    base: baseColour,
    accent,
    periodMm: kind === 'wood' ? rng.range(90, 200) : kind === 'dots' ? rng.range(8, 20) : rng.range(10, 40),
    angleRad: rng.chance(0.6) ? rng.pick([0, Math.PI / 2]) : rng.range(0, Math.PI),
    seed: rng.int(0, 1 << 30),
    contrast: rng.range(0.15, 1),
  };
}

/** A random light and camera-imperfection style. */
export function randomLight(rng: Rng): LightStyle {
  const warm = rng.range(-1, 1);
  const glare: LightStyle['glare'] = [];
  const glareCount = rng.chance(0.45) ? rng.int(1, 2) : 0;
  for (let g = 0; g < glareCount; g++) {
    glare.push({ x: rng.range(0.1, 0.9), y: rng.range(0.1, 0.9), radius: rng.range(0.04, 0.16), strength: rng.range(25, 90) });
  }
  return {
    exposure: rng.range(0.72, 1.12),
    gradientAngleRad: rng.range(0, 2 * Math.PI),
    gradientStrength: rng.range(0.0, 0.35),
    vignette: rng.range(0.08, 0.4),
    spot: { x: rng.range(0.1, 0.9), y: rng.range(0.1, 0.9), radius: rng.range(0.25, 0.7), strength: rng.range(0, 0.3) },
    glare,
    // Warm (tungsten) to cool (daylight) casts, plus a small green/magenta tint.
    whiteBalance: [1 + 0.14 * warm + rng.range(-0.03, 0.03), 1 + rng.range(-0.04, 0.04), 1 - 0.17 * warm + rng.range(-0.03, 0.03)],
    noiseSigma: rng.range(1.5, 6.5),
    defocusSigma: rng.chance(0.3) ? 0 : rng.range(0.4, 1.1),
    shadowAngleRad: rng.range(0, 2 * Math.PI),
    shadowPxPerMmHeight: rng.range(0.25, 0.9),
    shadowStrength: rng.range(0.22, 0.45),
    jpegQuality: rng.int(62, 90),
  };
}

// Value noise: hashed lattice with smooth interpolation, cheap and deterministic.
function lattice(ix: number, iy: number, seed: number): number {
  let h = Math.imul(ix, 374761393) ^ Math.imul(iy, 668265263) ^ Math.imul(seed, 1274126177);
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}
function valueNoise(x: number, y: number, seed: number): number {
  const ix = Math.floor(x);
  const iy = Math.floor(y);
  const fx = x - ix;
  const fy = y - iy;
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const a = lattice(ix, iy, seed);
  const b = lattice(ix + 1, iy, seed);
  const c = lattice(ix, iy + 1, seed);
  const d = lattice(ix + 1, iy + 1, seed);
  return a + (b - a) * sx + (c - a) * sy + (a - b - c + d) * sx * sy;
}
function fbm(x: number, y: number, seed: number, octaves: number): number {
  let sum = 0;
  let amp = 0.5;
  let f = 1;
  for (let o = 0; o < octaves; o++) {
    sum += amp * valueNoise(x * f, y * f, seed + o * 17);
    f *= 2.03;
    amp *= 0.5;
  }
  return sum;
}

/** Colour of the surface at a table point (mm), 0..255 RGB written into `out`. */
export function surfaceColour(style: SurfaceStyle, xMm: number, yMm: number, out: Float32Array, o: number): void {
  const ca = Math.cos(style.angleRad);
  const sa = Math.sin(style.angleRad);
  const u = xMm * ca + yMm * sa;
  const v = -xMm * sa + yMm * ca;
  const seed = style.seed;
  let mix = 0;
  let shade = 1;
  switch (style.kind) {
    case 'wood': {
      const plank = Math.floor(v / style.periodMm);
      const plankShade = 0.85 + 0.3 * lattice(plank, 7, seed);
      // Grain: stretched noise along the plank, bent by low-frequency warp, plus knots of darker tone.
      const warp = fbm(u * 0.002 + plank * 5.7, v * 0.01, seed, 2);
      const grain = fbm(u * 0.004 + plank * 3.1, (v + warp * 60) * 0.25, seed + 3, 3);
      const streak = 0.5 + 0.5 * Math.sin((v + warp * 90) * 0.45 + plank * 2.3);
      const fine = valueNoise(u * 0.08, v * 1.5, seed + 5);
      const seam = Math.abs(v - (plank + 0.5) * style.periodMm) > style.periodMm / 2 - 0.7 ? 0.6 : 1;
      // Figure: wide swirls of dark and light growth rings, strong on varnished tables.
      const figure = fbm(u * 0.0022 + plank * 1.7, v * 0.009, seed + 11, 3);
      const rings = 0.5 + 0.5 * Math.sin(v * 0.3 + figure * 38 + plank);
      const quiet = 0.74 + 0.32 * grain + 0.06 * streak + 0.06 * fine;
      const loud = 0.45 + 0.55 * (0.65 * rings + 0.35 * grain) + 0.08 * fine;
      shade = plankShade * (quiet + (loud - quiet) * style.contrast) * seam;
      break;
    }
    case 'felt': {
      shade = 0.88 + 0.16 * fbm(u * 0.01, v * 0.01, seed, 3) + 0.12 * (valueNoise(u * 1.3, v * 1.3, seed + 9) - 0.5);
      break;
    }
    case 'gingham': {
      const p = style.periodMm;
      const a = Math.floor(u / p) & 1;
      const b = Math.floor(v / p) & 1;
      mix = (a + b) / 2;
      shade = 0.92 + 0.1 * valueNoise(u * 2, v * 2, seed);
      break;
    }
    case 'stripes': {
      const p = style.periodMm;
      mix = (u / p - Math.floor(u / p)) < 0.35 ? 1 : 0;
      shade = 0.92 + 0.1 * valueNoise(u * 2, v * 2, seed);
      break;
    }
    case 'dots': {
      const p = style.periodMm;
      const du = u / p - Math.floor(u / p) - 0.5;
      const dv = v / p - Math.floor(v / p) - 0.5;
      mix = du * du + dv * dv < 0.06 ? 1 : 0;
      shade = 0.93 + 0.08 * valueNoise(u * 2, v * 2, seed);
      break;
    }
    case 'laminate': {
      shade = 0.94 + 0.08 * fbm(u * 0.02, v * 0.02, seed, 2) + 0.05 * (valueNoise(u * 3, v * 3, seed + 3) - 0.5);
      break;
    }
  }
  const [br, bg, bb] = style.base;
  const [ar, ag, ab] = style.accent;
  out[o] = (br + (ar - br) * mix) * shade;
  out[o + 1] = (bg + (ag - bg) * mix) * shade;
  out[o + 2] = (bb + (ab - bb) * mix) * shade;
}

/** The floor seen beyond the table's edge: dim, low-contrast, out of the lamp's light. */
function floorColour(style: SurfaceStyle, xMm: number, yMm: number, out: Float32Array, o: number): void {
  const n = 0.8 + 0.3 * fbm(xMm * 0.004, yMm * 0.004, style.seed + 77, 2);
  const tone = FLOORS[style.seed % FLOORS.length];
  out[o] = tone[0] * n;
  out[o + 1] = tone[1] * n;
  out[o + 2] = tone[2] * n;
}
const FLOORS: Rgb[] = [[70, 58, 48], [60, 60, 64], [90, 80, 70], [45, 40, 38], [100, 96, 90]];
/** Width of the table's rim (edge band), millimetres. */
const TABLE_RIM_MM = 18;

/**
 * Renders the surface as the camera sees it: RGB floats, 2x2 supersampled against moire.
 * With `table` (mm, centred on the origin) the cloth ends at a darker rim and the floor shows beyond.
 */
export function renderSurface(camera: CameraPose, style: SurfaceStyle, table?: { widthMm: number; heightMm: number }): Float32Array {
  return renderSurfaceWithMask(camera, style, table).colour;
}

/** Like renderSurface, plus a per-pixel mask: 1 where the table is seen, 0 for floor and wall. */
export function renderSurfaceWithMask(camera: CameraPose, style: SurfaceStyle, table?: { widthMm: number; heightMm: number }): { colour: Float32Array; onTable: Uint8Array } {
  const halfW = table ? table.widthMm / 2 : Infinity;
  const halfH = table ? table.heightMm / 2 : Infinity;
  const { width, height } = camera;
  const frame = cameraFrame(camera);
  const toImage = planeHomography(frame, { x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, { x: 0, y: 1, z: 0 });
  const m = invert3(toImage);
  const out = new Float32Array(width * height * 3);
  const onTable = new Uint8Array(width * height);
  const sample = new Float32Array(3);
  const fine = [0.25, 0.75];
  const single = [0.5];
  // Millimetres one pixel spans at (x, y): far parts of a tilted view need supersampling
  // against moire, near parts do not (that saves most of the baking time).
  const mmPerPx = (x: number, y: number): number => {
    const w0 = m[6] * x + m[7] * y + m[8];
    const w1 = m[6] * (x + 1) + m[7] * y + m[8];
    if (w0 <= 0 || w1 <= 0) return Infinity;
    const dx = (m[0] * (x + 1) + m[1] * y + m[2]) / w1 - (m[0] * x + m[1] * y + m[2]) / w0;
    const dy = (m[3] * (x + 1) + m[4] * y + m[5]) / w1 - (m[3] * x + m[4] * y + m[5]) / w0;
    return Math.hypot(dx, dy);
  };
  for (let y = 0; y < height; y++) {
    const rowScale = Math.max(mmPerPx(0, y + 0.5), mmPerPx(width / 2, y + 0.5), mmPerPx(width - 1, y + 0.5));
    const offsets = rowScale > 1.2 ? fine : single;
    const weight = 1 / (offsets.length * offsets.length);
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      let r = 0;
      let g = 0;
      let b = 0;
      let tableSamples = 0;
      for (const oy of offsets) {
        for (const ox of offsets) {
          const px = x + ox;
          const py = y + oy;
          const w = m[6] * px + m[7] * py + m[8];
          if (w <= 0) {
            // Above the horizon: a dim wall.
            sample[0] = 70;
            sample[1] = 66;
            sample[2] = 60;
          } else {
            const tx = (m[0] * px + m[1] * py + m[2]) / w;
            const ty = (m[3] * px + m[4] * py + m[5]) / w;
            const outside = Math.max(Math.abs(tx) - halfW, Math.abs(ty) - halfH);
            if (outside > 0) floorColour(style, tx, ty, sample, 0);
            else {
              tableSamples++;
              surfaceColour(style, tx, ty, sample, 0);
              if (outside > -TABLE_RIM_MM) {
                // The rim: a darker band, lighter right at the edge where it catches the light.
                const f = outside > -3 ? 0.95 : 0.72;
                sample[0] *= f;
                sample[1] *= f;
                sample[2] *= f;
              }
            }
          }
          r += sample[0];
          g += sample[1];
          b += sample[2];
        }
      }
      out[o] = r * weight;
      out[o + 1] = g * weight;
      out[o + 2] = b * weight;
      onTable[y * width + x] = tableSamples * weight >= 0.5 ? 1 : 0;
    }
  }
  return { colour: out, onTable };
}

/** Per-pixel light gain (exposure, gradient, lamp, vignette) and additive glare for an image size. */
export function renderLightField(width: number, height: number, light: LightStyle): { gain: Float32Array; glare: Float32Array } {
  const gain = new Float32Array(width * height);
  const glare = new Float32Array(width * height);
  const gx = Math.cos(light.gradientAngleRad);
  const gy = Math.sin(light.gradientAngleRad);
  const diag = Math.hypot(width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const nx = x / width - 0.5;
      const ny = y / height - 0.5;
      const gradient = 1 + light.gradientStrength * (nx * gx + ny * gy) * 2;
      const r2 = (nx * nx * width * width + ny * ny * height * height) / (diag * diag / 4);
      const vignette = 1 - light.vignette * r2;
      const sx = (x / width - light.spot.x) * width;
      const sy = (y / height - light.spot.y) * height;
      const sr = light.spot.radius * diag;
      const spot = 1 + light.spot.strength * Math.exp(-(sx * sx + sy * sy) / (2 * sr * sr));
      const i = y * width + x;
      gain[i] = light.exposure * gradient * vignette * spot;
      let g = 0;
      for (const patch of light.glare) {
        const dx = (x / width - patch.x) * width;
        const dy = (y / height - patch.y) * height;
        const pr = patch.radius * diag;
        g += patch.strength * Math.exp(-(dx * dx + dy * dy) / (2 * pr * pr));
      }
      glare[i] = g;
    }
  }
  return { gain, glare };
}

const noiseTables = new Map<number, Int8Array>();

/**
 * A table of Gaussian noise values (int8, sigma 16) read from a random offset each frame. One
 * table per length per process (fixed seed), shared by renderers: each reads it at its own offsets.
 */
export function createNoiseTable(length: number): Int8Array {
  const cached = noiseTables.get(length);
  if (cached) return cached;
  const rng = createRng(0x5eed);
  const table = new Int8Array(length);
  for (let i = 0; i < length; i++) table[i] = Math.max(-127, Math.min(127, Math.round(rng.normal() * 16)));
  noiseTables.set(length, table);
  return table;
}
