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
  const x0 = Math.floor((width * (1 - middle)) / 2);
  const y0 = Math.floor((height * (1 - middle)) / 2);
  let red = 0;
  let green = 0;
  let weight = 0;
  for (let y = y0; y < height - y0; y++) {
    for (let x = x0; x < width - x0; x++) {
      const i = offset + (y * width + x) * 3;
      const sum = crops[i] + crops[i + 1] + crops[i + 2];
      if (sum < 3 * DARK) continue;
      red += crops[i] / sum;
      green += crops[i + 1] / sum;
      weight += 1;
    }
  }
  return weight === 0 ? [1 / 3, 1 / 3] : [red / weight, green / weight];
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
