import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BOTTOM_RIGHT_INDEX, rectifyCard, regionVisibility, TOP_LEFT_INDEX } from '../../../datasets/synth/crops';
import { DETECTION_CLASSES, synthSamples, writeDataset } from '../../../datasets/synth/generate';
import { matchesStyle } from '../../../server/sim/art/decks';
import { createRenderer } from '../../../server/sim/render/index';
import type { Quad } from '../../../server/vision/types';

describe('crops', () => {
  // A 100x100 image whose red channel is x and green channel is y.
  const width = 100;
  const height = 100;
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([x, y, 0], (y * width + x) * 3);

  it('rectifies a quad upright, and turns the bottom-right index upside down', () => {
    const corners: Quad = [[20, 10], [60, 10], [60, 90], [20, 90]];
    const out = rectifyCard({ width, height, data }, corners, 40, 80);
    // Output pixel (x, y) samples image (20 + x + 0.5, 10 + y + 0.5) minus the half-pixel centre.
    expect(out[0]).toBe(20);
    expect(out[1]).toBe(10);
    const last = (79 * 40 + 39) * 3;
    expect(out[last]).toBe(59);
    expect(out[last + 1]).toBe(89);
    const corner = rectifyCard({ width, height, data }, corners, 10, 10, BOTTOM_RIGHT_INDEX, true);
    // Turned 180 degrees: the first output pixel is the card's far bottom-right.
    expect(corner[0]).toBeGreaterThan(55);
    expect(corner[1]).toBeGreaterThan(85);
  });

  it('measures how much of a region an owner map shows', () => {
    const owner = new Int32Array(width * height).fill(-1);
    for (let y = 0; y < 50; y++) for (let x = 0; x < 100; x++) owner[y * width + x] = 3;
    const corners: Quad = [[0, 0], [100, 0], [100, 100], [0, 100]];
    expect(regionVisibility(owner, width, height, corners, 3, TOP_LEFT_INDEX)).toBe(1);
    expect(regionVisibility(owner, width, height, corners, 3, BOTTOM_RIGHT_INDEX)).toBe(0);
    expect(regionVisibility(owner, width, height, corners, 3, { u0: 0, v0: 0, u1: 1, v1: 1 })).toBeCloseTo(0.5, 1);
  });
});

describe('hold-out patterns', () => {
  it('match exact, unprefixed and glob names, and a style\'s own backs', () => {
    expect(matchesStyle('kennard', 'shared-kennard')).toBe(true);
    expect(matchesStyle('kennard', 'shared-kennard/b-1')).toBe(true);
    expect(matchesStyle('gen-4*', 'gen-41')).toBe(true);
    expect(matchesStyle('gen-4*', 'gen-back-4')).toBe(false);
    expect(matchesStyle('gen-4', 'gen-41')).toBe(false);
    expect(matchesStyle('npm-*', 'npm-cardsjs/Red_Back')).toBe(true);
    // Twins: the same artwork shipped by npm and by the shared data.
    expect(matchesStyle('kennard', 'npm-letele')).toBe(true);
    expect(matchesStyle('kennard', 'npm-letele/B1')).toBe(true);
    expect(matchesStyle('svg-cards', 'shared-bellot')).toBe(true);
    expect(matchesStyle('aguilar', 'npm-deck-of-cards')).toBe(false);
    expect(matchesStyle('aguilar-mod', 'npm-deck-of-cards')).toBe(true);
  });

  it('keep excluded styles and their backs out of every seeded deck', async () => {
    for (let seed = 0; seed < 20; seed++) {
      const renderer = await createRenderer({ seed, width: 64, height: 36, faceStylePool: { exclude: ['npm-*', 'gen-1*', 'gen-back-*'] } });
      for (const deck of ['a', 'b', 'c', 'd']) {
        const info = renderer.deckInfo(deck);
        expect(info.faces).not.toMatch(/^npm-|^gen-1/);
        expect(info.back).not.toMatch(/^npm-|^gen-back-/);
      }
    }
  });

  it('can restrict decks to an include list', async () => {
    const renderer = await createRenderer({ seed: 3, width: 64, height: 36, faceStylePool: { include: ['gen-100', 'npm-letele'] } });
    // npm-letele's twin (the same artwork from the shared data) counts as included too.
    for (const deck of ['a', 'b', 'c', 'd', 'e']) expect(['gen-100', 'npm-letele', 'shared-kennard']).toContain(renderer.deckInfo(deck).faces);
  });
});

describe('dataset writer', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nerts-dataset-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes images, YOLO and COCO labels, crops and a manifest that agree', async () => {
    const counts = await writeDataset(dir, { seed: 4, frames: 3, width: 480, height: 270, framesPerSession: 2 });
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    expect(manifest.format).toBe('nerts-synth/1');
    expect(manifest.seed).toBe(4);
    expect(manifest.counts).toEqual(counts);
    expect(readdirSync(path.join(dir, 'images'))).toHaveLength(3);
    const yoloLines = readdirSync(path.join(dir, 'labels')).flatMap((f) => readFileSync(path.join(dir, 'labels', f), 'utf8').split('\n').filter(Boolean));
    expect(yoloLines).toHaveLength(counts.labels);
    expect(counts.labels).toBeGreaterThan(20);
    for (const line of yoloLines) {
      const [cls, ...box] = line.split(' ').map(Number);
      expect(cls).toBeGreaterThanOrEqual(0);
      expect(cls).toBeLessThan(DETECTION_CLASSES.length);
      for (const v of box) expect(v).toBeGreaterThanOrEqual(0);
      for (const v of box) expect(v).toBeLessThanOrEqual(1.000001);
    }
    const coco = JSON.parse(readFileSync(path.join(dir, 'annotations.json'), 'utf8'));
    expect(coco.annotations).toHaveLength(counts.labels);
    expect(coco.categories).toHaveLength(53);
    const index = readFileSync(path.join(dir, 'crops', 'index.csv'), 'utf8').trim().split('\n').slice(1);
    expect(index).toHaveLength(counts.faceCrops + counts.backCrops + counts.cornerCrops + counts.stripCrops);
    expect(counts.stripCrops).toBe(0);
    for (const row of index.slice(0, 20)) expect(existsSync(path.join(dir, row.split(',')[0]))).toBe(true);
  });

  it('crops the strips of cascades and fans whose index corner shows, only when asked', async () => {
    let strips = 0;
    let fanned = 0;
    for await (const sample of synthSamples({ seed: 5, frames: 4, framesPerSession: 2, minStripMarksVisible: 0.9 })) {
      const byCode = new Map<string, typeof sample.labels>();
      for (const l of sample.labels) byCode.set(l.truth.code, [...(byCode.get(l.truth.code) ?? []), l]);
      for (const crop of sample.crops.filter((c) => c.kind === 'strip')) {
        strips++;
        expect(crop.width).toBe(96);
        expect(crop.height).toBe(144);
        // A card of that face, deck and style lies in a work pile or waste, mostly covered, its index showing.
        const card = (byCode.get(crop.code as string) ?? []).find((l) => l.truth.deckId === crop.deckId);
        expect(card).toBeDefined();
        expect(['work', 'waste']).toContain(card!.truth.zone.kind);
        expect(card!.truth.faceUp).toBe(true);
        expect(card!.truth.visibleFraction).toBeLessThan(0.75);
        expect(card!.truth.indexVisibleFraction).toBeGreaterThan(0.75);
      }
      // Every face-up card of a cascade or fan whose index shows whole (and lies inside the frame) is cropped.
      for (const l of sample.labels) {
        const t = l.truth;
        if (!t.faceUp || t.visibleFraction >= 0.75 || t.indexVisibleFraction < 1 || (t.zone.kind !== 'work' && t.zone.kind !== 'waste')) continue;
        if (!t.corners.every(([x, y]) => x >= 0 && y >= 0 && x <= sample.width && y <= sample.height)) continue;
        fanned++;
        expect(sample.crops.some((c) => c.kind === 'strip' && c.code === t.code && c.deckId === t.deckId)).toBe(true);
      }
    }
    expect(fanned).toBeGreaterThan(5);
    expect(strips).toBeGreaterThanOrEqual(fanned);
  });

  it('gives each label a visible box inside its whole-card box', async () => {
    let checked = 0;
    for await (const sample of synthSamples({ seed: 12, frames: 1, width: 640, height: 360 })) {
      for (const l of sample.labels) {
        expect(l.visibleBox.x).toBeGreaterThanOrEqual(Math.floor(l.box.x) - 1);
        expect(l.visibleBox.y).toBeGreaterThanOrEqual(Math.floor(l.box.y) - 1);
        expect(l.visibleBox.x + l.visibleBox.w).toBeLessThanOrEqual(Math.ceil(l.box.x + l.box.w) + 1);
        expect(l.visibleBox.y + l.visibleBox.h).toBeLessThanOrEqual(Math.ceil(l.box.y + l.box.h) + 1);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('shows live-size cards when every scene is seen by a whole-table webcam', async () => {
    // Longest side of any labelled card per scene, pixels (one scene per session).
    const longestCards = async (presetCameraShare: number) => {
      const longest: number[] = [];
      for await (const sample of synthSamples({ seed: 5, frames: 5, width: 640, height: 360, framesPerSession: 1, presetCameraShare })) {
        longest.push(Math.max(...sample.labels.map((l) => Math.max(l.box.w, l.box.h))));
      }
      return longest;
    };
    // The whole table (1 to 1.4 m) in a 640 px frame: no card (89 mm) is longer than a tenth of it,
    // even on the near side of the oblique webcam.
    for (const length of await longestCards(1)) expect(length).toBeLessThan(64);
    // Random cameras come closer: this seed's sessions include one.
    expect(Math.max(...(await longestCards(0)))).toBeGreaterThan(64);
  });

  it('is deterministic for a seed', async () => {
    const first: Buffer[] = [];
    const second: Buffer[] = [];
    for await (const s of synthSamples({ seed: 9, frames: 2, width: 320, height: 180 })) first.push(s.jpeg);
    for await (const s of synthSamples({ seed: 9, frames: 2, width: 320, height: 180 })) second.push(s.jpeg);
    expect(first.map((b, k) => Buffer.compare(b, second[k]))).toEqual([0, 0]);
  });
});
