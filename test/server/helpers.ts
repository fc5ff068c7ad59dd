/**
 * Test helpers: a server on a temporary data dir with the fake recogniser, a standard table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach } from 'vitest';
import { buildApp } from '../../server/app';
import type { ServerConfig } from '../../server/plugins/config';
import type { CreatedTable, ServerMessage } from '../../server/protocol';

/** Waits until `check()` holds, polling every 20 ms; throws after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 8000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A fresh data directory (removed by the returned cleanup). */
export function tempDataDir(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'nerts-server-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An app with the fake recogniser on `dataDir`, no static client. */
export async function testApp(dataDir: string, overrides: Partial<ServerConfig> = {}): Promise<FastifyInstance> {
  const app = await buildApp({ dataDir, recognizer: 'fake', workers: 1, clientDist: null, ...overrides });
  await app.ready();
  return app;
}

/**
 * A fresh app (fake recogniser, empty temporary data dir) for every test of the calling describe
 * block, closed and removed after it. A test may replace `app` (a restart on the same dataDir);
 * the replacement is closed too.
 */
export function appPerTest(): { app: FastifyInstance; dataDir: string } {
  const server = {} as { app: FastifyInstance; dataDir: string };
  let cleanup = (): void => {};
  beforeEach(async () => {
    const data = tempDataDir();
    cleanup = data.cleanup;
    server.dataDir = data.dir;
    server.app = await testApp(data.dir);
  });
  afterEach(async () => {
    await server.app.close();
    cleanup();
  });
  return server;
}

/** Creates a two-player table through the API. */
export async function createTable(app: FastifyInstance, extra: Record<string, unknown> = {}): Promise<CreatedTable> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/tables',
    payload: {
      name: 'Test table',
      seats: [
        { playerId: 'ann', name: 'Ann' },
        { playerId: 'bob', name: 'Bob' },
      ],
      ...extra,
    },
  });
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`);
  return response.json() as CreatedTable;
}

/** Collects a socket's JSON messages; `next(type)` gives the first not-yet-taken one of that type (waiting if needed). */
export function collect(socket: { on(event: 'message', listener: (data: Buffer) => void): void }) {
  const messages: ServerMessage[] = [];
  const taken = new Set<number>();
  const waiters: Array<{ type: string; resolve: (message: ServerMessage) => void }> = [];
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString()) as ServerMessage;
    messages.push(message);
    const waiter = waiters.find((w) => w.type === message.type);
    if (waiter) {
      taken.add(messages.length - 1);
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  });
  return {
    messages,
    next<T extends ServerMessage['type']>(type: T, timeoutMs = 5000): Promise<Extract<ServerMessage, { type: T }>> {
      const index = messages.findIndex((m, i) => m.type === type && !taken.has(i));
      if (index >= 0) {
        taken.add(index);
        return Promise.resolve(messages[index] as Extract<ServerMessage, { type: T }>);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${type} message within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          type,
          resolve: (message) => {
            clearTimeout(timer);
            resolve(message as Extract<ServerMessage, { type: T }>);
          },
        });
      });
    },
  };
}

/** Opens a socket with a collector attached before the server's first message. */
export async function openSocket(app: FastifyInstance, url: string) {
  let inbox: ReturnType<typeof collect> | null = null;
  const socket = await app.injectWS(url, {}, { onInit: (ws) => { inbox = collect(ws as unknown as Parameters<typeof collect>[0]); } });
  return { socket, inbox: inbox! as ReturnType<typeof collect> };
}
