/**
 * Serves the built web app (client/dist) with an SPA fallback: unknown non-API GET paths get
 * index.html so the client router can take them. Skipped (with a log line) when not built.
 */
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export default fp(
  async (app) => {
    const dist = app.config.clientDist;
    if (!dist || !existsSync(join(dist, 'index.html'))) {
      if (dist) app.log.warn({ dist }, 'web app not built (npm run build:client): only the API is served');
      return;
    }
    await app.register(fastifyStatic, { root: dist, wildcard: false });
    app.spaFallback = (_request, reply) => reply.sendFile('index.html');
  },
  { name: 'client', dependencies: ['errors'] },
);
