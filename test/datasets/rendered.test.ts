import { describe, expect, it } from 'vitest';
import { renderedLabel } from '../../datasets/lib/rendered';
import type { CardTruth } from '../../server/sim/render/index';

type Truth = Parameters<typeof renderedLabel>[0];
const face = (visibleFraction: number, indexVisibleFraction: number, zone: CardTruth['zone'] = { kind: 'work', seat: 0, pile: 0 }): Truth => ({ faceUp: true, code: '7H', visibleFraction, indexVisibleFraction, zone });

describe('renderedLabel (which cards a rendered evaluation set labels)', () => {
  it('labels a face-up card mostly in view, or a strip of a cascade or waste that shows its index', () => {
    expect(renderedLabel(face(0.8, 1))).toBe('7H');
    expect(renderedLabel(face(0.3, 0))).toBe('7H');
    expect(renderedLabel(face(0.15, 0.95))).toBe('7H');
    expect(renderedLabel(face(0.12, 0.92, { kind: 'waste', seat: 1 }))).toBe('7H');
    // A sliver whose index is cut: no person could read it.
    expect(renderedLabel(face(0.15, 0.6))).toBeNull();
  });

  it("leaves out a foundation pile's lower cards however much of their corner peeks out", () => {
    expect(renderedLabel(face(0.1, 1, { kind: 'centre', foundationId: 'f1' }))).toBeNull();
    expect(renderedLabel(face(0.9, 1, { kind: 'centre', foundationId: 'f1' }))).toBe('7H');
  });

  it('labels a face-down card in view as a back', () => {
    expect(renderedLabel({ ...face(0.5, 1), faceUp: false })).toBe('back');
    expect(renderedLabel({ ...face(0.2, 1), faceUp: false })).toBeNull();
  });

  it('labels only face-up cards above a visible share under the old rule', () => {
    const faces = { kind: 'faces', minVisible: 0.3 } as const;
    expect(renderedLabel(face(0.15, 1), faces)).toBeNull();
    expect(renderedLabel(face(0.35, 0), faces)).toBe('7H');
    expect(renderedLabel({ ...face(0.9, 1), faceUp: false }, faces)).toBeNull();
  });
});
