/**
 * POST a single frame: validated (format, bytes, pixels), recognised by the worker pool ahead of
 * live frames, returned as observations. It also feeds the table's tracker like a live frame.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { FrameObservationsSchema, errorResponses } from '../protocol';
import { ApiError } from '../plugins/errors';
import { FrameError, validateFrame } from '../workers/frame-format';
import { TableParams, TokenQuery } from './tables';

/** Content types a frame may be posted as. */
export const FRAME_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/octet-stream'];

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addContentTypeParser(FRAME_CONTENT_TYPES, { parseAs: 'buffer', bodyLimit: app.config.frameLimits.maxBytes }, (_request, body, done) => done(null, body));

  app.post(
    '/api/tables/:id/frames',
    {
      bodyLimit: app.config.frameLimits.maxBytes,
      config: { rateLimit: { max: app.config.maxCameraFps * 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['frames'],
        summary: 'Recognise one frame (JPEG, PNG or WebP body); returns its observations',
        security: [{ token: [] }],
        params: TableParams,
        querystring: TokenQuery,
        headers: Type.Object({ 'x-capture-time': Type.Optional(Type.Number({ description: 'capture time, ms' })) }),
        response: { 200: FrameObservationsSchema, ...errorResponses(400, 401, 403, 404, 413, 415, 429, 503) },
      },
    },
    async (request) => {
      const { table } = app.authorize(request, request.params.id, 'camera');
      const body = request.body;
      if (!Buffer.isBuffer(body)) throw new ApiError(415, 'frame/unsupported-format', 'send the frame as image/jpeg, image/png or image/webp');
      let header;
      try {
        header = validateFrame(body, app.config.frameLimits);
      } catch (error) {
        table.rejectFrame();
        if (error instanceof FrameError) throw new ApiError(error.statusCode, error.code, error.message);
        throw error;
      }
      const captureTimeMs = request.headers['x-capture-time'] ?? Date.now();
      const seq = table.acceptFrame(body, header, captureTimeMs);
      const started = performance.now();
      try {
        const observations = await app.pool.recognizeOnce(table.id, body, captureTimeMs);
        return {
          seq,
          timestampMs: captureTimeMs,
          width: observations.width,
          height: observations.height,
          cards: observations.cards,
          timingsMs: { ...(observations.timingsMs ?? {}), total: performance.now() - started },
        };
      } catch (error) {
        const message = (error as Error).message;
        if (message === 'pool/busy') throw new ApiError(503, 'recognizer/busy', 'too many frames waiting; retry shortly');
        throw new ApiError(422, 'frame/unreadable', `the recogniser could not read the frame: ${message}`);
      }
    },
  );
};

export default routes;
