import { describe, expect, it } from 'vitest';
import { encodeFakeFrame } from '../../server/vision/fake-recognizer';
import { appPerTest, createTable, testApp } from './helpers';

describe('REST API', () => {
  const server = appPerTest();

  it('reports health and the protocol version', async () => {
    const response = await server.app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ ok: true, protocolVersion: 1 });
  });

  it('creates a table and returns three distinct tokens and page URLs', async () => {
    const created = await createTable(server.app);
    expect(created.table.seats.map((s) => s.deckId)).toEqual(['deck-ann', 'deck-bob']);
    expect(new Set(Object.values(created.tokens)).size).toBe(3);
    expect(created.urls.overlay).toContain(created.tokens.view);
    const list = await server.app.inject({ url: '/api/tables' });
    expect(list.json()).toHaveLength(1);
    expect(list.body).not.toContain(created.tokens.referee);
  });

  it('refuses bad setups with a clear 400', async () => {
    const one = await server.app.inject({ method: 'POST', url: '/api/tables', payload: { name: 'x', seats: [{ playerId: 'a', name: 'A' }] } });
    expect(one.statusCode).toBe(400);
    expect(one.json().code).toBe('request/invalid');
    const dup = await server.app.inject({ method: 'POST', url: '/api/tables', payload: { name: 'x', seats: [{ playerId: 'a', name: 'A' }, { playerId: 'a', name: 'B' }] } });
    expect(dup.json().code).toBe('table/bad-setup');
    const variant = await server.app.inject({ method: 'POST', url: '/api/tables', payload: { name: 'x', variant: 'nope', seats: [{ playerId: 'a', name: 'A' }, { playerId: 'b', name: 'B' }] } });
    expect(variant.statusCode).toBe(400);
    const garbage = await server.app.inject({ method: 'POST', url: '/api/tables', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(garbage.statusCode).toBe(400);
  });

  it('checks tokens: missing 401, wrong or too weak 403, right role 200', async () => {
    const { table, tokens } = await createTable(server.app);
    expect((await server.app.inject({ url: `/api/tables/${table.id}` })).statusCode).toBe(401);
    expect((await server.app.inject({ url: `/api/tables/${table.id}?token=nope` })).statusCode).toBe(403);
    expect((await server.app.inject({ url: `/api/tables/${table.id}`, headers: { authorization: `Bearer ${tokens.view}` } })).statusCode).toBe(200);
    expect((await server.app.inject({ url: `/api/tables/${table.id}?token=${tokens.camera}` })).statusCode).toBe(403);
    const viewerActs = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands?token=${tokens.view}`, payload: {} });
    expect(viewerActs.statusCode).toBe(403);
    expect(viewerActs.json().code).toBe('auth/forbidden');
    const refereeActs = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands?token=${tokens.referee}`, payload: {} });
    expect(refereeActs.statusCode).toBe(200);
    expect(refereeActs.json().phase).toBe('playing');
    expect((await server.app.inject({ url: `/api/tables/nope?token=${tokens.view}` })).statusCode).toBe(404);
  });

  it('recognises a POSTed frame and returns its observations', async () => {
    const { table, tokens } = await createTable(server.app);
    type Quad = [[number, number], [number, number], [number, number], [number, number]];
    const card = { kind: 'face' as const, code: 'AS' as const, confidence: 0.9, corners: [[10, 10], [73, 10], [73, 98], [10, 98]] as Quad };
    const under = { kind: 'face' as const, code: '9S' as const, confidence: 0.8, corners: [[60, 10], [123, 10], [123, 98], [60, 98]] as Quad, visible: [[73, 10], [123, 10], [123, 98], [73, 98]] as Quad };
    const response = await server.app.inject({
      method: 'POST',
      url: `/api/tables/${table.id}/frames?token=${tokens.camera}`,
      headers: { 'content-type': 'image/png', 'x-capture-time': '1234' },
      payload: encodeFakeFrame([card, under], 640, 360),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ timestampMs: 1234, width: 640, height: 360 });
    expect(body.cards[0].code).toBe('AS');
    // A card read by its index from under another keeps the strip that shows.
    expect(body.cards[1]).toMatchObject({ code: '9S', visible: under.visible });
  });

  it('refuses malformed, oversized and bomb frames with 4xx and keeps serving', async () => {
    const { table, tokens } = await createTable(server.app);
    const url = `/api/tables/${table.id}/frames?token=${tokens.camera}`;
    const text = await server.app.inject({ method: 'POST', url, headers: { 'content-type': 'image/jpeg' }, payload: Buffer.from('hello, not a jpeg') });
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe('frame/unsupported-format');
    const truncated = await server.app.inject({ method: 'POST', url, headers: { 'content-type': 'image/jpeg' }, payload: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]) });
    expect(truncated.statusCode).toBe(400);
    // A PNG header claiming 60000 x 60000 pixels: refused before decoding.
    const bomb = Buffer.from(encodeFakeFrame([], 16, 16));
    bomb.writeUInt32BE(60000, 16);
    bomb.writeUInt32BE(60000, 20);
    const bombed = await server.app.inject({ method: 'POST', url, headers: { 'content-type': 'image/png' }, payload: bomb });
    expect(bombed.statusCode).toBe(413);
    expect(bombed.json().code).toBe('frame/too-many-pixels');
    const huge = await server.app.inject({ method: 'POST', url, headers: { 'content-type': 'image/png' }, payload: Buffer.alloc(9 * 1024 * 1024) });
    expect(huge.statusCode).toBe(413);
    const wrongType = await server.app.inject({ method: 'POST', url, headers: { 'content-type': 'text/plain' }, payload: 'x' });
    expect(wrongType.statusCode).toBe(415);
    expect((await server.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });

  it('survives random bytes as frames (seeded fuzz)', async () => {
    const { table, tokens } = await createTable(server.app);
    let seed = 1234;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const prefixes = [[0xff, 0xd8, 0xff], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBP')], []];
    for (let i = 0; i < 40; i += 1) {
      const length = Math.floor(random() * 200);
      const bytes = Buffer.from([...prefixes[i % prefixes.length], ...Array.from({ length }, () => Math.floor(random() * 256))]);
      const response = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/frames?token=${tokens.camera}`, headers: { 'content-type': 'image/jpeg' }, payload: bytes });
      expect(response.statusCode, `seed 1234, case ${i}`).toBeGreaterThanOrEqual(200);
      expect(response.statusCode, `seed 1234, case ${i}`).toBeLessThan(500);
    }
  });

  it('answers CORS preflights only for allowed origins', async () => {
    await server.app.close();
    server.app = await testApp(server.dataDir, { corsOrigins: ['https://overlay.example'] });
    const allowed = await server.app.inject({ method: 'OPTIONS', url: '/api/tables', headers: { origin: 'https://overlay.example', 'access-control-request-method': 'POST' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://overlay.example');
    const refused = await server.app.inject({ method: 'OPTIONS', url: '/api/tables', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('rate-limits REST requests per IP with a 429 in the usual error shape', async () => {
    await server.app.close();
    server.app = await testApp(server.dataDir, { rateLimitPerMinute: 3 });
    const codes: number[] = [];
    for (let i = 0; i < 5; i += 1) codes.push((await server.app.inject({ url: '/api/health' })).statusCode);
    expect(codes.slice(0, 3)).toEqual([200, 200, 200]);
    const limited = await server.app.inject({ url: '/api/health' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('request/rate-limited');
  });

  it('saves calibration, serves OpenAPI docs, exports history', async () => {
    const { table, tokens } = await createTable(server.app);
    const calibration = {
      imageWidth: 1280,
      imageHeight: 720,
      imageCorners: [[100, 50], [1180, 50], [1180, 670], [100, 670]],
      tableWidthMm: 1200,
      tableHeightMm: 800,
      zones: [{ id: 'centre', kind: 'centre', polygonMm: [[-200, -150], [200, -150], [200, 150], [-200, 150]] }],
    };
    const put = await server.app.inject({ method: 'PUT', url: `/api/tables/${table.id}/calibration?token=${tokens.referee}`, payload: calibration });
    expect(put.statusCode).toBe(200);
    const get = await server.app.inject({ url: `/api/tables/${table.id}/calibration?token=${tokens.view}` });
    expect(get.json()).toEqual(calibration);
    const state = await server.app.pool.inspect(table.id);
    expect((state as { calibration: unknown }).calibration).toEqual(calibration);
    const docs = await server.app.inject({ url: '/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json().paths)).toContain('/api/tables/{id}/frames');
    const csv = await server.app.inject({ url: `/api/tables/${table.id}/history.csv?token=${tokens.view}` });
    expect(csv.body.split('\n')[0]).toBe('match,hand,player,team,centreCards,nertsLeft,bonus,handScore,total,rank');
  });
});
