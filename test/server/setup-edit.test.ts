/**
 * PUT /api/tables/:id/setup: editing seats, names, teams, handicaps, variant and target between
 * hands (auth, validation, the in-hand refusal, persistence across a restart, the log entry).
 */
import { describe, expect, it } from 'vitest';
import type { LoggedEvent, TableInfo, TableView } from '../../server/protocol';
import { appPerTest, createTable, testApp } from './helpers';

const edited = {
  name: 'Porch table',
  seats: [
    { playerId: 'ann', name: 'Annie', team: 'red' },
    { playerId: 'bob', name: 'Bob', team: 'red', nertsPileSize: 10 },
    { playerId: 'cy', name: 'Cy', team: 'blue' },
    { playerId: 'dee', name: 'Dee', team: 'blue' },
  ],
  variant: 'nertz',
  knobs: { scoring: { nertsPenalty: 1 } },
  target: 150,
};

describe('editing a table setup', () => {
  const server = appPerTest();

  const put = (id: string, token: string, payload: unknown) => server.app.inject({ method: 'PUT', url: `/api/tables/${id}/setup?token=${token}`, payload: payload as object });

  it('needs the referee token: view and camera tokens get 403, none 401', async () => {
    const { table, tokens } = await createTable(server.app);
    for (const token of [tokens.view, tokens.camera]) {
      const response = await put(table.id, token, edited);
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('auth/forbidden');
    }
    expect((await server.app.inject({ method: 'PUT', url: `/api/tables/${table.id}/setup`, payload: edited })).statusCode).toBe(401);
    const after = await server.app.inject({ url: `/api/tables/${table.id}?token=${tokens.view}` });
    expect((after.json().table as TableInfo).name).toBe('Test table');
  });

  it('refuses bad bodies with a clear 400, changing nothing', async () => {
    const { table, tokens } = await createTable(server.app);
    const oneSeat = await put(table.id, tokens.referee, { ...edited, seats: [edited.seats[0]] });
    expect(oneSeat.statusCode).toBe(400);
    expect(oneSeat.json().code).toBe('request/invalid');
    const sevenSeats = await put(table.id, tokens.referee, { ...edited, seats: Array.from({ length: 7 }, (_, i) => ({ playerId: `p${i}`, name: `P${i}` })) });
    expect(sevenSeats.statusCode).toBe(400);
    const duplicate = await put(table.id, tokens.referee, { ...edited, seats: [{ playerId: 'a', name: 'A' }, { playerId: 'a', name: 'B' }] });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json()).toMatchObject({ code: 'table/bad-setup', message: 'player ids must be unique' });
    const preset = await put(table.id, tokens.referee, { ...edited, variant: 'nope' });
    expect(preset.statusCode).toBe(400);
    expect(preset.json().code).toBe('table/bad-setup');
    const knob = await put(table.id, tokens.referee, { ...edited, knobs: { nertsPileSize: 'lots' } });
    expect(knob.statusCode).toBe(400);
    const pile = await put(table.id, tokens.referee, { ...edited, seats: [{ playerId: 'a', name: 'A', nertsPileSize: 0 }, { playerId: 'b', name: 'B' }] });
    expect(pile.statusCode).toBe(400);
    const after = await server.app.inject({ url: `/api/tables/${table.id}?token=${tokens.view}` });
    expect((after.json().table as TableInfo).seats.map((s) => s.name)).toEqual(['Ann', 'Bob']);
  });

  it('answers 409 while a hand is in progress (playing or awaiting its score) and allows it once scored', async () => {
    const { table, tokens } = await createTable(server.app);
    expect((await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands?token=${tokens.referee}`, payload: {} })).statusCode).toBe(200);
    const playing = await put(table.id, tokens.referee, edited);
    expect(playing.statusCode).toBe(409);
    expect(playing.json().code).toBe('hand/in-progress');
    const ended = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands/end?token=${tokens.referee}`, payload: {} });
    expect(ended.statusCode).toBe(200);
    const phase = (ended.json() as TableView).phase;
    if (phase !== 'scored') expect((await put(table.id, tokens.referee, edited)).statusCode).toBe(409);
    else expect((await put(table.id, tokens.referee, edited)).statusCode).toBe(200);
  });

  it('persists, shows in GET, is logged with who changed it, applies to the next hand and survives a restart', async () => {
    const { table, tokens } = await createTable(server.app);
    const response = await put(table.id, tokens.referee, edited);
    expect(response.statusCode).toBe(200);
    const info = response.json() as TableInfo;
    expect(info).toMatchObject({ name: 'Porch table', variant: 'nertz', target: 150, knobs: { scoring: { nertsPenalty: 1 } } });
    expect(info.seats.map((s) => [s.seat, s.name, s.team, s.deckId])).toEqual([
      [0, 'Annie', 'red', 'deck-ann'],
      [1, 'Bob', 'red', 'deck-bob'],
      [2, 'Cy', 'blue', 'deck-cy'],
      [3, 'Dee', 'blue', 'deck-dee'],
    ]);
    const read = await server.app.inject({ url: `/api/tables/${table.id}?token=${tokens.view}` });
    expect((read.json().table as TableInfo).seats[0].name).toBe('Annie');
    const events = (await server.app.inject({ url: `/api/tables/${table.id}/events?token=${tokens.view}` })).json() as LoggedEvent[];
    const change = events.find((entry) => entry.event.type === 'setup-changed');
    expect(change?.event).toMatchObject({ type: 'setup-changed', by: 'referee', previous: { name: 'Test table' }, setup: { name: 'Porch table' } });

    // The next hand is dealt to the new seats.
    const started = await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands?token=${tokens.referee}`, payload: {} });
    expect(started.statusCode).toBe(200);
    expect((started.json() as TableView).players.map((p) => p.id)).toEqual(['ann', 'bob', 'cy', 'dee']);

    await server.app.close();
    server.app = await testApp(server.dataDir);
    const reread = await server.app.inject({ url: `/api/tables/${table.id}?token=${tokens.view}` });
    expect(reread.statusCode).toBe(200);
    const body = reread.json() as { table: TableInfo; view: TableView };
    expect(body.table.name).toBe('Porch table');
    expect(body.table.seats.map((s) => s.name)).toEqual(['Annie', 'Bob', 'Cy', 'Dee']);
    expect(body.table.seats[1].nertsPileSize).toBe(10);
    expect(body.view.players.map((p) => p.id)).toEqual(['ann', 'bob', 'cy', 'dee']);
  });
});
