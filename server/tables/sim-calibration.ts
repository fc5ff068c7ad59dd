/**
 * Calibration of the simulated demo table, computed from what the simulator knows: the camera
 * pose and the seat layout. It is exactly what a referee would click on the live image (the
 * table's corners, the centre and each seat's piles), so the demo exercises the same calibrated
 * pipeline a real camera does. Pure.
 */
import { CARD_HEIGHT_MM, CARD_WIDTH_MM, type SeatLayout } from '../sim/scene';
import { TABLEAU_FOOTPRINT, MAX_WORK_PILE_CARDS, CASCADE_STEP_MM, WASTE_FAN_STEP_MM, pileAnchor, seatToTable, workSlot, type TableLayout } from '../sim/layout';
import { cameraFrame, projectPoint, type CameraPose } from '../sim/render/camera';
import type { Calibration } from '../protocol';

/** Room round a pile's card for a messy stack, mm: narrow sideways (columns are 8 mm apart), wider along the column. */
const PILE_MARGIN_U_MM = 4;
const PILE_MARGIN_V_MM = 10;

type PolygonMm = Array<[number, number]>;

/** A rectangle in a seat's frame (u right, v towards the player), as a table-mm polygon. */
function seatRect(seat: SeatLayout, minU: number, maxU: number, minV: number, maxV: number): PolygonMm {
  return [
    [minU, minV],
    [maxU, minV],
    [maxU, maxV],
    [minU, maxV],
  ].map(([u, v]) => {
    const p = seatToTable(seat, u, v);
    return [p.xMm, p.yMm] as [number, number];
  });
}

/** A rectangle round a pile anchor, extended `extraV` mm towards the player (cascades, fans). */
function pileRect(seat: SeatLayout, anchor: { xMm: number; yMm: number }, extraV = 0, extraU = 0): PolygonMm {
  // Anchor back into the seat frame so the rectangle turns with the seat.
  const dx = anchor.xMm - seat.xMm;
  const dy = anchor.yMm - seat.yMm;
  const c = Math.cos(-seat.facingRad);
  const s = Math.sin(-seat.facingRad);
  const u = dx * c + dy * s;
  const v = -dx * s + dy * c;
  const halfW = CARD_WIDTH_MM / 2 + PILE_MARGIN_U_MM;
  const halfH = CARD_HEIGHT_MM / 2 + PILE_MARGIN_V_MM;
  return seatRect(seat, u - halfW, u + halfW + extraU, v - halfH, v + halfH + extraV);
}

/** Calibration (image corners of the table rectangle, zones in centred table mm) for a simulated table seen by `camera`. */
export function simCalibration(layout: TableLayout, camera: CameraPose): Calibration {
  const frame = cameraFrame(camera);
  const w = layout.table.widthMm;
  const h = layout.table.heightMm;
  const corners = [
    [-w / 2, -h / 2],
    [w / 2, -h / 2],
    [w / 2, h / 2],
    [-w / 2, h / 2],
  ].map(([x, y]) => {
    const p = projectPoint(frame, x, y);
    if (!p) throw new Error('simCalibration: a table corner lies behind the camera');
    return [Math.round(p[0] * 100) / 100, Math.round(p[1] * 100) / 100] as [number, number];
  }) as Calibration['imageCorners'];
  const zones: Calibration['zones'] = [];
  const centre: PolygonMm = [];
  for (let k = 0; k < 32; k += 1) {
    const a = (2 * Math.PI * k) / 32;
    centre.push([(layout.centre.radiusXMm + 60) * Math.cos(a), (layout.centre.radiusYMm + 60) * Math.sin(a)]);
  }
  zones.push({ id: 'centre', kind: 'centre', polygonMm: centre });
  for (const seat of layout.seats) {
    const n = seat.seat;
    const f = TABLEAU_FOOTPRINT;
    zones.push({ id: `seat-${n}`, kind: 'seat', seat: n, polygonMm: seatRect(seat, f.minU - 10, f.maxU + 10, f.minV - 10, f.maxV + 10) });
    zones.push({ id: `seat-${n}/nerts`, kind: 'nerts', seat: n, polygonMm: pileRect(seat, pileAnchor(seat, 'nerts')) });
    for (let pile = 0; pile < 4; pile += 1) {
      zones.push({ id: `seat-${n}/work-${pile}`, kind: 'work', seat: n, polygonMm: pileRect(seat, workSlot(seat, pile), (MAX_WORK_PILE_CARDS - 1) * CASCADE_STEP_MM) });
    }
    zones.push({ id: `seat-${n}/stock`, kind: 'stock', seat: n, polygonMm: pileRect(seat, pileAnchor(seat, 'stock')) });
    zones.push({ id: `seat-${n}/waste`, kind: 'waste', seat: n, polygonMm: pileRect(seat, pileAnchor(seat, 'waste'), 0, 2 * WASTE_FAN_STEP_MM) });
  }
  return { imageWidth: camera.width, imageHeight: camera.height, imageCorners: corners, tableWidthMm: w, tableHeightMm: h, zones };
}
