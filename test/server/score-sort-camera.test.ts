/**
 * The live table with the fake recogniser: an uncalibrated table tracks plays with the default
 * zone layout, and during the score sort the camera's back count reaches the view pushed to
 * viewers, where a correction can adopt it.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { encodeFakeFrame } from '../../server/vision/fake-recognizer';
import type { CardObservation, Quad } from '../../server/vision/types';
import type { CardCode } from '../../server/game/cards';
import type { TableView } from '../../server/protocol';
import { appPerTest, createTable, openSocket, until } from './helpers';

/** A camera-socket message: 8-byte little-endian capture time, then a 1280x720 image. */
function cameraMessage(timeMs: number, cards: CardObservation[]): Buffer {
  const header = Buffer.alloc(8);
  header.writeDoubleLE(timeMs, 0);
  return Buffer.concat([header, encodeFakeFrame(cards)]);
}

/** A card centred at (x, y) pixels as the recogniser reports it on an uncalibrated table: no zone. */
function seen(x: number, y: number, card: { code: CardCode } | { backId: string }): CardObservation {
  const corners: Quad = [[x - 30, y - 42], [x + 30, y - 42], [x + 30, y + 42], [x - 30, y + 42]];
  return 'code' in card ? { kind: 'face', code: card.code, confidence: 0.95, corners } : { kind: 'back', backId: card.backId, confidence: 0.9, corners };
}

/** A scripted camera: frames 100 ms apart in capture time, each taken by the pipeline before the next. */
async function scriptedCamera(app: FastifyInstance, tableId: string, token: string) {
  const live = app.tables.get(tableId)!;
  const camera = await app.injectWS(`/api/tables/${tableId}/camera?token=${token}`);
  let timeMs = 10_000;
  return {
    async show(cards: CardObservation[], times = 1): Promise<void> {
      for (let i = 0; i < times; i += 1) {
        const before = live.stats().framesProcessed + live.stats().framesDropped;
        camera.send(cameraMessage(timeMs, cards));
        timeMs += 100;
        await until(() => live.stats().framesProcessed + live.stats().framesDropped > before);
      }
    },
    close: () => camera.terminate(),
  };
}

/** Ann (seat 0, the bottom edge of the default layout) carries `code` from her Nerts pile onto the pile in the middle. */
async function annPlays(camera: Awaited<ReturnType<typeof scriptedCamera>>, code: CardCode, under: CardObservation[]): Promise<void> {
  await camera.show([...under, seen(640, 660, { code })], 4);
  for (const y of [600, 520, 440]) await camera.show([...under, seen(640, y, { code })]);
  await camera.show([seen(640, 360, { code })], 16);
}

describe('uncalibrated camera table: the default zone layout', () => {
  const server = appPerTest();

  it('tracks plays from cards the recogniser gave no zone, and says it uses the default layout until calibrated', async () => {
    const { table, tokens } = await createTable(server.app);
    expect(table).toMatchObject({ calibrated: false, zoneLayout: 'default' });
    await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands?token=${tokens.referee}`, payload: {} });
    const camera = await scriptedCamera(server.app, table.id, tokens.camera);
    await annPlays(camera, 'AS', []);
    camera.close();
    const live = server.app.tables.get(table.id)!;
    await until(() => live.view().centreTotal === 1);
    expect(live.view().players.find((player) => player.id === 'ann')?.centreCards).toBe(1);
    expect(live.latestObservations?.cards[0].zone).toBe('centre');

    const calibration = { imageWidth: 1280, imageHeight: 720, imageCorners: [[0, 0], [1280, 0], [1280, 720], [0, 720]], tableWidthMm: 1200, tableHeightMm: 800, zones: [] };
    const saved = await server.app.inject({ method: 'PUT', url: `/api/tables/${table.id}/calibration?token=${tokens.referee}`, payload: calibration });
    expect(saved.statusCode).toBe(200);
    const info = await server.app.inject({ url: `/api/tables/${table.id}?token=${tokens.view}` });
    expect(info.json().table).toMatchObject({ calibrated: true, zoneLayout: 'calibrated' });
  });
});

describe('score sort: the camera counts the sorted backs', () => {
  const server = appPerTest();

  it('pushes backs seen against centre cards credited after the call, and a correction adopts the camera count', async () => {
    const { table, tokens } = await createTable(server.app);
    const auth = { authorization: `Bearer ${tokens.referee}` };
    await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands`, headers: auth, payload: {} });
    const camera = await scriptedCamera(server.app, table.id, tokens.camera);
    await annPlays(camera, 'AS', []);
    await annPlays(camera, '2S', [seen(640, 360, { code: 'AS' })]);
    const live = server.app.tables.get(table.id)!;
    // Which frames the table asks the pool to read whole (at the score sort, one a second at most).
    const wholeReads: boolean[] = [];
    const offer = server.app.pool.offer.bind(server.app.pool);
    server.app.pool.offer = (tableId, frame) => {
      wholeReads.push(frame.everyCard === true);
      offer(tableId, frame);
    };
    await until(() => live.view().players.find((player) => player.id === 'ann')?.centreCards === 2);
    // Backs seen while playing are not the score sort: nothing to check yet.
    await camera.show([seen(640, 360, { code: '2S' }), seen(200, 660, { backId: 'deck-ann' })], 3);
    expect(live.view().backCheck).toBeUndefined();

    const call = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/call`, headers: auth, payload: { player: 'ann' } });
    expect(call.json().backCheck).toBeUndefined();
    const { socket: viewer, inbox } = await openSocket(server.app, `/api/tables/${table.id}/live?token=${tokens.view}`);
    await inbox.next('snapshot');

    // The sort: Ann's two cards turned over, but a hand covers one in a frame; Ann's own stock (seat zone) is not counted.
    const annStock = seen(200, 660, { backId: 'deck-ann' });
    const oneBack = [seen(560, 360, { backId: 'deck-ann' }), annStock];
    const twoBacks = [seen(560, 360, { backId: 'deck-ann' }), seen(720, 360, { backId: 'deck-ann' }), annStock];
    await camera.show(twoBacks, 3);
    await camera.show(oneBack, 1);
    await camera.show(twoBacks, 2);
    const agreeing = (view: TableView) => view.backCheck?.players.find((player) => player.player === 'ann');
    // No frame of play was read whole; the sort's first frame was, and the next few (well within a second) were not.
    const sortFrames = wholeReads.slice(-6);
    expect(wholeReads.slice(0, -6).some(Boolean)).toBe(false);
    expect(sortFrames[0]).toBe(true);
    expect(sortFrames.filter(Boolean).length).toBeLessThanOrEqual(2);
    await until(() => inbox.messages.some((m) => m.type === 'view' && agreeing(m.view)?.backsSeen === 2));
    expect(live.view().backCheck?.players).toEqual([
      { player: 'ann', deckId: 'deck-ann', backsSeen: 2, centreCards: 2, agrees: true },
      { player: 'bob', deckId: 'deck-bob', backsSeen: 0, centreCards: 0, agrees: true },
    ]);

    // One of the two was really Bob's, as the camera now sees once the cards are spread.
    await camera.show([seen(560, 360, { backId: 'deck-ann' }), seen(720, 360, { backId: 'deck-bob' }), annStock], 25);
    const rest = await server.app.inject({ url: `/api/tables/${table.id}?token=${tokens.view}` });
    expect(rest.json().view.backCheck.players).toEqual([
      { player: 'ann', deckId: 'deck-ann', backsSeen: 1, centreCards: 2, agrees: false },
      { player: 'bob', deckId: 'deck-bob', backsSeen: 1, centreCards: 0, agrees: false },
    ]);

    // The referee adopts the camera's count for Ann (the card loses its owner), then gives it to Bob.
    const fixAnn = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/corrections`, headers: auth, payload: { player: 'ann', centreCards: 1, reason: 'camera back count' } });
    expect(fixAnn.statusCode).toBe(200);
    const fixBob = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/corrections`, headers: auth, payload: { player: 'bob', centreCards: 1, reason: 'camera back count' } });
    expect(fixBob.statusCode).toBe(200);
    expect(fixBob.json().backCheck.players.every((player: { agrees: boolean }) => player.agrees)).toBe(true);
    // A count the recorded plays cannot reach (the camera never saw a card of Bob's land) still
    // stands: the sort's count is the count. Lowering it again follows the new count.
    const centreOf = (view: TableView, id: string) => view.players.find((player) => player.id === id)?.centreCards;
    const raised = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/corrections`, headers: auth, payload: { player: 'bob', centreCards: 3, reason: 'counted by hand' } });
    expect(raised.statusCode).toBe(200);
    expect([centreOf(raised.json(), 'ann'), centreOf(raised.json(), 'bob')]).toEqual([1, 3]);
    expect(raised.json().violations.filter((v: { code: string }) => v.code === 'correction/bad-target')).toEqual([]);
    const lowered = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/corrections`, headers: auth, payload: { player: 'bob', centreCards: 1, reason: 'camera back count' } });
    expect(centreOf(lowered.json(), 'bob')).toBe(1);

    // Scoring freezes the count (frames after it change nothing); the next hand clears it.
    const ended = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands/end`, headers: auth, payload: {} });
    expect(ended.json().backCheck.players.map((player: { backsSeen: number }) => player.backsSeen)).toEqual([1, 1]);
    await camera.show([], 25);
    expect(live.view().backCheck?.players.map((player) => player.backsSeen)).toEqual([1, 1]);
    const events = await server.app.inject({ url: `/api/tables/${table.id}/events?token=${tokens.view}` });
    // The sort's frames (centre cards gone, backs in their place) add no table events of their own.
    expect(events.json().map((e: { event: { type: string } }) => e.event.type)).toEqual(['hand-started', 'card-played', 'card-played', 'call', 'correction', 'correction', 'correction', 'correction', 'hand-ended']);
    expect(events.json().filter((e: { event: { type: string } }) => e.event.type === 'correction').map((e: { event: { reason: string } }) => e.event.reason)).toEqual(['camera back count', 'camera back count', 'counted by hand', 'camera back count']);
    const next = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands`, headers: auth, payload: {} });
    expect(next.json().backCheck).toBeUndefined();
    camera.close();
    viewer.terminate();
  });
});

/** A 1280x720 checked cloth as packed RGB, with white cards centred at `cards`. */
async function clothPixels(cards: Array<[number, number]> = []): Promise<Uint8Array> {
  const checks: string[] = [];
  for (let y = 0; y < 720; y += 64) for (let x = (y / 64) % 2 === 0 ? 0 : 64; x < 1280; x += 128) checks.push(`<rect x="${x}" y="${y}" width="64" height="64" fill="#5a78a0"/>`);
  const rects = cards.map(([x, y]) => `<rect x="${x - 30}" y="${y - 42}" width="60" height="84" fill="#f4f4f8"/>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"><rect width="1280" height="720" fill="#c8d8ec"/>${checks.join('')}${rects.join('')}</svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer());
}

describe('score sort on a calibrated table: backs on the bare table', () => {
  const server = appPerTest();

  it('does not count a back read where the table looks as it did during play', async () => {
    const { table, tokens } = await createTable(server.app);
    const auth = { authorization: `Bearer ${tokens.referee}` };
    const calibration = { imageWidth: 1280, imageHeight: 720, imageCorners: [[0, 0], [1280, 0], [1280, 720], [0, 720]], tableWidthMm: 1200, tableHeightMm: 800, zones: [] };
    expect((await server.app.inject({ method: 'PUT', url: `/api/tables/${table.id}/calibration`, headers: auth, payload: calibration })).statusCode).toBe(200);
    await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands`, headers: auth, payload: {} });
    const live = server.app.tables.get(table.id)!;
    const camera = await server.app.injectWS(`/api/tables/${table.id}/camera?token=${tokens.camera}`);
    const show = async (timeMs: number, cards: CardObservation[], pixels: Uint8Array) => {
      const before = live.stats().framesProcessed + live.stats().framesDropped;
      const header = Buffer.alloc(8);
      header.writeDoubleLE(timeMs, 0);
      camera.send(Buffer.concat([header, encodeFakeFrame(cards, 1280, 720, pixels)]));
      await until(() => live.stats().framesProcessed + live.stats().framesDropped > before);
    };
    // Play: the camera sees the cloth every few seconds (the table learns its look).
    const cloth = await clothPixels();
    for (let k = 0; k < 4; k++) await show(10_000 + k * 4100, [], cloth);
    await until(() => (live as unknown as { background: { size: number } }).background.size === 4);
    expect((await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/call`, headers: auth, payload: { player: 'ann' } })).statusCode).toBe(200);
    // The sort: one card dealt at (560, 360); the recogniser also reads a "back" on the bare cloth.
    const dealt = await clothPixels([[560, 360]]);
    const backs = [seen(560, 360, { backId: 'deck-ann' }), seen(260, 560, { backId: 'deck-ann' })];
    for (let k = 0; k < 3; k++) await show(30_000 + k * 100, backs, dealt);
    await until(() => live.view().backCheck?.players.find((player) => player.player === 'ann')?.backsSeen === 1);
    // Then the cloth there changes (a card is dealt there too): both count. A card at the table's
    // very edge (a hand resting over it, read as a back) does not, changed as it is.
    const both = await clothPixels([[560, 360], [260, 560], [1270, 300]]);
    for (let k = 0; k < 3; k++) await show(30_400 + k * 100, [...backs, seen(1270, 300, { backId: 'deck-ann' })], both);
    await until(() => live.view().backCheck?.players.find((player) => player.player === 'ann')?.backsSeen === 2);
    await show(31_000, [...backs, seen(1270, 300, { backId: 'deck-ann' })], both);
    expect(live.view().backCheck?.players.find((player) => player.player === 'ann')?.backsSeen).toBe(2);
    camera.terminate();
  });
});

