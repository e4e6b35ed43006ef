import { logPosition, writeAnswer } from '@bahi/contracts';
import { ProjectionBehindError, waitForProjections } from '@bahi/read-db';
import { HttpError, type SignedInUser, signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { CommandDeps } from '../deps.ts';
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
  const readAllUpTo = async (me: SignedInUser) =>
    (
      await deps.readDb
        .selectFrom('notification_reads_all')
        .select('up_to')
        .where('user_id', '=', me.id)
        .executeTakeFirst()
    )?.up_to;
  const findMine = async (me: SignedInUser, id: string) =>
    deps.readDb
      .selectFrom('notifications')
      .select(['id', 'created_at'])
      .where('id', '=', id)
      .where('audience', '=', me.role)
      .executeTakeFirst();
  const unreadCount = async (me: SignedInUser) => {
    const upTo = await readAllUpTo(me);
    let q = deps.readDb
      .selectFrom('notifications as n')
      .where('n.audience', '=', me.role)
      .where('n.id', 'not in', (eb) =>
        eb.selectFrom('notification_reads as r').select('r.notification_id').where('r.user_id', '=', me.id),
      );
    if (upTo !== undefined) q = q.where('n.created_at', '>', upTo);
    const row = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
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
      let notification = await findMine(me, id);
      if (!notification) {
        await catchUp();
        notification = await findMine(me, id);
      }
      if (!notification) throw new HttpError(404, 'Notification not found.');
      const isRead = async () => {
        const upTo = await readAllUpTo(me);
        if (upTo !== undefined && new Date(notification.created_at) <= new Date(upTo)) return true;
        const row = await deps.readDb
          .selectFrom('notification_reads')
          .select('notification_id')
          .where('user_id', '=', me.id)
          .where('notification_id', '=', id)
          .executeTakeFirst();
        return row !== undefined;
      };
      // A read just recorded may not be in the read model yet: look again once it caught up.
      let read = await isRead();
      if (!read) {
        await catchUp();
        read = await isRead();
      }
      if (read) return { id, position: await head() };
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
      if ((await unreadCount(me)) === 0) return { position: await head() };
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
    },
  );
}
