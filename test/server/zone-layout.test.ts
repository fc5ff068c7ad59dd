import { describe, expect, it } from 'vitest';
import { defaultCalibration, layoutZones, withZones, zoneLocator } from '../../server/tables/zone-layout';
import { buildCalibration } from '../../client/src/lib/calibration';
import type { CardObservation, Quad } from '../../server/vision/types';

function faceAt(x: number, y: number, zone?: string): CardObservation {
  const corners: Quad = [[x - 30, y - 42], [x + 30, y - 42], [x + 30, y + 42], [x - 30, y + 42]];
  return { kind: 'face', code: 'AS', confidence: 0.9, corners, ...(zone ? { zone } : {}) };
}

describe('default zone layout (uncalibrated tables)', () => {
  it('takes the whole frame as the table, with the frame’s proportions', () => {
    const calibration = defaultCalibration(1280, 720, 2);
    expect(calibration.imageCorners).toEqual([[0, 0], [1280, 0], [1280, 720], [0, 720]]);
    expect(calibration.tableWidthMm / calibration.tableHeightMm).toBeCloseTo(1280 / 720, 2);
    expect(calibration.zones.map((zone) => zone.id)).toEqual(['centre', 'seat-0', 'seat-1']);
  });

  it('puts the middle in the centre zone and seats round the edges, seat 0 at the bottom, then clockwise', () => {
    const two = zoneLocator(defaultCalibration(1280, 720, 2), 1280, 720);
    expect(two([640, 360])).toBe('centre');
    expect(two([640, 700])).toBe('seat-0');
    expect(two([640, 20])).toBe('seat-1');
    expect(two([20, 20])).toBe('seat-1');
    const four = zoneLocator(defaultCalibration(1280, 720, 4), 1280, 720);
    expect(four([640, 700])).toBe('seat-0');
    expect(four([20, 360])).toBe('seat-1');
    expect(four([640, 20])).toBe('seat-2');
    expect(four([1260, 360])).toBe('seat-3');
    // Each seat keeps a real share of the frame: the centre square is half the shorter side.
    expect(four([640, 360 + 0.3 * 720])).toBe('seat-0');
  });

  it('works for a frame of another size than it was built for (scaled)', () => {
    const locate = zoneLocator(defaultCalibration(1280, 720, 2), 320, 180);
    expect(locate([160, 90])).toBe('centre');
    expect(locate([160, 175])).toBe('seat-0');
  });

  it('fills only the zones the recogniser left out', () => {
    const locate = zoneLocator(defaultCalibration(1280, 720, 2), 1280, 720);
    const [filled, kept] = withZones([faceAt(640, 360), faceAt(640, 360, 'seat-1/nerts')], locate);
    expect(filled.zone).toBe('centre');
    expect(kept.zone).toBe('seat-1/nerts');
  });

  it('is the same zone builder a clicked calibration uses', () => {
    const result = buildCalibration({
      imageWidth: 1280,
      imageHeight: 720,
      corners: [[0, 0], [1280, 0], [1280, 720], [0, 720]],
      centre: [640, 360],
      tableWidthMm: 1200,
      tableHeightMm: 800,
      seatCount: 3,
    });
    if ('error' in result) throw new Error(result.error);
    expect(result.calibration.zones).toEqual(layoutZones({ tableWidthMm: 1200, tableHeightMm: 800, centreMm: [0, 0], centreHalfMm: 230, seatCount: 3 }));
  });
});
