import { describe, expect, it } from 'vitest';
import { learningRate } from '../../datasets/lib/schedule';

describe('learning-rate schedule', () => {
  it('warms up for one epoch, then decays by a cosine to a twentieth', () => {
    expect(learningRate(1, 0.003, 1, 10)).toBeCloseTo(0.001, 9);
    // Epoch 2 of a 1..10 run: progress 1/9, just under the full rate.
    expect(learningRate(2, 0.003, 1, 10)).toBeCloseTo(0.003 * (0.05 + 0.95 * 0.5 * (1 + Math.cos(Math.PI / 9))), 9);
    expect(learningRate(10, 0.003, 1, 10)).toBeCloseTo(0.00015, 9);
    const rates = Array.from({ length: 9 }, (_, k) => learningRate(k + 2, 0.003, 1, 10));
    for (let k = 1; k < rates.length; k++) expect(rates[k]).toBeLessThan(rates[k - 1]);
  });

  it('starts a new schedule at a warm restart', () => {
    // Resumed after epoch 40 of a finished run: epoch 41 warms up, 52 ends at a twentieth again.
    expect(learningRate(41, 0.001, 41, 52)).toBeCloseTo(0.001 / 3, 9);
    expect(learningRate(46, 0.001, 41, 52)).toBeGreaterThan(0.0005);
    expect(learningRate(52, 0.001, 41, 52)).toBeCloseTo(0.00005, 9);
    // Without the restart the same epochs sit at the tail of the old schedule.
    expect(learningRate(46, 0.001, 1, 52)).toBeLessThan(0.0002);
  });
});
