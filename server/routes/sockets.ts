/**
 * WebSockets: the camera socket (binary frames in, acks out) and the live socket (table events
 * and views out). Every text message is validated against ClientMessageSchema before dispatch;
 * bad input gets an `error` message, repeated bad input or a bad token a close code.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { CLOSE_CODES, ClientMessageSchema, PROTOCOL_VERSION, type ClientMessage, type ServerMessage } from '../protocol';
import { ApiError } from '../plugins/errors';
import { FrameError, splitFrameMessage, validateFrame } from '../workers/frame-format';
import { TableParams, TokenQuery } from './tables';
import type { TableSocket } from '../tables/live-table';

const clientMessage = TypeCompiler.Compile(ClientMessageSchema);
/** Bad text messages in a row before the socket is closed. */
const MAX_BAD_MESSAGES = 5;

/** Minimal view of a ws socket's events (ws ships no types here). */
interface EventSocket extends TableSocket {
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): void;
  on(event: 'close', listener: () => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
}

function send(socket: TableSocket, message: ServerMessage): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}

/** Parses and validates one text message; null (after telling the client) when bad. */
function parseClientMessage(socket: TableSocket, raw: Buffer, strikes: { count: number }): ClientMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || !clientMessage.Check(parsed)) {
    strikes.count += 1;
    send(socket, { type: 'error', code: 'message/invalid', message: 'not a valid client message (see server/protocol.ts)' });
    if (strikes.count >= MAX_BAD_MESSAGES) socket.close(CLOSE_CODES.badMessage, 'too many invalid messages');
    return null;
  }
  strikes.count = 0;
  return parsed;
}

function closeCodeOf(error: unknown): number {
  if (error instanceof ApiError) return error.statusCode === 401 ? CLOSE_CODES.badToken : error.statusCode === 404 ? CLOSE_CODES.tableNotFound : CLOSE_CODES.forbidden;
  return CLOSE_CODES.forbidden;
}

/** `authorize()`'s access, or null after closing the socket with the refusal's close code and reason. */
function authorizeSocket<T>(socket: TableSocket, authorize: () => T): T | null {
  try {
    return authorize();
  } catch (error) {
    socket.close(closeCodeOf(error), error instanceof Error ? error.message.slice(0, 120) : 'forbidden');
    return null;
  }
}

/** Handles hello/ping shared by both sockets; returns true when handled. */
function handleCommon(socket: TableSocket, message: ClientMessage): boolean {
  if (message.type === 'hello') {
    if (message.protocolVersion !== PROTOCOL_VERSION) {
      send(socket, { type: 'error', code: 'protocol/mismatch', message: `server speaks protocol ${PROTOCOL_VERSION}, client ${message.protocolVersion}` });
      socket.close(CLOSE_CODES.protocolMismatch, 'protocol version mismatch');
    }
    return true;
  }
  if (message.type === 'ping') {
    send(socket, { type: 'pong', id: message.id, serverTimeMs: Date.now() });
    return true;
  }
  return false;
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/tables/:id/camera',
    { websocket: true, schema: { tags: ['sockets'], summary: 'Camera WebSocket: binary frames in (see docs/SERVER.md)', params: TableParams, querystring: TokenQuery } },
    (rawSocket, request) => {
      const socket = rawSocket as unknown as EventSocket;
      const table = authorizeSocket(socket, () => app.authorize(request, request.params.id, 'camera'))?.table;
      if (!table) return;
      const liveTable = table;
      const replaced = liveTable.attachCamera(socket);
      replaced?.close(CLOSE_CODES.replaced, 'a newer camera connected');
      send(socket, { type: 'welcome', protocolVersion: PROTOCOL_VERSION, tableId: liveTable.id, role: 'camera', serverTimeMs: Date.now() });
      const strikes = { count: 0 };
      let windowStart = Date.now();
      let framesInWindow = 0;
      let lastErrorSentMs = 0;
      const refuse = (code: string, message: string) => {
        liveTable.rejectFrame();
        // One error per second at most: a broken camera must not flood itself with answers.
        if (Date.now() - lastErrorSentMs >= 1000) {
          lastErrorSentMs = Date.now();
          send(socket, { type: 'error', code, message });
        }
      };
      socket.on('message', (data, isBinary) => {
        const bytes = toBuffer(data);
        if (!isBinary) {
          const message = parseClientMessage(socket, bytes, strikes);
          if (message) handleCommon(socket, message);
          return;
        }
        const now = Date.now();
        if (now - windowStart >= 1000) {
          windowStart = now;
          framesInWindow = 0;
        }
        framesInWindow += 1;
        if (framesInWindow > app.config.maxCameraFps) return refuse('frame/rate-limited', `more than ${app.config.maxCameraFps} frames per second`);
        if (liveTable.source !== 'camera') return refuse('table/source-sim', 'this table is fed by the simulator; switch its source to camera');
        const { captureTimeMs, image } = splitFrameMessage(bytes, now);
        try {
          const header = validateFrame(image, app.config.frameLimits);
          liveTable.acceptFrame(image, header, captureTimeMs);
        } catch (error) {
          if (error instanceof FrameError) refuse(error.code, error.message);
          else refuse('frame/malformed', 'unreadable frame');
        }
      });
      socket.on('close', () => liveTable.detachCamera(socket));
      socket.on('error', (error) => request.log.warn({ err: error }, 'camera socket error'));
    },
  );

  app.get(
    '/api/tables/:id/live',
    { websocket: true, schema: { tags: ['sockets'], summary: 'Live WebSocket: table events and views out (see server/protocol.ts)', params: TableParams, querystring: TokenQuery } },
    (rawSocket, request) => {
      const socket = rawSocket as unknown as EventSocket;
      const access = authorizeSocket(socket, () => app.authorize(request, request.params.id, 'view'));
      if (!access) return;
      const viewer = access.table.addViewer(socket, access.role);
      const strikes = { count: 0 };
      socket.on('message', (data, isBinary) => {
        if (isBinary) {
          send(socket, { type: 'error', code: 'message/binary', message: 'the live socket takes JSON text messages only' });
          return;
        }
        const message = parseClientMessage(socket, toBuffer(data), strikes);
        if (!message || handleCommon(socket, message)) return;
        if (message.type === 'subscribe') viewer.setObservations(message.observations);
      });
      socket.on('close', () => viewer.remove());
      socket.on('error', (error) => request.log.warn({ err: error }, 'live socket error'));
    },
  );
};

export default routes;
