import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { encodeFakeFrame } from '../../server/vision/fake-recognizer';
import type { CardObservation } from '../../server/vision/types';
import { appPerTest, createTable, openSocket, tempDataDir, testApp, until } from './helpers';
import { face } from '../tracker/observations';

/** A camera-socket message: 8-byte little-endian capture time, then the image. */
function cameraMessage(timeMs: number, cards: CardObservation[]): Buffer {
  const header = Buffer.alloc(8);
  header.writeDoubleLE(timeMs, 0);
  return Buffer.concat([header, encodeFakeFrame(cards, 320, 180)]);
}

const CENTRE = 'centre';

/** Sends one frame and waits until the pipeline has taken it (processed or dropped). */
async function sendProcessed(app: FastifyInstance, tableId: string, camera: { send(data: Buffer): void }, message: Buffer): Promise<void> {
  const live = app.tables.get(tableId)!;
  const before = live.stats().framesProcessed + live.stats().framesDropped;
  camera.send(message);
  await until(() => live.stats().framesProcessed + live.stats().framesDropped > before);
}

describe('live pipeline: camera socket → worker → tracker → rules → viewers', () => {
  const server = appPerTest();

  it('streams frames in, events and views out; viewers get the snapshot first', async () => {
    const { table, tokens } = await createTable(server.app);
    await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands?token=${tokens.referee}`, payload: {} });
    const { socket: viewer, inbox } = await openSocket(server.app, `/api/tables/${table.id}/live?token=${tokens.view}`);
    const snapshot = await inbox.next('snapshot');
    expect(snapshot.view.phase).toBe('playing');
    const camera = await server.app.injectWS(`/api/tables/${table.id}/camera?token=${tokens.camera}`);
    const played = inbox.next('event');
    // Sent slowly enough that the single worker sees each frame (latest frame wins otherwise).
    // Owners are decided a second after landing: 16 frames at 10 fps.
    for (let i = 0; i < 16; i += 1) await sendProcessed(server.app, table.id, camera, cameraMessage(1000 + i * 100, [face('AS', 160, 90, CENTRE)]));
    const entry = (await played).entry;
    expect(entry.event).toMatchObject({ type: 'card-played', card: 'AS', newPile: true });
    await until(() => inbox.messages.some((m) => m.type === 'view' && m.view.centreTotal === 1));
    camera.terminate();
    viewer.terminate();
  });

  it("times the referee's call on the camera's clock (frames timed from 0, as a simulated table's), between the right plays", async () => {
    const { table, tokens } = await createTable(server.app);
    await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands?token=${tokens.referee}`, payload: {} });
    const camera = await server.app.injectWS(`/api/tables/${table.id}/camera?token=${tokens.camera}`);
    for (let i = 0; i < 5; i += 1) await sendProcessed(server.app, table.id, camera, cameraMessage(1000 + i * 100, [face('AS', 160, 90, CENTRE)]));
    const called = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/call?token=${tokens.referee}`, payload: { player: 'ann' } });
    expect(called.statusCode).toBe(200);
    const log = (await server.app.inject({ url: `/api/tables/${table.id}/events?token=${tokens.view}` })).json() as Array<{ timeMs: number; event: { type: string } }>;
    const call = log.find((entry) => entry.event.type === 'call');
    // Just after the latest frame's capture time (1400), not the server's clock (about 1.7e12).
    expect(call?.timeMs).toBeGreaterThanOrEqual(1400);
    expect(call?.timeMs).toBeLessThan(1400 + 60_000);
    camera.terminate();
  });

  it('refuses a bad token with a close code and bad frames with an error message', async () => {
    const { table, tokens } = await createTable(server.app);
    const closed = new Promise<number>((resolve) => {
      void server.app.injectWS(`/api/tables/${table.id}/camera?token=${tokens.view}`, {}, { onInit: (ws) => ws.on('close', (code: number) => resolve(code)) });
    });
    expect(await closed).toBe(4003);
    const { socket: camera, inbox } = await openSocket(server.app, `/api/tables/${table.id}/camera?token=${tokens.camera}`);
    const error = inbox.next('error');
    camera.send(Buffer.from('definitely not an image, but binary'), { binary: true });
    expect((await error).code).toBe('frame/unsupported-format');
    const invalid = inbox.next('error');
    camera.send(JSON.stringify({ type: 'launch-missiles' }));
    expect((await invalid).code).toBe('message/invalid');
    camera.terminate();
    expect((await server.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });

  it('drops stale frames when recognition is slower than the camera (latest frame wins)', async () => {
    await server.app.close();
    server.app = await testApp(server.dataDir, { fakeRecognizer: { delayMs: 60 } });
    const { table, tokens } = await createTable(server.app);
    const camera = await server.app.injectWS(`/api/tables/${table.id}/camera?token=${tokens.camera}`);
    for (let i = 0; i < 40; i += 1) camera.send(cameraMessage(i * 10, []));
    const live = server.app.tables.get(table.id)!;
    await until(() => live.stats().framesProcessed + live.stats().framesDropped >= 40);
    const stats = live.stats();
    expect(stats.framesReceived).toBe(40);
    expect(stats.framesDropped).toBeGreaterThan(20);
    expect(stats.framesProcessed).toBeGreaterThan(0);
    camera.terminate();
  });

  it('closes a camera socket that sends a frame over the byte limit (1009)', async () => {
    const { table, tokens } = await createTable(server.app);
    let closeCode = 0;
    const camera = await server.app.injectWS(`/api/tables/${table.id}/camera?token=${tokens.camera}`, {}, { onInit: (ws) => ws.on('close', (code: number) => (closeCode = code)) });
    camera.send(Buffer.alloc(9 * 1024 * 1024, 1));
    await until(() => closeCode !== 0);
    expect(closeCode).toBe(1009);
    expect((await server.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });

  it('closes a client that speaks another protocol version', async () => {
    const { table, tokens } = await createTable(server.app);
    let closeCode = 0;
    const viewer = await server.app.injectWS(`/api/tables/${table.id}/live?token=${tokens.view}`, {}, { onInit: (ws) => ws.on('close', (code: number) => (closeCode = code)) });
    viewer.send(JSON.stringify({ type: 'hello', protocolVersion: 999 }));
    await until(() => closeCode !== 0);
    expect(closeCode).toBe(4010);
  });

  it('resumes mid-hand after a restart with nothing lost', async () => {
    const { table, tokens } = await createTable(server.app);
    await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands?token=${tokens.referee}`, payload: {} });
    const camera = await server.app.injectWS(`/api/tables/${table.id}/camera?token=${tokens.camera}`);
    for (let i = 0; i < 16; i += 1) await sendProcessed(server.app, table.id, camera, cameraMessage(1000 + i * 100, [face('AS', 160, 90, CENTRE)]));
    const live = server.app.tables.get(table.id)!;
    await until(() => live.view().centreTotal === 1);
    camera.terminate();
    const before = live.view();
    await server.app.close();

    server.app = await testApp(server.dataDir);
    const after = await server.app.inject({ url: `/api/tables/${table.id}?token=${tokens.view}` });
    expect(after.statusCode).toBe(200);
    expect(after.json().view).toEqual(before);
    // The tracker resumes too: the next card lands on the same pile.
    const camera2 = await server.app.injectWS(`/api/tables/${table.id}/camera?token=${tokens.camera}`);
    for (let i = 0; i < 16; i += 1) await sendProcessed(server.app, table.id, camera2, cameraMessage(3000 + i * 100, [face('2S', 160, 90, CENTRE)]));
    const resumed = server.app.tables.get(table.id)!;
    await until(() => resumed.view().centreTotal === 2);
    expect(resumed.view().foundations).toHaveLength(1);
    camera2.terminate();
  });

  it('scores a hand through referee actions and exports it', async () => {
    const { table, tokens } = await createTable(server.app);
    const auth = { authorization: `Bearer ${tokens.referee}` };
    await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands`, headers: auth, payload: {} });
    const rotation = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/rotation`, headers: auth, payload: {} });
    expect(rotation.statusCode).toBe(200);
    const call = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/call`, headers: auth, payload: { player: 'ann' } });
    expect(call.statusCode).toBe(200);
    expect(call.json()).toMatchObject({ phase: 'called', calledBy: 'ann', frozen: true });
    const again = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/call`, headers: auth, payload: { player: 'bob' } });
    expect(again.statusCode).toBe(409);
    const ended = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands/end`, headers: auth, payload: {} });
    expect(ended.statusCode).toBe(200);
    expect(ended.json().scores).toHaveLength(2);
    const corrected = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/corrections`, headers: auth, payload: { player: 'bob', nertsLeft: 5, reason: 'counted at the sort' } });
    expect(corrected.statusCode).toBe(200);
    const bob = corrected.json().scores.find((row: { player: string }) => row.player === 'bob');
    expect(bob.nertsLeft).toBe(5);
    // A correction after scoring re-scores the hand (nertz: -2 per Nerts card) and the totals.
    expect(bob).toMatchObject({ handScore: -10, total: -10 });
    const events = await server.app.inject({ url: `/api/tables/${table.id}/events?token=${tokens.view}` });
    expect(events.json().map((e: { event: { type: string } }) => e.event.type), events.body).toEqual(['hand-started', 'stuck-rotation', 'call', 'call', 'hand-ended', 'correction']);
    // The refused second call stays in the log, with its violation.
    expect(events.json()[3].violations[0].code).toBe('hand/already-called');
    const csv = await server.app.inject({ url: `/api/tables/${table.id}/history.csv?token=${tokens.view}` });
    expect(csv.body.trim().split('\n')).toHaveLength(3);
    const json = await server.app.inject({ url: `/api/tables/${table.id}/history.json?token=${tokens.view}` });
    expect(json.json().hands[0].scores).toHaveLength(2);
    expect(json.json().hands[0].scores.find((row: { player: string }) => row.player === 'bob')).toMatchObject({ nertsLeft: 5, handScore: -10 });
  });
});

describe('pipeline stability over many frames', () => {
  it('500 frames through the socket leave no job, waiting frame or unbounded memory behind', async () => {
    const data = tempDataDir();
    const app = await testApp(data.dir);
    try {
      const { table, tokens } = await createTable(app);
      await app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands?token=${tokens.referee}`, payload: {} });
      const camera = await app.injectWS(`/api/tables/${table.id}/camera?token=${tokens.camera}`);
      const live = app.tables.get(table.id)!;
      const heapBefore = process.memoryUsage().heapUsed;
      for (let i = 0; i < 500; i += 1) {
        camera.send(cameraMessage(i * 33, i % 50 < 25 ? [face('AS', 160, 90, CENTRE)] : []));
        if (i % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      // Frames over the per-socket rate limit (120/s) are refused and counted as rejected.
      await until(() => {
        const s = live.stats();
        return s.framesReceived + s.framesRejected >= 500 && s.framesProcessed + s.framesDropped >= s.framesReceived;
      }, 20_000);
      await until(() => app.pool.pendingJobCount() === 0);
      const stats = live.stats();
      expect(stats.framesReceived + stats.framesRejected).toBe(500);
      expect(stats.framesProcessed + stats.framesDropped).toBe(stats.framesReceived);
      expect(stats.framesProcessed).toBeGreaterThan(0);
      // The recent-frame ring keeps 4 frames of ~2 KB: the heap must not hold 500 frames' worth.
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
      camera.terminate();
    } finally {
      await app.close();
      data.cleanup();
    }
  });
});
