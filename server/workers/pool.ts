/**
 * RecognitionPool: worker threads running the recogniser, fed through one latest-frame-wins
 * slot per table. A camera never waits: a frame arriving while its table's slot is full
 * replaces the waiting one (counted as dropped). Results reach the table in capture order;
 * a result older than one already delivered is dropped too.
 *
 * Each table lives on one worker (its home, the worker with the fewest tables when it was
 * attached): the recogniser keeps state from frame to frame (tracked cards, change regions,
 * remembered piles), so a table's live frames must all reach the same one. Spread over two
 * workers, each copy saw every other frame, re-read twice the change and knew half the table;
 * with four tables on two workers each saw a table's frames a second apart and re-read nearly
 * everything (1.8 fps a table). One-off jobs (POSTed frames) go to any idle worker.
 *
 * What a table's home can spread is its stateless work: with peer help (on by default for the
 * real recogniser) every pair of workers is joined by message ports, and a worker reading a frame
 * hands half of each CNN batch and of its changed regions to an idle peer (peer-help.ts).
 */
import { setFlagsFromString } from 'node:v8';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { CardCode } from '../game/cards';
import { mergeSkippedLocated, type FrameObservations, type LocatedFrame, type TableCalibration } from '../vision/types';
import type { FromWorker, ToWorker, WorkerSetup } from './messages';
import type { HelpStats } from './peer-help';

/** A frame waiting for recognition. `receivedAtMs` is server time (performance.now()), ms. */
export interface PendingFrame {
  seq: number;
  image: Uint8Array;
  captureTimeMs: number;
  receivedAtMs: number;
  /** Localise the whole frame and read every card (RecognizeOptions.everyCard), e.g. at the score sort. */
  everyCard?: boolean;
  /** Taken after the hand's call, in the score sort (RecognizeOptions.scoreSort; PipelineCounters splits latencies by it). */
  afterCall?: boolean;
}

/** What a table hears back from the pool for its live frames. */
export interface TableSink {
  onObservations(frame: PendingFrame, observations: FrameObservations, latencyMs: number): void;
  onDropped(count: number): void;
  onFailed(frame: PendingFrame, error: string): void;
}

/** Pool options: thread count and the recogniser the threads run. */
export interface PoolOptions extends WorkerSetup {
  workers: number;
  /**
   * Idle workers do half of a busy one's CNN batches and changed regions (server/workers/
   * peer-help.ts), so one table's frames use every core. Default: on for the real recogniser
   * with 2+ workers.
   */
  peerHelp?: boolean;
  /**
   * A live frame that must wait for its table's worker is sent to that worker at once to be
   * decoded while the frame before is read (sharp decodes off the worker's thread), so its turn
   * starts from pixels; one such frame per turn. Default: on for the real recogniser.
   */
  decodeAhead?: boolean;
  /**
   * How far V8 lets a heap grow past its live size before the next full collection, percent
   * (V8's `--heap-growing-percent`; 0 leaves V8's own choice, about 10 % when a heap is busy).
   * A V8 flag, so it holds for the whole process, set when the pool starts. Default 100 for the
   * real recogniser: a live worker keeps about 60 MB alive and frees a few MB a frame, so with
   * V8's choice it ran a full collection every few frames (100 in 15 s of a live hand, 1.3 s of
   * work); at 100 % three (docs/BENCHMARKS.md, session 36).
   */
  heapGrowingPercent?: number;
  /**
   * Each table's live frames run as two stages on two workers (StagedRecognizer): its home
   * decodes and localises frame N+1 while its reader reads frame N, so one table keeps both
   * cores busy where one worker did both stages and the other only helped. At most one located
   * frame waits for its reader: the next is localised once that one is being read. Needs 2+
   * workers. Default off (ServerConfig.pipeline says why).
   */
  pipeline?: boolean;
  /** See LOCATED_STALE_MS (its default). */
  locatedStaleMs?: number;
}

/**
 * With a pipeline, a localised frame that has waited this long for its reader (busy with a slow
 * frame: a whole read takes 1-2 s) no longer holds its home back: the home localises the newest
 * waiting frame, which replaces it unread (its changes merged in, mergeSkippedLocated), so the
 * reader, once free, reads a fresh frame rather than one a second old. A whole read waiting is
 * never replaced. ms.
 */
export const LOCATED_STALE_MS = 100;

/** PoolOptions.heapGrowingPercent's default for the real recogniser. */
export const DEFAULT_HEAP_GROWING_PERCENT = 100;

/** The value of V8's --heap-growing-percent this process was given by a pool, once set. */
let heapGrowingPercentSet: number | null = null;

/** Sets V8's heap growing factor for this process (see PoolOptions.heapGrowingPercent). */
function setHeapGrowingPercent(percent: number): void {
  if (heapGrowingPercentSet === percent || !Number.isInteger(percent) || percent < 0) return;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  heapGrowingPercentSet = percent;
}

interface Job {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  /** True when the job keeps its worker busy (recognition); enrolment messages ride alongside. */
  occupies?: boolean;
}

interface WorkerSlot {
  worker: Worker;
  busy: boolean;
  ready: Promise<string>;
  /** Set once the worker has loaded its recogniser. */
  started: boolean;
}

interface TableQueue {
  sink: TableSink;
  /** Index in `slots` of the worker that runs this table's live frames (with a pipeline: localises them). */
  home: number;
  /** The worker that reads the frames its home localised (the home itself without a pipeline). */
  reader: number;
  waiting: PendingFrame | null;
  /** A frame localised and waiting for its reader (pipeline only). */
  located: { frame: PendingFrame; located: LocatedFrame; atMs: number; slotWaitMs: number } | null;
  /** A frame is being localised (pipeline only). */
  locating: boolean;
  /** A waiting frame was sent ahead to be decoded since the last dispatch (at most one is). */
  decodingAhead: boolean;
  lastDeliveredSeq: number;
}

/**
 * Starts a worker running server/workers/recognition-worker.ts. The worker registers tsx's
 * loader itself because a plain Worker cannot load TypeScript (neither under tsx nor vitest).
 */
function startWorker(setup: WorkerSetup): Worker {
  const entry = new URL('./recognition-worker.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(bootstrap, { eval: true, workerData: setup });
}

/** The pool itself; one per server. */
export class RecognitionPool {
  private readonly slots: WorkerSlot[] = [];
  private readonly tables = new Map<string, TableQueue>();
  private readonly jobs = new Map<number, Job>();
  /** Which worker runs which job, to fail its jobs if it dies. */
  private readonly jobWorker = new Map<number, WorkerSlot>();
  /** One-off jobs (POST frames, enrolment) run before live frames. */
  private readonly oneOff: Array<{ message: ToWorker & { jobId: number }; job: Job }> = [];
  private nextJobId = 1;
  private roundRobin = 0;
  private closed = false;
  /** Each worker's busy counter, shared with every worker (peer help). */
  private readonly busy: Int32Array;
  private readonly peerHelp: boolean;
  private readonly decodeAhead: boolean;
  private readonly pipeline: boolean;
  private readonly locatedStaleMs: number;
  /** Name of the recogniser backend the workers reported ('fake', 'real'), or the load error. */
  backend: Promise<string>;

  constructor(private readonly options: PoolOptions) {
    const count = Math.max(1, options.workers);
    this.busy = new Int32Array(new SharedArrayBuffer(4 * count));
    this.peerHelp = count > 1 && (options.peerHelp ?? options.kind === 'real');
    this.decodeAhead = options.decodeAhead ?? options.kind === 'real';
    this.pipeline = count > 1 && options.pipeline === true;
    this.locatedStaleMs = options.locatedStaleMs ?? LOCATED_STALE_MS;
    const growing = options.heapGrowingPercent ?? (options.kind === 'real' ? DEFAULT_HEAP_GROWING_PERCENT : 0);
    if (growing > 0) setHeapGrowingPercent(growing);
    for (let i = 0; i < count; i += 1) this.slots.push(this.spawn(i));
    if (this.peerHelp) for (let i = 0; i < count; i += 1) for (let j = i + 1; j < count; j += 1) this.connectPeers(i, j);
    this.backend = this.slots[0].ready;
  }

  /** Joins workers i and j both ways: each may offer work to the other. */
  private connectPeers(i: number, j: number): void {
    for (const [owner, helper] of [
      [i, j],
      [j, i],
    ]) {
      const { port1, port2 } = new MessageChannel();
      this.slots[owner].worker.postMessage({ type: 'helper', peer: helper, port: port1 } satisfies ToWorker, [port1]);
      this.slots[helper].worker.postMessage({ type: 'help-desk', port: port2 } satisfies ToWorker, [port2]);
    }
  }

  private spawn(index: number): WorkerSlot {
    Atomics.store(this.busy, index, 0);
    const worker = startWorker({ kind: this.options.kind, fake: this.options.fake, realConfig: this.options.realConfig, index, busy: this.busy });
    let markReady: (backend: string) => void = () => {};
    let markFailed: (error: Error) => void = () => {};
    const slot: WorkerSlot = {
      worker,
      busy: true, // until ready
      started: false,
      ready: new Promise<string>((resolve, reject) => {
        markReady = resolve;
        markFailed = reject;
      }),
    };
    slot.ready.catch(() => {}); // observed by callers through `backend`
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'ready') {
        slot.busy = false;
        slot.started = true;
        markReady(message.backend);
        this.pump();
      } else if (message.type === 'init-failed') {
        markFailed(new Error(`recogniser failed to load: ${message.error}`));
      } else this.onWorkerMessage(slot, message);
    });
    worker.on('error', (error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      markFailed(failure);
      this.failJobsOf(slot, failure.message);
    });
    worker.on('exit', () => {
      this.failJobsOf(slot, 'recognition worker exited');
      if (!this.closed) {
        const index = this.slots.indexOf(slot);
        if (index < 0) return;
        this.slots[index] = this.spawn(index);
        // The dead worker's ports closed with it (its peers dropped them); join the new one.
        if (this.peerHelp) for (let other = 0; other < this.slots.length; other += 1) if (other !== index) this.connectPeers(index, other);
      }
    });
    worker.unref();
    return slot;
  }

  private failJobsOf(slot: WorkerSlot, error: string): void {
    for (const [jobId, owner] of this.jobWorker) {
      if (owner !== slot) continue;
      this.jobWorker.delete(jobId);
      const job = this.jobs.get(jobId);
      this.jobs.delete(jobId);
      if (job?.occupies) slot.busy = false;
      job?.reject(new Error(error));
    }
  }

  private onWorkerMessage(slot: WorkerSlot, message: FromWorker): void {
    if (message.type !== 'result' && message.type !== 'located' && message.type !== 'done' && message.type !== 'failed') return;
    const job = this.jobs.get(message.jobId);
    this.jobs.delete(message.jobId);
    this.jobWorker.delete(message.jobId);
    if (!job || job.occupies) slot.busy = false;
    if (job) {
      if (message.type === 'failed') job.reject(new Error(message.error));
      else if (message.type === 'result') job.resolve(message.observations);
      else if (message.type === 'located') job.resolve(message.located);
      else job.resolve(message.value);
    }
    this.pump();
  }

  /** Registers a table's live frames; returns a function that hands frames to the slot. */
  attach(tableId: string, sink: TableSink): void {
    // The worker with the fewest table stages, fewest localising on a tie, is home; with a
    // pipeline, the other with the fewest stages, fewest reading on a tie, reads.
    const locating = this.slots.map(() => 0);
    const reading = this.slots.map(() => 0);
    for (const queue of this.tables.values()) {
      locating[queue.home] += 1;
      if (queue.reader !== queue.home) reading[queue.reader] += 1;
    }
    const leastLoaded = (tie: number[], except = -1) =>
      this.slots
        .map((_, i) => i)
        .filter((i) => i !== except)
        .reduce((best, i) => (locating[i] + reading[i] < locating[best] + reading[best] || (locating[i] + reading[i] === locating[best] + reading[best] && tie[i] < tie[best]) ? i : best));
    const home = leastLoaded(locating);
    const reader = this.pipeline ? leastLoaded(reading, home) : home;
    this.tables.set(tableId, { sink, home, reader, waiting: null, located: null, locating: false, decodingAhead: false, lastDeliveredSeq: -1 });
  }

  /** Index of the worker a table's live frames go to (tests). */
  homeOf(tableId: string): number | undefined {
    return this.tables.get(tableId)?.home;
  }

  /** Index of the worker that reads a table's live frames (its home, without a pipeline; tests). */
  readerOf(tableId: string): number | undefined {
    return this.tables.get(tableId)?.reader;
  }

  /** Forgets a table (its recognisers in the workers too). */
  detach(tableId: string): void {
    const queue = this.tables.get(tableId);
    const unread = queue ? (queue.waiting ? 1 : 0) + (queue.located ? 1 : 0) : 0;
    if (unread > 0) queue!.sink.onDropped(unread);
    this.tables.delete(tableId);
    for (const slot of this.slots) slot.worker.postMessage({ type: 'drop-table', tableId } satisfies ToWorker);
  }

  /** Offers a live frame: it takes the table's slot, replacing (dropping) any frame still waiting. */
  offer(tableId: string, frame: PendingFrame): void {
    const queue = this.tables.get(tableId);
    if (!queue) return;
    if (queue.waiting) queue.sink.onDropped(1);
    // A whole read asked for and not yet started goes to the frame that replaces it.
    queue.waiting = queue.waiting?.everyCard && !frame.everyCard ? { ...frame, everyCard: true } : frame;
    this.pump();
    // Still waiting: its worker is reading the frame before. Let it decode this one meanwhile;
    // only the first frame to wait in each turn, so a camera flooding the slot costs at most one
    // wasted decode per frame read (a frame that replaces it is decoded when its turn comes).
    const home = this.slots[queue.home];
    if (this.decodeAhead && queue.waiting && !queue.decodingAhead && home?.started) {
      queue.decodingAhead = true;
      home.worker.postMessage({ type: 'decode-ahead', tableId, seq: queue.waiting.seq, image: queue.waiting.image } satisfies ToWorker);
    }
  }

  /** Recognises one frame and returns its observations (POST /frames); runs ahead of live frames. */
  recognizeOnce(tableId: string, image: Uint8Array, timestampMs: number): Promise<FrameObservations> {
    if (this.oneOff.length >= 16) return Promise.reject(new Error('pool/busy'));
    return this.enqueueOneOff({ type: 'recognize', jobId: 0, tableId, image, timestampMs, everyCard: true }) as Promise<FrameObservations>;
  }

  /** Enrols a deck back on every worker's recogniser for the table. */
  async enrollBack(tableId: string, backId: string, views: Uint8Array[]): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.direct(slot, { type: 'enroll-back', jobId: 0, tableId, backId, views })));
  }

  /** Enrols a face card on every worker's recogniser for the table. */
  async enrollFace(tableId: string, code: CardCode, views: Uint8Array[]): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.direct(slot, { type: 'enroll-face', jobId: 0, tableId, code, views })));
  }

  /** Sets the table's calibration on every worker. */
  setCalibration(tableId: string, calibration: TableCalibration | null): void {
    for (const slot of this.slots) slot.worker.postMessage({ type: 'calibrate', tableId, calibration } satisfies ToWorker);
  }

  /** Reads the recogniser state of the table's home worker, or of its reader (the fake exposes one; tests use it). */
  inspect(tableId: string, worker: 'home' | 'reader' = 'home'): Promise<unknown> {
    const queue = this.tables.get(tableId);
    return this.direct(this.slots[(worker === 'home' ? queue?.home : queue?.reader) ?? 0], { type: 'inspect', jobId: 0, tableId });
  }

  /** Each worker's peer-help counters (see peer-help.ts), in worker order. */
  helpStats(): Promise<HelpStats[]> {
    return Promise.all(this.slots.map((slot) => this.direct(slot, { type: 'help-stats', jobId: 0 }) as Promise<HelpStats>));
  }

  /** Messages that must reach a given worker (enrolment): sent now, answered in order by that worker. */
  private direct(slot: WorkerSlot, message: ToWorker & { jobId: number }): Promise<unknown> {
    const jobId = this.nextJobId++;
    return new Promise((resolve, reject) => {
      this.jobs.set(jobId, { resolve, reject });
      this.jobWorker.set(jobId, slot);
      slot.ready.then(
        () => slot.worker.postMessage({ ...message, jobId }),
        (error: Error) => {
          this.jobs.delete(jobId);
          reject(error);
        },
      );
    });
  }

  private enqueueOneOff(message: ToWorker & { jobId: number }): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.oneOff.push({ message, job: { resolve, reject } });
      this.pump();
    });
  }

  /**
   * Hands waiting work to idle workers: one-off jobs first, then located frames to read, then
   * their tables' waiting frames, round-robin. Again until nothing more starts: a read handed
   * out frees its table's home to localise the next frame.
   */
  private pump(): void {
    while (this.slots.some((slot, index) => !slot.busy && this.startWork(slot, index)));
  }

  /** Starts the next job for an idle worker; false when there is none for it. */
  private startWork(slot: WorkerSlot, index: number): boolean {
    const oneOff = this.oneOff.shift();
    if (oneOff) {
      const jobId = this.startJob(slot, oneOff.job);
      slot.worker.postMessage({ ...oneOff.message, jobId });
      return true;
    }
    const toRead = this.nextTableWith((queue) => queue.reader === index && queue.located !== null);
    if (toRead) {
      this.dispatchRead(slot, toRead);
      return true;
    }
    const toStart = this.nextTableWith((queue) => queue.home === index && queue.waiting !== null && (!this.pipeline || (!queue.locating && this.mayLocateAhead(queue))));
    if (!toStart) return false;
    if (this.pipeline) this.dispatchLocate(slot, toStart);
    else this.dispatchLive(slot, toStart);
    return true;
  }

  /** Whether a table's home may localise its waiting frame: none localised is waiting, or one stale (see LOCATED_STALE_MS). */
  private mayLocateAhead(queue: TableQueue): boolean {
    const located = queue.located;
    return located === null || (!located.frame.everyCard && performance.now() - located.atMs >= this.locatedStaleMs);
  }

  /** The next table with work (`hasWork`), round-robin. */
  private nextTableWith(hasWork: (queue: TableQueue) => boolean): string | null {
    const ids = [...this.tables.keys()];
    for (let i = 0; i < ids.length; i += 1) {
      const id = ids[(this.roundRobin + i) % ids.length];
      const queue = this.tables.get(id);
      if (queue && hasWork(queue)) {
        this.roundRobin = (this.roundRobin + i + 1) % ids.length;
        return id;
      }
    }
    return null;
  }

  /** Takes the table's waiting frame for a worker, with how long it waited in the slot, ms. */
  private takeWaiting(queue: TableQueue): { frame: PendingFrame; slotWaitMs: number } {
    const frame = queue.waiting!;
    queue.waiting = null;
    queue.decodingAhead = false;
    return { frame, slotWaitMs: performance.now() - frame.receivedAtMs };
  }

  private startJob(slot: WorkerSlot, job: Omit<Job, 'occupies'>): number {
    const jobId = this.nextJobId++;
    slot.busy = true;
    this.jobWorker.set(jobId, slot);
    this.jobs.set(jobId, { ...job, occupies: true });
    return jobId;
  }

  /**
   * Hands a frame's observations to its table, unless a newer frame's came first. Its waits in
   * the pool go into its timings: `slotWait` (offered until a worker took it) and, with a
   * pipeline, `readerWait` (localised until its reader took it), ms.
   */
  private deliver(tableId: string, queue: TableQueue, frame: PendingFrame, observations: FrameObservations, waits: { slotWait: number; readerWait?: number }): void {
    if (this.tables.get(tableId) !== queue) return;
    if (frame.seq < queue.lastDeliveredSeq) {
      queue.sink.onDropped(1); // a newer frame was delivered first (a table reads in order, so only after a restart)
      return;
    }
    queue.lastDeliveredSeq = frame.seq;
    queue.sink.onObservations(frame, { ...observations, timingsMs: { ...observations.timingsMs, ...waits } }, performance.now() - frame.receivedAtMs);
  }

  private fail(tableId: string, queue: TableQueue, frame: PendingFrame, error: Error): void {
    if (this.tables.get(tableId) === queue) queue.sink.onFailed(frame, error.message);
  }

  /** The options a frame carries to the recogniser (RecognizeOptions). */
  private static frameOptions(frame: PendingFrame): { everyCard?: true; scoreSort?: true } {
    return { ...(frame.everyCard ? { everyCard: true } : {}), ...(frame.afterCall ? { scoreSort: true } : {}) };
  }

  /** Both stages of the table's waiting frame on its home. */
  private dispatchLive(slot: WorkerSlot, tableId: string): void {
    const queue = this.tables.get(tableId)!;
    const { frame, slotWaitMs } = this.takeWaiting(queue);
    const jobId = this.startJob(slot, {
      resolve: (value) => this.deliver(tableId, queue, frame, value as FrameObservations, { slotWait: slotWaitMs }),
      reject: (error) => this.fail(tableId, queue, frame, error),
    });
    slot.worker.postMessage({ type: 'recognize', jobId, tableId, image: frame.image, timestampMs: frame.captureTimeMs, seq: frame.seq, ...RecognitionPool.frameOptions(frame) } satisfies ToWorker);
  }

  /** The first stage of the table's waiting frame on its home; the located frame then waits for its reader. */
  private dispatchLocate(slot: WorkerSlot, tableId: string): void {
    const queue = this.tables.get(tableId)!;
    queue.locating = true;
    const { frame, slotWaitMs } = this.takeWaiting(queue);
    const jobId = this.startJob(slot, {
      resolve: (value) => {
        queue.locating = false;
        if (this.tables.get(tableId) !== queue) return;
        const older = queue.located;
        let located = value as LocatedFrame;
        if (older) {
          // Localised ahead of a stale one, still unread: this one stands for both.
          located = mergeSkippedLocated(older.located, located);
          queue.sink.onDropped(1);
        }
        queue.located = { frame, located, atMs: performance.now(), slotWaitMs };
      },
      reject: (error) => {
        queue.locating = false;
        this.fail(tableId, queue, frame, error);
      },
    });
    slot.worker.postMessage({ type: 'locate', jobId, tableId, image: frame.image, timestampMs: frame.captureTimeMs, seq: frame.seq, ...RecognitionPool.frameOptions(frame) } satisfies ToWorker);
  }

  /** The second stage of the table's located frame on its reader. */
  private dispatchRead(slot: WorkerSlot, tableId: string): void {
    const queue = this.tables.get(tableId)!;
    const { frame, located, atMs, slotWaitMs } = queue.located!;
    queue.located = null;
    const waits = { slotWait: slotWaitMs, readerWait: performance.now() - atMs };
    const jobId = this.startJob(slot, {
      resolve: (value) => this.deliver(tableId, queue, frame, value as FrameObservations, waits),
      reject: (error) => this.fail(tableId, queue, frame, error),
    });
    slot.worker.postMessage({ type: 'read', jobId, tableId, located, ...RecognitionPool.frameOptions(frame) } satisfies ToWorker, located.buffers);
  }

  /** Jobs sent to workers and not answered yet (tests check nothing leaks). */
  pendingJobCount(): number {
    return this.jobs.size;
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
    for (const job of this.jobs.values()) job.reject(new Error('pool closed'));
    this.jobs.clear();
  }
}
