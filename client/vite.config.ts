/**
 * Vite config for the web app. Root is this folder; the build lands in client/dist, which the
 * Fastify server serves. In development (`npm run dev:client`) the Vite dev server proxies the
 * REST API and its WebSockets (all under /api) and the OpenAPI docs to the server (NERTS_SERVER, default http://localhost:3000).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const clientRoot = fileURLToPath(new URL('.', import.meta.url));
const serverUrl = process.env.NERTS_SERVER ?? 'http://localhost:3000';

export default defineConfig({
  root: clientRoot,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // One small app: keep the bundle warning for real regressions only.
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: {
      '/api': { target: serverUrl, changeOrigin: true, ws: true },
      '/docs': { target: serverUrl, changeOrigin: true },
    },
  },
});
