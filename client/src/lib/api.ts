/**
 * The REST API as typed functions (routes in docs/SERVER.md, payload types in
 * server/protocol.ts). Every failure becomes an ApiError carrying the server's error code and
 * message, so pages can show it instead of crashing.
 */
import type {
  Calibration,
  CreateTable,
  CreatedTable,
  FrameObservationsMessage,
  LoggedEvent,
  PipelineStats,
  TableInfo,
  TableTokens,
  TableView,
  UpdateSetup,
} from '../../../server/protocol';

/** A failed API call: HTTP status (0 = network), the server's machine code and its message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface RequestOptions {
  token?: string | null;
  body?: unknown;
  /** Raw body (frames); sent as-is with its own content type. */
  rawBody?: Blob;
  headers?: Record<string, string>;
}

async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined;
  if (options.rawBody) body = options.rawBody;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body });
  } catch (error) {
    throw new ApiError(0, 'network/unreachable', `Cannot reach the server (${(error as Error).message})`);
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!response.ok) {
    const errorBody = parsed as { code?: unknown; message?: unknown } | undefined;
    const code = typeof errorBody?.code === 'string' ? errorBody.code : `http/${response.status}`;
    const message = typeof errorBody?.message === 'string' ? errorBody.message : response.statusText || 'request failed';
    throw new ApiError(response.status, code, message);
  }
  return parsed as T;
}

const tablePath = (tableId: string): string => `/api/tables/${encodeURIComponent(tableId)}`;

/** Table list, creation and per-table reads and referee actions. */
export const api = {
  listTables: (adminToken?: string | null) => request<TableInfo[]>('GET', '/api/tables', { token: adminToken }),
  createTable: (body: CreateTable, adminToken?: string | null) =>
    request<CreatedTable>('POST', '/api/tables', { body, token: adminToken }),
  getTable: (tableId: string, token: string | null) =>
    request<{ table: TableInfo; view: TableView; stats: PipelineStats }>('GET', tablePath(tableId), { token }),
  getTokens: (tableId: string, refereeToken: string | null) =>
    request<TableTokens>('GET', `${tablePath(tableId)}/tokens`, { token: refereeToken }),
  setSource: (tableId: string, refereeToken: string | null, source: 'sim' | 'camera') =>
    request<TableInfo>('PUT', `${tablePath(tableId)}/source`, { token: refereeToken, body: { source } }),
  getCalibration: (tableId: string, token: string | null) =>
    request<Calibration>('GET', `${tablePath(tableId)}/calibration`, { token }),
  /** Replaces the table's seats and rules between hands (PUT .../setup). */
  updateSetup: (tableId: string, refereeToken: string | null, setup: UpdateSetup) =>
    request<TableInfo>('PUT', `${tablePath(tableId)}/setup`, { token: refereeToken, body: setup }),
  putCalibration: (tableId: string, refereeToken: string | null, calibration: Calibration) =>
    request<unknown>('PUT', `${tablePath(tableId)}/calibration`, { token: refereeToken, body: calibration }),
  /** Adds a view of the deck's back held up to the camera (`replace`: starts the deck's views over). */
  enrollDeck: (tableId: string, refereeToken: string | null, deckId: string, replace = false) =>
    request<unknown>('POST', `${tablePath(tableId)}/decks/${encodeURIComponent(deckId)}/enroll`, { token: refereeToken, body: { replace } }),
  /** Enrols the face card held up to the camera as `code` (a card of a deck that reads badly). */
  enrollFace: (tableId: string, refereeToken: string | null, code: string) =>
    request<unknown>('POST', `${tablePath(tableId)}/faces/${encodeURIComponent(code)}/enroll`, { token: refereeToken, body: {} }),
  /** Forgets an enrolled face (every view of it). */
  forgetFace: (tableId: string, refereeToken: string | null, code: string) =>
    request<unknown>('DELETE', `${tablePath(tableId)}/faces/${encodeURIComponent(code)}/enroll`, { token: refereeToken }),
  postFrame: (tableId: string, cameraToken: string | null, frame: Blob, captureTimeMs: number) =>
    request<FrameObservationsMessage>('POST', `${tablePath(tableId)}/frames`, {
      token: cameraToken,
      rawBody: frame,
      headers: { 'content-type': frame.type || 'image/jpeg', 'x-capture-time': String(captureTimeMs) },
    }),
  startHand: (tableId: string, refereeToken: string | null) =>
    request<TableView>('POST', `${tablePath(tableId)}/hands`, { token: refereeToken, body: {} }),
  endHand: (tableId: string, refereeToken: string | null) =>
    request<TableView>('POST', `${tablePath(tableId)}/hands/end`, { token: refereeToken, body: {} }),
  call: (tableId: string, refereeToken: string | null, player: string) =>
    request<TableView>('POST', `${tablePath(tableId)}/call`, { token: refereeToken, body: { player } }),
  overrule: (tableId: string, refereeToken: string | null, disputeId: string, winner: string) =>
    request<TableView>('POST', `${tablePath(tableId)}/disputes/${encodeURIComponent(disputeId)}/overrule`, {
      token: refereeToken,
      body: { winner },
    }),
  correct: (
    tableId: string,
    refereeToken: string | null,
    correction: { player: string; centreCards?: number; nertsLeft?: number; reason: string },
  ) => request<TableView>('POST', `${tablePath(tableId)}/corrections`, { token: refereeToken, body: correction }),
  events: (tableId: string, token: string | null, after?: number, limit?: number) => {
    const query = new URLSearchParams();
    if (after !== undefined) query.set('after', String(after));
    if (limit !== undefined) query.set('limit', String(limit));
    const suffix = query.size ? `?${query}` : '';
    return request<LoggedEvent[]>('GET', `${tablePath(tableId)}/events${suffix}`, { token });
  },
  history: (tableId: string, token: string | null) => request<unknown>('GET', `${tablePath(tableId)}/history.json`, { token }),
};

/** URL of a token-protected resource an <img> or <a download> loads (they cannot send headers). */
export function tableResourceUrl(tableId: string, resource: string, token: string | null, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams(extra);
  if (token) query.set('token', token);
  const suffix = query.size ? `?${query}` : '';
  return `${tablePath(tableId)}/${resource}${suffix}`;
}

/** Path of a live or camera socket with its token in the query (browsers cannot set socket headers). */
export function tableSocketPath(tableId: string, kind: 'live' | 'camera', token: string): string {
  return `${tablePath(tableId)}/${kind}?token=${encodeURIComponent(token)}`;
}
