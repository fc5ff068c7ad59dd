/**
 * Benchmark of the simulated players (no rendering): `npx tsx server/sim/bots/bench.ts [--hands N]`.
 * For 2–6 players it plays N seeded hands and reports simulated hands per second (single
 * process), hand length in simulated seconds, plays, foundation plays and disputes per hand, how
 * hands end, and the cost of building one scene. Progress on stderr; the last stdout line is JSON.
 */
import { parseArgs } from 'node:util';
import { simulateHand } from './engine';
import { HandTimeline } from '../timeline';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

function main(): void {
  const { values } = parseArgs({ options: { hands: { type: 'string' }, variant: { type: 'string' } } });
  const hands = Number(values.hands ?? 40);
  if (!Number.isInteger(hands) || hands < 1) {
    process.stderr.write('bench: --hands must be a positive integer\n');
    process.exit(2);
  }
  const variant = (values.variant ?? 'nertz') as 'nertz';
  const results: Record<string, unknown> = {};
  for (let players = 2; players <= 6; players++) {
    const lengths: number[] = [];
    const moves: number[] = [];
    const foundationPlays: number[] = [];
    const disputes: number[] = [];
    const abandoned: number[] = [];
    const rotations: number[] = [];
    const ends: Record<string, number> = {};
    const started = performance.now();
    for (let seed = 1; seed <= hands; seed++) {
      const h = simulateHand({ players, seed, variant });
      lengths.push(h.truth.endMs / 1000);
      moves.push(h.truth.plays.filter((p) => p.move.type !== 'turn-stock').length);
      foundationPlays.push(h.truth.plays.filter((p) => p.move.type === 'to-foundation').length);
      disputes.push(h.truth.disputes.length);
      abandoned.push(h.truth.abandoned);
      rotations.push(h.truth.rotations.length);
      ends[h.truth.endReason] = (ends[h.truth.endReason] ?? 0) + 1;
    }
    const seconds = (performance.now() - started) / 1000;
    // Scene building cost (what the live feed pays per frame before rendering).
    const sample = simulateHand({ players, seed: 1, variant });
    const timeline = new HandTimeline(sample.timeline);
    const sceneStart = performance.now();
    let scenes = 0;
    for (let t = 0; t < timeline.durationMs; t += 1000 / 15) {
      timeline.sceneAt(t);
      scenes++;
    }
    const sceneMs = (performance.now() - sceneStart) / scenes;
    results[players] = {
      handsPerSecond: round(hands / seconds, 2),
      handSecondsMedian: round(median(lengths)),
      handSecondsMean: round(mean(lengths)),
      handSecondsMin: round(Math.min(...lengths)),
      handSecondsMax: round(Math.max(...lengths)),
      movesPerHand: round(mean(moves)),
      foundationPlaysPerHand: round(mean(foundationPlays)),
      disputesPerHand: round(mean(disputes), 2),
      abandonedPerHand: round(mean(abandoned), 2),
      rotationsPerHand: round(mean(rotations), 2),
      ends,
      sceneMsPerFrame: round(sceneMs, 3),
    };
    process.stderr.write(`${players} players: ${JSON.stringify(results[players])}\n`);
  }
  process.stdout.write(`${JSON.stringify({ benchmark: 'sim-bots', variant, handsPerPlayerCount: hands, results })}\n`);
}

main();
