/**
 * One error shape for every failure: `{ statusCode, code, error, message }` (ErrorBody in
 * protocol.ts). Validation, size, content-type and rate-limit errors keep their status with a
 * stable code; anything unexpected is a 500 that is logged and never leaks internals.
 */
import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { ErrorBody } from '../protocol';

/** An error a handler throws on purpose: status, stable code, message for the client. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The error body for a status/code/message. */
export function errorBody(statusCode: number, code: string, message: string): ErrorBody {
  return { statusCode, code, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'request/body-too-large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'request/unsupported-media-type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'request/empty-body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'request/invalid-json',
  FST_ERR_VALIDATION: 'request/invalid',
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by the client plugin: answers unknown GET paths with the web app (SPA fallback). */
    spaFallback: ((request: FastifyRequest, reply: FastifyReply) => unknown) | null;
  }
}

export default fp(
  async (app) => {
    app.decorate('spaFallback', null);
    app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
      if (error instanceof ApiError) return reply.status(error.statusCode).send(errorBody(error.statusCode, error.code, error.message));
      const fastifyError = error as FastifyError;
      const status = fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 600 ? fastifyError.statusCode : 500;
      if (fastifyError.validation) return reply.status(400).send(errorBody(400, 'request/invalid', fastifyError.message));
      if (status === 429) return reply.status(429).send(errorBody(429, 'request/rate-limited', fastifyError.message));
      if (status >= 500) {
        request.log.error({ err: error }, 'unhandled error');
        return reply.status(status).send(errorBody(status, 'server/internal', 'internal server error'));
      }
      const code = FASTIFY_CODES[fastifyError.code] ?? `request/${(fastifyError.code ?? 'bad-request').toLowerCase()}`;
      return reply.status(status).send(errorBody(status, code, fastifyError.message));
    });
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0];
      if (app.spaFallback && request.method === 'GET' && !path.startsWith('/api/') && !path.startsWith('/docs')) return app.spaFallback(request, reply);
      return reply.status(404).send(errorBody(404, 'route/not-found', `no route ${request.method} ${request.url.split('?')[0]}`));
    });
  },
  { name: 'errors' },
);
