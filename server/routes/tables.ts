/**
 * Table routes: create, list, read, delete, tokens, frame source, calibration, latest frame,
 * back enrolment. Handlers stay thin: the LiveTable and registry do the work.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CardCodeSchema,
  CalibrationSchema,
  CreateTableSchema,
  CreatedTableSchema,
  EnrollBackSchema,
  MAX_BACK_VIEWS,
  EnrollSchema,
  PipelineStatsSchema,
  SetSourceSchema,
  TableInfoSchema,
  TableTokensSchema,
  TableViewSchema,
  UpdateSetupSchema,
  errorResponses,
  type CreatedTable,
} from '../protocol';
import { ApiError } from '../plugins/errors';
import { SetupError, resolveSetup } from '../tables/registry';
import type { LiveTable } from '../tables/live-table';
import { cropQuad } from '../tables/crop';
import { sniffFormat } from '../workers/frame-format';
import type { CardCode } from '../game/cards';
import { polygonArea } from '../geometry';
import type { Quad } from '../vision/types';

/** The largest card of `kind` in the table's latest observations (the card held up to the camera), or null. */
function largestSeen(table: LiveTable, kind: 'face' | 'back'): Quad | null {
  const cards = (table.latestObservations?.cards ?? []).filter((card) => card.kind === kind);
  return cards.sort((a, b) => polygonArea(b.corners) - polygonArea(a.corners))[0]?.corners ?? null;
}

/** Route params of every per-table route. */
export const TableParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
/** Query of token-carrying routes (the token may also come as a Bearer header). */
export const TokenQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) });
const security = [{ token: [] }];

/** The web app's URLs of a table, with tokens (paths relative to the server origin). */
export function tableUrls(table: LiveTable): CreatedTable['urls'] {
  const id = encodeURIComponent(table.id);
  return {
    dashboard: `/tables/${id}?token=${table.tokens.referee}`,
    camera: `/tables/${id}/camera?token=${table.tokens.camera}`,
    overlay: `/overlay/${id}?token=${table.tokens.view}`,
  };
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/tables',
    {
      schema: {
        tags: ['tables'],
        summary: 'Create a table; returns its tokens (once) and page URLs',
        body: CreateTableSchema,
        response: { 201: CreatedTableSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      app.authorizeAdmin(request);
      try {
        const table = app.tables.create(request.body);
        return reply.status(201).send({ table: table.info(), tokens: table.tokens, urls: tableUrls(table) });
      } catch (error) {
        if (error instanceof SetupError) throw new ApiError(400, 'table/bad-setup', error.message);
        throw error;
      }
    },
  );

  app.get(
    '/api/tables',
    { schema: { tags: ['tables'], summary: 'List tables (no tokens)', querystring: TokenQuery, response: { 200: Type.Array(TableInfoSchema), ...errorResponses(401, 403) } } },
    async (request) => {
      app.authorizeAdmin(request);
      return app.tables.list().map((table) => table.info());
    },
  );

  app.get(
    '/api/tables/:id',
    {
      schema: {
        tags: ['tables'],
        summary: 'A table, its live view and pipeline stats',
        security,
        params: TableParams,
        querystring: TokenQuery,
        response: { 200: Type.Object({ table: TableInfoSchema, view: TableViewSchema, stats: PipelineStatsSchema }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { table } = app.authorize(request, request.params.id, 'view');
      return { table: table.info(), view: table.view(), stats: table.stats() };
    },
  );

  app.delete(
    '/api/tables/:id',
    { schema: { tags: ['tables'], summary: 'Delete a table and its history', security, params: TableParams, querystring: TokenQuery, response: { 204: Type.Null(), ...errorResponses(401, 403, 404) } } },
    async (request, reply) => {
      app.authorize(request, request.params.id, 'referee');
      app.tables.delete(request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/tables/:id/tokens',
    { schema: { tags: ['tables'], summary: 'The three tokens of a table', security, params: TableParams, querystring: TokenQuery, response: { 200: TableTokensSchema, ...errorResponses(401, 403, 404) } } },
    async (request) => app.authorize(request, request.params.id, 'referee').table.tokens,
  );

  app.put(
    '/api/tables/:id/source',
    {
      schema: { tags: ['tables'], summary: 'Switch between the simulated table and a real camera', security, params: TableParams, querystring: TokenQuery, body: SetSourceSchema, response: { 200: TableInfoSchema, ...errorResponses(400, 401, 403, 404) } },
    },
    async (request) => {
      const { table } = app.authorize(request, request.params.id, 'referee');
      table.setSource(request.body.source);
      return table.info();
    },
  );

  app.put(
    '/api/tables/:id/setup',
    {
      schema: {
        tags: ['tables'],
        summary: 'Edit seats, players, teams, handicaps, variant and target between hands (applies from the next hand; logged)',
        security,
        params: TableParams,
        querystring: TokenQuery,
        body: UpdateSetupSchema,
        response: { 200: TableInfoSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { table, role } = app.authorize(request, request.params.id, 'referee');
      let setup;
      try {
        setup = resolveSetup(request.body);
      } catch (error) {
        if (error instanceof SetupError) throw new ApiError(400, 'table/bad-setup', error.message);
        throw error;
      }
      if (!table.updateSetup(setup, role)) throw new ApiError(409, 'hand/in-progress', 'a hand is in progress: end and score it before changing the setup');
      return table.info();
    },
  );

  app.get(
    '/api/tables/:id/calibration',
    { schema: { tags: ['calibration'], summary: 'The saved calibration', security, params: TableParams, querystring: TokenQuery, response: { 200: CalibrationSchema, ...errorResponses(401, 403, 404) } } },
    async (request) => {
      const { table } = app.authorize(request, request.params.id, 'view');
      if (!table.calibration) throw new ApiError(404, 'calibration/not-set', 'this table is not calibrated yet');
      return table.calibration;
    },
  );

  app.put(
    '/api/tables/:id/calibration',
    {
      schema: { tags: ['calibration'], summary: 'Save the calibration (table corners in the image, zones in table mm)', security, params: TableParams, querystring: TokenQuery, body: CalibrationSchema, response: { 200: CalibrationSchema, ...errorResponses(400, 401, 403, 404) } },
    },
    async (request) => {
      const { table } = app.authorize(request, request.params.id, 'referee');
      const calibration = request.body;
      for (const [x, y] of calibration.imageCorners) {
        if (x < -calibration.imageWidth || y < -calibration.imageHeight || x > 2 * calibration.imageWidth || y > 2 * calibration.imageHeight) {
          throw new ApiError(400, 'calibration/corner-outside', `corner (${x}, ${y}) lies far outside the ${calibration.imageWidth}x${calibration.imageHeight} image`);
        }
      }
      table.setCalibration(calibration);
      return calibration;
    },
  );

  app.get(
    '/api/tables/:id/frame.jpg',
    { schema: { tags: ['calibration'], summary: 'The latest frame received (as sent: JPEG, PNG or WebP)', security, params: TableParams, querystring: TokenQuery, response: errorResponses(401, 403, 404) } },
    async (request, reply) => {
      const { table } = app.authorize(request, request.params.id, 'view');
      const frame = table.latestFrame();
      if (!frame) throw new ApiError(404, 'frame/none-yet', 'no frame received yet');
      return reply.header('cache-control', 'no-store').type(frame.contentType).send(Buffer.from(frame.image));
    },
  );

  app.post(
    '/api/tables/:id/decks/:deckId/enroll',
    {
      schema: {
        tags: ['calibration'],
        summary: "Add a view of a deck's back from the latest frame (the back held up to the camera); up to 5 views are kept, `replace` starts over",
        security,
        params: Type.Object({ id: Type.String({ maxLength: 64 }), deckId: Type.String({ maxLength: 40 }) }),
        querystring: TokenQuery,
        body: Type.Optional(EnrollBackSchema),
        response: { 200: TableInfoSchema, ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request) => {
      const { table } = app.authorize(request, request.params.id, 'referee');
      const deckId = request.params.deckId;
      if (!table.info().seats.some((seat) => seat.deckId === deckId)) throw new ApiError(404, 'deck/unknown', `no seat plays deck ${deckId}`);
      const frame = table.latestFrame();
      if (!frame) throw new ApiError(409, 'frame/none-yet', 'show the back to the camera first: no frame received yet');
      // The back's outline: given, else the largest back the recogniser saw, else the whole frame.
      const corners = request.body?.corners ?? largestSeen(table, 'back');
      let view: Uint8Array;
      try {
        view = corners ? await cropQuad(frame.image, corners) : frame.image;
      } catch (error) {
        throw new ApiError(400, 'enroll/bad-crop', `cannot crop the back: ${(error as Error).message}`);
      }
      try {
        await table.enrollBack(deckId, view, { replace: request.body?.replace ?? false });
      } catch (error) {
        throw new ApiError(503, 'recognizer/unavailable', `enrolment failed: ${(error as Error).message}`);
      }
      return table.info();
    },
  );

  app.get(
    '/api/tables/:id/decks/:deckId/views/:index',
    {
      schema: {
        tags: ['calibration'],
        summary: "A view a deck's back is enrolled from (0 = the oldest kept), as cropped from the camera frame",
        security,
        params: Type.Object({ id: Type.String({ maxLength: 64 }), deckId: Type.String({ maxLength: 40 }), index: Type.Integer({ minimum: 0, maximum: MAX_BACK_VIEWS - 1 }) }),
        querystring: TokenQuery,
        response: errorResponses(400, 401, 403, 404),
      },
    },
    async (request, reply) => {
      const { table } = app.authorize(request, request.params.id, 'view');
      const view = table.backView(request.params.deckId, request.params.index);
      if (!view) throw new ApiError(404, 'enroll/no-view', `deck ${request.params.deckId} has no back view ${request.params.index}`);
      return reply.header('cache-control', 'no-store').type(`image/${sniffFormat(view) ?? 'png'}`).send(Buffer.from(view));
    },
  );

  app.post(
    '/api/tables/:id/faces/:code/enroll',
    {
      schema: {
        tags: ['calibration'],
        summary: 'Enrol a face card that reads badly from the latest frame (the card shown to the camera); a few views per card help',
        security,
        params: Type.Object({ id: Type.String({ maxLength: 64 }), code: CardCodeSchema }),
        querystring: TokenQuery,
        body: Type.Optional(EnrollSchema),
        response: { 200: TableInfoSchema, ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request) => {
      const { table } = app.authorize(request, request.params.id, 'referee');
      // The schema's pattern admits only the 52 codes.
      const code = request.params.code as CardCode;
      const frame = table.latestFrame();
      if (!frame) throw new ApiError(409, 'frame/none-yet', 'show the card to the camera first: no frame received yet');
      // The card's outline: given, else the largest card the recogniser saw in the latest frame
      // (the one held up to the camera; it may read as another card, that is why it is enrolled).
      const corners = request.body?.corners ?? largestSeen(table, 'face');
      if (!corners) throw new ApiError(409, 'enroll/no-card', `no face card seen in the latest frame: hold the ${code} up to the camera, or give its corners`);
      let view: Uint8Array;
      try {
        view = await cropQuad(frame.image, corners);
      } catch (error) {
        throw new ApiError(400, 'enroll/bad-crop', `cannot crop the card: ${(error as Error).message}`);
      }
      try {
        await table.enrollFace(code, view);
      } catch (error) {
        throw new ApiError(503, 'recognizer/unavailable', `enrolment failed: ${(error as Error).message}`);
      }
      return table.info();
    },
  );

  app.delete(
    '/api/tables/:id/faces/:code/enroll',
    {
      schema: {
        tags: ['calibration'],
        summary: 'Forget an enrolled face (enrolled as the wrong card, or no longer needed): every view of it',
        security,
        params: Type.Object({ id: Type.String({ maxLength: 64 }), code: CardCodeSchema }),
        querystring: TokenQuery,
        response: { 200: TableInfoSchema, ...errorResponses(400, 401, 403, 404, 503) },
      },
    },
    async (request) => {
      const { table } = app.authorize(request, request.params.id, 'referee');
      const code = request.params.code as CardCode;
      let forgotten: boolean;
      try {
        forgotten = await table.forgetFace(code);
      } catch (error) {
        throw new ApiError(503, 'recognizer/unavailable', `forgetting failed: ${(error as Error).message}`);
      }
      if (!forgotten) throw new ApiError(404, 'enroll/not-enrolled', `${code} is not enrolled`);
      return table.info();
    },
  );
};

export default routes;
