/**
 * Editing an existing table's setup in the form: ids and decks stay with their seats when names
 * change, knobs without a field survive, and the frame source is not part of the edit body.
 */
import { describe, expect, it } from 'vitest';
import type { TableInfo } from '../../../server/protocol';
import { draftFromTable, draftToUpdateSetup } from '../../../client/src/lib/setupForm';

const table: TableInfo = {
  id: 't-1',
  name: 'Kitchen',
  seats: [
    { seat: 0, playerId: 'ann', name: 'Ann', deckId: 'red-back', team: 'a' },
    { seat: 1, playerId: 'bob', name: 'Bob', deckId: 'deck-bob', team: 'a', nertsPileSize: 10 },
  ],
  variant: 'nertz',
  knobs: { nertsPileSize: 12, disputeWindowMs: 500, scoring: { nertsPenalty: 1, other: 3 } },
  target: 120,
  source: 'sim',
  calibrated: false,
  enrolledDecks: [],
  createdAtMs: 0,
};

describe('setup edit form', () => {
  it('fills the form from a table and round-trips it unchanged', () => {
    const draft = draftFromTable(table);
    expect(draft.seats.map((s) => [s.name, s.team, s.nertsPileSize])).toEqual([['Ann', 'a', ''], ['Bob', 'a', '10']]);
    expect([draft.target, draft.nertsPenalty, draft.nertsPileSize]).toEqual(['120', '1', '12']);
    const { body, errors } = draftToUpdateSetup(draft);
    expect(errors).toEqual([]);
    expect(body).toEqual({
      name: 'Kitchen',
      seats: [
        { playerId: 'ann', name: 'Ann', deckId: 'red-back', team: 'a' },
        { playerId: 'bob', name: 'Bob', deckId: 'deck-bob', team: 'a', nertsPileSize: 10 },
      ],
      variant: 'nertz',
      target: 120,
      knobs: { disputeWindowMs: 500, nertsPileSize: 12, scoring: { other: 3, nertsPenalty: 1 } },
    });
    expect(body).not.toHaveProperty('source');
  });

  it('keeps the player id when a name changes and gives a new seat a fresh unique id', () => {
    const draft = draftFromTable(table);
    draft.seats[0] = { ...draft.seats[0], name: 'Bob' };
    draft.seats.push({ name: 'Ann', team: '', nertsPileSize: '' });
    const { body } = draftToUpdateSetup(draft);
    expect(body?.seats.map((s) => s.playerId)).toEqual(['ann', 'bob', 'ann-2']);
  });

  it('reports bad input instead of building a body', () => {
    const draft = draftFromTable(table);
    draft.seats[1] = { ...draft.seats[1], nertsPileSize: '40' };
    expect(draftToUpdateSetup(draft)).toEqual({ body: null, errors: ['Seat 2 Nerts pile size must be between 1 and 26'] });
  });
});
