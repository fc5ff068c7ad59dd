import { describe, expect, it } from 'vitest';
import { BACK_COLOUR_TOLERANCE, backColourOf, colourDistance, colourPenalties, designColourDistances, plainPalePatch } from '../../server/vision/back-colour';
import { nameBackDesign } from '../../server/vision/enrollment';

/** One packed crop (values 0..1) of w x h pixels: `inner` inside a border of `border` pixels of `edge`. */
function crop(w: number, h: number, inner: [number, number, number], edge: [number, number, number] = [1, 1, 1], border = 0): Float32Array {
  const out = new Float32Array(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const onBorder = x < border || y < border || x >= w - border || y >= h - border;
      out.set(onBorder ? edge : inner, (y * w + x) * 3);
    }
  return out;
}

describe('back colour', () => {
  it('is the colour of the middle against the crop\'s white, clear of the border and of dark pixels', () => {
    const [r, g, l] = backColourOf(crop(20, 30, [0.6, 0.2, 0.2], [1, 1, 1], 4), 0, 20, 30);
    expect(r).toBeCloseTo(0.6, 5);
    expect(g).toBeCloseTo(0.2, 5);
    expect(l).toBeCloseTo(Math.log(0.299 * 0.6 + 0.587 * 0.2 + 0.114 * 0.2), 5);
    // A light that tints and dims the whole card (border and middle alike) changes nothing.
    const lamp = [0.9, 0.6, 0.4];
    const tinted = backColourOf(crop(20, 30, [0.6 * lamp[0], 0.2 * lamp[1], 0.2 * lamp[2]], [lamp[0], lamp[1], lamp[2]], 4), 0, 20, 30);
    expect(tinted[0]).toBeCloseTo(0.6, 5);
    expect(tinted[1]).toBeCloseTo(0.2, 5);
    // ...and lightness is against the white: the same card in a dim corner is the same colour.
    const dim = backColourOf(crop(20, 30, [0.3, 0.1, 0.1], [0.5, 0.5, 0.5], 4), 0, 20, 30);
    expect(dim[0]).toBeCloseTo(0.6, 5);
    expect(dim[2]).toBeCloseTo(l, 5);
    // A navy middle is far darker against its border than a pale one; a black middle has no colour (neutral).
    expect(backColourOf(crop(20, 30, [0.1, 0.12, 0.3], [1, 1, 1], 4), 0, 20, 30)[2]).toBeLessThan(l - 0.5);
    const black = backColourOf(crop(20, 30, [0, 0, 0], [1, 1, 1], 4), 0, 20, 30);
    expect(black.slice(0, 2)).toEqual([1 / 3, 1 / 3]);
    // Packed crops are read at their offset.
    const two = new Float32Array(2 * 20 * 30 * 3);
    two.set(crop(20, 30, [0.2, 0.2, 0.6], [1, 1, 1], 4), 20 * 30 * 3);
    expect(backColourOf(two, 20 * 30 * 3, 20, 30)[0]).toBeCloseTo(0.2, 5);
  });

  it('takes the white from the brightest pixels but not a spot of glare', () => {
    const card = crop(64, 96, [0.3, 0.3, 0.6], [0.8, 0.8, 0.8], 3);
    const plain = backColourOf(card, 0, 64, 96);
    // Thirty pixels (half a percent) of pure white glare in the middle.
    for (let k = 0; k < 30; k++) card.set([1, 1, 1], ((40 + Math.floor(k / 6)) * 64 + 30 + (k % 6)) * 3);
    const glared = backColourOf(card, 0, 64, 96);
    expect(glared[2]).toBeCloseTo(plain[2], 1);
    expect(colourDistance(glared, plain)).toBeLessThan(0.02);
  });

  it('keeps two designs apart that are alike either plainly or against their white', () => {
    // A near-white back seen without its border is its own white; a pale blue-grey one with its
    // border is not: plainly alike (both pale), against the white far apart.
    const nearWhite = backColourOf(crop(20, 30, [0.93, 0.93, 0.95]), 0, 20, 30);
    const blueGrey = backColourOf(crop(20, 30, [0.8, 0.84, 0.93], [1, 1, 1], 4), 0, 20, 30);
    const plain = Math.hypot(nearWhite[3] - blueGrey[3], nearWhite[4] - blueGrey[4]);
    expect(colourDistance(nearWhite, blueGrey)).toBeGreaterThan(plain);
    // The same design under a warm lamp: plainly apart, against the white the same; the larger counts.
    const lamp = [1, 0.85, 0.7];
    const warm = backColourOf(crop(20, 30, [0.8 * lamp[0], 0.84 * lamp[1], 0.93 * lamp[2]], [lamp[0], lamp[1], lamp[2]], 4), 0, 20, 30);
    expect(Math.hypot(warm[0] - blueGrey[0], warm[1] - blueGrey[1])).toBeLessThan(1e-6);
    expect(colourDistance(warm, blueGrey)).toBeCloseTo(Math.hypot(warm[3] - blueGrey[3], warm[4] - blueGrey[4]), 9);
  });

  it('costs a design nothing near the nearest colour, more the further beyond', () => {
    const blue = backColourOf(crop(10, 10, [0.7, 0.75, 0.9], [1, 1, 1], 2), 0, 10, 10);
    const pink = backColourOf(crop(10, 10, [0.9, 0.7, 0.75], [1, 1, 1], 2), 0, 10, 10);
    const distances = designColourDistances(new Map([['blue', [blue, pink]], ['pink', [pink]]]), blue);
    expect(distances.get('blue')).toBe(0);
    expect(distances.get('pink')).toBeCloseTo(colourDistance(blue, pink), 9);
    const penalties = colourPenalties(distances);
    expect(penalties.get('blue')).toBe(0);
    expect(penalties.get('pink')).toBeGreaterThan(0.3);
    // Relative to the nearest: a tint shared by every design changes nothing.
    const tinted = colourPenalties(new Map([['a', 0.2], ['b', 0.2 + BACK_COLOUR_TOLERANCE / 2]]));
    expect([...tinted.values()]).toEqual([0, 0]);
  });

  it('names a back by both embeddings less its colour cost (the live score sort of session 29)', () => {
    // A kennard back (pale blue-grey lattice) on the score sort: both embeddings slightly prefer the
    // pink lattice of p3, the colour clearly says p1.
    const looks = new Map([['p1', 0.69], ['p2', 0.26], ['p3', 0.7]]);
    const whole = new Map([['p1', 0.92], ['p2', 0.39], ['p3', 0.93]]);
    const colourDistances = new Map([['p1', 0.016], ['p2', 0.327], ['p3', 0.089]]);
    expect(nameBackDesign({ looks, whole, wholeMatch: true })).toBe('p3');
    expect(nameBackDesign({ looks, whole, colourDistances, wholeMatch: true })).toBe('p1');
    // Designs alike in colour (two reds) are told apart by the embeddings, as before.
    const reds = new Map([['p1', 0.3], ['p2', 0.01], ['p3', 0.02]]);
    expect(nameBackDesign({ looks, whole, colourDistances: reds, wholeMatch: true })).toBe('p3');
    // Named only when either embedding finds the design close.
    const far = new Map([['p1', 0.37], ['p2', 0.46], ['p3', 0.4]]);
    expect(nameBackDesign({ looks: far, whole, colourDistances, wholeMatch: false })).toBeUndefined();
    expect(nameBackDesign({ looks: far, whole, colourDistances, wholeMatch: true })).toBe('p1');
  });

  it('tells a plain pale patch (paper, pale cloth) from a back: a printed design, a strong colour or a dark one', () => {
    const [w, h] = [64, 96];
    // An envelope read as a back: off-white, nearly even.
    expect(plainPalePatch(crop(w, h, [0.86, 0.85, 0.82]), 0, w, h)).toBe(true);
    // A pale cream cloth with a faint grain still counts as plain.
    const grain = crop(w, h, [0.8, 0.76, 0.62]);
    for (let i = 0; i < w * h; i += 7) grain.set([0.84, 0.8, 0.66], i * 3);
    expect(plainPalePatch(grain, 0, w, h)).toBe(true);
    // A back's lattice on white: the design shows.
    const lattice = crop(w, h, [0.9, 0.9, 0.95]);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if ((x + y) % 6 < 2) lattice.set([0.3, 0.35, 0.7], (y * w + x) * 3);
    expect(plainPalePatch(lattice, 0, w, h)).toBe(false);
    // A salmon back whose print blurred away at webcam size, a navy one: coloured, or dark.
    expect(plainPalePatch(crop(w, h, [0.95, 0.5, 0.45]), 0, w, h)).toBe(false);
    expect(plainPalePatch(crop(w, h, [0.1, 0.12, 0.3]), 0, w, h)).toBe(false);
    // Only the middle counts: a white border round a dark back changes nothing.
    expect(plainPalePatch(crop(w, h, [0.1, 0.12, 0.3], [1, 1, 1], 6), 0, w, h)).toBe(false);
  });
});
