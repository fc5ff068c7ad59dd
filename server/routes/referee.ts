/**
 * Referee actions: start a hand, manual call, overrule a dispute, end and score the hand,
 * score-sort corrections. Each goes into the event log like a tracker event.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CorrectionSchema, ManualCallSchema, OverruleSchema, TableViewSchema, errorResponses } from '../protocol';
import { ApiError } from '../plugins/errors';
import { TableParams, TokenQuery } from './tables';

const security = [{ token: [] }];
/** Violations that mean the action was refused (others are recorded on the table but the action stands). */
const REFUSALS = new Set(['player/unknown', 'hand/already-called', 'hand/ended', 'hand/not-started', 'dispute/unknown', 'dispute/bad-ruling', 'match/over', 'event/malformed']);

function refusal(violations: Array<{ code: string; message: string }>): { code: string; message: string } | undefined {
  return violations.find((v) => REFUSALS.has(v.code));
}
const EmptyBody = Type.Optional(Type.Object({}));

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const answer = { 200: TableViewSchema, ...errorResponses(400, 401, 403, 404, 409) };

  app.post(
    '/api/tables/:id/hands',
    { schema: { tags: ['referee'], summary: 'Start the next hand', security, params: TableParams, querystring: TokenQuery, body: EmptyBody, response: answer } },
    async (request) => {
      const { table } = app.authorize(request, request.params.id, 'referee');
      const phase = table.view().phase;
      if (phase === 'playing' || phase === 'called') throw new ApiError(409, 'hand/in-play', 'end the current hand first');
      return table.startHand();
    },
  );

  app.post(
    '/api/tables/:id/call',
    { schema: { tags: ['referee'], summary: 'Manual Nerts call: play freezes', security, params: TableParams, querystring: TokenQuery, body: ManualCallSchema, response: answer } },
    async (request) => {
      const { table } = app.authorize(request, request.params.id, 'referee');
      const { view, violations } = table.manualCall(request.body.player);
      const refused = refusal(violations);
      if (refused) throw new ApiError(409, refused.code, refused.message);
      return view;
    },
  );

  app.post(
    '/api/tables/:id/rotation',
    { schema: { tags: ['referee'], summary: 'Record a stuck rotation (everyone stuck: waste to stock, top card to the bottom)', security, params: TableParams, querystring: TokenQuery, body: EmptyBody, response: answer } },
    async (request) => {
      const { table } = app.authorize(request, request.params.id, 'referee');
      const { view, violations } = table.stuckRotation();
      const refused = refusal(violations);
      if (refused) throw new ApiError(409, refused.code, refused.message);
      return view;
    },
  );

  app.post(
    '/api/tables/:id/disputes/:disputeId/overrule',
    {
      schema: {
        tags: ['referee'],
        summary: "Overrule a dispute's automatic ruling",
        security,
        params: Type.Object({ id: Type.String({ maxLength: 64 }), disputeId: Type.String({ maxLength: 40 }) }),
        querystring: TokenQuery,
        body: OverruleSchema,
        response: answer,
      },
    },
    async (request) => {
      const { table } = app.authorize(request, request.params.id, 'referee');
      const { view, violations } = table.overrule(request.params.disputeId, request.body.winner);
      const refused = refusal(violations);
      if (refused) throw new ApiError(409, refused.code, refused.message);
      return view;
    },
  );

  app.post(
    '/api/tables/:id/hands/end',
    { schema: { tags: ['referee'], summary: 'End the hand and score it', security, params: TableParams, querystring: TokenQuery, body: EmptyBody, response: answer } },
    async (request) => {
      const { table } = app.authorize(request, request.params.id, 'referee');
      const { view, violations } = table.endHand();
      const refused = refusal(violations);
      if (refused) throw new ApiError(409, refused.code, refused.message);
      return view;
    },
  );

  app.post(
    '/api/tables/:id/corrections',
    { schema: { tags: ['referee'], summary: 'Correct a score-sort count (recorded in the log)', security, params: TableParams, querystring: TokenQuery, body: CorrectionSchema, response: answer } },
    async (request) => {
      const { table } = app.authorize(request, request.params.id, 'referee');
      const { view, violations } = table.correct(request.body);
      const refused = violations.find((v) => v.code.startsWith('correction/') || REFUSALS.has(v.code));
      if (refused) throw new ApiError(400, refused.code, refused.message);
      return view;
    },
  );
};

export default routes;
