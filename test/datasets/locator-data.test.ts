import { describe, expect, it } from 'vitest';
import { sampleWindow, STORED_HEIGHT, STORED_WIDTH, type LocatorFrames } from '../../datasets/lib/locator-data';
import { makeRng } from '../../datasets/lib/rng';
import { cardGeometry, geometryQuad } from '../../server/vision/locator';

/** One stored frame: dark cloth with a white card (80 x 112 px) in the middle. */
function oneCardFrame(): LocatorFrames {
  const pixels = new Uint8Array(STORED_WIDTH * STORED_HEIGHT * 3).fill(30);
  const corners = geometryQuad({ cx: 320, cy: 180, short: 80, long: 112, angle: Math.PI / 2 });
  for (let y = 124; y < 236; y++) for (let x = 280; x < 360; x++) pixels.fill(240, (y * STORED_WIDTH + x) * 3, (y * STORED_WIDTH + x) * 3 + 3);
  return { count: 1, pixels, cards: [[{ corners, visible: 1 }]] };
}

describe('locator training windows', () => {
  it('LOCD-1 the card lands in the window where its returned quad says, at every zoom and turn', () => {
    const frames = oneCardFrame();
    const size = 96;
    const x = new Float32Array(size * size * 3);
    const lum = (u: number, v: number) => {
      const o = (Math.floor(v) * size + Math.floor(u)) * 3;
      return (x[o] + x[o + 1] + x[o + 2]) / 3;
    };
    const rng = makeRng(11);
    let checked = 0;
    for (let k = 0; k < 150; k++) {
      const [card] = sampleWindow(frames, 0, size, rng, x, 0);
      const g = cardGeometry(card.corners);
      // The frame's card is 80 px wide; zoom 0.45–2.2 keeps that ratio to the stored size.
      expect(g.short).toBeGreaterThan(80 * 0.44);
      expect(g.short).toBeLessThan(80 * 2.21);
      const inset = geometryQuad({ ...g, short: g.short * 0.6, long: g.long * 0.6 });
      const outset = geometryQuad({ ...g, short: g.short * 1.5, long: g.long * 1.5 });
      const inside = (u: number, v: number) => u >= 1 && v >= 1 && u < size - 1 && v < size - 1;
      for (let c = 0; c < 4; c++) {
        if (!inside(...inset[c]) || !inside(...outset[c])) continue;
        // Just inside the card is brighter than well outside it, whatever the colour changes.
        expect(lum(...inset[c])).toBeGreaterThan(lum(...outset[c]));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
