/**
 * CORS (same origin plus configured origins) and rate limits (per IP; routes may set their own).
 */
import fp from 'fastify-plugin';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import { errorBody } from './errors';

export default fp(
  async (app) => {
    const allowed = new Set(app.config.corsOrigins);
    await app.register(cors, {
      // Same-origin requests carry no Origin or the server's own; others must be listed.
      origin: (origin, callback) => callback(null, !origin || origin === app.config.publicOrigin || allowed.has(origin)),
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['Content-Type', 'Authorization', 'X-Capture-Time'],
    });
    await app.register(rateLimit, {
      max: app.config.rateLimitPerMinute,
      timeWindow: '1 minute',
      // Injected socket upgrades (tests) carry no IP.
      keyGenerator: (request) => request.ip ?? 'unknown',
      errorResponseBuilder: (_request, context) => {
        const body = errorBody(429, 'request/rate-limited', `rate limit: ${context.max} requests per ${context.after}`);
        return Object.assign(new Error(body.message), body);
      },
    });
  },
  { name: 'security', dependencies: ['config'] },
);
