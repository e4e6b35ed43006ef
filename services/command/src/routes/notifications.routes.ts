import { logPosition, writeAnswer } from '@bahi/contracts';
import { ProjectionBehindError, waitForProjections } from '@bahi/read-db';
import { appendToLog, HttpError, signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { CommandDeps } from '../deps.ts';
import { findMine, isReadBy, unreadCount } from '../notifications/reads.ts';
import { requestMeta } from '../request-meta.ts';
import { recordIdParams } from './params.ts';

/**
 * Reading notifications is the signed-in user's own business: every user may. A read that
 * changes nothing appends nothing (issue #16): an unknown notification, or one for another
 * role, is a 404; one already read, or read-all with nothing unread, answers the head.
 */
export async function registerNotificationRoutes(app: FastifyInstance, deps: CommandDeps): Promise<void> {
  /** Waits (bounded) for the notifications read model to reach the head: a just-raised notice is there. */
  const catchUp = async () => {
    try {
      await waitForProjections(deps.readDb, ['notifications'], await deps.eventStore.headPosition());
    } catch (error) {
      if (!(error instanceof ProjectionBehindError)) throw error;
    }
  };
  const head = async () => (await deps.eventStore.headPosition()).toString();

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/notifications/:id/read',
    {
      schema: {
        summary: 'Mark a notification read',
        tags: ['notifications'],
        params: recordIdParams('Notification'),
        response: { 200: writeAnswer },
      },
    },
    async (request) => {
      const me = signedIn(request);
      const { id } = request.params;
      let notification = await findMine(deps, me, id);
      if (!notification) {
        await catchUp();
        notification = await findMine(deps, me, id);
      }
      if (!notification) throw new HttpError(404, 'Notification not found.');
      const isRead = () => isReadBy(deps, me, notification);
      // A read just recorded may not be in the read model yet: look again once it caught up.
      let read = await isRead();
      if (!read) {
        await catchUp();
        read = await isRead();
      }
      if (read) return { id, position: await head() };
      const r = await appendToLog(
        deps.eventStore,
        `notification-reads-${me.id}`,
        [
          {
            type: 'NotificationRead',
            data: { user_id: me.id, notification_id: id },
            metadata: requestMeta(request),
          },
        ],
        'any',
      );
      return { id, position: r.position.toString() };
    },
  );

  api.post(
    '/api/notifications/read-all',
    {
      schema: {
        summary: 'Mark every notification read',
        tags: ['notifications'],
        response: { 200: z.object({ position: logPosition }) },
      },
    },
    async (request) => {
      const me = signedIn(request);
      // Both a just-raised notice and a just-recorded read-all may still be on their way.
      await catchUp();
      if ((await unreadCount(deps, me)) === 0) return { position: await head() };
      const r = await appendToLog(
        deps.eventStore,
        `notification-reads-${me.id}`,
        [
          {
            type: 'NotificationsAllRead',
            data: { user_id: me.id, up_to: new Date().toISOString() },
            metadata: requestMeta(request),
          },
        ],
        'any',
      );
      return { position: r.position.toString() };
    },
  );
}
