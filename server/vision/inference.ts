/**
 * Where the CNNs run. A recogniser reads a batch of crops on its own thread, or, when another
 * recognition worker is idle (a "helper"), it hands the second half of the batch to that thread
 * and reads the first half itself, so one table's frame uses both cores.
 *
 * The helper may be busy with its own table's frame and never get to the batch in time. So a
 * batch offered to a helper is only *offered*: once the recogniser has read its own half and
 * the helper's answer is not in yet, it takes the batch back (`reclaim`) unless the helper has
 * already started on it, and reads it itself. Which thread read a batch never changes the
 * result (the same weights, the same images).
 *
 * Pure orchestration: the threads and message ports live in server/workers/peer-help.ts.
 */
import { CROP_HEIGHT, CROP_WIDTH, INDEX_HEIGHT, INDEX_WIDTH } from './classes';

/** The two CNNs a batch may be for. */
export type CnnModelName = 'identity' | 'index';

/** Floats per input image of each model. */
export const IMAGE_FLOATS: Record<CnnModelName, number> = {
  identity: CROP_WIDTH * CROP_HEIGHT * 3,
  index: INDEX_WIDTH * INDEX_HEIGHT * 3,
};

/** A batch of packed input images for one model. */
export interface CnnBatch {
  model: CnnModelName;
  /** `images` images, row-major [images, H, W, 3], float 0..1 (may be longer: the rest is unused). */
  data: Float32Array;
  images: number;
  /** Read each image turned 180 degrees (identity model only). */
  turned: boolean;
}

/**
 * A model's two output heads for a batch, row-major, one row per image: identity → class
 * probabilities and raw embeddings; index → rank and suit probabilities.
 */
export interface CnnHeads {
  heads: [Float32Array, Float32Array];
  widths: [number, number];
}

/** Runs a batch on this thread. */
export type RunCnn = (batch: CnnBatch) => Promise<CnnHeads>;

/** A batch offered to a helper thread. */
export interface HelpTicket {
  /** The helper's outputs; rejects when the helper went away or failed. */
  readonly result: Promise<CnnHeads>;
  /** Takes the batch back if the helper has not started on it yet: true when taken back. */
  reclaim(): boolean;
}

/** Another thread that may read part of a batch. */
export interface CnnHelper {
  /** Offers a batch; null when no helper is free now (the caller reads it all itself). */
  offer(batch: CnnBatch): HelpTicket | null;
}

/**
 * A batch smaller than this is read on this thread alone. Measured on wasm: a call costs about
 * 1 ms plus 1.7 ms an image, and a round trip to a helper about 1 ms more; a batch of 2 split
 * took 5.4 ms against 4.0 ms read here.
 */
export const MIN_SPLIT_IMAGES = 4;

/** Images `from`..`to` of a batch (a copy: it may be transferred to another thread). */
export function sliceBatch(batch: CnnBatch, from: number, to: number): CnnBatch {
  const size = IMAGE_FLOATS[batch.model];
  return { ...batch, data: batch.data.slice(from * size, to * size), images: to - from };
}

/** Two readings of consecutive parts of a batch, as one. */
export function concatHeads(first: CnnHeads, second: CnnHeads): CnnHeads {
  const join = (a: Float32Array, b: Float32Array) => {
    const out = new Float32Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  };
  const widths = first.heads[0].length > 0 ? first.widths : second.widths;
  return { heads: [join(first.heads[0], second.heads[0]), join(first.heads[1], second.heads[1])], widths };
}

/** Lets the event loop deliver messages that are already waiting (a helper's answer). */
function nextTurn(): Promise<'turn'> {
  return new Promise((resolve) => setImmediate(() => resolve('turn')));
}

/**
 * Reads a batch: half with a free helper when there is one and the batch is big enough, the
 * rest (or all) here. A helper that fails or disappears costs time, never a result: its half is
 * read here then.
 */
export async function runCnn(local: RunCnn, helper: CnnHelper | null, batch: CnnBatch): Promise<CnnHeads> {
  const theirs = batch.images >= MIN_SPLIT_IMAGES && helper ? Math.floor(batch.images / 2) : 0;
  const split = batch.images - theirs;
  // The offer is a copy (it may be transferred to the helper's thread); our own half and, if
  // the helper cannot take it, the rest are read from the caller's buffer.
  const ticket = theirs > 0 ? helper!.offer(sliceBatch(batch, split, batch.images)) : null;
  if (!ticket) return local(batch);
  const size = IMAGE_FLOATS[batch.model];
  const part = (from: number, to: number): CnnBatch => ({ ...batch, data: batch.data.subarray(from * size, to * size), images: to - from });
  // Observe a failure now so it never surfaces as an unhandled rejection while we read our half.
  const answer = ticket.result.then(
    (heads) => ({ heads }),
    () => ({ heads: null }),
  );
  const mine = await local(part(0, split));
  let settled = await Promise.race([answer, nextTurn()]);
  if (settled === 'turn') settled = ticket.reclaim() ? { heads: null } : await answer;
  return concatHeads(mine, settled.heads ?? (await local(part(split, batch.images))));
}
