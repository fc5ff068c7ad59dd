import { describe, expect, it } from 'vitest';
import { INDEX_HEIGHT, INDEX_WIDTH, NO_RANK, NO_SUIT } from '../../server/vision/classes';
import { renderedStripSet, scoreStripReadings, stripCornerCrops } from '../../datasets/lib/strip-reading';
import { SOURCE_HEIGHT, SOURCE_WIDTH, type SourceSet } from '../../datasets/lib/sources';

describe('strip reading (npm run eval -- --strips)', () => {
  it('scores strips named right at their showing corner and covered corners read as no index', () => {
    // 10C (rank 9, suit 3) read right, AS read as no index, 2H misread as 2D.
    const shown = { ranks: [9, NO_RANK, 1], suits: [3, NO_SUIT, 2] };
    const covered = { ranks: [NO_RANK, NO_RANK, 4], suits: [NO_SUIT, NO_SUIT, 1] };
    expect(scoreStripReadings(['10C', 'AS', '2H'], shown, covered)).toEqual({ strips: 3, namedRight: 1, readNoIndex: 1, coveredNoIndex: 2 });
  });

  it('cuts each strip\'s showing corner and, turned upright, its covered one, as the recogniser cuts a card\'s', () => {
    // A dark block in the source's top-left corner, a bright one in its bottom-right, grey between.
    const pixels = new Uint8Array(SOURCE_WIDTH * SOURCE_HEIGHT * 3).fill(128);
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < 8; x++) {
        pixels.fill(10, (y * SOURCE_WIDTH + x) * 3, (y * SOURCE_WIDTH + x) * 3 + 3);
        pixels.fill(250, ((SOURCE_HEIGHT - 1 - y) * SOURCE_WIDTH + (SOURCE_WIDTH - 1 - x)) * 3, ((SOURCE_HEIGHT - 1 - y) * SOURCE_WIDTH + (SOURCE_WIDTH - 1 - x)) * 3 + 3);
      }
    }
    const set: SourceSet = { format: 't', entries: [{ group: 'strip:t', label: '5S', split: 'heldout', file: 'a' }], pixels };
    const crops = stripCornerCrops(set, [0]);
    const size = INDEX_WIDTH * INDEX_HEIGHT * 3;
    expect(crops.length).toBe(2 * size);
    // Each corner's first pixel is that corner of the card; the middle of each crop is the grey between.
    expect(crops[0]).toBeCloseTo(10 / 255, 2);
    expect(crops[size]).toBeCloseTo(250 / 255, 2);
    expect(crops[size - 1]).toBeCloseTo(128 / 255, 2);
    expect(crops[2 * size - 1]).toBeCloseTo(128 / 255, 2);
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
