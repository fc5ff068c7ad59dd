/**
 * Enrolling decks through the API: a deck's back and a face that reads badly, each from the
 * latest camera frame, kept in the store and enrolled again after a restart.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { encodeFakeFrame, type FakeRecognizerState } from '../../server/vision/fake-recognizer';
import type { CardObservation } from '../../server/vision/types';
import { appPerTest, createTable, testApp, until } from './helpers';
import { face } from '../tracker/observations';

/** Sends one camera frame showing `cards` and waits until the pipeline has read it. */
async function showToCamera(app: FastifyInstance, tableId: string, token: string, cards: CardObservation[]): Promise<void> {
  const camera = await app.injectWS(`/api/tables/${tableId}/camera?token=${token}`);
  const live = app.tables.get(tableId)!;
  const header = Buffer.alloc(8);
  header.writeDoubleLE(1000, 0);
  camera.send(Buffer.concat([header, encodeFakeFrame(cards, 320, 180)]));
  await until(() => live.latestObservations !== null);
  camera.terminate();
}

const recognizerState = async (app: FastifyInstance, tableId: string) => (await app.pool.inspect(tableId)) as FakeRecognizerState;

describe('enrolment (backs and faces) survives a restart', () => {
  const server = appPerTest();

  it('enrols a back and a face from the latest frame, and enrols both again after a restart', async () => {
    const { table, tokens } = await createTable(server.app);
    const url = (path: string) => `/api/tables/${table.id}/${path}?token=${tokens.referee}`;
    // Nothing seen yet: a clear 409, nothing enrolled.
    const early = await server.app.inject({ method: 'POST', url: url('faces/QH/enroll'), payload: {} });
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json().code).toBe('frame/none-yet');

    await showToCamera(server.app, table.id, tokens.camera, [face('QH', 160, 90, 'centre', 0.4)]);
    const back = await server.app.inject({ method: 'POST', url: url('decks/deck-ann/enroll'), payload: { corners: [[130, 48], [190, 48], [190, 132], [130, 132]] } });
    expect(back.statusCode).toBe(200);
    expect(back.json().enrolledDecks).toEqual(['deck-ann']);
    // The face's outline is the card the recogniser saw (however it read it).
    const faceEnrol = await server.app.inject({ method: 'POST', url: url('faces/QH/enroll'), payload: {} });
    expect(faceEnrol.statusCode).toBe(200);
    expect(await recognizerState(server.app, table.id)).toMatchObject({ enrolledBacks: ['deck-ann'], enrolledFaces: ['QH'] });

    await server.app.close();
    server.app = await testApp(server.dataDir);
    const live = server.app.tables.get(table.id)!;
    await live.enrolmentsRestored;
    expect(live.enrolmentRestoreError).toBeNull();
    expect(await recognizerState(server.app, table.id)).toMatchObject({ enrolledBacks: ['deck-ann'], enrolledFaces: ['QH'] });
    const info = await server.app.inject({ url: `/api/tables/${table.id}?token=${tokens.view}` });
    expect(info.json().table.enrolledDecks).toEqual(['deck-ann']);
  });

  it('keeps up to 5 views of a back (the oldest dropped), starts over on replace, and restores the views after a restart', async () => {
    const { table, tokens } = await createTable(server.app);
    const url = `/api/tables/${table.id}/decks/deck-ann/enroll?token=${tokens.referee}`;
    const corners = [[130, 48], [190, 48], [190, 132], [130, 132]];
    await showToCamera(server.app, table.id, tokens.camera, [face('QH', 160, 90, 'centre', 0.4)]);
    const counts: number[] = [];
    for (let k = 0; k < 6; k++) {
      const added = await server.app.inject({ method: 'POST', url, payload: { corners } });
      expect(added.statusCode, added.body).toBe(200);
      counts.push(added.json().backViews['deck-ann']);
    }
    expect(counts).toEqual([1, 2, 3, 4, 5, 5]);
    expect((await recognizerState(server.app, table.id)).backViews).toEqual({ 'deck-ann': 5 });

    await server.app.close();
    server.app = await testApp(server.dataDir);
    await server.app.tables.get(table.id)!.enrolmentsRestored;
    expect((await recognizerState(server.app, table.id)).backViews).toEqual({ 'deck-ann': 5 });
    const info = await server.app.inject({ url: `/api/tables/${table.id}?token=${tokens.view}` });
    expect(info.json().table.backViews).toEqual({ 'deck-ann': 5 });
    // Each view can be looked at (a viewer may), as cropped: the back's outline warped upright.
    const viewUrl = (index: number) => `/api/tables/${table.id}/decks/deck-ann/views/${index}?token=${tokens.view}`;
    const oldest = await server.app.inject({ url: viewUrl(0) });
    expect(oldest.statusCode).toBe(200);
    expect(oldest.headers['content-type']).toBe('image/png');
    expect(await sharp(oldest.rawPayload).metadata()).toMatchObject({ width: 60, height: 84 });
    expect((await server.app.inject({ url: viewUrl(4) })).statusCode).toBe(200);
    expect((await server.app.inject({ url: viewUrl(5) })).statusCode).toBe(400);

    // A bad first view: start over from the next one, and a restart keeps only that.
    await showToCamera(server.app, table.id, tokens.camera, [face('QH', 160, 90, 'centre', 0.4)]);
    const replaced = await server.app.inject({ method: 'POST', url, payload: { corners, replace: true } });
    expect(replaced.json().backViews).toEqual({ 'deck-ann': 1 });
    expect((await recognizerState(server.app, table.id)).backViews).toEqual({ 'deck-ann': 1 });
    expect((await server.app.inject({ url: viewUrl(1) })).json().code).toBe('enroll/no-view');
    await server.app.close();
    server.app = await testApp(server.dataDir);
    await server.app.tables.get(table.id)!.enrolmentsRestored;
    expect((await recognizerState(server.app, table.id)).backViews).toEqual({ 'deck-ann': 1 });
  });

  it('keeps up to 5 views of a face, forgets one enrolled as the wrong card, and a restart keeps what is left', async () => {
    const { table, tokens } = await createTable(server.app);
    const url = (code: string) => `/api/tables/${table.id}/faces/${code}/enroll?token=${tokens.referee}`;
    await showToCamera(server.app, table.id, tokens.camera, [face('KH', 160, 90, 'centre', 0.4)]);
    for (let k = 0; k < 6; k++) expect((await server.app.inject({ method: 'POST', url: url('QH'), payload: {} })).statusCode).toBe(200);
    const wrong = await server.app.inject({ method: 'POST', url: url('QD'), payload: {} });
    expect(wrong.json().faceViews).toEqual({ QH: 5, QD: 1 });
    expect((await recognizerState(server.app, table.id)).faceViews).toEqual({ QH: 5, QD: 1 });

    // The QD was the wrong pick: forget it (a referee may; a viewer may not).
    expect((await server.app.inject({ method: 'DELETE', url: `/api/tables/${table.id}/faces/QD/enroll?token=${tokens.view}` })).statusCode).toBe(403);
    const forgot = await server.app.inject({ method: 'DELETE', url: url('QD') });
    expect(forgot.statusCode, forgot.body).toBe(200);
    expect(forgot.json().faceViews).toEqual({ QH: 5 });
    expect((await recognizerState(server.app, table.id)).enrolledFaces).toEqual(['QH']);
    const again = await server.app.inject({ method: 'DELETE', url: url('QD') });
    expect([again.statusCode, again.json().code]).toEqual([404, 'enroll/not-enrolled']);

    await server.app.close();
    server.app = await testApp(server.dataDir);
    await server.app.tables.get(table.id)!.enrolmentsRestored;
    expect((await recognizerState(server.app, table.id)).faceViews).toEqual({ QH: 5 });
    expect((await server.app.inject({ url: `/api/tables/${table.id}?token=${tokens.view}` })).json().table.faceViews).toEqual({ QH: 5 });
  });

  it('rejects a bad card code, a frame with no card, and a viewer', async () => {
    const { table, tokens } = await createTable(server.app);
    const bad = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/faces/ZZ/enroll?token=${tokens.referee}`, payload: {} });
    expect(bad.statusCode).toBe(400);
    await showToCamera(server.app, table.id, tokens.camera, []);
    const empty = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/faces/7C/enroll?token=${tokens.referee}`, payload: {} });
    expect(empty.statusCode).toBe(409);
    expect(empty.json().code).toBe('enroll/no-card');
    const viewer = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/faces/7C/enroll?token=${tokens.view}`, payload: {} });
    expect(viewer.statusCode).toBe(403);
    expect((await recognizerState(server.app, table.id)).enrolledFaces).toEqual([]);
  });
});
