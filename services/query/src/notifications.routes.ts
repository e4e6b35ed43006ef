import { notificationList } from '@bahi/contracts';
import { signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { readAfterClientPosition } from './masters.routes.ts';
import type { QueryDeps } from './routes.ts';

/** The signed-in user's notifications (for their role), newest first, with the unread count. */
export async function registerNotificationListRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/notifications',
    {
      schema: {
        summary: "The signed-in user's notifications, newest first, and the unread count",
        tags: ['notifications'],
        querystring: z.object({
          limit: z.coerce
            .number({ error: 'limit must be a number' })
            .int()
            .min(1, 'limit is 1 to 100')
            .max(100, 'limit is 1 to 100')
            .default(7),
        }),
        response: { 200: notificationList },
      },
    },
    async (request) => {
      const me = signedIn(request);
      const q = request.query;
      await readAfterClientPosition(deps, request, ['notifications']);
      const isRead = sql<boolean>`(exists (select 1 from notification_reads r where r.user_id = ${me.id} and r.notification_id = n.id)
      or n.created_at <= coalesce((select up_to from notification_reads_all a where a.user_id = ${me.id}), '-infinity'))`;
      const mine = deps.readDb.selectFrom('notifications as n').where('n.audience', '=', me.role);
      const rows = await mine
        .select(['n.id', 'n.title', 'n.message', 'n.type', 'n.link', 'n.created_at', isRead.as('is_read')])
        .orderBy('n.created_at', 'desc')
        .limit(q.limit)
        .execute();
      const unread = await mine
        .where(sql<boolean>`not ${isRead}`)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      return {
        notifications: rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
        unreadCount: Number(unread.n),
      };
    },
  );
}
