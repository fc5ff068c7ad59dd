/**
 * Table zones on the table plane: the layout both a referee's clicked calibration (web app,
 * client/src/lib/calibration.ts) and the default layout of an uncalibrated table are built
 * from, and the lookup of a card's zone from its image position. One copy, used by the server
 * and the client bundle alike, so pure numbers only (no DOM, no Node).
 *
 * Table millimetres with the origin at the table centre, x right, y towards the camera's bottom
 * edge (as in server/sim/scene.ts). Image points are pixels.
 */
import { quadCentre, type Point } from '../geometry';
import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../sim/scene';
import type { Calibration } from '../protocol';
import { tablePlane, zoneAt, type TablePlane } from '../vision/rectify';
import type { CardObservation } from '../vision/types';

/** Half the side of a clicked calibration's centre zone, table millimetres (room for six to eight foundations). */
export const DEFAULT_CENTRE_HALF_MM = 230;

/**
 * Width the default layout gives the camera's whole frame, table millimetres: a guess (a webcam
 * over a card table sees about this much). Only proportions matter for zones: its depth follows
 * the frame's aspect ratio.
 */
export const DEFAULT_LAYOUT_WIDTH_MM = 1200;

/** The default layout's centre zone: a square of this fraction of the frame's shorter side, centred. */
export const DEFAULT_LAYOUT_CENTRE_FRACTION = 0.5;

/** Calibration zones (mirrors server/vision/types.ts CalibrationZone). */
export type LayoutZone = Calibration['zones'][number];

/** Where the ray from the table centre at `angle` leaves the rectangle of half-size w × h (mm). */
function rectangleEdgePoint(angle: number, w: number, h: number): Point {
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  const scale = Math.min(Math.abs(dx) > 1e-9 ? w / Math.abs(dx) : Infinity, Math.abs(dy) > 1e-9 ? h / Math.abs(dy) : Infinity);
  return [dx * scale, dy * scale];
}

/** Table-mm direction (radians) of seat `seat` of `count`: seat 0 at the bottom edge (+y), then clockwise as seen from above. */
export function seatAngle(seat: number, count: number): number {
  return Math.PI / 2 + (seat * 2 * Math.PI) / count;
}

/** What a zone layout is built from (all table millimetres). */
export interface ZoneLayoutInput {
  tableWidthMm: number;
  tableHeightMm: number;
  /** Centre of play on the table. */
  centreMm: Point;
  /** Half the side of the square centre zone. */
  centreHalfMm: number;
  seatCount: number;
  /**
   * Where each seat's Nerts pile lies (index = seat; missing or null: not marked). The tracker
   * counts a player's Nerts cards, and sees the call, only on a marked pile.
   */
  nertsPilesMm?: ReadonlyArray<Point | null | undefined>;
}

/** Room round a Nerts pile's card for a messy stack, mm: across the card, and along it. */
export const NERTS_PILE_MARGIN_MM: readonly [number, number] = [8, 12];

/**
 * The zone of a Nerts pile at `pileMm`: a card (63 x 88 mm) plus NERTS_PILE_MARGIN_MM, its long
 * side pointing from the pile to the centre of play (as a player lays their piles out).
 */
export function nertsPileZone(pileMm: Point, centreMm: Point): Array<[number, number]> {
  const angle = Math.atan2(centreMm[1] - pileMm[1], centreMm[0] - pileMm[0]);
  const along: Point = [Math.cos(angle), Math.sin(angle)];
  const across: Point = [-along[1], along[0]];
  const halfAcross = CARD_WIDTH_MM / 2 + NERTS_PILE_MARGIN_MM[0];
  const halfAlong = CARD_HEIGHT_MM / 2 + NERTS_PILE_MARGIN_MM[1];
  return [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ].map(([a, b]) => [
    Math.round(pileMm[0] + a * halfAcross * across[0] + b * halfAlong * along[0]),
    Math.round(pileMm[1] + a * halfAcross * across[1] + b * halfAlong * along[1]),
  ]);
}

/**
 * The zones of a table: a square centre zone round the centre of play, and one wedge per seat
 * from the table centre out to the table's edge, seats spaced evenly (seatAngle), plus each
 * marked Nerts pile (nertsPileZone). A Nerts pile wins over the centre, the centre over the seat
 * wedges (zoneLocator's priority). Coordinates rounded to whole millimetres.
 */
export function layoutZones(input: ZoneLayoutInput): LayoutZone[] {
  const w = input.tableWidthMm / 2;
  const h = input.tableHeightMm / 2;
  const half = input.centreHalfMm;
  const round = (p: Point): [number, number] => [Math.round(p[0]), Math.round(p[1])];
  const [cx, cy] = input.centreMm;
  const zones: LayoutZone[] = [
    { id: 'centre', kind: 'centre', polygonMm: [round([cx - half, cy - half]), round([cx + half, cy - half]), round([cx + half, cy + half]), round([cx - half, cy + half])] },
  ];
  const steps = 6;
  for (let seat = 0; seat < input.seatCount; seat++) {
    const middle = seatAngle(seat, input.seatCount);
    const spread = Math.PI / input.seatCount;
    const polygon: [number, number][] = [round([0, 0])];
    for (let step = 0; step <= steps; step++) {
      polygon.push(round(rectangleEdgePoint(middle - spread + (2 * spread * step) / steps, w, h)));
    }
    zones.push({ id: `seat-${seat}`, kind: 'seat', seat, polygonMm: polygon });
    const pile = input.nertsPilesMm?.[seat];
    if (pile) zones.push({ id: `seat-${seat}/nerts`, kind: 'nerts', seat, polygonMm: nertsPileZone(pile, input.centreMm) });
  }
  return zones;
}

/**
 * The layout an uncalibrated table referees with: the camera's whole frame (imageWidth ×
 * imageHeight pixels) as the table, a centre zone in the middle and seat zones round the edges
 * (seat 0 at the bottom edge, then clockwise), built by layoutZones like a clicked calibration.
 */
export function defaultCalibration(imageWidth: number, imageHeight: number, seatCount: number): Calibration {
  const width = Math.max(1, Math.round(imageWidth));
  const height = Math.max(1, Math.round(imageHeight));
  const tableWidthMm = DEFAULT_LAYOUT_WIDTH_MM;
  const tableHeightMm = Math.round((DEFAULT_LAYOUT_WIDTH_MM * height) / width);
  const centreHalfMm = (DEFAULT_LAYOUT_CENTRE_FRACTION * Math.min(tableWidthMm, tableHeightMm)) / 2;
  return {
    imageWidth: width,
    imageHeight: height,
    imageCorners: [[0, 0], [width, 0], [width, height], [0, height]],
    tableWidthMm,
    tableHeightMm,
    zones: layoutZones({ tableWidthMm, tableHeightMm, centreMm: [0, 0], centreHalfMm, seatCount: Math.max(1, seatCount) }),
  };
}

/**
 * A function naming the most specific zone of `calibration` under an image point (pixels) of a
 * width × height frame, or undefined outside every zone (and everywhere when the calibration's
 * corners are degenerate). The recogniser's own zone lookup (vision/rectify.ts) does the work.
 */
export function zoneLocator(calibration: Calibration, width: number, height: number): (point: Point) => string | undefined {
  let plane: TablePlane;
  try {
    plane = tablePlane(calibration, width, height);
  } catch {
    return () => undefined;
  }
  return (point) => zoneAt(plane, point);
}

/** The cards with a zone filled in from `locate` (by the card's centre) where the recogniser gave none. */
export function withZones(cards: CardObservation[], locate: (point: Point) => string | undefined): CardObservation[] {
  return cards.map((card) => {
    if (card.zone) return card;
    const zone = locate(quadCentre(card.corners));
    return zone ? { ...card, zone } : card;
  });
}
