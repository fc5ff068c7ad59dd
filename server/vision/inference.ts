/**
 * Work a recogniser may share with another thread. A recogniser reads a batch of crops (or
 * localises cards in a few changed regions) on its own thread, or, when another recognition
 * worker is idle (a "helper"), it hands part of the work to that thread and does the rest
 * itself, so one table's frame uses both cores.
 *
 * The helper may be busy with its own table's frame and never get to the work in time. So work
 * offered to a helper is only *offered*: once the recogniser has done its own part and the
 * helper's answer is not in yet, it takes the work back (`reclaim`) unless the helper has
 * already started on it, and does it itself. Which thread did a part never changes the result
 * (the same weights, the same images, the same code).
 *
 * Pure orchestration: the threads and message ports live in server/workers/peer-help.ts.
 */
import { CROP_HEIGHT, CROP_WIDTH, INDEX_HEIGHT, INDEX_WIDTH } from './classes';
import type { RgbImage } from './crop';
import type { LocatedCard, LocateOptions } from './locate';

/** The CNNs a batch may be for: whole card and index corners, full size or live size (same inputs). */
export type CnnModelName = 'identity' | 'index' | 'identity-live' | 'index-live';

/** Floats per input image of each model. */
export const IMAGE_FLOATS: Record<CnnModelName, number> = {
  identity: CROP_WIDTH * CROP_HEIGHT * 3,
  index: INDEX_WIDTH * INDEX_HEIGHT * 3,
  'identity-live': CROP_WIDTH * CROP_HEIGHT * 3,
  'index-live': INDEX_WIDTH * INDEX_HEIGHT * 3,
};

/** A batch of packed input images for one model. */
export interface CnnBatch {
  model: CnnModelName;
  /** `images` images, row-major [images, H, W, 3], float 0..1 (may be longer: the rest is unused). */
  data: Float32Array;
  images: number;
  /** Read each image turned 180 degrees (identity models only). */
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

/** An image part (a changed region of a frame) for the classical localiser, with its options. */
export interface LocatePart {
  image: RgbImage;
  options: LocateOptions;
}

/** Runs the classical localiser on each part, on this thread: the cards found in each. */
export type RunLocate = (parts: LocatePart[]) => Promise<LocatedCard[][]>;

/** Work a helper may be offered: CNN batches (read one after another), or localiser parts. */
export type HelpJob = { kind: 'cnn'; batches: CnnBatch[] } | { kind: 'locate'; parts: LocatePart[] };

/** What each kind of job gives back. */
export interface HelpResults {
  cnn: CnnHeads[];
  locate: LocatedCard[][];
}

/** Work offered to a helper thread. */
export interface HelpTicket<T> {
  /** The helper's result; rejects when the helper went away or failed. */
  readonly result: Promise<T>;
  /** Takes the work back if the helper has not started on it yet: true when taken back. */
  reclaim(): boolean;
}

/** Another thread that may do part of the work. */
export interface Helper {
  /** Offers a job; null when no helper is free now (the caller does it all itself). */
  offer<J extends HelpJob>(job: J): HelpTicket<HelpResults[J['kind']]> | null;
}

/** Lets the event loop deliver messages that are already waiting (a helper's answer). */
function nextTurn(): Promise<'turn'> {
  return new Promise((resolve) => setImmediate(() => resolve('turn')));
}

/**
 * Once our own part is done: the helper's result if it is in (or on its way: the helper has
 * started), else the work taken back and done here. A helper that fails costs time, never a
 * result: its part is done here then.
 */
async function settle<T>(ticket: HelpTicket<T>, answer: Promise<{ value: T | null }>, doHere: () => Promise<T>): Promise<T> {
  let settled = await Promise.race([answer, nextTurn()]);
  if (settled === 'turn') settled = ticket.reclaim() ? { value: null } : await answer;
  return settled.value ?? (await doHere());
}

/** A ticket's result as a promise that never rejects (null: failed), observed from the start. */
function answerOf<T>(ticket: HelpTicket<T>): Promise<{ value: T | null }> {
  return ticket.result.then(
    (value) => ({ value }),
    () => ({ value: null }),
  );
}

// ------------------------------------------------------------------ CNN batches

/**
 * A batch smaller than this is read on this thread alone. Measured on wasm: a call costs about
 * 1 ms plus 1.7 ms an image, and a round trip to a helper about 1 ms more; a batch of 2 split
 * took 5.4 ms against 4.0 ms read here.
 */
export const MIN_SPLIT_IMAGES = 4;

/** Images `from`..`to` of a batch: a view of its buffer, or (`copy`) a copy that may be transferred to another thread. */
export function batchPart(batch: CnnBatch, from: number, to: number, copy = false): CnnBatch {
  const size = IMAGE_FLOATS[batch.model];
  const data = batch.data.subarray(from * size, to * size);
  return { ...batch, data: copy ? data.slice() : data, images: to - from };
}

/** Reads batches one after another with `run`. */
export async function runEach(run: RunCnn, batches: CnnBatch[]): Promise<CnnHeads[]> {
  const heads: CnnHeads[] = [];
  for (const batch of batches) heads.push(await run(batch));
  return heads;
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

/**
 * Reads batches (independent of each other, for one or both models): the second half of each
 * batch big enough with a free helper, in one offer (one round trip), the rest (or all) here.
 */
export async function runCnn(local: RunCnn, helper: Helper | null, batches: CnnBatch[]): Promise<CnnHeads[]> {
  const splits = batches.map((batch) => (helper && batch.images >= MIN_SPLIT_IMAGES ? batch.images - Math.floor(batch.images / 2) : batch.images));
  const shared = batches.map((_, k) => k).filter((k) => splits[k] < batches[k].images);
  // The offer holds copies (they may be transferred to the helper's thread); our own halves and,
  // if the helper cannot take them, the rest are read from the callers' buffers.
  const ticket = shared.length > 0 ? helper!.offer({ kind: 'cnn', batches: shared.map((k) => batchPart(batches[k], splits[k], batches[k].images, true)) }) : null;
  if (!ticket) return runEach(local, batches);
  const answer = answerOf(ticket);
  const mine = await runEach(local, batches.map((batch, k) => batchPart(batch, 0, splits[k])));
  const theirs = await settle(ticket, answer, () => runEach(local, shared.map((k) => batchPart(batches[k], splits[k], batches[k].images))));
  return mine.map((heads, k) => (shared.includes(k) ? concatHeads(heads, theirs[shared.indexOf(k)]) : heads));
}

// ------------------------------------------------------------------ localiser parts

/**
 * Which parts a helper gets: the largest first to whichever side has fewer pixels so far, so the
 * two sides take about as long. Returns the helper's part indices (the rest stay here).
 */
export function helperShare(parts: readonly LocatePart[]): number[] {
  const order = parts.map((_, i) => i).sort((a, b) => pixels(parts[b]) - pixels(parts[a]));
  let here = 0;
  let there = 0;
  const theirs: number[] = [];
  for (const i of order) {
    if (here <= there) here += pixels(parts[i]);
    else {
      there += pixels(parts[i]);
      theirs.push(i);
    }
  }
  return theirs.sort((a, b) => a - b);
}

function pixels(part: LocatePart): number {
  return part.image.width * part.image.height;
}

/** Localises cards in each part: some parts with a free helper when there are two or more, the rest here. */
export async function runLocate(local: RunLocate, helper: Helper | null, parts: LocatePart[]): Promise<LocatedCard[][]> {
  const theirs = parts.length >= 2 && helper ? helperShare(parts) : [];
  // Their images are copies (they may be transferred); ours and any taken back are read in place.
  const offered = theirs.map((i) => ({ ...parts[i], image: { ...parts[i].image, data: parts[i].image.data.slice() } }));
  const ticket = theirs.length > 0 ? helper!.offer({ kind: 'locate', parts: offered }) : null;
  if (!ticket) return local(parts);
  const answer = answerOf(ticket);
  const mineAt = parts.map((_, i) => i).filter((i) => !theirs.includes(i));
  const mine = await local(mineAt.map((i) => parts[i]));
  const helped = await settle(ticket, answer, () => local(theirs.map((i) => parts[i])));
  const found: LocatedCard[][] = new Array(parts.length);
  mineAt.forEach((i, k) => (found[i] = mine[k]));
  theirs.forEach((i, k) => (found[i] = helped[k]));
  return found;
}
