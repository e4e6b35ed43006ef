import { activityPage, activityRow } from '@bahi/contracts';
import { HttpError, signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { readAfterClientPosition } from './masters.routes.ts';
import { day, queryText } from './query-params.ts';
import type { QueryDeps } from './routes.ts';

const logsQuery = z.object({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, 'page starts at 1').default(1),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int()
    .refine((n) => n === -1 || (n >= 1 && n <= 500), 'limit is -1 (all) or 1 to 500')
    .default(25),
  userId: z.union([z.uuid('userId must be an id'), z.literal('')]).optional(),
  modelName: queryText('modelName', 50),
  actionType: z.union([z.enum(['CREATE', 'UPDATE', 'DELETE']), z.literal('')]).optional(),
  startDate: day('startDate'),
  endDate: day('endDate'),
});

/** Shown data leaves out timestamps and anything password-like (spec section 2, Activity Log). */
const HIDDEN = new Set(['created_at', 'updated_at', 'createdAt', 'updatedAt', 'password', 'password_hash']);
export const shown = (data: Record<string, unknown> | null): Record<string, unknown> | null =>
  data ? Object.fromEntries(Object.entries(data).filter(([key]) => !HIDDEN.has(key))) : null;

/** The activity log is the Admins' (403 before the filters are looked at, as before). */
const adminOnly = async (request: FastifyRequest) => {
  const me = signedIn(request);
  if (me.role !== 'Admin') throw new HttpError(403, `Your role (${me.role}) cannot see the activity log.`);
};

/** The dashboard's ten entries: the log's default filters with a limit of 10. */
const RECENT = logsQuery.parse({ limit: 10 });

export async function registerLogRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const entries = (filters: z.infer<typeof logsQuery>) => {
    let q = deps.readDb.selectFrom('activity_log as l');
    if (filters.userId) q = q.where('l.user_id', '=', filters.userId);
    if (filters.modelName) q = q.where('l.model_name', '=', filters.modelName);
    if (filters.actionType) q = q.where('l.action_type', '=', filters.actionType);
    if (filters.startDate) q = q.where(sql`l.created_at::date`, '>=', filters.startDate);
    if (filters.endDate) q = q.where(sql`l.created_at::date`, '<=', filters.endDate);
    return q;
  };
  const rows = async (filters: z.infer<typeof logsQuery>) => {
    let q = entries(filters)
      .leftJoin('users as u', 'u.id', 'l.user_id')
      .select([
        'l.id',
        'l.action_type',
        'l.model_name',
        'l.record_id',
        'l.user_id',
        'l.old_data',
        'l.new_data',
        'l.created_at',
        'u.name as user_name',
      ])
      .orderBy('l.created_at', 'desc')
      .orderBy('l.position', 'desc');
    if (filters.limit !== -1) q = q.limit(filters.limit).offset((filters.page - 1) * filters.limit);
    return (await q.execute()).map((r) => ({
      id: r.id,
      action_type: r.action_type,
      model_name: r.model_name,
      record_id: r.record_id,
      user: r.user_id && r.user_name ? { id: r.user_id, name: r.user_name } : null,
      old_data: shown(r.old_data),
      new_data: shown(r.new_data),
      created_at: new Date(r.created_at).toISOString(),
    }));
  };

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
      const filters = request.query;
      await readAfterClientPosition(deps, request, ['activity_log', 'masters']);
      const total = Number(
        (
          await entries(filters)
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      return { data: await rows(filters), totalItems: total };
    },
  );

  /** The dashboard's Recent Activity: the last ten entries, for anyone signed in. */
  api.get(
    '/api/logs/recent',
    {
      schema: {
        summary: 'The last ten activity log entries',
        tags: ['logs'],
        response: { 200: z.array(activityRow) },
      },
    },
    async (request) => {
      signedIn(request);
      await readAfterClientPosition(deps, request, ['activity_log', 'masters']);
      return rows(RECENT);
    },
  );
}
