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
import type { FrameObservations, TableCalibration } from '../vision/types';
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
}

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
  /** Index in `slots` of the worker that runs this table's live frames. */
  home: number;
  waiting: PendingFrame | null;
  /** A waiting frame was sent ahead to be decoded since the last dispatch (at most one is). */
  decodingAhead: boolean;
  inFlight: number;
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
  /** Name of the recogniser backend the workers reported ('fake', 'real'), or the load error. */
  backend: Promise<string>;

  constructor(private readonly options: PoolOptions) {
    const count = Math.max(1, options.workers);
    this.busy = new Int32Array(new SharedArrayBuffer(4 * count));
    this.peerHelp = count > 1 && (options.peerHelp ?? options.kind === 'real');
    this.decodeAhead = options.decodeAhead ?? options.kind === 'real';
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
    if (message.type !== 'result' && message.type !== 'done' && message.type !== 'failed') return;
    const job = this.jobs.get(message.jobId);
    this.jobs.delete(message.jobId);
    this.jobWorker.delete(message.jobId);
    if (!job || job.occupies) slot.busy = false;
    if (job) {
      if (message.type === 'failed') job.reject(new Error(message.error));
      else if (message.type === 'result') job.resolve(message.observations);
      else job.resolve(message.value);
    }
    this.pump();
  }

  /** Registers a table's live frames; returns a function that hands frames to the slot. */
  attach(tableId: string, sink: TableSink): void {
    const load = this.slots.map(() => 0);
    for (const queue of this.tables.values()) load[queue.home] += 1;
    const home = load.indexOf(Math.min(...load));
    this.tables.set(tableId, { sink, home, waiting: null, decodingAhead: false, inFlight: 0, lastDeliveredSeq: -1 });
  }

  /** Index of the worker a table's live frames go to (tests). */
  homeOf(tableId: string): number | undefined {
    return this.tables.get(tableId)?.home;
  }

  /** Forgets a table (its recognisers in the workers too). */
  detach(tableId: string): void {
    const queue = this.tables.get(tableId);
    if (queue?.waiting) queue.sink.onDropped(1);
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

  /** Reads the table's home worker's recogniser state (the fake exposes one; tests use it). */
  inspect(tableId: string): Promise<unknown> {
    return this.direct(this.slots[this.tables.get(tableId)?.home ?? 0], { type: 'inspect', jobId: 0, tableId });
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

  /** Hands waiting work to idle workers: one-off jobs first, then their tables round-robin. */
  private pump(): void {
    for (const [index, slot] of this.slots.entries()) {
      if (slot.busy) continue;
      const oneOff = this.oneOff.shift();
      if (oneOff) {
        const jobId = this.nextJobId++;
        this.jobs.set(jobId, { ...oneOff.job, occupies: true });
        this.jobWorker.set(jobId, slot);
        slot.busy = true;
        const message = { ...oneOff.message, jobId };
        slot.worker.postMessage(message);
        continue;
      }
      const tableId = this.nextTableWithWork(index);
      if (tableId) this.dispatchLive(slot, tableId);
    }
  }

  /** The next table homed on worker `home` with a frame waiting, round-robin. */
  private nextTableWithWork(home: number): string | null {
    const ids = [...this.tables.keys()];
    for (let i = 0; i < ids.length; i += 1) {
      const id = ids[(this.roundRobin + i) % ids.length];
      const queue = this.tables.get(id);
      if (queue?.home === home && queue.waiting) {
        this.roundRobin = (this.roundRobin + i + 1) % ids.length;
        return id;
      }
    }
    return null;
  }

  private dispatchLive(slot: WorkerSlot, tableId: string): void {
    const queue = this.tables.get(tableId)!;
    const frame = queue.waiting!;
    queue.waiting = null;
    queue.decodingAhead = false;
    queue.inFlight += 1;
    const jobId = this.nextJobId++;
    slot.busy = true;
    this.jobWorker.set(jobId, slot);
    this.jobs.set(jobId, {
      occupies: true,
      resolve: (value) => {
        queue.inFlight -= 1;
        if (this.tables.get(tableId) !== queue) return;
        if (frame.seq < queue.lastDeliveredSeq) {
          queue.sink.onDropped(1); // a newer frame was delivered first (a table has one worker, so only after a restart)
          return;
        }
        queue.lastDeliveredSeq = frame.seq;
        queue.sink.onObservations(frame, value as FrameObservations, performance.now() - frame.receivedAtMs);
      },
      reject: (error) => {
        queue.inFlight -= 1;
        if (this.tables.get(tableId) === queue) queue.sink.onFailed(frame, error.message);
      },
    });
    slot.worker.postMessage({ type: 'recognize', jobId, tableId, image: frame.image, timestampMs: frame.captureTimeMs, seq: frame.seq, ...(frame.everyCard ? { everyCard: true } : {}), ...(frame.afterCall ? { scoreSort: true } : {}) } satisfies ToWorker);
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
