/**
 * Per-table tokens: `camera` may send frames, `referee` may act and read, `view` may read.
 * A token comes as `Authorization: Bearer <token>` or `?token=` (sockets, overlay URLs).
 * `app.authorize(request, tableId, need)` resolves the table or throws a 401/403/404 ApiError.
 */
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import type { Role } from '../protocol';
import type { LiveTable } from '../tables/live-table';
import { ApiError } from './errors';

/** Which roles satisfy a need: referees may also view. */
export function roleSatisfies(role: Role, need: Role): boolean {
  return role === need || (need === 'view' && role === 'referee');
}

/** The token a request carries (header first, then query), or undefined. */
export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header && /^Bearer\s+/i.test(header)) return header.replace(/^Bearer\s+/i, '').trim();
  const query = request.query as Record<string, unknown> | undefined;
  return typeof query?.token === 'string' ? query.token : undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The table and the caller's role, or throws ApiError 401/403/404. */
    authorize(request: FastifyRequest, tableId: string, need: Role): { table: LiveTable; role: Role };
    /** Throws 401/403 unless the admin token is unset or given. */
    authorizeAdmin(request: FastifyRequest): void;
  }
}

export default fp(
  async (app) => {
    app.decorate('authorize', (request: FastifyRequest, tableId: string, need: Role) => {
      const table = app.tables.get(tableId);
      const token = tokenOf(request);
      if (!token) throw new ApiError(401, 'auth/missing-token', 'this route needs a token (Authorization: Bearer or ?token=)');
      if (!table) throw new ApiError(404, 'table/not-found', `no table ${tableId}`);
      const role = app.tables.roleOf(table, token);
      if (!role) throw new ApiError(403, 'auth/forbidden', 'the token is not valid for this table');
      if (!roleSatisfies(role, need)) throw new ApiError(403, 'auth/forbidden', `this needs the ${need} token, not the ${role} token`);
      return { table, role };
    });
    app.decorate('authorizeAdmin', (request: FastifyRequest) => {
      const admin = app.config.adminToken;
      if (!admin) return;
      const token = tokenOf(request);
      if (!token) throw new ApiError(401, 'auth/missing-token', 'this server needs the admin token');
      const a = Buffer.from(token);
      const b = Buffer.from(admin);
      if (a.length !== b.length || !timingSafeEqual(a, b)) throw new ApiError(403, 'auth/forbidden', 'wrong admin token');
    });
  },
  { name: 'auth', dependencies: ['services'] },
);
