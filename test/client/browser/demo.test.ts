/**
 * The web app against the real server in demo mode: the simulated table renders webcam frames
 * that go through the real pipeline (queue → recognition worker → tracker → rules), as
 * `npm start` runs it. Opens the URLs the server prints (referee dashboard, overlay) and checks
 * the demo shows up live: hand started, frames flowing, the camera view, calibration zones.
 * Screenshots land in test-results/client/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimTable } from '../../../server/sim/live';
import { simCalibration } from '../../../server/tables/sim-calibration';
import { startSimFeed, type SimFeed } from '../../../server/tables/sim-feed';
import { tableUrls } from '../../../server/routes/tables';
import { browserSkipReason, buildClient, launchBrowser, screenshot, startServer, type Browser, type RunningServer } from './harness';

const skipReason = browserSkipReason();
/** Frames per second the demo feed renders: low, to leave this 2-core machine's CPU to the recogniser. */
const DEMO_FPS = 4;

describe.skipIf(skipReason !== null)('demo table in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let feed: SimFeed | null = null;
  let urls: { dashboard: string; overlay: string; camera: string };

  beforeAll(async () => {
    const dist = await buildClient();
    server = await startServer(dist, { recognizer: 'real' });
    // As server/main.ts starts the demo table.
    const sim = await createSimTable({ players: 3, seed: 7, fps: DEMO_FPS, loop: true, camera: 'top' });
    const table = server.app.tables.create(
      {
        name: 'Demo table (simulated)',
        seats: sim.players.map((p) => ({ playerId: p.id, name: p.id.toUpperCase(), deckId: p.deckId })),
        variant: 'nertz',
        source: 'sim',
      },
      'demo',
    );
    if (sim.camera) table.setCalibration(simCalibration(sim.layout, sim.camera));
    feed = startSimFeed(table, sim, { fps: DEMO_FPS });
    urls = tableUrls(table);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await feed?.stop();
    await browser?.close();
    await server?.close();
  });

  it('opens the printed dashboard link and shows the demo hand live with its camera view', async () => {
    const { page } = browser;
    await page.goto(`${server.origin}${urls.dashboard}`);
    await page.getByTestId('dashboard').waitFor({ timeout: 30_000 });
    await page.locator('[data-connection="open"]').waitFor();
    await expect.poll(async () => Number(await page.getByTestId('hand-number').textContent()), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const table = server.app.tables.get('demo')!;
    const received = table.stats().framesReceived;
    await expect.poll(() => table.stats().framesReceived, { timeout: 20_000 }).toBeGreaterThan(received);
    await page.getByTestId('pipeline-stats').waitFor({ timeout: 10_000 });

    await page.getByText('Camera view').click();
    const frame = page.getByAltText('Latest camera frame');
    await expect.poll(() => frame.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 20_000 }).toBe(1280);
    expect(await page.locator('[data-player="p1"]').count()).toBe(1);
    await screenshot(page, '10-demo-dashboard');
    expect(browser.errors).toEqual([]);
  });

  it('keeps the referee token out of the links it shares', async () => {
    const { page } = browser;
    await page.goto(`${server.origin}/`);
    const overlayLink = page.getByTestId('table-list').getByRole('link', { name: 'Overlay' });
    await overlayLink.waitFor();
    const tokens = server.app.tables.get('demo')!.tokens;
    expect(await overlayLink.getAttribute('href')).toContain(`token=${tokens.view}`);
    expect(await page.getByTestId('table-list').getByRole('link', { name: 'Dashboard (view only)' }).getAttribute('href')).not.toContain(tokens.referee);
  });

  it('shows the saved calibration zones on the live image in setup', async () => {
    const { page } = browser;
    await page.goto(`${server.origin}/tables/demo/setup`);
    await page.getByTestId('setup').waitFor();
    await page.getByText('calibrated', { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('detections').locator('polygon title').count(), { timeout: 20_000 }).toBeGreaterThan(3);
    await screenshot(page, '11-demo-setup');
  });

  it('opens the printed overlay link', async () => {
    const { page } = browser;
    await page.goto(`${server.origin}${urls.overlay}&layout=column&theme=felt`);
    await page.getByTestId('overlay-board').waitFor();
    expect(await page.getByTestId('overlay-nerts').count()).toBe(3);
    await screenshot(page, '12-demo-overlay', { fullPage: false, omitBackground: true });
  });
});
