/**
 * Pipeline counters of one table: frames received, processed, dropped (latest frame wins),
 * rejected, processing rate and latency percentiles (receipt → observations, ms).
 */
import type { PipelineStats } from '../protocol';

const LATENCY_WINDOW = 200;
const FPS_WINDOW_MS = 3000;

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
  /** A frame came back from the recogniser after `latencyMs` (ms). */
  processed(latencyMs: number): void {
    this.framesProcessed += 1;
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
    };
  }
}
