/**
 * Liveness and the protocol version.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { PROTOCOL_VERSION } from '../protocol';

const started = Date.now();

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Server health',
        response: { 200: Type.Object({ ok: Type.Boolean(), protocolVersion: Type.Integer(), uptimeMs: Type.Number(), recognizer: Type.String() }) },
      },
    },
    async () => {
      const recognizer = await Promise.race([app.pool.backend.catch((error: Error) => `failed: ${error.message}`), new Promise<string>((resolve) => setTimeout(() => resolve('loading'), 50))]);
      return { ok: true, protocolVersion: PROTOCOL_VERSION, uptimeMs: Date.now() - started, recognizer };
    },
  );
};

export default routes;
