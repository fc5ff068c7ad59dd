import { describe, expect, it } from 'vitest';
import { SortWholeReads } from '../../server/tables/sort-reads';

/** Plays frames every 33 ms from `from` to `to`, each still or moving (whole reads as quick as tracked ones), and returns the times read whole. */
function play(reads: SortWholeReads, from: number, to: number, moving: (t: number) => boolean): number[] {
  const whole: number[] = [];
  for (let t = from; t < to; t += 33) {
    const read = reads.take(t);
    if (read) whole.push(t);
    reads.observed(t, moving(t));
    if (read) reads.finished(t);
  }
  return whole;
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);

describe('score sort: which frames are read whole', () => {
  const tuning = { minGapMs: 1000, settleMs: 300, maxGapMs: 3000, restMs: 300, inFlightLimitMs: 8000 };

  it('reads the first sort frame whole, then a still spread every minGapMs', () => {
    const whole = play(new SortWholeReads(tuning), 0, 10_000, () => false);
    expect(whole[0]).toBe(0);
    expect(whole.length).toBe(10);
    for (const gap of gaps(whole)) expect(gap).toBeGreaterThanOrEqual(1000);
  });

  it('while hands deal, reads only every maxGapMs; once the table has settled, every minGapMs again', () => {
    // Dealing from 500 ms to 5,000 ms, then still.
    const whole = play(new SortWholeReads(tuning), 0, 8000, (t) => t >= 500 && t < 5000);
    expect(whole[0]).toBe(0);
    const dealing = whole.filter((t) => t > 0 && t < 5000);
    expect(dealing.length).toBe(1);
    expect(dealing[0]).toBeGreaterThanOrEqual(3000);
    // Settled 300 ms after the last moving frame (4,983 ms), not before; then a second apart.
    const still = whole.filter((t) => t >= 5000);
    expect(still[0]).toBeGreaterThanOrEqual(4983 + 300);
    expect(still[0]).toBeLessThan(4983 + 300 + 100);
    expect(still.length).toBe(3);
  });

  it('a frame still for less than settleMs after a moving one is not read whole; reset starts afresh', () => {
    const reads = new SortWholeReads(tuning);
    expect(reads.take(0)).toBe(true);
    reads.finished(100);
    reads.observed(1000, true);
    reads.observed(1100, false);
    expect(reads.take(1150)).toBe(false);
    reads.observed(1350, false);
    expect(reads.take(1400)).toBe(true);
    reads.reset();
    expect(reads.take(1410)).toBe(true);
  });

  it('rests restMs after a whole read came back, however slow, so tracked frames come between', () => {
    const reads = new SortWholeReads(tuning);
    expect(reads.take(0)).toBe(true);
    // That read took 1.9 s (a slow machine, a crowded sort): the next frame is no whole read.
    reads.finished(1900);
    reads.observed(1900, false);
    expect(reads.take(1933)).toBe(false);
    expect(reads.take(2199)).toBe(false);
    expect(reads.take(2200)).toBe(true);
    // A quick one (400 ms) leaves minGapMs in charge.
    reads.finished(2600);
    expect(reads.take(3199)).toBe(false);
    expect(reads.take(3200)).toBe(true);
    // A new sort forgets the rest.
    reads.finished(9000);
    reads.reset();
    expect(reads.take(3300)).toBe(true);
  });

  it('never marks a frame whole while a whole read is still running (a live table offers frames during it)', () => {
    const reads = new SortWholeReads(tuning);
    expect(reads.take(0)).toBe(true);
    // Frames keep coming while the 2.1 s read runs: none is read whole, however long past minGapMs.
    for (let t = 33; t < 2100; t += 33) expect(reads.take(t)).toBe(false);
    reads.finished(2100);
    reads.observed(2100, false);
    expect(reads.take(2399)).toBe(false);
    expect(reads.take(2400)).toBe(true);
    // A whole read that never comes back holds the next for inFlightLimitMs only.
    expect(reads.take(2400 + 7999)).toBe(false);
    expect(reads.take(2400 + 8000)).toBe(true);
    // A new sort forgets a read still running.
    reads.reset();
    expect(reads.take(10_500)).toBe(true);
  });
});
