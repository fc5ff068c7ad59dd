/**
 * OpenAPI document built from the route schemas, served with Swagger UI at /docs
 * (JSON at /docs/json).
 */
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { PROTOCOL_VERSION } from '../protocol';

export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Nerts referee API',
          version: `protocol ${PROTOCOL_VERSION}`,
          description: 'REST routes of the camera referee. WebSocket messages: server/protocol.ts and docs/SERVER.md.',
        },
        components: {
          securitySchemes: { token: { type: 'http', scheme: 'bearer', description: 'camera, referee or view token of the table (or ?token=)' } },
        },
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'docs' },
);
