/**
 * Recognition workers lend each other their idle time (see server/vision/inference.ts): a worker
 * reading a frame offers half of each CNN batch to an idle peer over a MessagePort, and keeps
 * reading its own half. One table's frames keep living on one worker (its tracking state is
 * there); only the stateless CNN work travels.
 *
 * Who may take a batch is settled with one shared integer per offer (`claim`): the helper moves
 * it from OFFERED to TAKEN before it starts, the owner from OFFERED to RECLAIMED when it gives up
 * waiting; whoever moves it first does the work, so a batch is never read twice nor lost.
 * Which workers are busy is a shared array of counters (`busy[i]` > 0: worker i is working),
 * so a busy peer is never offered anything.
 */
import type { MessagePort } from 'node:worker_threads';
import type { CnnBatch, CnnHeads, CnnHelper, HelpTicket, RunCnn } from '../vision/inference';

const OFFERED = 0;
const TAKEN = 1;
const RECLAIMED = 2;

/** Owner → helper. `claim` is an Int32Array(1) on a SharedArrayBuffer. */
export interface HelpRequest {
  id: number;
  batch: CnnBatch;
  claim: Int32Array;
}

/** Helper → owner. */
export type HelpReply = { id: number; heads: CnnHeads } | { id: number; error: string };

/** What one worker's peer help did so far. */
export interface HelpStats {
  /** Batches this worker offered to peers. */
  offered: number;
  /** Offers a peer read and answered. */
  answered: number;
  /** Offers taken back before a peer got to them (read here instead). */
  reclaimed: number;
  /** Offers whose peer failed or went away while reading them. */
  failed: number;
  /** Images this worker read for its peers. */
  servedImages: number;
}

export function emptyHelpStats(): HelpStats {
  return { offered: 0, answered: 0, reclaimed: 0, failed: 0, servedImages: 0 };
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
 * Answers a peer's offers on `port` with `run` (resolved lazily: the models load on the first
 * batch). An offer already taken back is skipped.
 */
export function serveHelp(port: MessagePort, run: () => Promise<RunCnn>, options: { busy?: Int32Array; self?: number; stats?: HelpStats } = {}): void {
  port.on('message', async (request: HelpRequest) => {
    if (Atomics.compareExchange(request.claim, 0, OFFERED, TAKEN) !== OFFERED) return;
    try {
      const heads = await whileBusy(options.busy, options.self ?? 0, async () => (await run())(request.batch));
      if (options.stats) options.stats.servedImages += request.batch.images;
      port.postMessage({ id: request.id, heads } satisfies HelpReply, [heads.heads[0].buffer, heads.heads[1].buffer] as ArrayBuffer[]);
    } catch (error) {
      port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies HelpReply);
    }
  });
}

interface Peer {
  index: number;
  port: MessagePort;
  pending: Map<number, { resolve: (heads: CnnHeads) => void; reject: (error: Error) => void }>;
}

/** The owner's side: offers batches to whichever peer is idle. */
export class PeerHelpers implements CnnHelper {
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
      else waiting.resolve(reply.heads);
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

  offer(batch: CnnBatch): HelpTicket | null {
    const peer = this.peers.find((candidate) => !this.busy || Atomics.load(this.busy, candidate.index) === 0);
    if (!peer) return null;
    const id = this.nextId++;
    const claim = new Int32Array(new SharedArrayBuffer(4));
    const result = new Promise<CnnHeads>((resolve, reject) => peer.pending.set(id, { resolve, reject }));
    // A ticket taken back is never awaited: its failure is nobody's error.
    result.then(
      () => (this.stats.answered += 1),
      () => (this.stats.failed += 1),
    );
    this.stats.offered += 1;
    peer.port.postMessage({ id, batch, claim } satisfies HelpRequest, [batch.data.buffer as ArrayBuffer]);
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
