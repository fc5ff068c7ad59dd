/**
 * How big a card is where an outline lies, for the localiser's size checks on a calibrated table.
 *
 * A camera above the table sees a card about one size everywhere: one width will do
 * (`flatSizer`). An oblique camera does not: a card near it is about 1.6 times the median width,
 * a far one 0.6, and a far card lying lengthwise looks nearly square, its image "short side"
 * being its foreshortened long side. There outlines are measured on the table itself, in
 * millimetres, through the calibration's homography (`planeSizer`).
 *
 * Quads and points are in detection pixels: the localiser's image, `scale` detection pixels per
 * frame pixel, its top-left at `origin` in the frame (a region searched alone).
 */
import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../sim/scene';
import { applyHomography, polygonArea, quadShortSide, type Homography } from '../geometry';
import { CARD_ASPECT } from './classes';
import { cardGeometry, geometryQuad } from './locator';
import { cardWidthAtTablePoint } from './rectify';
import type { Point, Quad } from './types';

export interface CardSizer {
  /** An outline's short side and area as shares of a card's lying there (1: one card). */
  shares(quad: Quad): { short: number; area: number };
  /** The card of the calibrated size with the centre and direction of `quad` (any corner order). */
  cardAbout(quad: Quad): Quad;
  /** A card's short side near `at`, pixels (either way round; for hypotheses split from a blob). */
  widthAt(at: Point): number;
}

/** The table plane of a calibration: frame pixels to table millimetres and back. */
export interface TableMapping {
  imageToTable: Homography;
  tableToImage: Homography;
}

/** One card width, `width` pixels, everywhere. */
export function flatSizer(width: number, aspect = CARD_ASPECT): CardSizer {
  return {
    shares: (quad) => ({ short: quadShortSide(quad) / width, area: polygonArea(quad) / (width * width * aspect) }),
    cardAbout: (quad) => geometryQuad({ ...cardGeometry(quad), short: width, long: width * aspect }),
    widthAt: () => width,
  };
}

/** Card sizes from the table plane (`table`), for a detection image at `scale` with its top-left at `origin` in the frame. */
export function planeSizer(table: TableMapping, scale: number, origin: Point = [0, 0]): CardSizer {
  const toTable = ([x, y]: readonly [number, number]): Point => applyHomography(table.imageToTable, x / scale + origin[0], y / scale + origin[1]);
  const toImage = ([x, y]: readonly [number, number]): Point => {
    const [fx, fy] = applyHomography(table.tableToImage, x, y);
    return [(fx - origin[0]) * scale, (fy - origin[1]) * scale];
  };
  const onTable = (quad: Quad) => shortSideFirst(quad.map(toTable) as Quad);
  return {
    shares: (quad) => {
      const mm = onTable(quad);
      return { short: quadShortSide(mm) / CARD_WIDTH_MM, area: polygonArea(mm) / (CARD_WIDTH_MM * CARD_HEIGHT_MM) };
    },
    cardAbout: (quad) => geometryQuad({ ...cardGeometry(onTable(quad)), short: CARD_WIDTH_MM, long: CARD_HEIGHT_MM }).map(toImage) as Quad,
    widthAt: (at) => cardWidthAtTablePoint(table.tableToImage, ...toTable(at)) * scale,
  };
}

/** The same quad, its corners turned so that the first side is a short one (what cardGeometry expects). */
function shortSideFirst(quad: Quad): Quad {
  const side = (a: number) => Math.hypot(quad[(a + 1) % 4][0] - quad[a][0], quad[(a + 1) % 4][1] - quad[a][1]);
  return side(0) + side(2) <= side(1) + side(3) ? quad : ([quad[1], quad[2], quad[3], quad[0]] as Quad);
}
