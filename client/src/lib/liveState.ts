/**
 * The live table as the web app holds it: a pure reducer over the server's socket messages
 * (snapshot, event, view, table, stats, observations). Pages render from this state only.
 */
import type {
  FrameObservationsMessage,
  LoggedEvent,
  PipelineStats,
  Role,
  ServerMessage,
  TableInfo,
  TableView,
} from '../../../server/protocol';

/** Most log entries kept in the browser (the feed shows the newest). */
export const MAX_KEPT_EVENTS = 300;

/** Everything the pages know about one live table. */
export interface LiveState {
  table: TableInfo | null;
  view: TableView | null;
  stats: PipelineStats | null;
  /** Log entries, oldest first, at most MAX_KEPT_EVENTS. */
  events: LoggedEvent[];
  /** Latest processed frame's observations, when subscribed. */
  observations: FrameObservationsMessage | null;
  /** Role the server granted this connection (from `welcome`). */
  role: Role | null;
  /** The server's clock when it welcomed this connection, ms (for timers when table time is wall time). */
  serverTimeMs: number | null;
  /** Last error message from the server. */
  error: string | null;
}

/** State before the socket has said anything. */
export const initialLiveState: LiveState = {
  table: null,
  view: null,
  stats: null,
  events: [],
  observations: null,
  role: null,
  serverTimeMs: null,
  error: null,
};

/** Appends log entries, dropping duplicates (by seq) and keeping the newest MAX_KEPT_EVENTS. */
export function mergeEvents(existing: LoggedEvent[], incoming: LoggedEvent[]): LoggedEvent[] {
  if (incoming.length === 0) return existing;
  const lastSeq = existing.length ? existing[existing.length - 1].seq : -Infinity;
  const fresh = incoming.filter((entry) => entry.seq > lastSeq);
  if (fresh.length === 0) return existing;
  const merged = existing.concat(fresh);
  return merged.length > MAX_KEPT_EVENTS ? merged.slice(merged.length - MAX_KEPT_EVENTS) : merged;
}

/** Applies one server message. Unknown or malformed messages leave the state unchanged. */
export function liveReducer(state: LiveState, message: unknown): LiveState {
  if (!message || typeof message !== 'object' || typeof (message as { type?: unknown }).type !== 'string') return state;
  const msg = message as ServerMessage;
  switch (msg.type) {
    case 'welcome':
      return { ...state, role: msg.role, serverTimeMs: typeof msg.serverTimeMs === 'number' ? msg.serverTimeMs : null, error: null };
    case 'snapshot':
      // A snapshot replaces the log: after a server restart the sequence numbers start over.
      return {
        ...state,
        table: msg.table,
        view: msg.view,
        stats: msg.stats,
        events: mergeEvents([], msg.recentEvents ?? []),
      };
    case 'event':
      return { ...state, events: mergeEvents(state.events, [msg.entry]) };
    case 'view':
      return { ...state, view: msg.view };
    case 'table':
      return { ...state, table: msg.table };
    case 'stats':
      return { ...state, stats: msg.stats };
    case 'frame-ack':
      return { ...state, stats: msg.stats };
    case 'observations':
      return { ...state, observations: msg.frame };
    case 'error':
      return { ...state, error: `${msg.message} (${msg.code})` };
    default:
      return state;
  }
}
