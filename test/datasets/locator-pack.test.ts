import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeLocatorTargets, MIN_FIND_VISIBLE, STORED_HEIGHT, STORED_WIDTH, WINDOW_AUGMENT, type LocatorFrames, type StoredCard } from '../../datasets/lib/locator-data';
import { LOCATOR_PACK_FORMAT, PACKED_CARD_VALUES, writeLocatorPack, type LocatorPackManifest } from '../../datasets/lib/locator-pack';
import { LOCATOR_CHANNELS, LOCATOR_STRIDE } from '../../server/vision/locator';
import type { Quad } from '../../server/vision/types';

const FRAME_BYTES = STORED_WIDTH * STORED_HEIGHT * 3;

function frames(colours: number[], cards: StoredCard[][]): LocatorFrames {
  const pixels = new Uint8Array(colours.length * FRAME_BYTES);
  colours.forEach((c, i) => pixels.fill(c, i * FRAME_BYTES, (i + 1) * FRAME_BYTES));
  return { count: colours.length, pixels, cards };
}

const quad = (x: number, y: number): Quad => [[x, y], [x + 30.25, y], [x + 30.25, y + 42.5], [x, y + 42.5]];

describe('writeLocatorPack', () => {
  it('LPACK-1 packs every frame as an image of the stored size, its cards exactly, and the window and target settings', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'locator-pack-'));
    const train = frames([40, 200], [[{ corners: quad(10, 20), visible: 1 }, { corners: quad(-12.5, 300), visible: 0.125 }], []]);
    const valid = frames([120], [[{ corners: quad(100, 100), visible: 0.5 }]]);
    const written = await writeLocatorPack(dir, train, valid);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'frames.json'), 'utf8')) as LocatorPackManifest;
    expect(manifest).toEqual(written);
    expect(manifest.format).toBe(LOCATOR_PACK_FORMAT);
    expect(manifest.frames.map((f) => [f.split, f.firstCard, f.cards])).toEqual([['train', 0, 2], ['train', 2, 0], ['valid', 2, 1]]);
    expect(manifest.targets.minFindVisible).toBe(MIN_FIND_VISIBLE);
    expect(manifest.window).toEqual(WINDOW_AUGMENT);
    expect(manifest.channels).toEqual([...LOCATOR_CHANNELS]);

    const blob = readFileSync(path.join(dir, 'frames.bin'));
    for (const [i, f] of manifest.frames.entries()) {
      const { data, info } = await sharp(blob.subarray(f.offset, f.offset + f.length)).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([STORED_WIDTH, STORED_HEIGHT]);
      expect(Math.abs(data[Math.floor(data.length / 2)] - [40, 200, 120][i])).toBeLessThan(6);
    }
    const cards = new Float32Array(new Uint8Array(readFileSync(path.join(dir, 'cards.bin'))).buffer);
    expect(cards.length).toBe(3 * PACKED_CARD_VALUES);
    expect(Array.from(cards.subarray(PACKED_CARD_VALUES, 2 * PACKED_CARD_VALUES))).toEqual([...quad(-12.5, 300).flat(), 0.125]);
    expect(Array.from(cards.subarray(2 * PACKED_CARD_VALUES))).toEqual([...quad(100, 100).flat(), 0.5]);
  });

  it('LPACK-3 packs training frames at the quality asked for and validation frames near lossless', async () => {
    // A textured frame (flat colour compresses to nothing at any quality).
    const textured = (): LocatorFrames => {
      const pixels = new Uint8Array(FRAME_BYTES);
      for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919 + ((i / 3) | 0) * 104729) % 251;
      return { count: 1, pixels, cards: [[{ corners: quad(10, 20), visible: 1 }]] };
    };
    const sizes = async (quality: number) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'locator-pack-q-'));
      const manifest = await writeLocatorPack(dir, textured(), textured(), quality);
      return manifest.frames.map((f) => f.length);
    };
    const [low, high] = [await sizes(30), await sizes(90)];
    expect(low[0]).toBeLessThan(high[0] * 0.8);
    // The validation frame is written alike either way.
    expect(low[1]).toBe(high[1]);
  });
});

describe('the PyTorch locator trainer (datasets/gpu/train_locator.py)', () => {
  it('LPACK-2 encodes the same targets as encodeLocatorTargets (fixture written by its --check)', () => {
    // If this fails after a change to encodeLocatorTargets, change encode_targets in
    // train_locator.py to match and write the fixture again (docs/VISION.md says how).
    const fixture = JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', 'locator-twin-targets.json'), 'utf8')) as { size: number; cards: StoredCard[][]; targets: number[] };
    const cells = (fixture.size / LOCATOR_STRIDE) ** 2 * LOCATOR_CHANNELS.length;
    expect(fixture.targets).toHaveLength(fixture.cards.length * cells);
    let worst = 0;
    let centres = 0;
    let heated = 0;
    fixture.cards.forEach((cards, w) => {
      const mine = encodeLocatorTargets(cards, fixture.size);
      mine.forEach((v, i) => {
        worst = Math.max(worst, Math.abs(v - fixture.targets[w * cells + i]));
        if (i % LOCATOR_CHANNELS.length === 0 && v === 1) centres++;
        if (i % LOCATOR_CHANNELS.length === 0 && v > 0) heated++;
      });
    });
    // The windows hold cards, not just table.
    expect(centres).toBeGreaterThanOrEqual(2);
    expect(heated).toBeGreaterThan(20);
    expect(worst).toBeLessThan(1e-3);
  });
});
