import { describe, expect, it } from 'vitest';
import { augmentInto } from '../../datasets/lib/augment';
import { makeRng } from '../../datasets/lib/rng';
import { CROP_HEIGHT, CROP_WIDTH } from '../../server/vision/classes';

const source = (() => {
  const data = new Uint8Array(96 * 144 * 3);
  for (let i = 0; i < data.length; i++) data[i] = (i * 7) % 256;
  return { data, width: 96, height: 144 };
})();
const size = CROP_WIDTH * CROP_HEIGHT * 3;

describe('augmentInto', () => {
  it('is deterministic for a seed and stays within 0..1', () => {
    const a = new Float32Array(size);
    const b = new Float32Array(size);
    augmentInto(source, makeRng(5), a, 0, { strength: 1 });
    augmentInto(source, makeRng(5), b, 0, { strength: 1 });
    expect(a).toEqual(b);
    for (const v of a) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
  });
  it('at strength 0 is a plain resize (no random change between seeds)', () => {
    const a = new Float32Array(size);
    const b = new Float32Array(size);
    augmentInto(source, makeRng(1), a, 0, { strength: 0 });
    augmentInto(source, makeRng(2), b, 0, { strength: 0 });
    expect(a).toEqual(b);
  });
  it('changes the image at strength 1', () => {
    const plain = new Float32Array(size);
    const aug = new Float32Array(size);
    augmentInto(source, makeRng(1), plain, 0, { strength: 0 });
    augmentInto(source, makeRng(1), aug, 0, { strength: 1 });
    let diff = 0;
    for (let i = 0; i < size; i++) diff += Math.abs(plain[i] - aug[i]);
    expect(diff / size).toBeGreaterThan(0.01);
  });
});
