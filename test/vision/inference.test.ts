/**
 * runCnn: a batch split between this thread and a helper reads exactly as on this thread alone,
 * whatever the helper does (answers, never gets to it, is already on it, fails).
 */
import { describe, expect, it } from 'vitest';
import {
  helperShare,
  IMAGE_FLOATS,
  MIN_SPLIT_IMAGES,
  runCnn,
  runLocate,
  type CnnBatch,
  type HelpJob,
  type Helper,
  type HelpResults,
  type HelpTicket,
  type LocatePart,
  type RunCnn,
  type RunLocate,
} from '../../server/vision/inference';

/** A stand-in model: each image's heads are its first float and its float sum (widths 1 and 1). */
const fakeModel: RunCnn = async (batch) => {
  const size = IMAGE_FLOATS[batch.model];
  const first = new Float32Array(batch.images);
  const sum = new Float32Array(batch.images);
  for (let i = 0; i < batch.images; i++) {
    first[i] = batch.data[i * size];
    for (let j = 0; j < size; j++) sum[i] += batch.data[i * size + j];
  }
  return { heads: [first, sum], widths: [1, 1] };
};

/** The fake model on each batch. */
const readEach = (batches: CnnBatch[]) => Promise.all(batches.map(fakeModel));

/** Counts how many images each call to `run` read here. */
function counted(run: RunCnn): RunCnn & { calls: number[] } {
  const calls: number[] = [];
  return Object.assign(async (batch: CnnBatch) => {
    calls.push(batch.images);
    return run(batch);
  }, { calls });
}

function batchOf(images: number): CnnBatch {
  const size = IMAGE_FLOATS.index;
  const data = new Float32Array(images * size);
  for (let i = 0; i < images; i++) data.fill(i + 1, i * size, (i + 1) * size);
  return { model: 'index', data, images, turned: false };
}

/** A helper of CNN batches whose behaviour each test picks; `offered` records the batches it was given. */
function helper(behave: (batches: CnnBatch[]) => HelpTicket<unknown>): Helper & { offered: CnnBatch[] } {
  const offered: CnnBatch[] = [];
  return {
    offered,
    offer<J extends HelpJob>(job: J) {
      if (job.kind !== 'cnn') throw new Error('only CNN batches expected');
      offered.push(...job.batches);
      return behave(job.batches) as HelpTicket<HelpResults[J['kind']]>;
    },
  };
}

const never = new Promise<never>(() => {});

describe('runCnn', () => {
  it('reads the whole batch here without a helper, or when the helper has no one free', async () => {
    const local = counted(fakeModel);
    const alone = await runCnn(local, null, [batchOf(6)]);
    const none = await runCnn(local, { offer: () => null }, [batchOf(6)]);
    expect(local.calls).toEqual([6, 6]);
    expect(none).toEqual(alone);
  });

  it('never offers a batch too small to gain from it', async () => {
    const local = counted(fakeModel);
    const busy = helper(() => ({ result: never, reclaim: () => true }));
    await runCnn(local, busy, [batchOf(MIN_SPLIT_IMAGES - 1)]);
    expect(busy.offered).toHaveLength(0);
  });

  it('reads the first half here and takes the second from a helper that answers', async () => {
    const local = counted(fakeModel);
    const willing = helper((batches) => ({ result: readEach(batches), reclaim: () => false }));
    const split = await runCnn(local, willing, [batchOf(7)]);
    expect(local.calls).toEqual([4]);
    expect(willing.offered.map((b) => b.images)).toEqual([3]);
    expect(split).toEqual([await fakeModel(batchOf(7))]);
  });

  it('offers the halves of several batches at once, leaving small ones here, and keeps their order', async () => {
    const local = counted(fakeModel);
    const willing = helper((batches) => ({ result: readEach(batches), reclaim: () => false }));
    const small = batchOf(MIN_SPLIT_IMAGES - 1);
    const read = await runCnn(local, willing, [batchOf(8), small, batchOf(5)]);
    expect(willing.offered.map((b) => b.images)).toEqual([4, 2]);
    expect(local.calls).toEqual([4, MIN_SPLIT_IMAGES - 1, 3]);
    expect(read).toEqual([await fakeModel(batchOf(8)), await fakeModel(small), await fakeModel(batchOf(5))]);
  });

  it('takes the batch back from a helper that has not started on it, and reads it here', async () => {
    const local = counted(fakeModel);
    let reclaimed = false;
    const stuck = helper(() => ({
      result: never,
      reclaim: () => {
        reclaimed = true;
        return true;
      },
    }));
    const split = await runCnn(local, stuck, [batchOf(6)]);
    expect(reclaimed).toBe(true);
    expect(local.calls).toEqual([3, 3]);
    expect(split).toEqual([await fakeModel(batchOf(6))]);
  });

  it('waits for a helper that is already reading the batch', async () => {
    const local = counted(fakeModel);
    const slow = helper((batches) => ({ result: new Promise((resolve) => setTimeout(() => resolve(readEach(batches)), 30)), reclaim: () => false }));
    const split = await runCnn(local, slow, [batchOf(6)]);
    expect(local.calls).toEqual([3]);
    expect(split).toEqual([await fakeModel(batchOf(6))]);
  });

  it('reads the rest here when the helper fails', async () => {
    const local = counted(fakeModel);
    const failing = helper(() => ({ result: Promise.reject(new Error('helper went away')), reclaim: () => false }));
    const split = await runCnn(local, failing, [batchOf(5)]);
    expect(local.calls).toEqual([3, 2]);
    expect(split).toEqual([await fakeModel(batchOf(5))]);
  });
});

/** A stand-in localiser: one "card" per part, its support the part's pixel count. */
const fakeLocate: RunLocate = async (parts) =>
  parts.map((part) => [{ corners: [[0, 0], [1, 0], [1, 1], [0, 1]], source: 'single' as const, support: part.image.width * part.image.height }]);

function partOf(width: number): LocatePart {
  return { image: { data: new Uint8Array(width * 10 * 3), width, height: 10 }, options: {} };
}

describe('runLocate', () => {
  it('gives a helper about half the pixels, largest regions first', () => {
    expect(helperShare([partOf(50), partOf(10), partOf(40), partOf(20)])).toEqual([2, 3]);
    expect(helperShare([partOf(50)])).toEqual([]);
  });

  it('finds the same cards in the same order whether a helper answers, is never free, or fails', async () => {
    const parts = [partOf(50), partOf(10), partOf(40), partOf(20)];
    const alone = await fakeLocate(parts);
    const answers: Helper = {
      offer: <J extends HelpJob>(job: J) => ({ result: fakeLocate((job as Extract<HelpJob, { kind: 'locate' }>).parts), reclaim: () => false }) as HelpTicket<HelpResults[J['kind']]>,
    };
    const stuck: Helper = { offer: () => ({ result: never, reclaim: () => true }) };
    const failing: Helper = { offer: () => ({ result: Promise.reject(new Error('gone')), reclaim: () => false }) };
    for (const h of [null, answers, stuck, failing]) expect(await runLocate(fakeLocate, h, parts)).toEqual(alone);
  });

  it('searches a single region here', async () => {
    let offered = 0;
    const counting: Helper = {
      offer: () => {
        offered += 1;
        return null;
      },
    };
    await runLocate(fakeLocate, counting, [partOf(30)]);
    expect(offered).toBe(0);
  });
});
