/**
 * A back's colour, as a second opinion on its design. The whole-card and back-look embeddings
 * are trained to see through lighting, so they tell a pale blue lattice from a pink one poorly
 * (both are a fine lattice on white), or a pale blue-grey back in a dim corner from a navy one;
 * the colour of the back's middle tells them apart at once.
 *
 * The colour is taken against the crop's own white too: the mean of its brightest pixels (a
 * back's white border, or the palest part of a design that has none; see WHITE_SHARE). A warm
 * lamp, a camera's white balance or its exposure tint and dim the middle and the border alike,
 * so the middle's colour relative to that white stays the design's. On the suite's held-out
 * backs (each view with its own white balance, exposure and gamma) the nearest enrolled view by
 * colour alone names 215 of 300 views by plain chromaticity, 256 by chromaticity against the
 * white, 277 with the lightness against it too (session 65). But a near-white back seen without
 * its border (an outline inside the card's edge) is its own white, and then reads like any other
 * pale design: so a design must be near in both, plain and against the white (colourDistance).
 * Pure.
 */

/**
 * A back's colour: the red and green shares of R+G+B after each channel is divided by the crop's
 * white's (blue is the rest; a grey middle is 1/3, 1/3), the natural log of the middle's
 * luminance over the white's (0: as bright as the white; a navy back about -1.5), and the plain
 * red and green shares of R+G+B, as seen.
 */
export type BackColour = readonly [red: number, green: number, lightness: number, plainRed: number, plainGreen: number];

/** Share of a crop's width and height, about its centre, whose colour is taken (clear of a white border and of the table round an outline that is too big). */
export const BACK_COLOUR_MIDDLE = 0.6;

/**
 * The crop's white is the mean of the pixels whose luminance lies between these two shares of
 * the crop's pixels ranked by luminance: the border's, for a card with a white border (about a
 * tenth of the crop); not the very brightest, which glare or one hot pixel makes.
 */
export const WHITE_SHARE = [0.95, 0.99] as const;

/** Pixels darker than this (mean channel, 0..1; as seen for the plain shares, against the white for the others) say little about colour: their shares are not counted. */
const DARK = 0.06;

/** Luminance of an RGB value (0..1), Rec. 601 weights. */
function luminance(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

/** The crop's white (see WHITE_SHARE) from a 256-bin luminance histogram; each channel at least 0.05. */
function whiteOf(crops: Float32Array, offset: number, pixels: number): [number, number, number] {
  // Each pixel's luminance bin, and how many pixels each bin holds.
  const binOf = new Uint8Array(pixels);
  const bins = new Uint32Array(256);
  for (let p = 0; p < pixels; p++) {
    const i = offset + p * 3;
    binOf[p] = Math.min(255, Math.max(0, Math.round(luminance(crops[i], crops[i + 1], crops[i + 2]) * 255)));
    bins[binOf[p]]++;
  }
  // The share of each bin's pixels that holds the ranks from WHITE_SHARE[0] to WHITE_SHARE[1] (at least one pixel).
  const from = Math.floor(pixels * WHITE_SHARE[0]);
  const to = Math.max(from + 1, Math.floor(pixels * WHITE_SHARE[1]));
  const take = new Float32Array(256);
  let rank = 0;
  for (let b = 0; b < 256; b++) {
    const lo = Math.max(rank, from);
    const hi = Math.min(rank + bins[b], to);
    if (hi > lo) take[b] = (hi - lo) / bins[b];
    rank += bins[b];
  }
  const sum = [0, 0, 0];
  let weight = 0;
  for (let p = 0; p < pixels; p++) {
    const w = take[binOf[p]];
    if (w === 0) continue;
    const i = offset + p * 3;
    sum[0] += crops[i] * w;
    sum[1] += crops[i + 1] * w;
    sum[2] += crops[i + 2] * w;
    weight += w;
  }
  return [0, 1, 2].map((c) => Math.max(0.05, weight > 0 ? sum[c] / weight : 1)) as [number, number, number];
}

/**
 * The colour of the middle of one packed RGB crop (values 0..1, row-major, 3 channels) of
 * `width` x `height` pixels starting at `offset`, against the crop's white (see BackColour).
 * A middle too dark against the white for its colour to say anything reads as neutral grey.
 */
export function backColourOf(crops: Float32Array, offset: number, width: number, height: number, middle = BACK_COLOUR_MIDDLE): BackColour {
  const white = whiteOf(crops, offset, width * height);
  const whiteLuminance = luminance(white[0], white[1], white[2]);
  let red = 0;
  let green = 0;
  let shares = 0;
  let lightness = 0;
  let pixels = 0;
  let plainRed = 0;
  let plainGreen = 0;
  let plainShares = 0;
  forEachMiddlePixel(offset, width, height, middle, (i) => {
    const plain = crops[i] + crops[i + 1] + crops[i + 2];
    if (plain >= 3 * DARK) {
      plainRed += crops[i] / plain;
      plainGreen += crops[i + 1] / plain;
      plainShares++;
    }
    const [r, g, b] = [crops[i] / white[0], crops[i + 1] / white[1], crops[i + 2] / white[2]];
    lightness += Math.log(Math.max(0.02, luminance(crops[i], crops[i + 1], crops[i + 2]) / whiteLuminance));
    pixels++;
    const sum = r + g + b;
    if (sum < 3 * DARK) return;
    red += r / sum;
    green += g / sum;
    shares++;
  });
  const mean = (sum: number, count: number, none: number) => (count === 0 ? none : sum / count);
  return [mean(red, shares, 1 / 3), mean(green, shares, 1 / 3), mean(lightness, pixels, 0), mean(plainRed, plainShares, 1 / 3), mean(plainGreen, plainShares, 1 / 3)];
}

/** Calls `visit` with the index of each pixel's red value in the middle `middle` share (of width and height) of a packed RGB crop at `offset`. */
function forEachMiddlePixel(offset: number, width: number, height: number, middle: number, visit: (i: number) => void): void {
  const x0 = Math.floor((width * (1 - middle)) / 2);
  const y0 = Math.floor((height * (1 - middle)) / 2);
  for (let y = y0; y < height - y0; y++) for (let x = x0; x < width - x0; x++) visit(offset + (y * width + x) * 3);
}

/**
 * How much a difference in lightness (log units) counts against one in chromaticity: a pale
 * back in a dim corner reads about 0.5 darker, a pale design and a dark one lie 1 or more apart.
 * On the suite's held-out backs 0.1-0.2 named the most views by colour alone (277-278 of 300).
 */
export const BACK_LIGHTNESS_WEIGHT = 0.15;

/**
 * How far apart two back colours are: the larger of their distance against the white
 * (chromaticity and weighted lightness) and their plain chromaticity distance (about 0.1 between
 * a pale blue and a pink back). Measured on `bench:sort` (the score sort's whole reads, 562 dealt
 * backs): plain alone 554 found, 1 named as another deck; against the white alone 556 and 3 (the
 * 6-player gingham table's near-white backs); the larger of the two 557 and 1.
 */
export function colourDistance(a: BackColour, b: BackColour): number {
  return Math.max(Math.hypot(a[0] - b[0], a[1] - b[1], (a[2] - b[2]) * BACK_LIGHTNESS_WEIGHT), Math.hypot(a[3] - b[3], a[4] - b[4]));
}

/** Each enrolled design's colour distance to `colour`: that of its nearest view. */
export function designColourDistances(designs: ReadonlyMap<string, readonly BackColour[]>, colour: BackColour): Map<string, number> {
  const out = new Map<string, number>();
  for (const [backId, views] of designs) out.set(backId, Math.min(...views.map((view) => colourDistance(view, colour))));
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
    const l = luminance(r, g, b);
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
