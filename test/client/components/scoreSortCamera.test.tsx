/**
 * Server-side renders of the score sort with the camera's back count in the view: each player's
 * count, the mismatch marker, and the one-click correction for referees only.
 */
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { TableView } from '../../../server/protocol';
import { tableInfo } from './fixtures';
import { TableContext, type LiveTable } from '../../../client/src/lib/useLiveTable';
import { initialLiveState } from '../../../client/src/lib/liveState';
import { ScoreSortPage } from '../../../client/src/pages/ScoreSortPage';

const table = tableInfo({ source: 'camera', calibrated: false, zoneLayout: 'default', enrolledDecks: ['deck-ann', 'deck-bob'] });

const view: TableView = {
  tableId: 't1',
  hand: 1,
  phase: 'called',
  frozen: true,
  calledBy: 'ann',
  centreTotal: 15,
  foundations: [],
  players: [
    { id: 'ann', name: 'Ann', seat: 0, deckId: 'deck-ann', nertsLeft: 0, centreCards: 9 },
    { id: 'bob', name: 'Bob', seat: 1, deckId: 'deck-bob', nertsLeft: 4, centreCards: 6 },
  ],
  disputes: [],
  violations: [],
  stalledSinceMs: null,
  scores: null,
  matchTotals: [],
  target: 100,
  matchWinner: null,
  backCheck: {
    frames: 12,
    players: [
      { player: 'ann', deckId: 'deck-ann', backsSeen: 9, centreCards: 9, agrees: true },
      { player: 'bob', deckId: 'deck-bob', backsSeen: 5, centreCards: 6, agrees: false },
    ],
  },
};

function render(viewNow: TableView, tokens: LiveTable['tokens']): string {
  const value: LiveTable = {
    tableId: 't1',
    live: { ...initialLiveState, table, view: viewNow, events: [], role: tokens.referee ? 'referee' : 'view' },
    status: 'open',
    closeReason: null,
    tokens,
    rememberToken: () => undefined,
    setObservationsWanted: () => undefined,
  };
  return renderToStaticMarkup(<TableContext.Provider value={value}>{<ScoreSortPage />}</TableContext.Provider>);
}

describe('Score sort with the camera’s back count', () => {
  it('shows each player’s camera count beside the credited centre cards and marks the mismatch', () => {
    const html = render(view, { view: 'v', referee: 'r' });
    expect(html).toContain('Camera (backs)');
    expect(html).toMatch(/data-player="ann"[\s\S]*?data-testid="row-camera" data-agrees="true">[\s\S]*?camera counted <strong>9<\/strong> backs/);
    expect(html).toMatch(/data-player="bob"[\s\S]*?data-agrees="false">[\s\S]*?camera counted <strong>5<\/strong> backs[\s\S]*?≠ mismatch[\s\S]*?Use camera count/);
    expect(html.match(/Use camera count</g)).toHaveLength(1);
    expect(html).toContain('differs for 1 player');
  });
  it('offers the one-click correction to referees only', () => {
    const html = render(view, { view: 'v' });
    expect(html).toContain('≠ mismatch');
    expect(html).not.toContain('Use camera count<');
  });
  it('shows no camera column before the camera has counted', () => {
    const { backCheck: _unused, ...without } = view;
    const html = render(without, { view: 'v', referee: 'r' });
    expect(html).not.toContain('Camera (backs)');
    expect(html).not.toContain('camera counted');
  });
  it('marks the centre cards whose player the camera only guessed, and says to check them first', () => {
    const guessed: TableView = { ...view, players: [{ ...view.players[0], unsureCards: ['7H', 'QS'] }, view.players[1]] };
    const html = render(guessed, { view: 'v' });
    expect(html).toMatch(/data-player="ann"[\s\S]*?data-testid="row-centre">9<span[^>]*data-testid="row-unsure"[^>]*> \(2 unsure: 7♥ Q♠\)/);
    expect(html).not.toMatch(/data-player="bob"[\s\S]*?row-unsure/);
    expect(html).toContain('check those first');
    expect(render(view, { view: 'v' })).not.toContain('row-unsure');
  });
});
