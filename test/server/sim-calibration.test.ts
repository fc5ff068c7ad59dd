import { describe, expect, it } from 'vitest';
import { computeLayout, pileAnchor, workSlot } from '../../server/sim/layout';
import { cameraFrame, presetCamera, projectPoint } from '../../server/sim/render/camera';
import { simCalibration } from '../../server/tables/sim-calibration';
import { zoneOf } from '../../server/tracker/sim-observations';

describe('demo table calibration from the simulated camera and layout', () => {
  for (const players of [2, 3, 4, 6]) {
    it(`${players} players: every pile lies in its own zone, the table centre in the centre zone`, () => {
      const layout = computeLayout(Array.from({ length: players }, (_, i) => ({ playerId: `p${i + 1}`, deckId: `deck-p${i + 1}` })));
      const camera = presetCamera('top', 1280, 720, layout.table);
      const calibration = simCalibration(layout, camera);
      expect(zoneOf(calibration, 0, 0)).toBe('centre');
      for (const seat of layout.seats) {
        const nerts = pileAnchor(seat, 'nerts');
        expect(zoneOf(calibration, nerts.xMm, nerts.yMm)).toBe(`seat-${seat.seat}/nerts`);
        for (let pile = 0; pile < 4; pile += 1) {
          const slot = workSlot(seat, pile);
          expect(zoneOf(calibration, slot.xMm, slot.yMm)).toBe(`seat-${seat.seat}/work-${pile}`);
        }
        const stock = pileAnchor(seat, 'stock');
        expect(zoneOf(calibration, stock.xMm, stock.yMm)).toBe(`seat-${seat.seat}/stock`);
      }
    });
  }

  it('image corners are the projections of the table corners (oblique camera too)', () => {
    const layout = computeLayout([{ playerId: 'a', deckId: 'da' }, { playerId: 'b', deckId: 'db' }, { playerId: 'c', deckId: 'dc' }]);
    for (const kind of ['top', 'oblique'] as const) {
      const camera = presetCamera(kind, 1280, 720, layout.table);
      const calibration = simCalibration(layout, camera);
      const projected = projectPoint(cameraFrame(camera), layout.table.widthMm / 2, layout.table.heightMm / 2)!;
      expect(calibration.imageCorners[2][0]).toBeCloseTo(projected[0], 1);
      expect(calibration.imageCorners[2][1]).toBeCloseTo(projected[1], 1);
      expect(calibration).toMatchObject({ imageWidth: 1280, imageHeight: 720, tableWidthMm: layout.table.widthMm });
    }
  });
});
