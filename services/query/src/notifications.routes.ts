import { notificationList } from '@bahi/contracts';
import { signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { QueryDeps } from './deps.ts';
import { readNotifications } from './notifications.repository.ts';
import { readAfterClientPosition } from './reads.ts';

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
      await readAfterClientPosition(deps, request, ['notifications']);
      return readNotifications(deps, me, request.query.limit);
    },
  );
}
