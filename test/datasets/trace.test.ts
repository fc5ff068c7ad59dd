import { describe, expect, it } from 'vitest';
import { centreIn, cornersText, traceLines } from '../../datasets/lib/trace';
import type { LocatedCard } from '../../server/vision/locate';
import type { Quad } from '../../server/vision/types';

const quad = (x0: number, y0: number, x1: number, y1: number): Quad => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];

describe('trace lines (npm run trace)', () => {
  it('prints a localiser\'s outlines in frame pixels, moved from their part of the frame, only those centred in the box', () => {
    const cards: LocatedCard[] = [
      { corners: quad(0, 0, 40, 56), source: 'split', support: 0.9, rivalGroup: 3 },
      { corners: quad(200, 0, 240, 56), source: 'single', support: 1 },
    ];
    // A region whose top-left lies at (100, 50): the first card lies at 100..140 x 50..106 in the frame.
    const lines = traceLines({ stage: 'classical', origin: [100, 50], cards }, [90, 40, 150, 120]);
    expect(lines).toEqual(['classical  split  100,50 140,50 140,106 100,106  support 0.90  rivals 3']);
    expect(traceLines({ stage: 'classical', origin: [100, 50], cards }, null)).toHaveLength(2);
  });

  it('prints each reading with what the index corner alone names', () => {
    const lines = traceLines(
      {
        stage: 'read',
        cards: [
          { corners: quad(80, 184, 240, 414), source: 'strip', identity: { kind: 'face', code: 'QC', confidence: 0.62 }, fromIndex: { kind: 'face', code: 'QC', confidence: 0.81 } },
          { corners: quad(300, 300, 340, 356), source: 'net', identity: { kind: 'other', confidence: 0.94 }, fromIndex: null },
        ],
      },
      [0, 0, 200, 400],
    );
    expect(lines).toEqual(['read       strip  80,184 240,184 240,414 80,414  whole QC 0.62  corner QC 0.81']);
  });

  it('judges a quad by its centre and prints corners rounded', () => {
    expect(centreIn(quad(0, 0, 10, 10), [4, 4, 6, 6])).toBe(true);
    expect(centreIn(quad(0, 0, 10, 10), [6, 6, 9, 9])).toBe(false);
    expect(cornersText([[0.4, 1.6], [2, 2], [3, 3], [4, 4]])).toBe('0,2 2,2 3,3 4,4');
  });
});
