import { describe, expect, it } from 'vitest';
import { NO_RANK, NO_SUIT } from '../../server/vision/classes';
import { renderedStripSet, rowArgmax, scoreStripReadings, turnedSet } from '../../datasets/lib/strip-reading';
import { SOURCE_HEIGHT, SOURCE_WIDTH, type SourceSet } from '../../datasets/lib/sources';

describe('strip reading (npm run eval -- --strips)', () => {
  it('takes the argmax of each row', () => {
    expect(rowArgmax([0.1, 0.7, 0.2, 0.5, 0.1, 0.4], 3)).toEqual([1, 0]);
  });

  it('scores strips named right at their showing corner and covered corners read as no index', () => {
    // 10C (rank 9, suit 3) read right, AS read as no index, 2H misread as 2D.
    const shown = { ranks: [9, NO_RANK, 1], suits: [3, NO_SUIT, 2] };
    const covered = { ranks: [NO_RANK, NO_RANK, 4], suits: [NO_SUIT, NO_SUIT, 1] };
    expect(scoreStripReadings(['10C', 'AS', '2H'], shown, covered)).toEqual({ strips: 3, namedRight: 1, readNoIndex: 1, coveredNoIndex: 2 });
  });

  it('turns every image of a set 180 degrees', () => {
    const size = SOURCE_WIDTH * SOURCE_HEIGHT * 3;
    const pixels = new Uint8Array(size);
    pixels.set([10, 20, 30], 0); // the top-left pixel
    const set: SourceSet = { format: 't', entries: [{ group: 'strip:t', label: '5S', split: 'heldout', file: 'a' }], pixels };
    const turned = turnedSet(set);
    expect(Array.from(turned.pixels.subarray(size - 3))).toEqual([10, 20, 30]);
    expect(Array.from(turned.pixels.subarray(0, 3))).toEqual([0, 0, 0]);
    expect(set.pixels[0]).toBe(10);
  });

  it('renders the strips of unseen deck art, each labelled by its card', async () => {
    const set = await renderedStripSet({ frames: 2, seed: 5 });
    expect(set.entries.length).toBeGreaterThan(3);
    expect(set.pixels.length).toBe(set.entries.length * SOURCE_WIDTH * SOURCE_HEIGHT * 3);
    for (const entry of set.entries) {
      expect(entry.group).toMatch(/^strip:(shared-kennard|npm-letele)/);
      expect(entry.label).toMatch(/^(A|[2-9]|10|J|Q|K)[SHDC]$/);
    }
  });
});
