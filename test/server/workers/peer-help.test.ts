/**
 * Peer help over real message ports (both ends on this thread): offers reach the helper and
 * come back, a busy peer is not asked, a batch taken back is never read by the helper, and a
 * helper that goes away fails its pending batches instead of leaving them hanging.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { IMAGE_FLOATS, runCnn, runLocate, type CnnBatch, type LocatePart, type RunCnn, type RunLocate } from '../../../server/vision/inference';
import { PeerHelpers, serveHelp } from '../../../server/workers/peer-help';

const doubled: RunCnn = async (batch) => {
  const size = IMAGE_FLOATS[batch.model];
  const first = Float32Array.from({ length: batch.images }, (_, i) => batch.data[i * size] * 2);
  return { heads: [first, new Float32Array(batch.images)], widths: [1, 1] };
};

function batchOf(images: number): CnnBatch {
  const size = IMAGE_FLOATS.identity;
  const data = new Float32Array(images * size);
  for (let i = 0; i < images; i++) data[i * size] = i + 1;
  return { model: 'identity', data, images, turned: false };
}

const cnnJob = (images: number) => ({ kind: 'cnn' as const, batches: [batchOf(images)] });

/** A stand-in localiser: one "card" per part, its support the part's first pixel value. */
const fakeLocate: RunLocate = async (parts) =>
  parts.map((part) => [{ corners: [[0, 0], [1, 0], [1, 1], [0, 1]], source: 'single' as const, support: part.image.data[0] }]);

function partOf(value: number, width = 10): LocatePart {
  return { image: { data: new Uint8Array(width * 10 * 3).fill(value), width, height: 10 }, options: { scale: 1 } };
}

describe('peer help', () => {
  const open: MessagePort[] = [];
  afterEach(() => {
    for (const port of open.splice(0)) port.close();
  });

  /** An owner joined to one helper (worker 1) that reads with `run`; `reads` counts its batches. */
  function pair(run: RunCnn, busy?: Int32Array) {
    const { port1, port2 } = new MessageChannel();
    open.push(port1, port2);
    const reads: number[] = [];
    const desk = {
      cnn: async (): Promise<RunCnn> => async (batch) => {
        reads.push(batch.images);
        return run(batch);
      },
      locate: async () => fakeLocate,
    };
    serveHelp(port2, desk, { busy, self: 1 });
    const helpers = new PeerHelpers(busy);
    helpers.addPeer(1, port1);
    return { helpers, reads, helperPort: port2 };
  }

  it('sends an offer to the helper and gets its reading back', async () => {
    const { helpers, reads } = pair(doubled);
    const ticket = helpers.offer(cnnJob(3))!;
    const [{ heads }] = await ticket.result;
    expect(Array.from(heads[0])).toEqual([2, 4, 6]);
    expect(reads).toEqual([3]);
    expect(ticket.reclaim()).toBe(false);
    expect(helpers.stats).toMatchObject({ offered: 1, answered: 1, reclaimed: 0, failed: 0 });
  });

  it('does not offer work to a busy peer', () => {
    const busy = new Int32Array(new SharedArrayBuffer(8));
    const { helpers } = pair(doubled, busy);
    Atomics.store(busy, 1, 1);
    expect(helpers.offer(cnnJob(2))).toBeNull();
    Atomics.store(busy, 1, 0);
    expect(helpers.offer(cnnJob(2))).not.toBeNull();
  });

  it('leaves an offer that reaches a busy helper for its owner to take back', async () => {
    const busy = new Int32Array(new SharedArrayBuffer(8));
    const { helpers, reads } = pair(doubled, busy);
    const ticket = helpers.offer(cnnJob(2))!;
    // The helper started its own work after the offer was made.
    Atomics.store(busy, 1, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reads).toEqual([]);
    expect(ticket.reclaim()).toBe(true);
  });

  it('never reads a batch its owner took back first', async () => {
    const { helpers, reads } = pair(doubled);
    const ticket = helpers.offer(cnnJob(2))!;
    // Taken back before the helper's thread got to the message.
    expect(ticket.reclaim()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reads).toEqual([]);
    expect(helpers.stats).toMatchObject({ offered: 1, answered: 0, reclaimed: 1 });
  });

  it('fails pending batches when the helper goes away, and stops offering to it', async () => {
    const { helpers, helperPort } = pair(() => new Promise(() => {}));
    const ticket = helpers.offer(cnnJob(2))!;
    await new Promise((resolve) => setTimeout(resolve, 10)); // the helper takes it, then its port closes
    helperPort.close();
    await expect(ticket.result).rejects.toThrow('helper went away');
    expect(helpers.peerCount).toBe(0);
    expect(helpers.stats.failed).toBe(1);
    expect(helpers.offer(cnnJob(2))).toBeNull();
  });

  it('reads a split batch exactly as one thread would', async () => {
    const { helpers } = pair(doubled);
    const local: RunCnn = doubled;
    expect(await runCnn(local, helpers, [batchOf(9), batchOf(4)])).toEqual([await doubled(batchOf(9)), await doubled(batchOf(4))]);
    expect(helpers.stats.offered).toBe(1); // both batches' halves in one offer
  });

  it('localises changed regions split between the threads as one thread would, in order', async () => {
    const { helpers } = pair(doubled);
    const parts = [partOf(1, 40), partOf(2, 10), partOf(3, 30), partOf(4, 20)];
    expect(await runLocate(fakeLocate, helpers, parts)).toEqual(await fakeLocate(parts));
    // Read there, or taken back when the helper's thread (this one, here) had not got to it yet.
    expect(helpers.stats.offered).toBe(1);
    expect(helpers.stats.answered + helpers.stats.reclaimed).toBe(1);
  });
});
