/**
 * Server-side renders of the components and pages from a crafted live state: what the dashboard
 * and overlay show for foundations, counts, a call and disputes, without a browser.
 */
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { LoggedEvent, TableView } from '../../../server/protocol';
import { Card } from '../../../client/src/components/Card';
import { tableInfo } from './fixtures';
import { TableContext, type LiveTable } from '../../../client/src/lib/useLiveTable';
import { initialLiveState } from '../../../client/src/lib/liveState';
import { DashboardPage } from '../../../client/src/pages/DashboardPage';
import { ScoreSortPage } from '../../../client/src/pages/ScoreSortPage';

const table = tableInfo();

const view: TableView = {
  tableId: 't1',
  hand: 2,
  phase: 'called',
  frozen: true,
  calledBy: 'bob',
  centreTotal: 15,
  foundations: [
    { id: 'f1', suit: 'H', top: 'QH', count: 12, completed: false },
    { id: 'f2', suit: 'S', top: 'KS', count: 13, completed: true },
  ],
  players: [
    { id: 'ann', name: 'Ann', seat: 0, deckId: 'deck-ann', nertsLeft: 4, centreCards: 9, unsureCards: ['7H', 'QS'] },
    { id: 'bob', name: 'Bob', seat: 1, deckId: 'deck-bob', nertsLeft: 0, centreCards: 6 },
  ],
  disputes: [
    { id: 'd1', foundationId: 'f1', first: { player: 'ann', card: 'JH' }, second: { player: 'bob', card: 'JH' }, winner: 'ann', by: 'auto', evidence: [] },
  ],
  violations: [{ code: 'foundation/wrong-suit', message: 'wrong suit', player: 'ann', card: '5C', seq: 7, timeMs: 9000 }],
  stalledSinceMs: null,
  scores: null,
  matchTotals: [{ id: 'ann', total: 20 }, { id: 'bob', total: 31 }],
  target: 100,
  matchWinner: null,
};

const events: LoggedEvent[] = [
  { seq: 1, hand: 2, timeMs: 1000, event: { type: 'hand-started', hand: 2 }, violations: [] },
  { seq: 2, hand: 2, timeMs: 5000, event: { type: 'card-played', player: 'ann', card: 'QH', foundationId: 'f1', newPile: false }, violations: [] },
  { seq: 3, hand: 2, timeMs: 9000, event: { type: 'call', player: 'bob', manual: false }, violations: [] },
];

function withTable(node: React.ReactNode, tokens: LiveTable['tokens'] = { view: 'v' }): string {
  const value: LiveTable = {
    tableId: 't1',
    live: { ...initialLiveState, table, view, events, role: 'view' },
    status: 'open',
    closeReason: null,
    tokens,
    rememberToken: () => undefined,
    setObservationsWanted: () => undefined,
  };
  return renderToStaticMarkup(<TableContext.Provider value={value}>{node}</TableContext.Provider>);
}

describe('Card', () => {
  it('draws a face with rank, suit symbol and colour, named for screen readers', () => {
    const html = renderToStaticMarkup(<Card code="10H" />);
    expect(html).toContain('card--red');
    expect(html).toContain('aria-label="ten of hearts"');
    expect(html).toContain('>10<');
    expect(html).toContain('♥');
    expect(renderToStaticMarkup(<Card code="KS" />)).toContain('card--black');
  });
  it('draws backs and empty slots, and never crashes on a bad code', () => {
    expect(renderToStaticMarkup(<Card back badge={7} />)).toContain('card--back');
    expect(renderToStaticMarkup(<Card code={null} />)).toContain('card--empty');
    expect(renderToStaticMarkup(<Card code="ZZ" />)).toContain('card--empty');
  });
});

describe('Dashboard', () => {
  const html = withTable(<DashboardPage />);
  it('shows foundations with top card and height, completed ones muted', () => {
    expect(html).toContain('data-foundation="f1"');
    expect(html).toContain('aria-label="f1: 12 cards"');
    expect(html).toMatch(/card--muted[^"]*"[^>]*aria-label="f2: 13 cards, completed"/);
  });
  it('shows each player’s Nerts and centre counts', () => {
    expect(html).toMatch(/data-player="ann"[\s\S]*?data-testid="nerts-left">4<[\s\S]*?data-testid="centre-cards">9</);
    // Ann's count holds two cards the camera credited on weak evidence; Bob's none.
    expect(html).toMatch(/data-player="ann"[\s\S]*?data-testid="centre-unsure" title="[^"]*: 7♥ Q♠"> · 2 unsure</);
    expect(html).not.toMatch(/data-player="bob"[\s\S]*?centre-unsure/);
    expect(html).toContain('data-testid="centre-total">15<');
  });
  it('makes the freeze unmissable and lists plays, disputes and violations', () => {
    expect(html).toContain('data-testid="frozen-banner"');
    expect(html).toContain('Bob called Nerts!');
    expect(html).toContain('Ann played Q♥');
    expect(html).toContain('wrong suit');
    expect(html).toContain('Ann vs Bob on f1');
  });
  it('asks for the referee token instead of showing controls to viewers', () => {
    expect(html).toContain('Referee token');
    expect(html).not.toContain('Start a new hand');
    expect(withTable(<DashboardPage />, { view: 'v', referee: 'r' })).toContain('Start a new hand');
  });
});

describe('Score sort', () => {
  it('shows live counts before the hand is scored', () => {
    const html = withTable(<ScoreSortPage />, { view: 'v', referee: 'r' });
    expect(html).toContain('Counts so far');
    expect(html).toContain('End hand and score');
    expect(html).toMatch(/data-player="ann"[\s\S]*?>9<[\s\S]*?>4</);
  });
});

describe('DetectionLayer', () => {
  it('outlines every recognised card with its name and confidence, scaled to the image', async () => {
    const { DetectionLayer } = await import('../../../client/src/components/DetectionLayer');
    const frame = {
      seq: 1,
      timestampMs: 0,
      width: 640,
      height: 360,
      cards: [
        { kind: 'face' as const, code: 'QH' as const, confidence: 0.93, corners: [[10, 10], [40, 10], [40, 50], [10, 50]] as [[number, number], [number, number], [number, number], [number, number]] },
        { kind: 'back' as const, backId: 'deck-ann', confidence: 0.8, corners: [[100, 100], [130, 100], [130, 140], [100, 140]] as [[number, number], [number, number], [number, number], [number, number]] },
      ],
    };
    const html = renderToStaticMarkup(<DetectionLayer frame={frame} width={1280} height={720} backColour={() => '#123456'} />);
    expect(html).toContain('viewBox="0 0 1280 720"');
    expect(html).toContain('points="20,20 80,20 80,100 20,100"'); // 640x360 observations on a 1280x720 image
    expect(html).toContain('Q♥');
    expect(html).toContain('93%');
    expect(html).toContain('back deck-ann');
    expect(html).toContain('stroke="#123456"');
    expect(html).toContain('aria-label="2 cards recognised"');
    expect(html).not.toContain('stroke-dasharray');
  });

  it('outlines a card read from under another where it shows', async () => {
    const { DetectionLayer } = await import('../../../client/src/components/DetectionLayer');
    type Quad = [[number, number], [number, number], [number, number], [number, number]];
    const corners: Quad = [[10, 10], [40, 10], [40, 50], [10, 50]];
    const visible: Quad = [[10, 10], [18, 10], [18, 50], [10, 50]];
    const frame = { seq: 1, timestampMs: 0, width: 640, height: 360, cards: [{ kind: 'face' as const, code: '9S' as const, confidence: 0.9, corners, visible }] };
    const html = renderToStaticMarkup(<DetectionLayer frame={frame} width={640} height={360} />);
    expect(html).toContain('points="10,10 18,10 18,50 10,50"');
    expect(html).not.toContain('points="10,10 40,10 40,50 10,50"');
  });

  it('draws a faint centre reading dashed and dim', async () => {
    const { DetectionLayer } = await import('../../../client/src/components/DetectionLayer');
    const corners = [[10, 10], [40, 10], [40, 50], [10, 50]] as [[number, number], [number, number], [number, number], [number, number]];
    const frame = { seq: 1, timestampMs: 0, width: 640, height: 360, cards: [{ kind: 'face' as const, code: '8C' as const, confidence: 0.2, corners, zone: 'centre' }] };
    const html = renderToStaticMarkup(<DetectionLayer frame={frame} width={640} height={360} />);
    expect(html).toContain('opacity="0.55"');
    expect(html).toContain('stroke-dasharray');
    expect(html).toContain('20%');
  });
});
