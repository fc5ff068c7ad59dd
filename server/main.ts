/**
 * Entry point: builds the app, listens, starts the demo table (the simulated table fed through
 * the real pipeline) and prints the URLs; shuts down gracefully on SIGINT/SIGTERM.
 *
 * `NERTS_DEMO=0` skips the demo table; `NERTS_DEMO_SOURCE=camera` makes the demo table wait for
 * a real camera instead of the simulator (it can also be switched from the web app).
 */
import { buildApp } from './app';
import { createSimTable } from './sim/live';
import { simCalibration } from './tables/sim-calibration';
import { startSimFeed, type SimFeed } from './tables/sim-feed';
import { tableUrls } from './routes/tables';
import type { LiveTable } from './tables/live-table';

const DEMO_TABLE_ID = 'demo';

async function startDemo(app: Awaited<ReturnType<typeof buildApp>>): Promise<{ table: LiveTable; feed: SimFeed }> {
  const players = Number(process.env.NERTS_DEMO_PLAYERS ?? 3);
  const seed = Number(process.env.NERTS_DEMO_SEED ?? 7);
  const fps = Number(process.env.NERTS_DEMO_FPS ?? 10);
  const sim = await createSimTable({ players, seed, fps, loop: true, camera: process.env.NERTS_DEMO_CAMERA === 'oblique' ? 'oblique' : 'top' });
  let table = app.tables.get(DEMO_TABLE_ID);
  if (!table) {
    table = app.tables.create(
      {
        name: 'Demo table (simulated)',
        seats: sim.players.map((p) => ({ playerId: p.id, name: p.id.toUpperCase(), deckId: p.deckId, ...(p.team ? { team: p.team } : {}) })),
        variant: 'nertz',
        source: process.env.NERTS_DEMO_SOURCE === 'camera' ? 'camera' : 'sim',
      },
      DEMO_TABLE_ID,
    );
  }
  if (sim.camera && !table.calibration) table.setCalibration(simCalibration(sim.layout, sim.camera));
  const feed = startSimFeed(table, sim, { fps, pauseAfterHandMs: 8000, log: (message) => app.log.warn(message) });
  return { table, feed };
}

async function main(): Promise<void> {
  const app = await buildApp({}, { logger: { level: process.env.LOG_LEVEL ?? 'info' } });
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen({ port, host });
  let feed: SimFeed | null = null;
  const origin = app.config.publicOrigin;
  const lines = [`Nerts referee on ${origin}  (API docs: ${origin}/docs)`];
  if (process.env.NERTS_DEMO !== '0') {
    try {
      const demo = await startDemo(app);
      feed = demo.feed;
      const urls = tableUrls(demo.table);
      lines.push(
        `Demo table "${demo.table.info().name}" (source: ${demo.table.source}):`,
        `  dashboard (referee): ${origin}${urls.dashboard}`,
        `  camera:              ${origin}${urls.camera}`,
        `  overlay (view):      ${origin}${urls.overlay}`,
      );
    } catch (error) {
      lines.push(`Demo table not started: ${(error as Error).message}`);
    }
  }
  app.pool.backend.then(
    (backend) => console.log(`recogniser: ${backend}`),
    (error: Error) => console.log(`recogniser NOT available: ${error.message}\n  (frames are received and counted but not recognised until a model is trained: see docs/SERVER.md)`),
  );
  console.log(lines.join('\n'));

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await feed?.stop();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
