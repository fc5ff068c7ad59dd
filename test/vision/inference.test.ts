/**
 * runCnn: a batch split between this thread and a helper reads exactly as on this thread alone,
 * whatever the helper does (answers, never gets to it, is already on it, fails).
 */
import { describe, expect, it } from 'vitest';
import { IMAGE_FLOATS, MIN_SPLIT_IMAGES, runCnn, type CnnBatch, type CnnHeads, type CnnHelper, type HelpTicket, type RunCnn } from '../../server/vision/inference';

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

/** A helper whose behaviour each test picks; `offered` records the batches it was given. */
function helper(behave: (batch: CnnBatch) => HelpTicket): CnnHelper & { offered: CnnBatch[] } {
  const offered: CnnBatch[] = [];
  return {
    offered,
    offer(batch) {
      offered.push(batch);
      return behave(batch);
    },
  };
}

const never = new Promise<CnnHeads>(() => {});

describe('runCnn', () => {
  it('reads the whole batch here without a helper, or when the helper has no one free', async () => {
    const local = counted(fakeModel);
    const alone = await runCnn(local, null, batchOf(6));
    const none = await runCnn(local, { offer: () => null }, batchOf(6));
    expect(local.calls).toEqual([6, 6]);
    expect(none).toEqual(alone);
  });

  it('never offers a batch too small to gain from it', async () => {
    const local = counted(fakeModel);
    const busy = helper(() => ({ result: never, reclaim: () => true }));
    await runCnn(local, busy, batchOf(MIN_SPLIT_IMAGES - 1));
    expect(busy.offered).toHaveLength(0);
  });

  it('reads the first half here and takes the second from a helper that answers', async () => {
    const local = counted(fakeModel);
    const willing = helper((batch) => ({ result: fakeModel(batch), reclaim: () => false }));
    const split = await runCnn(local, willing, batchOf(7));
    expect(local.calls).toEqual([4]);
    expect(willing.offered.map((b) => b.images)).toEqual([3]);
    expect(split).toEqual(await fakeModel(batchOf(7)));
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
    const split = await runCnn(local, stuck, batchOf(6));
    expect(reclaimed).toBe(true);
    expect(local.calls).toEqual([3, 3]);
    expect(split).toEqual(await fakeModel(batchOf(6)));
  });

  it('waits for a helper that is already reading the batch', async () => {
    const local = counted(fakeModel);
    const slow = helper((batch) => ({ result: new Promise((resolve) => setTimeout(() => resolve(fakeModel(batch)), 30)), reclaim: () => false }));
    const split = await runCnn(local, slow, batchOf(6));
    expect(local.calls).toEqual([3]);
    expect(split).toEqual(await fakeModel(batchOf(6)));
  });

  it('reads the rest here when the helper fails', async () => {
    const local = counted(fakeModel);
    const failing = helper(() => ({ result: Promise.reject(new Error('helper went away')), reclaim: () => false }));
    const split = await runCnn(local, failing, batchOf(5));
    expect(local.calls).toEqual([3, 2]);
    expect(split).toEqual(await fakeModel(batchOf(5)));
  });
});
