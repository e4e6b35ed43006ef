import { signedIn } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import type { CommandDeps } from '../deps.ts';
import { requestMeta } from '../request-meta.ts';
import { recordId } from './masters.routes.ts';

/** Reading notifications is the signed-in user's own business: every user may. */
export async function registerNotificationRoutes(app: FastifyInstance, deps: CommandDeps): Promise<void> {
  app.post<{ Params: { id: string } }>('/api/notifications/:id/read', async (request) => {
    const me = signedIn(request);
    const id = recordId(request.params.id, 'Notification');
    const r = await deps.eventStore.append(
      `notification-reads-${me.id}`,
      [
        {
          type: 'NotificationRead',
          data: { user_id: me.id, notification_id: id },
          metadata: { ...requestMeta(request), schemaVersion: 1 },
        },
      ],
      'any',
    );
    return { id, position: r.position.toString() };
  });

  app.post('/api/notifications/read-all', async (request) => {
    const me = signedIn(request);
    const r = await deps.eventStore.append(
      `notification-reads-${me.id}`,
      [
        {
          type: 'NotificationsAllRead',
          data: { user_id: me.id, up_to: new Date().toISOString() },
          metadata: { ...requestMeta(request), schemaVersion: 1 },
        },
      ],
      'any',
    );
    return { position: r.position.toString() };
  });
}
