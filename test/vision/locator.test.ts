import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { encodeLocatorTargets, IGNORED, type StoredCard } from '../../datasets/lib/locator-data';
import { buildLocatorModel, locatorLoss } from '../../datasets/lib/locator-model';
import { matchLocated } from '../../datasets/lib/locator-score';
import {
  cardGeometry,
  decodeLocatorOutput,
  geometryQuad,
  LOCATOR_ALIGN,
  LOCATOR_CHANNELS,
  LOCATOR_OUTPUTS,
  LOCATOR_STRIDE,
  locatorScales,
  mergeDetections,
  refineLocated,
  cardOfSizeAbout,
  typicalCardSize,
  runLocator,
  sureCardsClaimedAmiss,
  CLAIMED_AMISS,
  SURE_DETECTION,
  unionOfLocated,
  type CardGeometry,
} from '../../server/vision/locator';
import { outlineScore, refineGeometry, type GreyImage } from '../../server/vision/refine';
import { keepSurestRivals, type LocatedCard } from '../../server/vision/locate';
import type { Quad } from '../../server/vision/types';

const card = (cx: number, cy: number, short: number, angle: number, visible = 1): StoredCard => ({
  corners: geometryQuad({ cx, cy, short, long: short * 1.4, angle }),
  visible,
});

/** Turns encoded targets into what a perfect net would output (heat as a logit). */
function perfectOutput(targets: Float32Array): Float32Array {
  const out = targets.slice();
  for (let i = 0; i < out.length; i += LOCATOR_OUTPUTS) {
    const h = Math.min(0.999999, Math.max(1e-6, out[i]));
    out[i] = Math.log(h / (1 - h));
  }
  return out;
}

describe('locator geometry', () => {
  it('LOC-1 a quad and its geometry round-trip (up to the half-turn symmetry)', () => {
    const g: CardGeometry = { cx: 50, cy: 40, short: 30, long: 42, angle: 0.7 };
    const back = cardGeometry(geometryQuad(g));
    expect(back.cx).toBeCloseTo(50);
    expect(back.cy).toBeCloseTo(40);
    expect(back.short).toBeCloseTo(30);
    expect(back.long).toBeCloseTo(42);
    expect(Math.cos(2 * back.angle)).toBeCloseTo(Math.cos(1.4));
    expect(Math.sin(2 * back.angle)).toBeCloseTo(Math.sin(1.4));
  });

  it('LOC-2 decoding perfect targets gives back every findable card, overlapping ones included', () => {
    const size = 192;
    // A cascade: three cards offset down by a quarter of their height, plus a turned card.
    const cards = [card(60, 50, 40, Math.PI / 2), card(60, 64, 40, Math.PI / 2), card(60, 78, 40, Math.PI / 2), card(140, 120, 30, 0.4)];
    const grid = size / LOCATOR_STRIDE;
    const found = decodeLocatorOutput(perfectOutput(encodeLocatorTargets(cards, size)), grid, grid, 0.5);
    expect(found).toHaveLength(4);
    for (const c of cards) {
      const g = cardGeometry(c.corners);
      const d = found.find((f) => Math.hypot(f.cx - g.cx, f.cy - g.cy) < 1e-3);
      expect(d, `card at ${g.cx},${g.cy}`).toBeDefined();
      expect(d!.short).toBeCloseTo(g.short, 3);
      expect(d!.long).toBeCloseTo(g.long, 3);
      expect(Math.cos(2 * d!.angle)).toBeCloseTo(Math.cos(2 * g.angle), 3);
    }
  });

  it('LOC-3 a barely visible card is not a target but its centre is not scored either', () => {
    const size = 64;
    const t = encodeLocatorTargets([card(30, 30, 20, 0, 0.1)], size);
    const grid = size / LOCATOR_STRIDE;
    const heat = (x: number, y: number) => t[(y * grid + x) * LOCATOR_CHANNELS.length];
    expect(Math.max(...Array.from({ length: grid * grid }, (_, i) => heat(i % grid, Math.floor(i / grid))))).toBeLessThan(0.5);
    expect(heat(7, 7)).toBe(IGNORED);
    expect(heat(0, 0)).toBe(0);
    expect(decodeLocatorOutput(perfectOutput(t), grid, grid, 0.5)).toHaveLength(0);
  });

  it('LOC-4 detections of one card at two scales merge; neighbours in a cascade do not', () => {
    const a = { cx: 100, cy: 100, short: 40, long: 56, angle: 0, score: 0.9 };
    const merged = mergeDetections([a, { ...a, cx: 104, score: 0.6 }, { ...a, cy: 120, score: 0.8 }, { ...a, short: 100, long: 140, score: 0.7 }]);
    expect(merged.map((d) => d.score)).toEqual([0.9, 0.8, 0.7]);
  });

  it('LOC-5 scales never upscale and collapse duplicates', () => {
    expect(locatorScales(1280, 720)).toEqual([0.5, 0.25]);
    expect(locatorScales(300, 200)).toEqual([1]);
  });

  it('LOC-6 decoding rejects an output of the wrong size', () => {
    expect(() => decodeLocatorOutput(new Float32Array(10), 4, 4)).toThrow(/expected 4x4x7/);
  });

  it('LOC-7 matching: one prediction per card, slivers neutral, duplicates wrong', () => {
    const truth = [card(50, 50, 40, 0), card(150, 50, 40, 0, 0.1)];
    const at = (cx: number, cy: number, support: number) => ({ corners: geometryQuad({ cx, cy, short: 40, long: 56, angle: 0 }), source: 'net' as const, support });
    const m = matchLocated([at(52, 50, 0.9), at(48, 51, 0.8), at(150, 52, 0.7), at(300, 300, 0.6)], truth);
    expect(m).toEqual({ cards: 1, found: 1, predictions: 3, wrong: 2 });
  });
});

describe('locator net', () => {
  it('LOC-8 the untrained net runs on any image size and frees its tensors; the loss is finite', async () => {
    const model = buildLocatorModel();
    const before = tf.memory().numTensors;
    const image = { width: 100, height: 70, data: new Uint8Array(100 * 70 * 3).fill(128) };
    const cards = await runLocator(model, image, { threshold: 0.01 });
    expect(Array.isArray(cards)).toBe(true);
    expect(tf.memory().numTensors).toBe(before);
    const grid = 64 / LOCATOR_STRIDE;
    const loss = tf.tidy(() => {
      const y = tf.tensor4d(encodeLocatorTargets([card(30, 30, 20, 0)], 64), [1, grid, grid, LOCATOR_OUTPUTS]);
      return locatorLoss(y, model.predict(tf.zeros([1, 64, 64, 3])) as tf.Tensor).dataSync()[0];
    });
    expect(Number.isFinite(loss)).toBe(true);
    expect(loss).toBeGreaterThan(0);
    model.dispose();
  });
});

describe('locator net on part of a frame', () => {
  it('LOC-12 a crop starting on the net\'s grid (LOCATOR_ALIGN) reads its inside as the whole frame does', () => {
    const model = buildLocatorModel();
    const [width, height, x0, y0] = [512, 384, 2 * LOCATOR_ALIGN, LOCATOR_ALIGN];
    const out = tf.tidy(() => {
      const frame = tf.randomUniform([1, height, width, 3], 0, 1, 'float32', 7);
      const whole = model.predict(frame) as tf.Tensor4D;
      const part = model.predict(frame.slice([0, y0, x0, 0], [1, height - y0, width - x0, 3])) as tf.Tensor4D;
      // Cells of the part beyond the net's reach (about 110 px) from its left and top edges, and
      // the same cells of the whole (the two share their right and bottom edges).
      const [dy, dx] = [y0 / LOCATOR_STRIDE, x0 / LOCATOR_STRIDE];
      const inside = [32, 32];
      const size = [part.shape[1] - inside[0], part.shape[2] - inside[1]];
      const mine = part.slice([0, inside[0], inside[1], 0], [1, size[0], size[1], LOCATOR_OUTPUTS]);
      const theirs = whole.slice([0, inside[0] + dy, inside[1] + dx, 0], [1, size[0], size[1], LOCATOR_OUTPUTS]);
      return mine.sub(theirs).abs().max().dataSync()[0];
    });
    expect(out).toBeLessThan(1e-4);
    model.dispose();
  });
});

describe('edge refinement and the union of localisers', () => {
  /** A grey image: dark cloth with one bright card of geometry `g` and a dark pip in its middle. */
  function cardImage(g: CardGeometry, width = 200, height = 160): GreyImage {
    const data = new Float32Array(width * height).fill(60);
    const ax = Math.cos(g.angle);
    const ay = Math.sin(g.angle);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const u = (x - g.cx) * ax + (y - g.cy) * ay;
        const v = -(x - g.cx) * ay + (y - g.cy) * ax;
        if (Math.abs(u) <= g.long / 2 && Math.abs(v) <= g.short / 2) data[y * width + x] = Math.hypot(u, v) < g.short / 6 ? 30 : 230;
      }
    return { width, height, data };
  }

  /** RGB pixels of a dark grey (60) image, and `paint` to fill a rectangle [x0, x1) x [y0, y1) with one grey level. */
  function greyRgb(width: number, height: number) {
    const data = new Uint8Array(width * height * 3).fill(60);
    const paint = (x0: number, y0: number, x1: number, y1: number, value: number) => {
      for (let y = y0; y < y1; y++) data.fill(value, (y * width + x0) * 3, (y * width + x1) * 3);
    };
    return { data, paint };
  }

  it('LOC-9 fits a detection with the wrong angle and size onto the card outline', () => {
    const truth: CardGeometry = { cx: 100, cy: 80, short: 60, long: 84, angle: 0.5 };
    const refined = refineGeometry(cardImage(truth), { cx: 103, cy: 78, short: 48, long: 60, angle: 1.3 });
    expect(Math.hypot(refined.cx - truth.cx, refined.cy - truth.cy)).toBeLessThan(4);
    expect(refined.short).toBeGreaterThan(54);
    expect(refined.short).toBeLessThan(66);
    // Same axis (mod half a turn), within 4 degrees.
    expect(Math.abs(Math.sin(refined.angle - truth.angle))).toBeLessThan(Math.sin((4 * Math.PI) / 180));
    expect(outlineScore(cardImage(truth), truth)).toBeGreaterThan(100);
  });

  it('LOC-10 the union keeps the first localiser’s card and adds only new ones', () => {
    const at = (cx: number, short: number, source: 'single' | 'net') => ({ corners: geometryQuad({ cx, cy: 50, short, long: short * 1.4, angle: 0 }), source, support: 1 });
    const union = unionOfLocated([at(50, 40, 'single')], [at(55, 44, 'net'), at(150, 40, 'net'), at(52, 100, 'net')]);
    expect(union.map((c) => [c.source, Math.round(cardGeometry(c.corners).cx)])).toEqual([
      ['single', 50],
      ['net', 150],
      ['net', 52],
    ]);
  });

  it('LOC-11 a card on a pale card-shaped sheet: the widest fit takes the sheet, the rival near the net’s size is the card', () => {
    const width = 240;
    const height = 200;
    const { data, paint } = greyRgb(width, height);
    paint(78, 41, 162, 159, 190); // a pale folder, 84 x 118: card-shaped
    paint(90, 58, 150, 142, 250); // the card on it, 60 x 84
    const detection: LocatedCard = { corners: geometryQuad({ cx: 118, cy: 98, short: 55, long: 77, angle: Math.PI / 2 }), source: 'net', support: 1 };
    const sizes = (cards: LocatedCard[]) => cards.map((card) => Math.round(cardGeometry(card.corners).short));
    expect(sizes(refineLocated({ width, height, data }, [detection]))).toEqual([85]);
    const fitted = refineLocated({ width, height, data }, [detection], { rivals: true });
    expect(sizes(fitted)).toEqual([85, 59]);
    expect(fitted[0].rivalGroup).toBeDefined();
    expect(fitted[1].rivalGroup).toBe(fitted[0].rivalGroup);
    // Another call (another region or frame) numbers its rivals afresh: groups never collide.
    const again = refineLocated({ width, height, data }, [detection], { rivals: true });
    expect(again[0].rivalGroup).not.toBe(fitted[0].rivalGroup);
    // Rivals survive the union (they are one detection's outlines), then the surest is kept.
    const rivals: LocatedCard[] = [
      { corners: geometryQuad({ cx: 120, cy: 80, short: 84, long: 120, angle: 0 }), source: 'net', support: 1, rivalGroup: 0 },
      { corners: geometryQuad({ cx: 90, cy: 80, short: 60, long: 84, angle: Math.PI / 2 }), source: 'net', support: 1, rivalGroup: 0 },
    ];
    const lone: LocatedCard = { corners: geometryQuad({ cx: 30, cy: 30, short: 20, long: 28, angle: 0 }), source: 'single', support: 1 };
    expect(unionOfLocated([lone], rivals)).toHaveLength(3);
    const sureness = new Map<LocatedCard, number>([[rivals[0], 0.3], [rivals[1], 0.9], [lone, 0.1]]);
    expect(keepSurestRivals([lone, ...rivals], (card) => sureness.get(card)!)).toEqual([lone, rivals[1]]);
  });

  it('LOC-13 on a calibrated table, a card whose far end is as dark as the cloth also gets the outline of its known size as a rival', () => {
    const width = 200;
    const height = 200;
    const { data, paint } = greyRgb(width, height);
    // A 40 x 56 card upright at (100, 100) whose top 10 pixels are as dark as the cloth (a dark
    // pattern reaching its edge): the brightest step outlines a 40 x 46 card.
    paint(80, 72, 120, 128, 230);
    paint(82, 72, 118, 82, 60);
    const detection: LocatedCard = { corners: geometryQuad({ cx: 100, cy: 104, short: 36, long: 44, angle: Math.PI / 2 }), source: 'net', support: 1 };
    const outlines = (cards: LocatedCard[]) => cards.map((card) => {
      const g = cardGeometry(card.corners);
      return [Math.round(g.short), Math.round(g.long), Math.round(g.cy)];
    });
    const plain = refineLocated({ width, height, data }, [detection], { rivals: true });
    expect(plain).toHaveLength(1);
    const [short, long] = outlines(plain)[0];
    expect(long / short).toBeLessThan(1.25);
    // The calibration says a card here is 40 x 56: that outline, fitted in angle and place, joins as a rival.
    const cardAbout = (quad: Quad) => geometryQuad({ ...cardGeometry(quad), short: 40, long: 56 });
    const sized = refineLocated({ width, height, data }, [detection], { rivals: true, cardAbout });
    expect(sized).toHaveLength(2);
    expect(sized[1].rivalGroup).toBe(sized[0].rivalGroup);
    const [sizedShort, sizedLong, sizedCy] = outlines(sized)[1];
    expect([sizedShort, sizedLong]).toEqual([40, 56]);
    expect(Math.abs(sizedCy - 100)).toBeLessThanOrEqual(2);
  });

  it('LOC-14 a card the net is sure of keeps its best fit however faint its edge, and its own outline as the fit\'s rival, both marked faintEdge; an unsure one is dropped', () => {
    const width = 160;
    const height = 160;
    const { data, paint } = greyRgb(width, height);
    paint(0, 0, width, height, 200); // a cream cloth
    paint(50, 38, 110, 122, 225); // a white card on it, 60 x 84: an edge of 25, under minEdge
    const at = (support: number): LocatedCard => ({ corners: geometryQuad({ cx: 80, cy: 80, short: 58, long: 80, angle: Math.PI / 2 }), source: 'net', support });
    const image = { width, height, data };
    expect(refineLocated(image, [at(0.9)], { rivals: true })).toEqual([]);
    const kept = refineLocated(image, [at(0.9)], { rivals: true, sureDetection: 0.45 });
    expect(kept).toHaveLength(2);
    expect(kept.map((card) => card.faintEdge)).toEqual([true, true]);
    expect(kept[0].rivalGroup).toBeDefined();
    expect(kept[1].rivalGroup).toBe(kept[0].rivalGroup);
    expect(kept[1].corners).toEqual(at(0.9).corners);
    const g = cardGeometry(kept[0].corners);
    expect(Math.round(g.short)).toBeGreaterThanOrEqual(57);
    expect(Math.round(g.short)).toBeLessThanOrEqual(63);
    expect(refineLocated(image, [at(0.3)], { rivals: true, sureDetection: 0.45 })).toEqual([]);
  });

  it('LOC-19 with knownSizeOnly, a net card is fitted at its calibrated size alone: one outline on a clear edge, the fit and its own outline as faint rivals on a faint one', () => {
    const width = 200;
    const height = 200;
    const { data, paint } = greyRgb(width, height);
    paint(80, 72, 120, 128, 230); // a 40 x 56 card upright at (100, 100) on the grey cloth
    const detection: LocatedCard = { corners: geometryQuad({ cx: 103, cy: 96, short: 34, long: 48, angle: Math.PI / 2 }), source: 'net', support: 0.9 };
    const cardAbout = (quad: Quad) => geometryQuad({ ...cardGeometry(quad), short: 40, long: 56 });
    const [fit, ...others] = refineLocated({ width, height, data }, [detection], { rivals: true, cardAbout, sureDetection: 0.45, knownSizeOnly: true });
    expect(others).toEqual([]);
    const g = cardGeometry(fit.corners);
    expect([Math.round(g.short), Math.round(g.long)]).toEqual([40, 56]);
    expect(Math.hypot(g.cx - 100, g.cy - 100)).toBeLessThanOrEqual(2);
    expect(fit.faintEdge).toBeUndefined();
    // The same card barely whiter than a cream cloth: no clear edge.
    const faint = greyRgb(width, height);
    faint.paint(0, 0, width, height, 215);
    faint.paint(80, 72, 120, 128, 230);
    const kept = refineLocated({ width, height, data: faint.data }, [detection], { rivals: true, cardAbout, sureDetection: 0.45, knownSizeOnly: true });
    expect(kept.map((card) => card.faintEdge)).toEqual([true, true]);
    expect(kept[1].rivalGroup).toBe(kept[0].rivalGroup);
    expect(refineLocated({ width, height, data: faint.data }, [{ ...detection, support: 0.3 }], { rivals: true, cardAbout, sureDetection: 0.45, knownSizeOnly: true })).toEqual([]);
  });

  it('LOC-18 a card the net is sure of keeps its own outline as a rival where the clear edges are its picture frame\'s (render_0019: a QH on a cream table)', () => {
    const width = 200;
    const height = 200;
    const { data, paint } = greyRgb(width, height);
    paint(0, 0, width, height, 205); // a cream table
    paint(70, 58, 130, 142, 228); // a white card on it, 60 x 84: a faint edge
    paint(80, 72, 120, 128, 40); // its court picture, a bright 32 x 48 framed by a thick dark line
    paint(84, 76, 116, 124, 250);
    const at = (support: number): LocatedCard => ({ corners: geometryQuad({ cx: 100, cy: 100, short: 60, long: 84, angle: Math.PI / 2 }), source: 'net', support });
    const image = { width, height, data };
    const shorts = (cards: LocatedCard[]) => cards.map((card) => Math.round(cardGeometry(card.corners).short));
    // The fits settle on the picture's frame, far smaller than the card.
    const fits = refineLocated(image, [at(0.9)], { rivals: true });
    expect(fits.length).toBeGreaterThan(0);
    expect(Math.max(...shorts(fits))).toBeLessThan(52);
    // Sure of its card, the net's own outline is one more rival, in the fits' group.
    const sure = refineLocated(image, [at(0.9)], { rivals: true, sureDetection: 0.45 });
    expect(sure).toHaveLength(fits.length + 1);
    expect(sure[sure.length - 1].corners).toEqual(at(0.9).corners);
    expect(new Set(sure.map((card) => card.rivalGroup)).size).toBe(1);
    expect(sure[0].rivalGroup).toBeDefined();
    // Not for a card it is unsure of, nor on a calibrated table (sureDetection infinite).
    expect(refineLocated(image, [at(0.3)], { rivals: true, sureDetection: 0.45 })).toHaveLength(fits.length);
    expect(refineLocated(image, [at(0.9)], { rivals: true, sureDetection: Infinity })).toHaveLength(fits.length);
  });
});

describe('the frame\'s own card size (no calibration)', () => {
  it('LOC-15 typicalCardSize is the median of the sure cards\' sides; none with fewer than two', () => {
    const quad = (short: number, long: number, angle = 0) => geometryQuad({ cx: 100, cy: 100, short, long, angle });
    expect(typicalCardSize([quad(60, 84)])).toBeNull();
    const odd = typicalCardSize([quad(60, 84), quad(64, 90, 1.2), quad(200, 280)])!;
    expect(odd.short).toBeCloseTo(64);
    expect(odd.long).toBeCloseTo(90);
    const even = typicalCardSize([quad(60, 84), quad(64, 88)])!;
    expect(even.short).toBeCloseTo(62);
    expect(even.long).toBeCloseTo(86);
  });

  it('LOC-16 cardOfSizeAbout fits the card of that size about a court card\'s picture frame, lying sideways', () => {
    const width = 200;
    const height = 160;
    const grey = { width, height, data: new Float32Array(width * height).fill(200) }; // cream cloth
    const paint = (x0: number, y0: number, x1: number, y1: number, value: number) => {
      for (let y = y0; y < y1; y++) grey.data.fill(value, y * width + x0, y * width + x1);
    };
    paint(58, 50, 142, 110, 235); // a white card lying sideways, 84 x 60, centre (100, 80)
    paint(76, 60, 124, 100, 90); // its dark picture, 48 x 40: the sharpest rectangle there
    // The outline that was read as no card: the picture frame, upright.
    const frame = geometryQuad({ cx: 100, cy: 80, short: 40, long: 48, angle: Math.PI / 2 });
    const card = cardGeometry(cardOfSizeAbout(grey, frame, { short: 60, long: 84 }));
    expect(Math.hypot(card.cx - 100, card.cy - 80)).toBeLessThan(3);
    expect([Math.round(card.short), Math.round(card.long)]).toEqual([60, 84]);
    // Its long side runs across the image (the card lies sideways), within 4 degrees.
    expect(Math.abs(Math.cos(card.angle))).toBeGreaterThan(Math.cos((4 * Math.PI) / 180));
  });

  it('LOC-17 sureCardsClaimedAmiss: a sure net card a classical outline of another size (or, the net very sure, off its centre), or only split hypotheses, claim is read too; one of its size and place, or an unsure one, is not', () => {
    const outline = (cx: number, cy: number, short: number, long: number, source: LocatedCard['source'], support = 1): LocatedCard => ({
      corners: geometryQuad({ cx, cy, short, long, angle: 0.5 }),
      source,
      support,
    });
    // cam_image31: the classical outline of the 10S is 180 x 201 (a piece), the net's card 212 x 294.
    const piece = outline(421, 217, 180, 201, 'split');
    const sureWhole = outline(448, 259, 212, 294, 'net', 0.87);
    const unsureWhole = outline(448, 259, 212, 294, 'net', SURE_DETECTION - 0.05);
    // A card the classical localiser outlined at its own size, the net's centre a little off.
    const exact = outline(100, 100, 60, 84, 'single');
    const sameSize = outline(104, 103, 62, 86, 'net', 0.95);
    // A net card nothing claims is unionOfLocated's, not this one's.
    const alone = outline(700, 500, 60, 84, 'net', 0.95);
    const learned = [sureWhole, unsureWhole, sameSize, alone];
    // The pieces claim the net's cards (unionOfLocated would leave them out)...
    expect(unionOfLocated([piece, exact], learned).slice(2)).toEqual([alone]);
    // ...and only the sure card of another size is read beside them.
    expect(sureCardsClaimedAmiss([piece, exact], learned, SURE_DETECTION)).toEqual([sureWhole]);
    // IMG_2478: the classical outline is of the card's size but off its centre (0.2 of a short
    // side): read too when the net is very sure of its card, not when it is only sure.
    const offClassical = outline(300, 100, 60, 84, 'single');
    const verySure = outline(312, 100, 60, 84, 'net', CLAIMED_AMISS.offCentreDetection);
    const onlySure = outline(312, 100, 60, 84, 'net', CLAIMED_AMISS.offCentreDetection - 0.1);
    expect(sureCardsClaimedAmiss([offClassical], [verySure, onlySure], SURE_DETECTION)).toEqual([verySure]);
    // When one of the outlines claiming it is of its size and place, the classical outline stands.
    const alsoWhole = outline(446, 257, 210, 290, 'single');
    expect(sureCardsClaimedAmiss([piece, alsoWhole], learned, SURE_DETECTION)).toEqual([]);
    // Claimed by split hypotheses only (guesses in a merged blob: render_0020's QS lying sideways
    // under an oblique camera, its blob too long for one card, cut into skewed pieces), a sure net
    // card is read too, whatever their size and place; an unsure one is not.
    const guess = outline(300, 300, 58, 82, 'split');
    const sureThere = outline(302, 301, 60, 84, 'net', SURE_DETECTION);
    const unsureThere = outline(302, 301, 60, 84, 'net', SURE_DETECTION - 0.05);
    expect(sureCardsClaimedAmiss([guess], [sureThere, unsureThere], SURE_DETECTION)).toEqual([sureThere]);
    expect(sureCardsClaimedAmiss([guess, outline(301, 300, 60, 84, 'single')], [sureThere], SURE_DETECTION)).toEqual([]);
    // With a calibration the recogniser passes an infinite sureness: nothing is read twice.
    expect(sureCardsClaimedAmiss([piece, exact], learned, Infinity)).toEqual([]);
  });
});
