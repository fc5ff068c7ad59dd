/**
 * Reading the record: the event log, evidence frames, match history as JSON and CSV.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { LoggedEventSchema, ScoreRowSchema, errorResponses } from '../protocol';
import { ApiError } from '../plugins/errors';
import { TableParams, TokenQuery } from './tables';
import { historyCsv } from '../tables/history';

const security = [{ token: [] }];

/** History JSON: the table's hands with their score rows. */
export const HistorySchema = Type.Object({
  tableId: Type.String(),
  name: Type.String(),
  hands: Type.Array(
    Type.Object({
      match: Type.Integer(),
      hand: Type.Integer(),
      startedAtMs: Type.Number(),
      endedAtMs: Type.Union([Type.Number(), Type.Null()]),
      scores: Type.Union([Type.Array(ScoreRowSchema), Type.Null()]),
    }),
  ),
});

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/tables/:id/events',
    {
      schema: {
        tags: ['history'],
        summary: 'The event log (after a sequence number)',
        security,
        params: TableParams,
        querystring: Type.Object({
          token: Type.Optional(Type.String({ maxLength: 200 })),
          after: Type.Optional(Type.Integer({ minimum: -1 })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
        }),
        response: { 200: Type.Array(LoggedEventSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { table } = app.authorize(request, request.params.id, 'view');
      return table.events(request.query.after ?? -1, request.query.limit ?? 1000);
    },
  );

  app.get(
    '/api/tables/:id/evidence/:evidenceId',
    {
      schema: {
        tags: ['history'],
        summary: 'An evidence frame kept for a dispute',
        security,
        params: Type.Object({ id: Type.String({ maxLength: 64 }), evidenceId: Type.String({ maxLength: 80, pattern: '^[A-Za-z0-9_-]+$' }) }),
        querystring: TokenQuery,
        response: errorResponses(400, 401, 403, 404),
      },
    },
    async (request, reply) => {
      const { table } = app.authorize(request, request.params.id, 'view');
      const evidence = app.store.evidence(table.id, request.params.evidenceId);
      if (!evidence) throw new ApiError(404, 'evidence/not-found', `no evidence ${request.params.evidenceId}`);
      return reply.type(evidence.contentType).send(evidence.bytes);
    },
  );

  app.get(
    '/api/tables/:id/history.json',
    { schema: { tags: ['history'], summary: 'Match history: hands and score rows', security, params: TableParams, querystring: TokenQuery, response: { 200: HistorySchema, ...errorResponses(401, 403, 404) } } },
    async (request) => {
      const { table } = app.authorize(request, request.params.id, 'view');
      const hands = app.store.hands(table.id).map(({ match, hand, startedAtMs, endedAtMs, scores }) => ({ match, hand, startedAtMs, endedAtMs, scores }));
      return { tableId: table.id, name: table.info().name, hands };
    },
  );

  app.get(
    '/api/tables/:id/history.csv',
    { schema: { tags: ['history'], summary: 'Match history as CSV: one row per player per scored hand', security, params: TableParams, querystring: TokenQuery, response: errorResponses(401, 403, 404) } },
    async (request, reply) => {
      const { table } = app.authorize(request, request.params.id, 'view');
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${table.id}-history.csv"`)
        .send(historyCsv(app.store.hands(table.id)));
    },
  );
};

export default routes;
