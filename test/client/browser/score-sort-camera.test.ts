/**
 * The camera's back count on the score sort, in Chromium against the real server with the fake
 * recogniser: after a scripted opening and a call, the camera sees the sorted backs; the page
 * shows each player's count, flags the one that differs, and "Use camera count" files the
 * correction (kept in the log). The setup page of this uncalibrated table says it uses the
 * default layout. Screenshots land in test-results/client/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedTable } from '../../../server/protocol';
import type { CardObservation, Quad } from '../../../server/vision/types';
import { OPENING, playScript, sceneAfter, sendFrames } from './scriptedCamera';
import { browserSkipReason, buildClient, launchBrowser, screenshot, startServer, type Browser, type RunningServer } from './harness';

const skipReason = browserSkipReason();
if (skipReason) console.warn(skipReason);

/** `count` backs of `deckId` spread in a row across the centre from (x, y), pixels. */
function backsInCentre(deckId: string, count: number, x: number, y: number): CardObservation[] {
  return Array.from({ length: count }, (_, i) => {
    const cx = x + i * 70;
    const corners: Quad = [[cx - 30, y - 42], [cx + 30, y - 42], [cx + 30, y + 42], [cx - 30, y + 42]];
    return { kind: 'back', backId: deckId, confidence: 0.9, corners, zone: 'centre' };
  });
}

describe.skipIf(skipReason !== null)('score sort: the camera’s back count in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let created: CreatedTable;

  beforeAll(async () => {
    const dist = await buildClient();
    server = await startServer(dist, { recognizer: 'fake' });
    browser = await launchBrowser();
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/tables',
      payload: { name: 'Sort table', seats: [{ playerId: 'ann', name: 'Ann' }, { playerId: 'bob', name: 'Bob' }, { playerId: 'cyrus', name: 'Cyrus' }] },
    });
    created = response.json() as CreatedTable;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A new hand: the scripted opening (Ann 4, Bob 2, Cyrus 2 centre cards), then Cyrus's call. */
  async function openingThenCall() {
    const { table, tokens } = created;
    const auth = { authorization: `Bearer ${tokens.referee}` };
    await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/hands`, headers: auth, payload: {} });
    await playScript(server.app, table.id, tokens.camera);
    const live = server.app.tables.get(table.id)!;
    await expect.poll(() => live.view().players.map((player) => player.centreCards), { timeout: 10_000 }).toEqual([4, 2, 2]);
    await server.app.inject({ method: 'POST', url: `/api/tables/${table.id}/call`, headers: auth, payload: { player: 'cyrus' } });
    return live;
  }

  it('shows each player’s camera count, marks the mismatch, and adopts the camera count in one click', async () => {
    const { page } = browser;
    const { table, tokens } = created;
    const live = await openingThenCall();

    await page.goto(`${server.origin}${created.urls.dashboard.replace('?', '/score?')}`);
    await page.getByTestId('score-sort').waitFor();
    // Before the sort shows any back, the page has no camera column.
    expect(await page.getByText('Camera (backs)').count()).toBe(0);

    // The sort: Ann's four and Cyrus's two agree; the camera finds only one of Bob's two.
    const nertsTops = sceneAfter(OPENING, OPENING.plays.length).filter((card) => card.zone?.startsWith('seat-'));
    const sorted = [...nertsTops, ...backsInCentre('deck-ann', 4, 420, 260), ...backsInCentre('deck-bob', 1, 420, 380), ...backsInCentre('deck-cyrus', 2, 420, 480)];
    await sendFrames(server.app, table.id, tokens.camera, Array.from({ length: 6 }, () => sorted));

    const row = (player: string) => page.locator(`tr[data-player="${player}"]`);
    await row('bob').getByTestId('camera-mismatch').waitFor({ timeout: 10_000 });
    expect(await row('ann').getByTestId('row-camera').textContent()).toContain('camera counted 4 backs');
    expect(await row('ann').getByTestId('row-camera').getAttribute('data-agrees')).toBe('true');
    expect(await row('bob').getByTestId('row-camera').textContent()).toContain('camera counted 1 back');
    expect(await row('cyrus').getByTestId('row-camera').getAttribute('data-agrees')).toBe('true');
    expect(await page.getByTestId('camera-summary').textContent()).toContain('differs for 1 player');
    expect(await page.getByRole('button', { name: /Use camera count/ }).count()).toBe(1);
    await screenshot(page, '10-score-sort-camera-mismatch');

    await page.getByRole('button', { name: 'Use camera count for Bob' }).click();
    await page.getByTestId('corrections').getByText('camera back count').waitFor({ timeout: 10_000 });
    await expect.poll(() => row('bob').getByTestId('row-centre').textContent(), { timeout: 10_000 }).toBe('1');
    await expect.poll(() => row('bob').getByTestId('row-camera').getAttribute('data-agrees'), { timeout: 10_000 }).toBe('true');
    expect(await page.getByTestId('camera-summary').textContent()).toContain('agrees with every player');
    expect(await page.getByTestId('corrections').textContent()).toContain('Bob: centre cards → 1');
    const log = live.events(-1, 1000).filter((entry) => entry.event.type === 'correction');
    expect(log.map((entry) => entry.event)).toEqual([{ type: 'correction', player: 'bob', centreCards: 1, reason: 'camera back count' }]);

    // Scored: the counts stay beside the hand scores.
    await page.getByRole('button', { name: 'End hand and score' }).click();
    await row('bob').locator('[data-testid="row-hand-score"]').waitFor();
    expect(await row('bob').getByTestId('row-camera').textContent()).toContain('camera counted 1 back');
    await screenshot(page, '10b-score-sort-camera-scored');
    expect(browser.errors).toEqual([]);
  });

  it('adopts every differing camera count in one click, raising a count past the cards the camera saw land', async () => {
    const { page } = browser;
    const { table, tokens } = created;
    const live = await openingThenCall();
    await page.goto(`${server.origin}${created.urls.dashboard.replace('?', '/score?')}`);
    await page.getByTestId('score-sort').waitFor();

    // Ann dealt out five (one the camera never saw land), Bob one (one credited to him was Ann's).
    const nertsTops = sceneAfter(OPENING, OPENING.plays.length).filter((card) => card.zone?.startsWith('seat-'));
    const sorted = [...nertsTops, ...backsInCentre('deck-ann', 5, 420, 260), ...backsInCentre('deck-bob', 1, 420, 380), ...backsInCentre('deck-cyrus', 2, 420, 480)];
    await sendFrames(server.app, table.id, tokens.camera, Array.from({ length: 6 }, () => sorted));
    await page.getByRole('button', { name: 'Use every camera count' }).waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('camera-summary').textContent()).toContain('differs for 2 players');
    await page.getByRole('button', { name: 'Use every camera count' }).click();
    const row = (player: string) => page.locator(`tr[data-player="${player}"]`);
    await expect.poll(() => Promise.all(['ann', 'bob', 'cyrus'].map((p) => row(p).getByTestId('row-centre').textContent())), { timeout: 10_000 }).toEqual(['5', '1', '2']);
    await expect.poll(() => page.getByTestId('camera-summary').textContent(), { timeout: 10_000 }).toContain('agrees with every player');
    const hand = live.view().hand;
    const log = live.events(-1, 1000).filter((entry) => entry.hand === hand && entry.event.type === 'correction');
    // Bob's lowered count first (it frees the card), then Ann's raised one.
    expect(log.map((entry) => entry.event)).toEqual([
      { type: 'correction', player: 'bob', centreCards: 1, reason: 'camera back count' },
      { type: 'correction', player: 'ann', centreCards: 5, reason: 'camera back count' },
    ]);
    expect(browser.errors).toEqual([]);
  });

  it('says on the setup page that an uncalibrated table uses the default layout, drawn on the image', async () => {
    const { page } = browser;
    await page.goto(`${server.origin}${created.urls.dashboard.replace('?', '/setup?')}`);
    await page.getByTestId('default-layout').waitFor();
    expect(await page.getByTestId('default-layout').textContent()).toContain('default layout');
    await page.getByText('default layout', { exact: true }).waitFor();
    // The scripted camera's last frame is shown with the default zones over it: centre and three seats.
    const image = page.getByAltText('Latest camera frame');
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 15_000 }).toBe(1280);
    await expect.poll(() => page.getByTestId('detections').locator('polygon > title').count(), { timeout: 10_000 }).toBe(4);
    await screenshot(page, '10c-setup-default-layout');
  });
});
