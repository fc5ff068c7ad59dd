import { describe, expect, it } from 'vitest';
import { backEnrolmentAccuracy } from '../../datasets/lib/suite';
import { SOURCE_BYTES, type SourceSet } from '../../datasets/lib/sources';
import type { CardRecognizer } from '../../server/vision/index';

describe('backEnrolmentAccuracy', () => {
  it('SUITE-1 scores each held-out design and tallies what its views were read as when wrong', async () => {
    // Two held-out back designs (grey and dark) and one training design that must not be enrolled.
    const entries: SourceSet['entries'] = [
      { group: 'back', label: 'back:a', split: 'heldout', file: 'a' },
      { group: 'back', label: 'back:b', split: 'heldout', file: 'b' },
      { group: 'back', label: 'back:t', split: 'train', file: 't' },
    ];
    const pixels = new Uint8Array(entries.length * SOURCE_BYTES);
    pixels.fill(200, 0, SOURCE_BYTES);
    pixels.fill(30, SOURCE_BYTES, 2 * SOURCE_BYTES);
    const enrolled: string[] = [];
    let batch = 0;
    // A fake recogniser: design a's views read right; of b's, one as a, one as a face, one as not a card.
    const recognizer = {
      enrollBack: async (design: string) => void enrolled.push(design),
      identifyCrops: async (views: unknown[]) => {
        batch++;
        if (batch === 1) return views.map(() => ({ kind: 'back' as const, confidence: 0.9, backId: 'a' }));
        return views.map((_, i) =>
          i === 0 ? { kind: 'back' as const, confidence: 0.9, backId: 'a' }
          : i === 1 ? { kind: 'face' as const, code: 'KD' as const, confidence: 0.7 }
          : i === 2 ? { kind: 'other' as const, confidence: 0.8 }
          : { kind: 'back' as const, confidence: 0.9, backId: 'b' });
      },
    } as unknown as CardRecognizer;
    const result = await backEnrolmentAccuracy(recognizer, { format: 'test', entries, pixels }, 4);
    expect(enrolled).toEqual(['a', 'b']);
    expect(result.views).toBe(8);
    expect(result.accuracy).toBe(5 / 8);
    expect(result.calledBack).toBe(6 / 8);
    expect(result.mistakes).toEqual({ 'b→a': 1, 'b→KD': 1, 'b→other': 1 });
  });
});
