/**
 * The training learning-rate schedule: one warm-up epoch at a third of `lr`, then cosine decay to
 * lr/20 at `lastEpoch`. `firstEpoch` is 1 for a run from scratch; a warm restart (fine-tuning from
 * a checkpoint) starts a new schedule at the epoch after the checkpoint.
 */
export function learningRate(epoch: number, lr: number, firstEpoch: number, lastEpoch: number): number {
  if (epoch === firstEpoch) return lr / 3;
  const progress = (epoch - firstEpoch) / Math.max(1, lastEpoch - firstEpoch);
  return lr * (0.05 + 0.95 * 0.5 * (1 + Math.cos(Math.PI * progress)));
}
