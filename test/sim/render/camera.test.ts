import { describe, expect, it } from 'vitest';
import { applyHomography, cameraFrame, homographyFromPoints, presetCamera, projectPoint, randomCamera } from '../../../server/sim/render/camera';
import { randomScene } from '../../../server/sim/render/random-scene';
import { createRng } from '../../../server/sim/render/rng';
import type { Quad } from '../../../server/vision/types';

describe('camera', () => {
  it('top preset looks at the table centre and frames the whole table', () => {
    const camera = presetCamera('top', 1280, 720, { widthMm: 1200, heightMm: 800 });
    const frame = cameraFrame(camera);
    const centre = projectPoint(frame, 0, 0, 0) as [number, number];
    expect(centre[0]).toBeCloseTo(640, 6);
    expect(centre[1]).toBeCloseTo(360, 6);
    for (const [x, y] of [[-600, -400], [600, 400]]) {
      const p = projectPoint(frame, x, y, 0) as [number, number];
      expect(p[0]).toBeGreaterThanOrEqual(0);
      expect(p[0]).toBeLessThanOrEqual(1280);
      expect(p[1]).toBeGreaterThanOrEqual(0);
      expect(p[1]).toBeLessThanOrEqual(720);
    }
    // Table +x is image right, table +y is image down.
    const right = projectPoint(frame, 100, 0, 0) as [number, number];
    const down = projectPoint(frame, 0, 100, 0) as [number, number];
    expect(right[0]).toBeGreaterThan(640);
    expect(down[1]).toBeGreaterThan(360);
  });

  it('oblique preset keeps the table (all but its outer 4 %) in view', () => {
    for (const table of [{ widthMm: 1200, heightMm: 800 }, { widthMm: 1600, heightMm: 1100 }, { widthMm: 900, heightMm: 900 }]) {
      const frame = cameraFrame(presetCamera('oblique', 1280, 720, table));
      for (const [sx, sy] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
        const p = projectPoint(frame, (sx * table.widthMm * 0.92) / 2, (sy * table.heightMm * 0.92) / 2) as [number, number];
        expect(p[0]).toBeGreaterThanOrEqual(0);
        expect(p[0]).toBeLessThanOrEqual(1280);
        expect(p[1]).toBeGreaterThanOrEqual(0);
        expect(p[1]).toBeLessThanOrEqual(720);
      }
    }
  });

  it('oblique preset shows the near edge of the table larger than the far edge', () => {
    const frame = cameraFrame(presetCamera('oblique', 1280, 720));
    const near = [projectPoint(frame, -100, 300), projectPoint(frame, 100, 300)] as Array<[number, number]>;
    const far = [projectPoint(frame, -100, -300), projectPoint(frame, 100, -300)] as Array<[number, number]>;
    expect(near[1][0] - near[0][0]).toBeGreaterThan((far[1][0] - far[0][0]) * 1.2);
    expect(near[0][1]).toBeGreaterThan(far[0][1]);
  });

  it('homographyFromPoints maps the four points exactly', () => {
    const src: Quad = [[0, 0], [63, 0], [63, 88], [0, 88]];
    const dst: Quad = [[100, 50], [180, 70], [170, 190], [90, 170]];
    const h = homographyFromPoints(src, dst);
    for (let k = 0; k < 4; k++) {
      const p = applyHomography(h, src[k][0], src[k][1]);
      expect(p[0]).toBeCloseTo(dst[k][0], 6);
      expect(p[1]).toBeCloseTo(dst[k][1], 6);
    }
  });

  it('random cameras stay within 45 degrees of vertical and see the table', () => {
    const rng = createRng(4);
    for (let k = 0; k < 50; k++) {
      const camera = randomCamera(rng, 1280, 720);
      const d = { x: camera.lookAtMm.x - camera.positionMm.x, y: camera.lookAtMm.y - camera.positionMm.y, z: camera.lookAtMm.z - camera.positionMm.z };
      const tilt = Math.acos(-d.z / Math.hypot(d.x, d.y, d.z));
      expect(tilt).toBeLessThanOrEqual((45.01 * Math.PI) / 180);
    }
  });
});

describe('random scenes', () => {
  it('are deterministic, use each physical card once and list cards in stacking order', () => {
    const a = randomScene({ seed: 21, players: 4 });
    const b = randomScene({ seed: 21, players: 4 });
    expect(a).toEqual(b);
    const ids = a.cards.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(a.seats).toHaveLength(4);
    const kinds = new Set(a.cards.map((c) => c.zone.kind));
    for (const kind of ['nerts', 'work']) expect(kinds.has(kind as never)).toBe(true);
    expect(randomScene({ seed: 22, players: 4 })).not.toEqual(a);
  });
});

describe('table surface', () => {
  it('ends at the table edge: the floor beyond differs from the cloth', async () => {
    const { renderSurface } = await import('../../../server/sim/render/environment');
    const camera = presetCamera('top', 320, 180, { widthMm: 2000, heightMm: 1200 });
    const style = { kind: 'felt' as const, base: [30, 120, 40] as [number, number, number], accent: [30, 120, 40] as [number, number, number], periodMm: 20, angleRad: 0, seed: 3, contrast: 0.5 };
    // The camera frames a 2 m table, but the table is only 1 m wide: the sides are floor.
    const image = renderSurface(camera, style, { widthMm: 1000, heightMm: 1200 });
    const at = (x: number, y: number) => Array.from(image.subarray((y * 320 + x) * 3, (y * 320 + x) * 3 + 3));
    const centre = at(160, 90);
    const side = at(5, 90);
    expect(centre[1]).toBeGreaterThan(centre[0] * 2); // green felt
    expect(side[1]).toBeLessThan(side[0] * 1.3); // not green: floor
  });
});
