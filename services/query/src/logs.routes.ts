import { activityPage, activityRow, logsQuery } from '@bahi/contracts';
import { HttpError, signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { QueryDeps } from './deps.ts';
import { readActivity, readActivityPage } from './logs.repository.ts';
import { readAfterClientPosition } from './reads.ts';

/** The activity log is the Admins' (403 before the filters are looked at, as before). */
const adminOnly = async (request: FastifyRequest) => {
  const me = signedIn(request);
  if (me.role !== 'Admin') throw new HttpError(403, `Your role (${me.role}) cannot see the activity log.`);
};

/** The dashboard's ten entries: the log's default filters with a limit of 10. */
const RECENT = logsQuery.parse({ limit: 10 });

export async function registerLogRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/logs',
    {
      preValidation: adminOnly,
      schema: {
        summary: 'The activity log, a page (Admin)',
        tags: ['logs'],
        querystring: logsQuery,
        response: { 200: activityPage },
      },
    },
    async (request) => {
      await readAfterClientPosition(deps, request, ['activity_log', 'masters']);
      return readActivityPage(deps, request.query, signedIn(request).role);
    },
  );

  /**
   * The dashboard's Recent Activity: the last ten entries this role may see, for anyone signed
   * in (no User entries but for Admins: the live stream's rule, visibility.ts).
   */
  api.get(
    '/api/logs/recent',
    {
      schema: {
        summary: 'The last ten activity log entries the caller may see (users for Admins only)',
        tags: ['logs'],
        response: { 200: z.array(activityRow) },
      },
    },
    async (request) => {
      const me = signedIn(request);
      await readAfterClientPosition(deps, request, ['activity_log', 'masters']);
      return readActivity(deps, RECENT, me.role);
    },
  );
}
