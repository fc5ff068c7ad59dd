/**
 * Browser-test harness: builds the web app, starts the real server in-process on port 0 and
 * launches Debian's Chromium through playwright-core with a fresh profile. Screenshots go to
 * test-results/ (gitignored). Tests skip with a clear message when Chromium is missing.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app';

/** Repository root. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
/** Where screenshots land. */
export const RESULTS_DIR = join(REPO_ROOT, 'test-results', 'client');
/** Debian's Chromium (CI installs it; playwright cannot download its own browser here). */
export const CHROMIUM_PATH = process.env.NERTS_CHROMIUM ?? '/usr/bin/chromium';
/** Launch flags from the task: headless, no sandbox (containers), nothing reaching the network. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Why browser tests cannot run here, or null when they can. */
export function browserSkipReason(): string | null {
  if (!existsSync(CHROMIUM_PATH)) return `Chromium not found at ${CHROMIUM_PATH}: install it (apt-get install chromium) or set NERTS_CHROMIUM; browser tests skipped`;
  return null;
}

/**
 * Builds the web app with the project's Vite config into a fresh temporary folder (the server
 * serves it from there). Each test file builds its own copy, so files running in parallel, or a
 * server serving client/dist meanwhile, never see a half-written build.
 */
export async function buildClient(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'nerts-client-'));
  await build({ configFile: join(REPO_ROOT, 'client', 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  if (!existsSync(join(outDir, 'index.html'))) throw new Error(`vite build produced no index.html in ${outDir}`);
  return outDir;
}

/** A running server plus its origin and the temporary data directory it owns. */
export interface RunningServer {
  app: FastifyInstance;
  origin: string;
  dataDir: string;
  close(): Promise<void>;
}

/** Starts buildApp on 127.0.0.1:0 with a fresh data directory; `overrides` go to buildApp. */
export async function startServer(clientDist: string, overrides: Record<string, unknown> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'nerts-web-'));
  // buildApp's config type lives with the server; pass our overrides through its first parameter's type.
  const app = await buildApp({ dataDir, clientDist, ...overrides } as Parameters<typeof buildApp>[0]);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not report a TCP port');
  return {
    app,
    origin: `http://127.0.0.1:${address.port}`,
    dataDir,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (clientDist.startsWith(tmpdir())) rmSync(clientDist, { recursive: true, force: true });
    },
  };
}

/** A Chromium context on a new empty profile; console errors and page errors are collected. */
export interface Browser {
  context: BrowserContext;
  page: Page;
  errors: string[];
  close(): Promise<void>;
}

/** Chromium's synthetic camera (a test pattern) and auto-accepted permission prompt, for the camera page. */
export const FAKE_CAMERA_ARGS = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

/** Launches Chromium with a new user-data-dir and one page. */
export async function launchBrowser(viewport = { width: 1280, height: 900 }, extraArgs: string[] = []): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'nerts-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    viewport,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return {
    context,
    page,
    errors,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot as test-results/client/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean; omitBackground?: boolean } = {}): Promise<string> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? true, omitBackground: options.omitBackground ?? false, animations: 'disabled' });
  return path;
}

