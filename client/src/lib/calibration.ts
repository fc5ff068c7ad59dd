/**
 * Builds the table calibration from what the referee clicked on the live image: the four table
 * corners (TL, TR, BR, BL, image pixels) and the centre of play. Zones are laid out on the
 * table plane in millimetres (origin at the table centre, as in server/sim/scene.ts): a centre
 * square around the clicked centre, one wedge per seat, seats spaced evenly clockwise starting
 * at the camera's bottom edge, and a zone round each Nerts pile the referee clicked (the tracker
 * counts a player's Nerts cards, and sees the call, only there).
 */
import type { Calibration } from '../../../server/protocol';
import { DEFAULT_CENTRE_HALF_MM, layoutZones } from '../../../server/tables/zone-layout';
import { applyHomography, homographyFrom, type Pt } from './homography';

// The zone layout is shared with the server's default layout for uncalibrated tables.
export { DEFAULT_CENTRE_HALF_MM, defaultCalibration, seatAngle } from '../../../server/tables/zone-layout';

/** Inputs from the setup page. */
export interface CalibrationInput {
  imageWidth: number;
  imageHeight: number;
  /** Clicked table corners TL, TR, BR, BL, image pixels. */
  corners: [Pt, Pt, Pt, Pt];
  /** Clicked centre of play, image pixels. */
  centre: Pt;
  tableWidthMm: number;
  tableHeightMm: number;
  seatCount: number;
  centreHalfMm?: number;
  /** Clicked Nerts piles, image pixels, seat by seat (seat 1 first); fewer than seatCount leaves the rest unmarked. */
  nertsPiles?: Pt[];
}

/** The image point → table millimetre mapping for the clicked corners; null if they are degenerate. */
export function imageToTable(input: Pick<CalibrationInput, 'corners' | 'tableWidthMm' | 'tableHeightMm'>) {
  const w = input.tableWidthMm / 2;
  const h = input.tableHeightMm / 2;
  return homographyFrom(input.corners, [[-w, -h], [w, -h], [w, h], [-w, h]]);
}

/** The full calibration, or an error message saying what to fix. */
export function buildCalibration(input: CalibrationInput): { calibration: Calibration } | { error: string } {
  if (input.tableWidthMm <= 0 || input.tableHeightMm <= 0) return { error: 'Table size must be positive' };
  if (input.seatCount < 2 || input.seatCount > 6) return { error: 'A table has 2 to 6 seats' };
  const toTable = imageToTable(input);
  if (!toTable) return { error: 'Those four corners do not make a rectangle: click them again (top-left, top-right, bottom-right, bottom-left)' };
  const centreMm = applyHomography(toTable, input.centre);
  const w = input.tableWidthMm / 2;
  const h = input.tableHeightMm / 2;
  if (!centreMm || Math.abs(centreMm[0]) > w || Math.abs(centreMm[1]) > h) return { error: 'The centre must be inside the table corners' };
  const half = Math.min(input.centreHalfMm ?? DEFAULT_CENTRE_HALF_MM, w * 0.8, h * 0.8);
  const round = (p: Pt): [number, number] => [Math.round(p[0]), Math.round(p[1])];
  const piles = input.nertsPiles ?? [];
  if (piles.length > input.seatCount) return { error: `There are ${input.seatCount} seats: at most ${input.seatCount} Nerts piles` };
  const nertsPilesMm: Pt[] = [];
  for (const [seat, pile] of piles.entries()) {
    const mm = applyHomography(toTable, pile);
    if (!mm || Math.abs(mm[0]) > w || Math.abs(mm[1]) > h) return { error: `Seat ${seat + 1}’s Nerts pile must be inside the table corners` };
    if (Math.abs(mm[0] - centreMm[0]) < half && Math.abs(mm[1] - centreMm[1]) < half) return { error: `Seat ${seat + 1}’s Nerts pile lies in the centre of play: click the pile in front of the player` };
    nertsPilesMm.push(mm);
  }
  const zones = layoutZones({ tableWidthMm: input.tableWidthMm, tableHeightMm: input.tableHeightMm, centreMm, centreHalfMm: half, seatCount: input.seatCount, nertsPilesMm });
  return {
    calibration: {
      imageWidth: Math.round(input.imageWidth),
      imageHeight: Math.round(input.imageHeight),
      imageCorners: input.corners.map(round) as Calibration['imageCorners'],
      tableWidthMm: input.tableWidthMm,
      tableHeightMm: input.tableHeightMm,
      zones,
    },
  };
}

/** Each zone of a saved calibration as an image polygon (pixels), to draw over the live image; [] if the corners are degenerate. */
export function zonesInImage(calibration: Calibration): Array<{ id: string; kind: string; points: Pt[] }> {
  const w = calibration.tableWidthMm / 2;
  const h = calibration.tableHeightMm / 2;
  const toImage = homographyFrom([[-w, -h], [w, -h], [w, h], [-w, h]], calibration.imageCorners as [Pt, Pt, Pt, Pt]);
  if (!toImage) return [];
  return calibration.zones.map((zone) => ({
    id: zone.id,
    kind: zone.kind,
    points: zone.polygonMm.map((point) => applyHomography(toImage, point as Pt)).filter((point): point is Pt => point !== null),
  }));
}
