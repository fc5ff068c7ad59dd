/**
 * Pipeline counters of one table: frames received, processed, dropped (latest frame wins),
 * rejected, processing rate and latency percentiles (receipt → observations, ms): over the latest
 * frames for the dashboard, and since the table opened, play frames and whole reads (the score
 * sort's) apart, for benchmarks.
 */
import type { PipelineStats } from '../protocol';

const LATENCY_WINDOW = 200;
const FPS_WINDOW_MS = 3000;

/**
 * Latencies since the start in 1 ms bins up to 10 s (and one bin beyond): percentiles over any
 * number of frames in fixed memory.
 */
export class LatencyHistogram {
  private static readonly MAX_MS = 10_000;
  private readonly bins = new Uint32Array(LatencyHistogram.MAX_MS + 2);
  count = 0;

  add(latencyMs: number): void {
    const bin = Math.min(LatencyHistogram.MAX_MS + 1, Math.max(0, Math.round(latencyMs)));
    this.bins[bin] += 1;
    this.count += 1;
  }

  /** The q-quantile (0–1) of `histograms` together, ms (to the bin); 0 when empty. */
  static quantile(q: number, ...histograms: LatencyHistogram[]): number {
    const total = histograms.reduce((sum, h) => sum + h.count, 0);
    if (total === 0) return 0;
    const rank = Math.min(total - 1, Math.floor(q * total));
    let seen = 0;
    for (let bin = 0; bin < LatencyHistogram.MAX_MS + 2; bin++) {
      for (const h of histograms) seen += h.bins[bin];
      if (seen > rank) return bin;
    }
    return LatencyHistogram.MAX_MS + 1;
  }
}

/** What a processed frame was: read during play, in the score sort as usual, or read whole. */
export type FrameKind = 'play' | 'sort' | 'whole';

/** Mutable counters; `snapshot()` gives the protocol's PipelineStats. */
export class PipelineCounters {
  private framesReceived = 0;
  private framesProcessed = 0;
  private framesDropped = 0;
  private framesRejected = 0;
  private framesFailed = 0;
  private viewerMessagesSkipped = 0;
  private readonly latencies: number[] = [];
  private readonly processedAt: number[] = [];
  private readonly playLatencies = new LatencyHistogram();
  private readonly sortLatencies = new LatencyHistogram();
  private readonly wholeReadLatencies = new LatencyHistogram();

  received(): void {
    this.framesReceived += 1;
  }
  dropped(count: number): void {
    this.framesDropped += count;
  }
  rejected(): void {
    this.framesRejected += 1;
  }
  failed(): void {
    this.framesFailed += 1;
  }
  viewerSkipped(): void {
    this.viewerMessagesSkipped += 1;
  }
  /**
   * A frame came back from the recogniser after `latencyMs` (ms): a frame of play, a frame of
   * the score sort (after the call) read as usual, or one read whole (RecognizeOptions.everyCard).
   */
  processed(latencyMs: number, kind: FrameKind = 'play'): void {
    this.framesProcessed += 1;
    (kind === 'whole' ? this.wholeReadLatencies : kind === 'sort' ? this.sortLatencies : this.playLatencies).add(latencyMs);
    this.latencies.push(latencyMs);
    if (this.latencies.length > LATENCY_WINDOW) this.latencies.shift();
    const now = performance.now();
    this.processedAt.push(now);
    while (this.processedAt.length > 0 && now - this.processedAt[0] > FPS_WINDOW_MS) this.processedAt.shift();
  }

  /** Counters now. */
  snapshot(): PipelineStats & { framesFailed: number; viewerMessagesSkipped: number } {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const pick = (q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
    const now = performance.now();
    const recent = this.processedAt.filter((t) => now - t <= FPS_WINDOW_MS);
    const span = recent.length > 1 ? (recent[recent.length - 1] - recent[0]) / 1000 : 0;
    return {
      framesReceived: this.framesReceived,
      framesProcessed: this.framesProcessed,
      framesDropped: this.framesDropped,
      framesRejected: this.framesRejected,
      framesFailed: this.framesFailed,
      viewerMessagesSkipped: this.viewerMessagesSkipped,
      fps: span > 0 ? Math.round(((recent.length - 1) / span) * 10) / 10 : 0,
      p50Ms: Math.round(pick(0.5) * 10) / 10,
      p95Ms: Math.round(pick(0.95) * 10) / 10,
      session: {
        p50Ms: LatencyHistogram.quantile(0.5, this.playLatencies, this.sortLatencies, this.wholeReadLatencies),
        p95Ms: LatencyHistogram.quantile(0.95, this.playLatencies, this.sortLatencies, this.wholeReadLatencies),
        playFrames: this.playLatencies.count,
        playP50Ms: LatencyHistogram.quantile(0.5, this.playLatencies),
        playP95Ms: LatencyHistogram.quantile(0.95, this.playLatencies),
        sortFrames: this.sortLatencies.count,
        sortP50Ms: LatencyHistogram.quantile(0.5, this.sortLatencies),
        sortP95Ms: LatencyHistogram.quantile(0.95, this.sortLatencies),
        wholeReads: this.wholeReadLatencies.count,
        wholeReadP95Ms: LatencyHistogram.quantile(0.95, this.wholeReadLatencies),
      },
    };
  }
}
