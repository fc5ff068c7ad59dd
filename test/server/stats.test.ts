import { describe, expect, it } from 'vitest';
import { LatencyHistogram, PipelineCounters } from '../../server/tables/stats';

describe('pipeline latency since the table opened', () => {
  it('gives percentiles to the millisecond over any number of frames', () => {
    const h = new LatencyHistogram();
    for (let ms = 1; ms <= 1000; ms++) h.add(ms);
    expect(LatencyHistogram.quantile(0.5, h)).toBe(501);
    expect(LatencyHistogram.quantile(0.95, h)).toBe(951);
    expect(LatencyHistogram.quantile(0.5, new LatencyHistogram())).toBe(0);
    // Beyond the range: counted in the last bin, not lost.
    const slow = new LatencyHistogram();
    slow.add(60_000);
    expect(LatencyHistogram.quantile(0.5, slow)).toBe(10_001);
  });

  it('keeps play frames, the sort\'s frames and whole reads apart, and all frames since the start, not only the latest 200', () => {
    const counters = new PipelineCounters();
    // A hand of fast play frames, then the score sort: slower frames and a few whole reads.
    for (let i = 0; i < 900; i++) counters.processed(40);
    for (let i = 0; i < 300; i++) counters.processed(i % 10 === 0 ? 400 : 90, i % 10 === 0 ? 'whole' : 'sort');
    const stats = counters.snapshot();
    // The window of the latest 200 frames sees only the sort.
    expect(stats.p50Ms).toBe(90);
    expect(stats.session).toEqual({ p50Ms: 40, p95Ms: 90, playFrames: 900, playP50Ms: 40, playP95Ms: 40, sortFrames: 270, sortP50Ms: 90, sortP95Ms: 90, wholeReads: 30, wholeReadP95Ms: 400 });
  });
});
