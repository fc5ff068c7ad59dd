import { afterEach, describe, expect, it } from 'vitest';
import { RecognitionPool, type PendingFrame, type TableSink } from '../../../server/workers/pool';
import { encodeFakeFrame } from '../../../server/vision/fake-recognizer';
import { mergeSkippedLocated, type LocatedFrame } from '../../../server/vision/types';

/** A sink that counts what the pool hands back. */
function countingSink(): TableSink & { delivered: number[]; dropped: number } {
  const sink = {
    delivered: [] as number[],
    dropped: 0,
    onObservations(frame: PendingFrame) {
      sink.delivered.push(frame.seq);
    },
    onDropped(count: number) {
      sink.dropped += count;
    },
    onFailed(_frame: PendingFrame, error: string) {
      throw new Error(`unexpected failure: ${error}`);
    },
  };
  return sink;
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const image = new Uint8Array(encodeFakeFrame([], 64, 36));

describe('RecognitionPool', () => {
  let pool: RecognitionPool | null = null;
  afterEach(async () => {
    await pool?.close();
    pool = null;
  });

  it.each([
    ['', false],
    [' (each table localised on one, read on the other)', true],
  ])('runs every live frame of a table on the same worker, and spreads tables over the workers%s', async (_name, pipeline) => {
    pool = new RecognitionPool({ kind: 'fake', fake: { delayMs: 5, readDelayMs: 2 }, workers: 2, pipeline });
    await pool.backend;
    const sinks = ['a', 'b', 'c', 'd'].map((id) => {
      const sink = countingSink();
      pool!.attach(id, sink);
      return { id, sink };
    });
    expect(sinks.map(({ id }) => pool!.homeOf(id))).toEqual([0, 1, 0, 1]);
    expect(sinks.map(({ id }) => pool!.readerOf(id))).toEqual(pipeline ? [1, 0, 1, 0] : [0, 1, 0, 1]);
    for (let seq = 0; seq < 40; seq += 1) {
      for (const { id } of sinks) pool.offer(id, { seq, image, captureTimeMs: seq * 33, receivedAtMs: performance.now() });
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await until(() => sinks.every(({ sink }) => sink.delivered.length + sink.dropped === 40));
    for (const { id, sink } of sinks) {
      // In capture order, and the reading worker's recogniser for the table saw every one of them.
      expect(sink.delivered).toEqual([...sink.delivered].sort((x, y) => x - y));
      expect(sink.delivered.length).toBeGreaterThan(0);
      const state = (await pool.inspect(id, 'reader')) as { framesSeen: number };
      expect(state.framesSeen).toBe(sink.delivered.length);
    }
    expect(pool.pendingJobCount()).toBe(0);
  });

  it('pipelines a table over two workers: its home localises the next frame while its reader reads one', async () => {
    pool = new RecognitionPool({ kind: 'fake', fake: { delayMs: 10, readDelayMs: 1500 }, workers: 2, pipeline: true, locatedStaleMs: 60_000 });
    await pool.helpStats(); // both workers started
    const sink = countingSink();
    pool.attach('t', sink);
    expect([pool.homeOf('t'), pool.readerOf('t')]).toEqual([0, 1]);
    const located = async () => ((await pool!.inspect('t', 'home')) as { framesLocated: number }).framesLocated;
    const offer = (seq: number) => pool!.offer('t', { seq, image, captureTimeMs: seq * 33, receivedAtMs: performance.now() });
    offer(0);
    let seen = 0;
    const locatedAtLeast = async (count: number) => {
      while (seen < count) {
        seen = await located();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    await locatedAtLeast(1);
    // Frame 0 is being read; 1 is localised meanwhile and waits for the reader; 2 and 3 wait for
    // their turn to be localised (that waits until 1 is handed over), 3 replacing 2.
    offer(1);
    await locatedAtLeast(2);
    expect(sink.delivered).toEqual([]);
    offer(2);
    offer(3);
    await until(() => sink.delivered.length + sink.dropped === 4);
    expect(sink.delivered).toEqual([0, 1, 3]);
    expect(sink.dropped).toBe(1);
    // Each copy of the table's recogniser ran its own stage of every frame read, in order.
    expect(await located()).toBe(3);
    expect(((await pool.inspect('t', 'reader')) as { framesSeen: number }).framesSeen).toBe(3);
    expect(((await pool.inspect('t', 'home')) as { framesSeen: number }).framesSeen).toBe(0);
    expect(pool.pendingJobCount()).toBe(0);
  });

  it.each([
    ['a localised frame gone stale is replaced by the next one localised', false, [0, 3], 2, 4],
    ['a whole read localised is never replaced', true, [0, 1, 3], 1, 3],
  ])('with a pipeline whose reader is slow, %s', async (_name, wholeRead, delivered, dropped, locatedCount) => {
    pool = new RecognitionPool({ kind: 'fake', fake: { delayMs: 10, readDelayMs: 1000 }, workers: 2, pipeline: true, locatedStaleMs: 0 });
    await pool.helpStats(); // both workers started
    const sink = countingSink();
    pool.attach('t', sink);
    const located = async () => ((await pool!.inspect('t', 'home')) as { framesLocated: number }).framesLocated;
    const locatedAtLeast = async (count: number) => {
      while ((await located()) < count) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    const offer = (seq: number) => pool!.offer('t', { seq, image, captureTimeMs: seq * 33, receivedAtMs: performance.now(), ...(seq === 1 && wholeRead ? { everyCard: true } : {}) });
    // 0 is read (a second); 1 is localised and waits; 2 and 3 come while it waits.
    offer(0);
    await locatedAtLeast(1);
    offer(1);
    await locatedAtLeast(2);
    offer(2);
    if (!wholeRead) await locatedAtLeast(3);
    offer(3);
    await until(() => sink.delivered.length + sink.dropped === 4);
    expect(sink.delivered).toEqual(delivered);
    expect(sink.dropped).toBe(dropped);
    expect(await located()).toBe(locatedCount);
    expect(pool.pendingJobCount()).toBe(0);
  });

  it('keeps the newest frame waiting while its worker is busy, counting the ones it replaced', async () => {
    pool = new RecognitionPool({ kind: 'fake', fake: { delayMs: 50 }, workers: 1 });
    await pool.backend;
    const sink = countingSink();
    pool.attach('t', sink);
    for (let seq = 0; seq < 5; seq += 1) pool.offer('t', { seq, image, captureTimeMs: seq, receivedAtMs: performance.now() });
    await until(() => sink.delivered.length + sink.dropped === 5);
    // The first went straight to the worker; 1, 2, 3 were replaced while it worked; 4 ran next.
    expect(sink.delivered).toEqual([0, 4]);
    expect(sink.dropped).toBe(3);
  });

  it('passes a whole read asked of a replaced frame on to the frame that replaces it', async () => {
    pool = new RecognitionPool({ kind: 'fake', fake: { delayMs: 50 }, workers: 1 });
    await pool.backend;
    const sink = countingSink();
    const whole: number[] = [];
    const deliver = sink.onObservations;
    sink.onObservations = (...args: Parameters<TableSink['onObservations']>) => {
      if (args[0].everyCard) whole.push(args[0].seq);
      deliver(...args);
    };
    pool.attach('t', sink);
    // 0 goes straight to the worker; 1 (a whole read, the score sort's once a second) waits and is replaced by 2, then 3.
    for (let seq = 0; seq < 4; seq += 1) pool.offer('t', { seq, image, captureTimeMs: seq, receivedAtMs: performance.now(), ...(seq === 1 ? { everyCard: true } : {}) });
    await until(() => sink.delivered.length + sink.dropped === 4);
    expect(sink.delivered).toEqual([0, 3]);
    expect(whole).toEqual([3]);
  });
});

describe('mergeSkippedLocated', () => {
  const rect = (x: number) => ({ x, y: 0, width: 10, height: 10 });
  const blob = (seat: number) => ({ seats: [seat], cells: [[seat, seat] as [number, number]], cellSize: 8 });
  const located = (timestampMs: number, changed: LocatedFrame['changed'], motion?: LocatedFrame['motion']): LocatedFrame => ({ timestampMs, changed, ...(motion ? { motion } : {}), data: { at: timestampMs }, buffers: [] });

  it('gives the newer frame the changes and motion of both', () => {
    const merged = mergeSkippedLocated(located(1, [rect(0)], [blob(0)]), located(2, [rect(50)], [blob(1)]));
    expect(merged).toEqual({ timestampMs: 2, changed: [rect(0), rect(50)], motion: [blob(0), blob(1)], data: { at: 2 }, buffers: [] });
  });

  it('keeps a whole frame localised afresh whole, and leaves no motion where neither had any', () => {
    expect(mergeSkippedLocated(located(1, null), located(2, [rect(50)])).changed).toBeNull();
    expect(mergeSkippedLocated(located(1, [rect(0)]), located(2, null)).changed).toBeNull();
    expect(mergeSkippedLocated(located(1, [rect(0)]), located(2, [])).motion).toBeUndefined();
  });
});
