import { describe, expect, it } from 'vitest';
import { centreIn, cornersText, missLine, traceLines } from '../../datasets/lib/trace';
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

  it('sums up a missed card: the outlines read in its box, how surely any read it, what else, and what was reported there (--misses)', () => {
    const reads = [
      { corners: quad(100, 100, 160, 190), source: 'split' as const, identity: { kind: 'face' as const, code: 'KS' as const, confidence: 0.61 }, fromIndex: null },
      { corners: quad(95, 95, 165, 195), source: 'net' as const, identity: { kind: 'face' as const, code: 'KS' as const, confidence: 0.71 }, fromIndex: null },
      { corners: quad(110, 120, 150, 170), source: 'lines' as const, identity: { kind: 'face' as const, code: 'QD' as const, confidence: 0.24 }, fromIndex: null },
      { corners: quad(100, 100, 160, 190), source: 'split' as const, identity: { kind: 'other' as const, confidence: 0.9 }, fromIndex: null },
      // Elsewhere in the frame: left out.
      { corners: quad(400, 100, 460, 190), source: 'split' as const, identity: { kind: 'face' as const, code: 'KS' as const, confidence: 0.99 }, fromIndex: null },
    ];
    const reported = [{ corners: quad(90, 90, 300, 400), name: 'KS', confidence: 0.8 }, { corners: quad(400, 100, 460, 190), name: 'KS', confidence: 0.99 }];
    expect(missLine('IMG_2536.JPG', 'KS', [100, 100, 170, 200], reads, reported)).toBe(
      'IMG_2536.JPG KS [100,100,170,200] outlines=4 read-as-it=[0.61,0.71] faces=[net:KS@0.71 split:KS@0.61 lines:QD@0.24] reported=[]',
    );
    expect(missLine('a.jpg', 'JH', [0, 0, 10, 10], [], [])).toBe('a.jpg JH [0,0,10,10] outlines=0 read-as-it=[] faces=[] reported=[]');
    expect(missLine('b.jpg', 'KS', [90, 90, 300, 400], reads, reported)).toContain('reported=[KS@0.80]');
  });
});
