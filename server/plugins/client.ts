/**
 * Serves the built web app (client/dist) with an SPA fallback: unknown non-API GET paths get
 * index.html so the client router can take them. Skipped (with a log line) when not built.
 */
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { errorBody } from './errors';

export default fp(
  async (app) => {
    const dist = app.config.clientDist;
    if (!dist || !existsSync(join(dist, 'index.html'))) {
      if (dist) app.log.warn({ dist }, 'web app not built (npm run build:client): only the API is served');
      return;
    }
    await app.register(fastifyStatic, { root: dist, wildcard: false });
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0];
      if (request.method !== 'GET' || path.startsWith('/api/') || path.startsWith('/docs')) {
        return reply.status(404).send(errorBody(404, 'route/not-found', `no route ${request.method} ${path}`));
      }
      return reply.sendFile('index.html');
    });
  },
  { name: 'client', dependencies: ['errors'] },
);
