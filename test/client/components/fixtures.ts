/** A two-seat table (Ann and Bob, their own decks) for component renders; override what a test needs. */
import type { TableInfo } from '../../../server/protocol';

export function tableInfo(overrides: Partial<TableInfo> = {}): TableInfo {
  return {
    id: 't1',
    name: 'Kitchen',
    seats: [
      { playerId: 'ann', name: 'Ann', seat: 0, deckId: 'deck-ann' },
      { playerId: 'bob', name: 'Bob', seat: 1, deckId: 'deck-bob' },
    ],
    variant: 'nertz',
    knobs: {},
    target: 100,
    source: 'sim',
    calibrated: true,
    enrolledDecks: ['deck-ann'],
    createdAtMs: 0,
    ...overrides,
  };
}
