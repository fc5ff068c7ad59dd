import { describe, expect, it } from 'vitest';
import { applyHomography, homographyFrom, type Pt } from '../../../client/src/lib/homography';
import { buildCalibration, imageToTable } from '../../../client/src/lib/calibration';

const corners: [Pt, Pt, Pt, Pt] = [[100, 80], [1180, 120], [1240, 690], [40, 650]];

describe('homography', () => {
  it('maps the four source points onto the targets', () => {
    const target: [Pt, Pt, Pt, Pt] = [[-600, -400], [600, -400], [600, 400], [-600, 400]];
    const h = homographyFrom(corners, target)!;
    corners.forEach((corner, i) => {
      const [x, y] = applyHomography(h, corner)!;
      expect(x).toBeCloseTo(target[i][0], 6);
      expect(y).toBeCloseTo(target[i][1], 6);
    });
  });
  it('refuses degenerate input', () => {
    expect(homographyFrom([[0, 0], [1, 1], [2, 2], [3, 3]], [[0, 0], [1, 0], [1, 1], [0, 1]])).toBeNull();
  });
});

describe('calibration', () => {
  const base = { imageWidth: 1280, imageHeight: 720, corners, tableWidthMm: 1200, tableHeightMm: 800, seatCount: 4 };
  it('builds a centre zone around the clicked centre and one zone per seat', () => {
    const toTable = imageToTable(base)!;
    const centreImage: Pt = [640, 380];
    const [cx, cy] = applyHomography(toTable, centreImage)!;
    const result = buildCalibration({ ...base, centre: centreImage });
    if ('error' in result) throw new Error(result.error);
    const { zones } = result.calibration;
    expect(zones.map((z) => z.id)).toEqual(['centre', 'seat-0', 'seat-1', 'seat-2', 'seat-3']);
    const centre = zones[0].polygonMm;
    expect((centre[0][0] + centre[2][0]) / 2).toBeCloseTo(cx, -1);
    expect((centre[0][1] + centre[2][1]) / 2).toBeCloseTo(cy, -1);
    // Seat 0 sits at the bottom edge (+y): its wedge reaches y = +400.
    expect(Math.max(...zones[1].polygonMm.map(([, y]) => y))).toBe(400);
    for (const zone of zones) for (const [x, y] of zone.polygonMm) {
      expect(Math.abs(x)).toBeLessThanOrEqual(600);
      expect(Math.abs(y)).toBeLessThanOrEqual(400);
    }
  });
  it('adds a card-sized zone round each clicked Nerts pile, its long side towards the centre', async () => {
    const { zoneLocator } = await import('../../../server/tables/zone-layout');
    // Seat 1 at the bottom edge, seat 2 at the left edge of a 2-seat table.
    const piles: Pt[] = [[560, 600], [200, 300]];
    const result = buildCalibration({ ...base, seatCount: 2, centre: [640, 380], nertsPiles: piles });
    if ('error' in result) throw new Error(result.error);
    const { zones } = result.calibration;
    expect(zones.map((z) => z.id)).toEqual(['centre', 'seat-0', 'seat-0/nerts', 'seat-1', 'seat-1/nerts']);
    const locate = zoneLocator(result.calibration, 1280, 720);
    // A card on the pile is in the pile's zone, not just its seat; the table beside it is not.
    expect(locate(piles[0])).toBe('seat-0/nerts');
    expect(locate(piles[1])).toBe('seat-1/nerts');
    expect(locate([piles[0][0] + 120, piles[0][1]])).toBe('seat-0');
    // 63 + 2x8 mm across, 88 + 2x12 mm along the line to the centre.
    const [a, b, c] = zones[2].polygonMm;
    const sides = [Math.hypot(b[0] - a[0], b[1] - a[1]), Math.hypot(c[0] - b[0], c[1] - b[1])];
    expect(sides[0]).toBeCloseTo(79, -0.5);
    expect(sides[1]).toBeCloseTo(112, -0.5);
    // Seat 1's pile lies below the centre: the long side runs up and down the table.
    expect(Math.abs(c[1] - b[1])).toBeGreaterThan(Math.abs(c[0] - b[0]));
  });

  it('explains bad Nerts pile clicks', () => {
    expect(buildCalibration({ ...base, centre: [640, 380], nertsPiles: [[640, 380]] })).toEqual({ error: 'Seat 1’s Nerts pile lies in the centre of play: click the pile in front of the player' });
    expect(buildCalibration({ ...base, centre: [640, 380], nertsPiles: [[560, 600], [5000, 10]] })).toEqual({ error: 'Seat 2’s Nerts pile must be inside the table corners' });
    expect('error' in buildCalibration({ ...base, seatCount: 2, centre: [640, 380], nertsPiles: [[560, 600], [200, 300], [1000, 300]] })).toBe(true);
  });

  it('explains bad clicks instead of throwing', () => {
    expect(buildCalibration({ ...base, centre: [5000, 5000] })).toEqual({ error: 'The centre must be inside the table corners' });
    expect('error' in buildCalibration({ ...base, corners: [[0, 0], [1, 1], [2, 2], [3, 3]], centre: [1, 1] })).toBe(true);
    expect(buildCalibration({ ...base, tableWidthMm: 0, centre: [640, 380] })).toEqual({ error: 'Table size must be positive' });
  });
});

describe('saved zones drawn on the image', () => {
  it('maps each zone back to image pixels (the table corners land on the clicked corners)', async () => {
    const { zonesInImage } = await import('../../../client/src/lib/calibration');
    const result = buildCalibration({ imageWidth: 1280, imageHeight: 720, corners, tableWidthMm: 1200, tableHeightMm: 800, seatCount: 2, centre: [640, 380] });
    if ('error' in result) throw new Error(result.error);
    const drawn = zonesInImage({ ...result.calibration, zones: [{ id: 'all', kind: 'seat', polygonMm: [[-600, -400], [600, -400], [600, 400], [-600, 400]] }] });
    drawn[0].points.forEach(([x, y], i) => {
      expect(x).toBeCloseTo(corners[i][0], 3);
      expect(y).toBeCloseTo(corners[i][1], 3);
    });
  });
});
