/**
 * Table-plane geometry from a calibration: image pixels ↔ table millimetres, the card size in
 * pixels at a point (so the localiser knows how big a card is), and zone lookup.
 */
import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../sim/scene';
import { applyHomography, homographyFromPoints, pointInPolygon, type Homography } from '../geometry';
import { boundingRect, type PixelRect } from './change';
import type { CalibrationZone, Point, Quad, TableCalibration } from './types';

/** Precomputed mappings for one calibration and one frame size. */
export interface TablePlane {
  /** image pixel → table mm (origin at the table rectangle's top-left corner). */
  imageToTable: Homography;
  tableToImage: Homography;
  /** The table's corners in this frame's pixels (the calibration's, scaled to the frame). */
  imageCorners: Quad;
  /** Median card short side in image pixels over the table, pixels. */
  cardWidthPx: number;
  /**
   * The lowest long/short ratio of a card's outline anywhere on the table, either way round: a
   * card's is 1.4, but an oblique camera foreshortens the far cards lying lengthwise, towards a
   * square (1.05 at the far side of the oblique simulated 3-player table).
   */
  minCardAspect: number;
  calibration: TableCalibration;
  /** The calibration's zones, most specific first (see ZONE_PRIORITY). */
  zonesBySpecificity: CalibrationZone[];
}

/** Length in image pixels of the table segment from (x, y) to (x + dx, y + dy), mm. */
function projectedLength(tableToImage: Homography, x: number, y: number, dx: number, dy: number): number {
  const a = applyHomography(tableToImage, x, y);
  const b = applyHomography(tableToImage, x + dx, y + dy);
  return Math.hypot(b[0] - a[0], b[1] - a[1]);
}

/** A card's short side in image pixels at table point (x, y), mm: its 63 mm side along x and along y, averaged. */
export function cardWidthAtTablePoint(tableToImage: Homography, x: number, y: number): number {
  return (projectedLength(tableToImage, x, y, CARD_WIDTH_MM, 0) + projectedLength(tableToImage, x, y, 0, CARD_WIDTH_MM)) / 2;
}

/** Builds the plane mapping for frames of `width` x `height` (scales the calibration if needed). */
export function tablePlane(calibration: TableCalibration, width: number, height: number): TablePlane {
  const sx = width / calibration.imageWidth;
  const sy = height / calibration.imageHeight;
  const image = calibration.imageCorners.map(([x, y]) => [x * sx, y * sy]) as Quad;
  const table: Quad = [
    [0, 0],
    [calibration.tableWidthMm, 0],
    [calibration.tableWidthMm, calibration.tableHeightMm],
    [0, calibration.tableHeightMm],
  ];
  const imageToTable = homographyFromPoints(image, table);
  const tableToImage = homographyFromPoints(table, image);
  const projected = (x: number, y: number, dx: number, dy: number) => projectedLength(tableToImage, x, y, dx, dy);
  // Card width in pixels at a 3x3 grid of table points; the median copes with perspective.
  const widths: number[] = [];
  for (let i = 1; i <= 3; i++)
    for (let j = 1; j <= 3; j++) {
      const x = (calibration.tableWidthMm * i) / 4;
      const y = (calibration.tableHeightMm * j) / 4;
      widths.push(cardWidthAtTablePoint(tableToImage, x, y));
    }
  widths.sort((a, b) => a - b);
  let minCardAspect = Infinity;
  for (let i = 1; i <= 9; i += 2)
    for (let j = 1; j <= 9; j += 2) {
      const x = (calibration.tableWidthMm * i) / 10;
      const y = (calibration.tableHeightMm * j) / 10;
      // A card lying either way: its 63 mm side along x and 88 mm along y, or the other way.
      for (const [w, h] of [[projected(x, y, CARD_WIDTH_MM, 0), projected(x, y, 0, CARD_HEIGHT_MM)], [projected(x, y, 0, CARD_WIDTH_MM), projected(x, y, CARD_HEIGHT_MM, 0)]])
        minCardAspect = Math.min(minCardAspect, Math.max(w, h) / Math.min(w, h));
    }
  const zonesBySpecificity = [...calibration.zones].sort((a, b) => ZONE_PRIORITY[a.kind] - ZONE_PRIORITY[b.kind]);
  return { imageToTable, tableToImage, imageCorners: image, cardWidthPx: widths[4], minCardAspect, calibration, zonesBySpecificity };
}

/** A zone's polygon in image pixels (zones are in table mm with the origin at the table's centre). */
export function zoneImagePolygon(plane: TablePlane, zone: CalibrationZone): Point[] {
  const { tableWidthMm, tableHeightMm } = plane.calibration;
  return zone.polygonMm.map(([x, y]) => applyHomography(plane.tableToImage, x + tableWidthMm / 2, y + tableHeightMm / 2) as Point);
}

/**
 * Where cards can lie in a `width` x `height` frame: the box round the table's corners and every
 * zone, `marginPx` wider each side, in whole pixels within the frame. (A zone may reach past the
 * four points a user calibrated with; a card on the table's edge overhangs it.)
 */
export function playArea(plane: TablePlane, width: number, height: number, marginPx: number): PixelRect {
  const box = boundingRect([...plane.imageCorners, ...plane.zonesBySpecificity.flatMap((zone) => zoneImagePolygon(plane, zone))]);
  const x0 = Math.max(0, Math.floor(box.x - marginPx));
  const y0 = Math.max(0, Math.floor(box.y - marginPx));
  const x1 = Math.min(width, Math.ceil(box.x + box.width + marginPx));
  const y1 = Math.min(height, Math.ceil(box.y + box.height + marginPx));
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
}

/** Smaller wins: a pile zone inside a seat beats the seat; the centre beats the seat wedges it overlaps. */
const ZONE_PRIORITY: Record<CalibrationZone['kind'], number> = { nerts: 0, work: 0, waste: 0, stock: 0, centre: 1, seat: 2 };

/**
 * The most specific calibration zone containing image point `p`, or undefined.
 * Zone polygons are in table millimetres with the origin at the table's centre (as the scene,
 * the calibration page and the default layout all write them); the plane's own mapping has its
 * origin at the table rectangle's top-left corner, so the point is shifted first.
 */
export function zoneAt(plane: TablePlane, p: Point): string | undefined {
  const [x, y] = applyHomography(plane.imageToTable, p[0], p[1]);
  const { tableWidthMm, tableHeightMm } = plane.calibration;
  const cx = x - tableWidthMm / 2;
  const cy = y - tableHeightMm / 2;
  return plane.zonesBySpecificity.find((zone) => pointInPolygon(zone.polygonMm, cx, cy))?.id;
}
