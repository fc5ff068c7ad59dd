import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_CARD_CODES, type CardCode } from '../../../server/game/cards';
import type { CardPose, HandPose, TableScene } from '../../../server/sim/scene';
import { createRenderer, type DetailedFrame, type RendererOptions } from '../../../server/sim/render/index';
import type { Quad } from '../../../server/vision/types';

const TABLE_RGB: [number, number, number] = [30, 90, 40];

function card(code: CardCode, x: number, y: number, extra: Partial<CardPose> = {}): CardPose {
  return { id: `d0/${code}`, code, deckId: 'd0', owner: 'p0', faceUp: true, xMm: x, yMm: y, rotationRad: 0, zMm: 0, zone: { kind: 'stock', seat: 0 }, ...extra };
}
function scene(cards: CardPose[], hands: HandPose[] = []): TableScene {
  return { timeMs: 0, table: { widthMm: 1200, heightMm: 800 }, seats: [], cards, hands };
}
/** A plain, evenly lit green table with a white-bordered published deck. */
function plainOptions(camera: RendererOptions['camera']): RendererOptions {
  return {
    seed: 11,
    width: 1280,
    height: 720,
    camera,
    decks: { d0: { faces: 'npm-cardsjs', back: 'gen-back-3' }, d1: { faces: 'npm-cardsjs', back: 'gen-back-4' } },
    look: { plain: true, surface: { kind: 'laminate', base: TABLE_RGB, accent: TABLE_RGB } },
    jpegQuality: 95,
  };
}
function pixel(frame: DetailedFrame, x: number, y: number): [number, number, number] {
  const i = (Math.round(y) * frame.width + Math.round(x)) * 3;
  return [frame.rgb[i], frame.rgb[i + 1], frame.rgb[i + 2]];
}
/** A point at fraction (u, v) of a quad, by bilinear interpolation of its corners. */
function quadPoint(q: Quad, u: number, v: number): [number, number] {
  const top = [q[0][0] + (q[1][0] - q[0][0]) * u, q[0][1] + (q[1][1] - q[0][1]) * u];
  const bottom = [q[3][0] + (q[2][0] - q[3][0]) * u, q[3][1] + (q[2][1] - q[3][1]) * u];
  return [top[0] + (bottom[0] - top[0]) * v, top[1] + (bottom[1] - top[1]) * v];
}
const isCardWhite = (p: number[]) => p[0] > 180 && p[1] > 180 && p[2] > 180;
const isTable = (p: number[]) => Math.abs(p[0] - TABLE_RGB[0]) < 30 && Math.abs(p[1] - TABLE_RGB[1]) < 30 && Math.abs(p[2] - TABLE_RGB[2]) < 30;

describe('renderer geometry', () => {
  for (const camera of ['top', 'oblique'] as const) {
    it(`projected corners land on the card (${camera} camera, rotated and lifted card)`, async () => {
      const renderer = await createRenderer(plainOptions(camera));
      const frame = await renderer.renderDetailed(scene([card('7C', 80, -40, { rotationRad: 0.6, zMm: 12 })]));
      expect(frame.truth).toHaveLength(1);
      const q = frame.truth[0].corners;
      let inside = 0;
      let outside = 0;
      // Mid-edge samples: the corners carry the index, which is not card-white.
      const samples = [0.3, 0.4, 0.5, 0.6, 0.7];
      for (const t of samples) {
        // Just inside each edge (white border of the card) and just outside (table).
        for (const [u, v, uo, vo] of [[t, 0.035, t, -0.035], [t, 0.965, t, 1.035], [0.05, t, -0.05, t], [0.95, t, 1.05, t]]) {
          if (isCardWhite(pixel(frame, ...quadPoint(q, u, v)))) inside++;
          if (isTable(pixel(frame, ...quadPoint(q, uo, vo)))) outside++;
        }
      }
      expect(inside, 'card-white samples just inside the quad').toBe(20);
      expect(outside, 'table samples just outside the quad').toBe(20);
    });
  }

  it('top camera keeps the card upright and centred where the scene puts it', async () => {
    const renderer = await createRenderer(plainOptions('top'));
    const frame = await renderer.renderDetailed(scene([card('AS', 0, 0)]));
    const q = frame.truth[0].corners;
    const cx = (q[0][0] + q[2][0]) / 2;
    const cy = (q[0][1] + q[2][1]) / 2;
    expect(cx).toBeCloseTo(640, 0);
    expect(cy).toBeCloseTo(360, 0);
    expect(q[0][0]).toBeLessThan(q[1][0]); // TL left of TR
    expect(q[0][1]).toBeLessThan(q[3][1]); // TL above BL
    const cardHeightPx = q[3][1] - q[0][1];
    const cardWidthPx = q[1][0] - q[0][0];
    expect(cardHeightPx / cardWidthPx).toBeCloseTo(88 / 63, 2);
  });
});

describe('visible fraction', () => {
  it('is about 1 for a lone card, about 0.5 under a half-covering card, and drops under a hand', async () => {
    const renderer = await createRenderer(plainOptions('top'));
    const alone = await renderer.render(scene([card('2H', 0, 0)]));
    expect(alone.truth[0].visibleFraction).toBeGreaterThan(0.96);
    expect(alone.truth[0].visibleFraction).toBeLessThanOrEqual(1);

    const covered = await renderer.render(scene([card('2H', 0, 0), card('3H', 31.5, 0, { zMm: 0.3 })]));
    const below = covered.truth.find((t) => t.code === '2H');
    const above = covered.truth.find((t) => t.code === '3H');
    expect(below?.visibleFraction).toBeGreaterThan(0.45);
    expect(below?.visibleFraction).toBeLessThan(0.56);
    expect(above?.visibleFraction).toBeGreaterThan(0.96);

    const hand: HandPose = { seat: 0, xMm: 0, yMm: -90, elbowXMm: 0, elbowYMm: 400, zMm: 20, appearance: 0 };
    const handed = await renderer.render(scene([card('2H', 0, 0)], [hand]));
    const underHand = handed.truth.find((t) => t.code === '2H');
    expect(underHand === undefined || underHand.visibleFraction < 0.6).toBe(true);
  });

  it("measures the index corner: a cascade's strip shows it whole, a narrower sliver or a card on it hides it", async () => {
    const renderer = await createRenderer(plainOptions('top'));
    const alone = await renderer.render(scene([card('2H', 0, 0)]));
    expect(alone.truth[0].indexVisibleFraction).toBe(1);
    // Cascaded down: the 2H shows an 18 mm strip along its top edge, the top-left index in it.
    const cascade = await renderer.render(scene([card('2H', 0, 0), card('3H', 0, 18, { zMm: 0.3 })]));
    const strip = cascade.truth.find((t) => t.code === '2H')!;
    expect(strip.visibleFraction).toBeLessThan(0.3);
    expect(strip.indexVisibleFraction).toBeGreaterThan(0.95);
    // Lying the other way up, the strip holds the bottom-right index: the same.
    const turned = await renderer.render(scene([card('2H', 0, 0, { rotationRad: Math.PI }), card('3H', 0, 18, { zMm: 0.3 })]));
    expect(turned.truth.find((t) => t.code === '2H')!.indexVisibleFraction).toBeGreaterThan(0.95);
    // Fanned 5 mm to the right: the sliver along the left edge shows only part of the index.
    const sliver = await renderer.render(scene([card('2H', 0, 0), card('3H', 5, 0, { zMm: 0.3 })]));
    const part = sliver.truth.find((t) => t.code === '2H')!.indexVisibleFraction;
    expect(part).toBeGreaterThan(0.2);
    expect(part).toBeLessThan(0.8);
    // A card squarely on top hides both corners.
    const covered = await renderer.render(scene([card('2H', 0, 0), card('3H', 0, 2, { zMm: 0.3 })]));
    expect(covered.truth.find((t) => t.code === '2H')?.indexVisibleFraction ?? 0).toBe(0);
  });

  it('counts the image border: a card half outside the image is about half visible', async () => {
    const renderer = await createRenderer(plainOptions('top'));
    const probe = await renderer.render(scene([card('KD', 0, 0)]));
    const q = probe.truth[0].corners;
    const mmPerPx = 63 / (q[1][0] - q[0][0]);
    // Put the card's centre exactly on the right image border.
    const frame = await renderer.render(scene([card('KD', 640 * mmPerPx, 0)]));
    expect(frame.truth[0].visibleFraction).toBeGreaterThan(0.44);
    expect(frame.truth[0].visibleFraction).toBeLessThan(0.56);
    expect(frame.truth[0].corners[1][0]).toBeGreaterThan(1280); // corners may lie outside the image
  });

  it('lists no truth for a card fully covered by another', async () => {
    const renderer = await createRenderer(plainOptions('top'));
    const frame = await renderer.render(scene([card('4S', 0, 0), card('5S', 0, 0, { zMm: 0.3 })]));
    expect(frame.truth.map((t) => t.code)).toEqual(['5S']);
  });
});

describe('determinism and decks', () => {
  const busy = scene(
    ALL_CARD_CODES.slice(0, 20).map((code, k) =>
      card(code, -400 + (k % 10) * 80, -100 + Math.floor(k / 10) * 200, { faceUp: k % 3 !== 0, deckId: k % 2 ? 'd1' : 'd0', id: `${k % 2 ? 'd1' : 'd0'}/${code}`, velocityMmPerS: k === 5 ? { x: 800, y: 0 } : undefined }),
    ),
    [{ seat: 0, xMm: 100, yMm: 50, elbowXMm: 300, elbowYMm: 420, zMm: 40, appearance: 3 }],
  );

  it('renders identical JPEG bytes and truth for the same seed, different ones for another seed', async () => {
    const a = await (await createRenderer({ seed: 5, width: 480, height: 270 })).render(busy);
    const b = await (await createRenderer({ seed: 5, width: 480, height: 270 })).render(busy);
    const c = await (await createRenderer({ seed: 6, width: 480, height: 270 })).render(busy);
    expect(Buffer.compare(a.jpeg, b.jpeg)).toBe(0);
    expect(a.truth).toEqual(b.truth);
    expect(Buffer.compare(a.jpeg, c.jpeg)).not.toBe(0);
    const meta = await sharp(a.jpeg).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 480, 270]);
  });

  it('preloads decks so their art is ready (and rejects unknown styles)', async () => {
    const renderer = await createRenderer({ seed: 2, width: 320, height: 180, decks: { a: { faces: 'gen-3' }, b: { faces: 'no-such' } } });
    await expect(renderer.preload(['a'])).resolves.toBeUndefined();
    await expect(renderer.preload(['b'])).rejects.toThrow(/unknown face style/);
  });

  it('gives every deck a distinct back design and reports it in the truth', async () => {
    const renderer = await createRenderer({ seed: 9, width: 480, height: 270 });
    const backs = ['d0', 'd1', 'd2', 'd3', 'd4', 'd5'].map((d) => renderer.deckInfo(d).back);
    expect(new Set(backs).size).toBe(6);
    // The same artwork shipped twice (npm and shared data) is never handed to two decks.
    const twinned = await createRenderer({ seed: 9, width: 64, height: 36, decks: { a: { back: 'npm-svg-cards/back-red' } } });
    twinned.deckInfo('a');
    for (let k = 0; k < 40; k++) expect(twinned.deckInfo(`x${k}`).back).not.toBe('shared-bellot/back-red');
    const frame = await renderer.render(busy);
    for (const t of frame.truth) expect(t.backDesign).toBe(renderer.deckInfo(t.deckId).back);
  });

  it('rejects bad options and scenes with clear errors', async () => {
    await expect(createRenderer({ seed: Number.NaN })).rejects.toThrow(/seed/);
    await expect(createRenderer({ seed: 1, width: 3 })).rejects.toThrow(/image size/);
    await expect(createRenderer({ seed: 1, decks: { d0: { faces: 'no-such-style' } } }).then((r) => r.deckInfo('d0'))).rejects.toThrow(/unknown face style/);
    const renderer = await createRenderer({ seed: 1, width: 320, height: 180 });
    await expect(renderer.render(scene([card('AS', Number.NaN, 0)]))).rejects.toThrow(/non-finite/);
    await expect(renderer.render(scene([{ ...card('AS', 0, 0), code: 'ZZ' as CardCode }]))).rejects.toThrow(/bad code/);
  });
});

describe('--art folders (card-art/1 layout)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nerts-art-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const colourOf = (k: number) => `rgb(${(k * 37) % 200 + 30},${(k * 91) % 200 + 30},${(k * 53) % 200 + 30})`;

  it('renders faces and backs from a folder made on the spot', async () => {
    const deck = path.join(dir, 'tiny-deck');
    mkdirSync(path.join(deck, 'faces'), { recursive: true });
    mkdirSync(path.join(deck, 'backs'), { recursive: true });
    ALL_CARD_CODES.forEach((code, k) => {
      writeFileSync(path.join(deck, 'faces', `${code}.svg`), `<svg xmlns="http://www.w3.org/2000/svg" width="63" height="88"><rect width="63" height="88" fill="${colourOf(k)}"/></svg>`);
    });
    writeFileSync(path.join(deck, 'backs', 'plain.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="63" height="88"><rect width="63" height="88" fill="#0000ff"/></svg>');
    const renderer = await createRenderer({ ...plainOptions('top'), decks: undefined, artDir: deck });
    expect(renderer.deckInfo('d0')).toEqual({ faces: 'art-tiny-deck', back: 'art-tiny-deck/plain' });
    expect(renderer.deckInfo('d1').back).not.toBe('art-tiny-deck/plain');
    const frame = await renderer.renderDetailed(scene([card('QH', -100, 0), card('QH', 100, 0, { faceUp: false, id: 'd0/QH-back' })]));
    const k = ALL_CARD_CODES.indexOf('QH');
    const expected = colourOf(k).match(/\d+/g)?.map(Number) as number[];
    const face = frame.truth.find((t) => t.faceUp) as (typeof frame.truth)[number];
    const centre = pixel(frame, ...quadPoint(face.corners, 0.5, 0.5));
    centre.forEach((v, c) => expect(Math.abs(v - expected[c])).toBeLessThan(12));
    const back = frame.truth.find((t) => !t.faceUp) as (typeof frame.truth)[number];
    const [r, g, b] = pixel(frame, ...quadPoint(back.corners, 0.5, 0.5));
    expect(b).toBeGreaterThan(200);
    expect(r + g).toBeLessThan(40);
  });

  it('names the missing faces when a folder is incomplete', async () => {
    const deck = path.join(dir, 'broken');
    mkdirSync(path.join(deck, 'faces'), { recursive: true });
    writeFileSync(path.join(deck, 'faces', 'AS.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="63" height="88"/>');
    await expect(createRenderer({ seed: 1, artDir: deck })).rejects.toThrow(/lacks faces: 2S/);
    await expect(createRenderer({ seed: 1, artDir: path.join(dir, 'nope') })).rejects.toThrow(/not found/);
  });
});
