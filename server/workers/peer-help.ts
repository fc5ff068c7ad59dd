/**
 * Recognition workers lend each other their idle time (see server/vision/inference.ts): a worker
 * reading a frame offers half of each CNN batch, and some of the changed regions to localise, to
 * an idle peer over a MessagePort, and keeps working on the rest. One table's frames keep living
 * on one worker (its tracking state is there); only stateless work travels.
 *
 * Who does offered work is settled with one shared integer per offer (`claim`): the helper moves
 * it from OFFERED to TAKEN before it starts, the owner from OFFERED to RECLAIMED when it gives up
 * waiting; whoever moves it first does the work, so it is never done twice nor lost.
 * Which workers are busy is a shared array of counters (`busy[i]` > 0: worker i is working),
 * so a busy peer is never offered anything.
 */
import type { MessagePort } from 'node:worker_threads';
import { runEach, type HelpJob, type HelpResults, type Helper, type HelpTicket, type RunCnn, type RunLocate } from '../vision/inference';

const OFFERED = 0;
const TAKEN = 1;
const RECLAIMED = 2;

/** Owner → helper. `claim` is an Int32Array(1) on a SharedArrayBuffer. */
export interface HelpRequest {
  id: number;
  job: HelpJob;
  claim: Int32Array;
}

type AnyResult = HelpResults[keyof HelpResults];

/** Helper → owner. */
export type HelpReply = { id: number; result: AnyResult } | { id: number; error: string };

/** How a helper does each kind of job (each loaded on first use). */
export interface HelpDesk {
  cnn: () => Promise<RunCnn>;
  locate: () => Promise<RunLocate>;
}

/** Does a job on this thread. */
async function work(desk: HelpDesk, job: HelpJob): Promise<AnyResult> {
  return job.kind === 'locate' ? (await desk.locate())(job.parts) : runEach(await desk.cnn(), job.batches);
}

/**
 * The buffers a job's or a result's arrays can be moved in (not copied) to the other thread:
 * each array that alone spans its buffer, once (a view into a larger buffer, such as a wasm
 * heap, is copied instead).
 */
function buffersOf(value: HelpJob | AnyResult): ArrayBuffer[] {
  const arrays: ArrayBufferView[] =
    'kind' in value
      ? value.kind === 'cnn'
        ? value.batches.map((batch) => batch.data)
        : value.parts.map((part) => part.image.data)
      : value.flatMap((result) => ('heads' in result ? result.heads : []));
  const whole = arrays.filter((array) => array.byteOffset === 0 && array.byteLength === array.buffer.byteLength).map((array) => array.buffer as ArrayBuffer);
  return [...new Set(whole)];
}

/** Images (CNN) or regions (localiser) in a job. */
function sizeOf(job: HelpJob): number {
  return job.kind === 'cnn' ? job.batches.reduce((sum, batch) => sum + batch.images, 0) : job.parts.length;
}

/** What one worker's peer help did so far. */
export interface HelpStats {
  /** Jobs (CNN batches of a frame, or changed regions) this worker offered to peers. */
  offered: number;
  /** Offers a peer read and answered. */
  answered: number;
  /** Offers taken back before a peer got to them (read here instead). */
  reclaimed: number;
  /** Offers whose peer failed or went away while reading them. */
  failed: number;
  /** Images this worker read for its peers. */
  servedImages: number;
  /** Changed regions this worker localised for its peers. */
  servedRegions: number;
}

export function emptyHelpStats(): HelpStats {
  return { offered: 0, answered: 0, reclaimed: 0, failed: 0, servedImages: 0, servedRegions: 0 };
}

/** Marks worker `index` busy for the duration of `work` (counters: work may nest). */
export async function whileBusy<T>(busy: Int32Array | undefined, index: number, work: () => Promise<T>): Promise<T> {
  if (busy) Atomics.add(busy, index, 1);
  try {
    return await work();
  } finally {
    if (busy) Atomics.sub(busy, index, 1);
  }
}

/**
 * Answers a peer's offers on `port` with `desk` (whose runners load on first use). An offer
 * already taken back is skipped, and so is one that reaches this worker while it is busy: a
 * worker reading its own table's frame sees messages at each of its awaits, and taking a peer's
 * work there would hold up its own frame while the peer waits too (with 4 tables on 2 workers
 * that halved the frames of one worker's tables). The owner takes such an offer back.
 */
export function serveHelp(port: MessagePort, desk: HelpDesk, options: { busy?: Int32Array; self?: number; stats?: HelpStats } = {}): void {
  port.on('message', async (request: HelpRequest) => {
    if (options.busy && Atomics.load(options.busy, options.self ?? 0) > 0) return;
    if (Atomics.compareExchange(request.claim, 0, OFFERED, TAKEN) !== OFFERED) return;
    try {
      const result = await whileBusy(options.busy, options.self ?? 0, () => work(desk, request.job));
      if (options.stats) {
        if (request.job.kind === 'cnn') options.stats.servedImages += sizeOf(request.job);
        else options.stats.servedRegions += sizeOf(request.job);
      }
      port.postMessage({ id: request.id, result } satisfies HelpReply, buffersOf(result));
    } catch (error) {
      port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies HelpReply);
    }
  });
}

interface Peer {
  index: number;
  port: MessagePort;
  pending: Map<number, { resolve: (result: AnyResult) => void; reject: (error: Error) => void }>;
}

/** The owner's side: offers work to whichever peer is idle. */
export class PeerHelpers implements Helper {
  private readonly peers: Peer[] = [];
  private nextId = 1;

  /**
   * `busy`: the shared busy counters of every worker (none: every peer counts as idle); `stats`:
   * where to count offers and their fates.
   */
  constructor(
    private readonly busy?: Int32Array,
    readonly stats: HelpStats = emptyHelpStats(),
  ) {}

  /** Adds a peer (worker `index`, reached on `port`); it is dropped when the port closes. */
  addPeer(index: number, port: MessagePort): void {
    const peer: Peer = { index, port, pending: new Map() };
    this.peers.push(peer);
    port.on('message', (reply: HelpReply) => {
      const waiting = peer.pending.get(reply.id);
      peer.pending.delete(reply.id);
      if (!waiting) return;
      if ('error' in reply) waiting.reject(new Error(`helper failed: ${reply.error}`));
      else waiting.resolve(reply.result);
    });
    port.on('close', () => this.dropPeer(peer));
    // Idle ports must not keep a finished worker alive.
    port.unref();
  }

  /** How many peers can be offered work (tests). */
  get peerCount(): number {
    return this.peers.length;
  }

  private dropPeer(peer: Peer): void {
    const at = this.peers.indexOf(peer);
    if (at >= 0) this.peers.splice(at, 1);
    for (const waiting of peer.pending.values()) waiting.reject(new Error('helper went away'));
    peer.pending.clear();
  }

  offer<J extends HelpJob>(job: J): HelpTicket<HelpResults[J['kind']]> | null {
    const peer = this.peers.find((candidate) => !this.busy || Atomics.load(this.busy, candidate.index) === 0);
    if (!peer) return null;
    const id = this.nextId++;
    const claim = new Int32Array(new SharedArrayBuffer(4));
    const result = new Promise<HelpResults[J['kind']]>((resolve, reject) =>
      peer.pending.set(id, { resolve: (value) => resolve(value as HelpResults[J['kind']]), reject }),
    );
    // A ticket taken back is never awaited: its failure is nobody's error.
    result.then(
      () => (this.stats.answered += 1),
      () => (this.stats.failed += 1),
    );
    this.stats.offered += 1;
    peer.port.postMessage({ id, job, claim } satisfies HelpRequest, buffersOf(job));
    return {
      result,
      reclaim: () => {
        if (Atomics.compareExchange(claim, 0, OFFERED, RECLAIMED) !== OFFERED) return false;
        peer.pending.delete(id);
        this.stats.reclaimed += 1;
        return true;
      },
    };
  }
}
