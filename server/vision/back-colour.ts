/**
 * A back's colour, as a second opinion on its design. The whole-card and back-look embeddings
 * are trained to see through lighting, so they tell a pale blue lattice from a pink one poorly
 * (both are a fine lattice on white); the mean chromaticity of the back's middle tells them apart
 * at once. Enrolled views and live crops come from the same camera under the same light, so
 * plain chromaticity (each channel's share of the brightness) is enough. Pure.
 */

/** A colour as chromaticity: the red and green shares of R+G+B (blue is the rest), 0..1. */
export type Chroma = readonly [red: number, green: number];

/** Share of a crop's width and height, about its centre, whose colour is taken (clear of a white border and of the table round an outline that is too big). */
export const BACK_COLOUR_MIDDLE = 0.6;

/** Pixels darker than this (mean channel, 0..1) say little about colour and are skipped. */
const DARK = 0.06;

/**
 * The mean chromaticity of the middle of one packed RGB crop (values 0..1, row-major, 3 channels)
 * of `width` x `height` pixels starting at `offset`. Neutral grey when the middle is all dark.
 */
export function chromaOf(crops: Float32Array, offset: number, width: number, height: number, middle = BACK_COLOUR_MIDDLE): Chroma {
  let red = 0;
  let green = 0;
  let weight = 0;
  forEachMiddlePixel(offset, width, height, middle, (i) => {
    const sum = crops[i] + crops[i + 1] + crops[i + 2];
    if (sum < 3 * DARK) return;
    red += crops[i] / sum;
    green += crops[i + 1] / sum;
    weight += 1;
  });
  return weight === 0 ? [1 / 3, 1 / 3] : [red / weight, green / weight];
}

/** Calls `visit` with the index of each pixel's red value in the middle `middle` share (of width and height) of a packed RGB crop at `offset`. */
function forEachMiddlePixel(offset: number, width: number, height: number, middle: number, visit: (i: number) => void): void {
  const x0 = Math.floor((width * (1 - middle)) / 2);
  const y0 = Math.floor((height * (1 - middle)) / 2);
  for (let y = y0; y < height - y0; y++) for (let x = x0; x < width - x0; x++) visit(offset + (y * width + x) * 3);
}

/** How far apart two colours are (Euclidean in chromaticity; about 0.1 between a pale blue and a pink back). */
export function chromaDistance(a: Chroma, b: Chroma): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

/** Each enrolled design's colour distance to `chroma`: that of its nearest view. */
export function designChromaDistances(designs: ReadonlyMap<string, readonly Chroma[]>, chroma: Chroma): Map<string, number> {
  const out = new Map<string, number>();
  for (const [backId, views] of designs) out.set(backId, Math.min(...views.map((view) => chromaDistance(view, chroma))));
  return out;
}

/** Colour distances this much beyond the nearest design's cost nothing (one design's views and live crops differ by up to about 0.035). */
export const BACK_COLOUR_TOLERANCE = 0.03;
/** What each unit of colour distance beyond that costs a design's score (the sum of two cosine similarities, 0..2). */
export const BACK_COLOUR_WEIGHT = 10;

/**
 * What each design's score loses for its colour (see nameBackDesign in enrollment.ts): nothing for the
 * designs about as near in colour as the nearest, more the further beyond. Relative to the
 * nearest, so a light that tints every back alike changes no ranking.
 */
export function colourPenalties(distances: ReadonlyMap<string, number>): Map<string, number> {
  const nearest = Math.min(...distances.values());
  return new Map([...distances].map(([backId, distance]) => [backId, Math.max(0, distance - nearest - BACK_COLOUR_TOLERANCE) * BACK_COLOUR_WEIGHT]));
}

/**
 * A plain pale patch: the middle of a crop nearly even in brightness, pale and not strongly
 * coloured (0..1 units; `middle` is the share of the crop's width and height looked at). Paper,
 * an envelope, a pale stretch of cloth or a blank card read as "a back" by the identity model
 * look like this; a real back shows a printed design, or a strong colour where its print blurs
 * away at webcam size (a salmon back at 30 pixels: saturation 0.49, spread 0.016). Measured on
 * the real table photos' 21 "backs" (none is one: spread 0.013-0.039, whiteness 0.46-0.87,
 * saturation 0.02-0.35) and the rendered scenes' 72 (real backs: spread 0.01-0.27 but each either
 * coloured or darker).
 */
export const PLAIN_PATCH = { middle: 0.7, minWhiteness: 100 / 255, maxSpread: 12 / 255, maxSaturation: 100 / 255 };

/** Whether the middle of one packed RGB crop (0..1, row-major) is a plain pale patch (see PLAIN_PATCH). */
export function plainPalePatch(crops: Float32Array, offset: number, width: number, height: number, limits = PLAIN_PATCH): boolean {
  let n = 0;
  let whiteness = 0;
  let saturation = 0;
  let luma = 0;
  let luma2 = 0;
  forEachMiddlePixel(offset, width, height, limits.middle, (i) => {
    const [r, g, b] = [crops[i], crops[i + 1], crops[i + 2]];
    const max = Math.max(r, g, b);
    const sat = max > 0 ? (max - Math.min(r, g, b)) / max : 0;
    const l = 0.299 * r + 0.587 * g + 0.114 * b;
    whiteness += max - sat;
    saturation += sat;
    luma += l;
    luma2 += l * l;
    n++;
  });
  if (n === 0) return false;
  const spread = Math.sqrt(Math.max(0, luma2 / n - (luma / n) ** 2));
  return whiteness / n >= limits.minWhiteness && spread <= limits.maxSpread && saturation / n <= limits.maxSaturation;
}
