/**
 * The web app end to end in Chromium against the real server: create a table, watch the
 * dashboard, freeze play with a call, reach the score sort, apply a correction, open the
 * standings and the overlay, and check the dashboard at phone width. Screenshots land in
 * test-results/client/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { playScript, raceFrames, sendFrames } from './scriptedCamera';
import type { CreatedTable } from '../../../server/protocol';
import type { Quad } from '../../../server/vision/types';
import { browserSkipReason, buildClient, FAKE_CAMERA_ARGS, launchBrowser, screenshot, startServer, type Browser, type RunningServer } from './harness';

const skipReason = browserSkipReason();
if (skipReason) console.warn(skipReason);

describe.skipIf(skipReason !== null)('web app in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let overlayPath = '';
  let dashboardPath = '';
  let cameraPath = '';
  let tableId = '';
  let cameraToken = '';

  beforeAll(async () => {
    const dist = await buildClient();
    server = await startServer(dist, { recognizer: 'fake' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('creates a table from the form and lists it with its links', async () => {
    const { page } = browser;
    await page.goto(`${server.origin}/`);
    await page.getByLabel('Table name').fill('Browser test table');
    await page.getByLabel('Players').selectOption('3');
    await page.getByLabel('Seat 3 player').fill('Cyrus');
    await page.getByLabel('Target score').fill('50');
    await page.getByRole('button', { name: 'Create table' }).click();
    const created = page.getByTestId('created-table');
    await created.waitFor();
    expect(await created.textContent()).toContain('Browser test table');
    overlayPath = (await page.getByTestId('table-list').getByRole('link', { name: 'Overlay' }).first().getAttribute('href')) ?? '';
    dashboardPath = (await page.getByTestId('table-list').getByRole('link', { name: 'Dashboard (referee)' }).first().getAttribute('href')) ?? '';
    cameraPath = (await page.getByTestId('table-list').getByRole('link', { name: 'Camera' }).first().getAttribute('href')) ?? '';
    tableId = decodeURIComponent(overlayPath.split('/')[2].split('?')[0]);
    cameraToken = new URL(cameraPath, server.origin).searchParams.get('token') ?? '';
    expect(overlayPath).toMatch(/^\/overlay\/[^?]+\?token=/);
    expect(cameraPath).toMatch(/\/camera\?token=[^&]+&view=/);
    expect(dashboardPath).toMatch(/^\/tables\/[^?]+\?token=/);
    await screenshot(page, '01-tables');
  });

  it('refuses a bad form with readable errors', async () => {
    const { page } = browser;
    await page.getByLabel('Table name').fill('');
    await page.getByLabel('Seat 1 player').fill('');
    await page.getByRole('button', { name: 'Create table' }).click();
    const errors = page.getByTestId('create-errors');
    await errors.waitFor();
    expect(await errors.textContent()).toContain('Give the table a name');
    expect(await errors.textContent()).toContain('Seat 1 needs a player name');
  });

  it('shows live counts change as the camera sees plays', async () => {
    const { page } = browser;
    await page.goto(`${server.origin}${dashboardPath}`);
    await page.getByTestId('dashboard').waitFor();
    await page.locator('[data-connection="open"]').waitFor();
    await page.getByRole('button', { name: 'Start a new hand' }).click();
    await expect.poll(() => page.getByTestId('hand-number').textContent()).toBe('1');
    const annNerts = page.locator('[data-player="ann"] [data-testid="nerts-left"]');
    expect(await annNerts.textContent()).toBe('13');
    expect(await page.getByTestId('centre-total').textContent()).toBe('0');

    const seen: Array<{ centre: number; annNerts: number }> = [];
    await playScript(server.app, tableId, cameraToken, {
      onStep: async () => {
        seen.push({ centre: Number(await page.getByTestId('centre-total').textContent()), annNerts: Number(await annNerts.textContent()) });
      },
    });
    // After every play has been seen: 8 cards in the centre on 4 piles, Ann's Nerts pile down by 4.
    await expect.poll(async () => Number(await page.getByTestId('centre-total').textContent()), { timeout: 10_000 }).toBe(8);
    await expect.poll(async () => Number(await annNerts.textContent()), { timeout: 10_000 }).toBe(9);
    expect(await page.locator('[data-player="ann"] [data-testid="centre-cards"]').textContent()).toBe('4');
    expect(await page.locator('[data-player="bob"] [data-testid="centre-cards"]').textContent()).toBe('2');
    expect(await page.getByTestId('foundations').locator('[data-foundation]').count()).toBe(4);
    expect(await page.getByTestId('foundations').locator('[data-card="3S"]').count()).toBe(1);
    expect(await page.getByTestId('feed').textContent()).toContain('Ann played 3♠');
    // The page moved while play went on, not only at the end.
    const distinctCentre = new Set(seen.map((s) => s.centre));
    expect(distinctCentre.size).toBeGreaterThanOrEqual(3);
    await screenshot(page, '02-dashboard-live');
  });

  it('draws the overlay on a transparent page from its read-only link', async () => {
    const { page } = browser;
    await page.goto(`${server.origin}${overlayPath}&layout=bar&theme=dark`);
    await page.getByTestId('overlay-board').waitFor();
    expect(await page.getByTestId('overlay-nerts').count()).toBe(3);
    expect(await page.locator('[data-player="ann"] [data-testid="overlay-nerts"]').textContent()).toBe('9');
    expect(await page.getByTestId('overlay-ticker').textContent()).toContain('Ann played A♥');
    const path = await screenshot(page, '06-overlay', { fullPage: false, omitBackground: true });
    const { data, info } = await sharp(path).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    expect(data[3]).toBe(0); // top-left pixel fully transparent: OBS shows the stream through it

    // Layout and theme come from the URL: a small light box in the corner, without the ticker.
    await page.goto(`${server.origin}${overlayPath}&layout=corner&theme=light&scale=0.8`);
    await page.getByTestId('overlay-board').waitFor();
    expect(await page.getByTestId('overlay').getAttribute('class')).toBe('overlay overlay--corner overlay--light');
    expect(await page.getByTestId('overlay-ticker').isVisible()).toBe(false);
    const board = (await page.getByTestId('overlay-board').boundingBox())!;
    expect(board.x + board.width).toBeLessThan(400);
    await screenshot(page, '06b-overlay-corner', { fullPage: false, omitBackground: true });
  });

  it('freezes play on a call', async () => {
    const { page } = browser;
    await page.goto(`${server.origin}${dashboardPath}`);
    await page.getByTestId('dashboard').waitFor();
    await page.getByLabel('Manual call by').selectOption({ label: 'Cyrus' });
    await page.getByRole('button', { name: 'Call Nerts' }).click();
    const banner = page.getByTestId('frozen-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Cyrus called Nerts!');
    await screenshot(page, '03-dashboard-frozen');
  });

  it('sorts the score: a correction with its reason (by keyboard), then the hand scored', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Go to the score sort' }).click();
    await page.getByTestId('score-sort').waitFor();
    const annRow = page.locator('tr[data-player="ann"]');
    expect(await annRow.locator('[data-testid="row-centre"]').textContent()).toBe('4');
    expect(await annRow.locator('[data-testid="row-nerts-left"]').textContent()).toBe('9');

    // Keyboard only: focus the player select, then tab through the fields and submit with Enter.
    await page.getByLabel('Player').focus();
    await page.keyboard.press('Home'); // first player (Ann)
    await page.keyboard.press('Tab'); // centre cards: left as counted
    await page.keyboard.press('Tab'); // Nerts left
    await page.keyboard.type('5');
    await page.keyboard.press('Tab'); // reason
    await page.keyboard.type('four Nerts cards were under the hand');
    await page.keyboard.press('Enter');
    await page.getByTestId('corrections').getByText('four Nerts cards were under the hand').waitFor();
    await expect.poll(async () => annRow.locator('[data-testid="row-nerts-left"]').textContent(), { timeout: 10_000 }).toBe('5');

    await page.getByRole('button', { name: 'End hand and score' }).click();
    await annRow.locator('[data-testid="row-hand-score"]').waitFor();
    // nertz preset: +1 per centre card, −2 per Nerts card left: 4 − 2 × 5.
    expect(Number(await annRow.locator('[data-testid="row-hand-score"]').textContent())).toBe(-6);
    expect(Number(await page.locator('tr[data-player="bob"] [data-testid="row-hand-score"]').textContent())).toBe(2 - 2 * 11);
    expect(await page.getByTestId('corrections').textContent()).toContain('Ann: Nerts left → 5');
    await screenshot(page, '04-score-sort');
  });

  it('charts the standings with the target line and offers CSV export', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Standings', exact: true }).click();
    await page.getByTestId('standings-chart').waitFor();
    expect(await page.getByTestId('standings-chart').getAttribute('aria-label')).toContain('target 50');
    expect(await page.getByTestId('history-table').locator('tbody tr').count()).toBe(1);
    const csvHref = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    const csv = await page.evaluate(async (href) => (await fetch(href!)).text(), csvHref);
    expect(csv.split('\n')[0].toLowerCase()).toContain('hand');
    expect(csv).toContain('ann');
    await screenshot(page, '05-standings');
  });

  it('streams the camera to the server and shows its rates', async () => {
    const camera = await launchBrowser({ width: 1100, height: 900 }, FAKE_CAMERA_ARGS);
    try {
      const { page } = camera;
      await page.goto(`${server.origin}${cameraPath}`);
      await page.getByLabel('Resolution').selectOption({ label: '640 × 480' });
      await page.getByLabel('Frames per second').selectOption('10');
      await page.getByRole('button', { name: 'Start camera' }).click();
      await page.locator('[data-connection="open"]').waitFor({ timeout: 15_000 });
      const table = server.app.tables.get(tableId);
      expect(table).toBeDefined();
      await expect.poll(() => table!.stats().framesReceived, { timeout: 15_000 }).toBeGreaterThan(5);
      await expect.poll(async () => (await page.getByTestId('camera-stats').textContent()) ?? '', { timeout: 10_000 }).toMatch(/sending [1-9]/);
      expect(await page.getByTestId('camera-stats').textContent()).toContain('640 × 480');
      await screenshot(page, '08-camera', { fullPage: false });
      await page.getByRole('button', { name: 'Stop' }).click();
      expect(camera.errors).toEqual([]);
    } finally {
      await camera.close();
    }
  });

  it('calibrates by clicking the corners, the centre and Nerts piles on the live image', async () => {
    const { page } = browser;
    await page.goto(`${server.origin}/tables/${encodeURIComponent(tableId)}/setup`);
    await page.getByTestId('setup').waitFor();
    // The camera test left its last frame on the server: the setup page shows it.
    const image = page.getByAltText('Latest camera frame');
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 15_000 }).toBe(640);
    await page.getByRole('button', { name: 'Freeze image' }).click();
    const box = (await page.getByTestId('detections').boundingBox())!;
    const clicks: Array<[number, number]> = [[0.1, 0.1], [0.9, 0.12], [0.92, 0.9], [0.08, 0.88], [0.5, 0.5]];
    for (const [fx, fy] of clicks) await page.mouse.click(box.x + fx * box.width, box.y + fy * box.height);
    // Then the Nerts piles, seat by seat; two of three marked, the third left out.
    await page.getByText('Now click each player’s Nerts pile').waitFor();
    await page.getByText('seat 1 (Ann) Nerts pile', { exact: true }).waitFor();
    await page.mouse.click(box.x + 0.45 * box.width, box.y + 0.85 * box.height);
    await page.getByText('seat 2 (Bob) Nerts pile', { exact: true }).waitFor();
    await page.mouse.click(box.x + 0.15 * box.width, box.y + 0.45 * box.height);
    await page.getByRole('button', { name: 'Save calibration' }).click();
    await page.getByText('calibrated', { exact: true }).waitFor();
    const calibration = server.app.tables.get(tableId)!.calibration!;
    expect(calibration.imageWidth).toBe(640);
    expect(calibration.imageCorners[0][0]).toBeCloseTo(64, -1);
    expect(calibration.zones.map((zone) => zone.id)).toEqual(['centre', 'seat-0', 'seat-0/nerts', 'seat-1', 'seat-1/nerts', 'seat-2']);
    await page.getByText('2 of 3 Nerts piles marked').waitFor();

    // Enrol Ann's deck back from the camera's latest frame.
    const annDeck = page.locator('li', { hasText: 'deck-ann' });
    await annDeck.getByRole('button', { name: 'Enrol back' }).click();
    await page.getByText('Enrolled Ann’s back.').waitFor();
    expect(server.app.tables.get(tableId)!.info().enrolledDecks).toContain('deck-ann');
    await annDeck.getByText('enrolled · 1 view', { exact: true }).waitFor();
    // A second view of the back, then a bad one taken over: the deck starts over from it.
    await annDeck.getByRole('button', { name: 'Add a view' }).click();
    await page.getByText('Added a view of Ann’s back.').waitFor();
    await annDeck.getByText('enrolled · 2 views', { exact: true }).waitFor();
    // Both views shown as cropped, so a bad one can be seen and taken over.
    const secondView = annDeck.getByAltText('Ann’s back, view 2');
    await secondView.waitFor();
    await expect.poll(() => secondView.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    expect(((await server.app.pool.inspect(tableId)) as { backViews: Record<string, number> }).backViews['deck-ann']).toBe(2);
    await annDeck.getByRole('button', { name: 'Start over' }).click();
    await annDeck.getByText('enrolled · 1 view', { exact: true }).waitFor();
    expect(((await server.app.pool.inspect(tableId)) as { backViews: Record<string, number> }).backViews['deck-ann']).toBe(1);
    // Enrol a face that reads badly. With no face in view, the page says what to do.
    await page.getByLabel('Card shown').selectOption('QH');
    await page.getByRole('button', { name: 'Enrol card' }).click();
    await page.getByText('no face card seen in the latest frame: hold the QH up to the camera').waitFor();
    // A queen of hearts held up to the camera, read as the king it resembles.
    const heldUp: Quad = [[560, 260], [720, 260], [720, 484], [560, 484]];
    await sendFrames(server.app, tableId, cameraToken, [[{ kind: 'face', code: 'KH', confidence: 0.4, corners: heldUp }]]);
    await page.getByRole('button', { name: 'Enrol card' }).click();
    await page.getByText('Enrolled a view of QH.').waitFor();
    expect(((await server.app.pool.inspect(tableId)) as { enrolledFaces: string[] }).enrolledFaces).toContain('QH');
    // Listed with its views, and forgotten again (say it was the wrong pick).
    const enrolledCards = page.getByRole('list', { name: 'Enrolled cards' });
    await enrolledCards.getByText('1 view').waitFor();
    await enrolledCards.getByRole('button', { name: 'Forget QH' }).click();
    await page.getByText('Forgot QH.').waitFor();
    await enrolledCards.waitFor({ state: 'detached' });
    expect(((await server.app.pool.inspect(tableId)) as { enrolledFaces: string[] }).enrolledFaces).not.toContain('QH');
    await screenshot(page, '08b-calibrated');
  });

  it('edits a player name on the setup page between hands and the dashboard shows it', async () => {
    const { page } = browser;
    await page.goto(`${server.origin}${dashboardPath.replace('?', '/setup?')}`);
    await page.getByTestId('setup-form').waitFor();
    const seat3 = page.getByLabel('Seat 3 player');
    expect(await seat3.inputValue()).toBe('Cyrus');
    await seat3.fill('Cyril');
    await page.getByRole('button', { name: 'Save setup' }).click();
    await page.getByText('Saved: applies from the next hand.').waitFor();
    expect(server.app.tables.get(tableId)!.info().seats[2]).toMatchObject({ playerId: 'cyrus', name: 'Cyril' });
    await page.goto(`${server.origin}${dashboardPath}`);
    await page.getByTestId('dashboard').waitFor();
    await expect.poll(() => page.locator('[data-player="cyrus"]').first().textContent()).toContain('Cyril');
  });

  it('reviews a dispute: both cards, the evidence frames, the ruling, and an overrule', async () => {
    const { page } = browser;
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/tables',
      payload: { name: 'Race table', seats: [{ playerId: 'ann', name: 'Ann' }, { playerId: 'bob', name: 'Bob' }] },
    });
    const created = response.json() as CreatedTable;
    await page.goto(`${server.origin}${created.urls.dashboard}`);
    await page.getByRole('button', { name: 'Start a new hand' }).click();
    await expect.poll(() => page.getByTestId('hand-number').textContent()).toBe('1');
    await sendFrames(server.app, created.table.id, created.tokens.camera, raceFrames());
    await expect.poll(() => server.app.tables.get(created.table.id)!.view().disputes.length, { timeout: 10_000 }).toBe(1);

    await page.getByRole('link', { name: /Review the evidence/ }).click();
    const dispute = page.locator('[data-dispute]');
    await dispute.waitFor();
    expect(await dispute.locator('[data-card="2S"]').count()).toBe(2);
    const evidence = server.app.tables.get(created.table.id)!.view().disputes[0].evidence;
    expect(evidence.length).toBeGreaterThan(0);
    expect(await dispute.locator('.evidence img').count()).toBe(evidence.length);
    // Every evidence frame loads (the <img> carries the view token in its URL).
    for (const img of await dispute.locator('.evidence img').all()) {
      await expect.poll(() => img.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth), { timeout: 10_000 }).toBe(1280);
    }
    await dispute.getByText(/Ruled for (Ann|Bob) \(first to land\)/).waitFor();
    const first = server.app.tables.get(created.table.id)!.view().disputes[0].first.player;
    const other = first === 'ann' ? 'Bob' : 'Ann';
    await page.getByRole('button', { name: `${other}’s 2♠` }).click();
    await expect.poll(() => server.app.tables.get(created.table.id)!.view().disputes[0].by, { timeout: 10_000 }).toBe('referee');
    await dispute.getByText(`Ruled for ${other} by the referee`).waitFor();
    await screenshot(page, '09-dispute');
  });

  it('fits the dashboard at phone width', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.origin}${dashboardPath}`);
    await page.getByTestId('players').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, '07-dashboard-phone');
    expect(browser.errors).toEqual([]);
  });
});
