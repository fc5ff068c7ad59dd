/**
 * The lines `npm run trace` prints (datasets/cli/trace.ts): each traced outline whose centre lies
 * in a box, with its source, corners and support or reading; and with `--misses`, one line per
 * card an eval missed (missLine). Pure.
 */
import type { TraceEvent } from '../../server/vision/index';
import type { Identity } from '../../server/vision/identify';
import type { Point, Quad } from '../../server/vision/types';

/** A box of image pixels [x0, y0, x1, y1], or null for the whole image. */
export type TraceBox = [number, number, number, number] | null;

/** Corners moved from a part of the frame (top-left at `origin`) to the frame. */
const shifted = (corners: Quad, [ox, oy]: Point): Quad => corners.map(([x, y]) => [x + ox, y + oy]) as Quad;

/** Whether a quad's centre lies in `box` (always, with no box). */
export function centreIn(corners: Quad, box: TraceBox): boolean {
  if (!box) return true;
  const cx = corners.reduce((s, p) => s + p[0], 0) / 4;
  const cy = corners.reduce((s, p) => s + p[1], 0) / 4;
  return cx >= box[0] && cx <= box[2] && cy >= box[1] && cy <= box[3];
}

/** A quad's corners as `x,y x,y x,y x,y`, rounded. */
export const cornersText = (corners: Quad) => corners.map(([x, y]) => `${Math.round(x)},${Math.round(y)}`).join(' ');

/** A reading as `code confidence` (`back:design`, `other`), or `-` for none. */
function readingText(identity: Identity | null): string {
  if (!identity) return '-';
  const name = identity.kind === 'face' ? identity.code : identity.kind === 'back' ? `back:${identity.design ?? '?'}` : identity.kind;
  return `${name} ${identity.confidence.toFixed(2)}`;
}

/** One printed line per outline of `event` whose centre lies in `box`. */
export function traceLines(event: TraceEvent, box: TraceBox): string[] {
  if (event.stage === 'read') {
    return event.cards.filter((card) => centreIn(card.corners, box)).map((card) => `read       ${card.source.padEnd(6)} ${cornersText(card.corners)}  whole ${readingText(card.identity)}  corner ${readingText(card.fromIndex)}`);
  }
  return event.cards
    .map((card) => ({ card, corners: shifted(card.corners, event.origin) }))
    .filter(({ corners }) => centreIn(corners, box))
    .map(({ card, corners }) => `${event.stage.padEnd(10)} ${card.source.padEnd(6)} ${cornersText(corners)}  support ${card.support.toFixed(2)}${card.rivalGroup !== undefined ? `  rivals ${card.rivalGroup}` : ''}`);
}

/** A reading event's cards (see TraceEvent). */
export type TracedRead = Extract<TraceEvent, { stage: 'read' }>['cards'][number];

/** A card the recogniser reported, as the miss summary needs it. */
export interface ReportedCard {
  corners: Quad;
  name: string;
  confidence: number;
}

/**
 * One line on a labelled card the eval found no prediction for (`npm run trace -- --misses`):
 * how many outlines were read with their centre in its box, the confidences of those read as
 * the label's face, the faces read there at all (source:code@confidence, surest first, at most
 * six), and what was reported there. "outlines=0" is a card no localiser outlined; a right reading
 * with nothing reported is a card lost after reading (rivals, nesting, floors).
 */
export function missLine(file: string, label: string, box: [number, number, number, number], reads: readonly TracedRead[], reported: readonly ReportedCard[]): string {
  const inBox = reads.filter((card) => centreIn(card.corners, box));
  const faces = inBox.flatMap((card) => (card.identity.kind === 'face' ? [{ source: card.source, code: card.identity.code, confidence: card.identity.confidence }] : []));
  const right = faces.filter((face) => face.code === label).map((face) => face.confidence.toFixed(2));
  const named = faces
    .sort((a, b) => b.confidence - a.confidence)
    .slice(0, 6)
    .map((face) => `${face.source}:${face.code}@${face.confidence.toFixed(2)}`);
  const there = reported.filter((card) => centreIn(card.corners, box)).map((card) => `${card.name}@${card.confidence.toFixed(2)}`);
  return `${file} ${label} [${box.map(Math.round).join(',')}] outlines=${inBox.length} read-as-it=[${right.join(',')}] faces=[${named.join(' ')}] reported=[${there.join(' ')}]`;
}
