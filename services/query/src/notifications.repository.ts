import { sql } from 'kysely';
import type { QueryDeps } from './deps.ts';

/** The notifications' reads (issue #19: SQL in repository functions, not in route handlers). */

/** A user's notifications (for their role), newest first, with the unread count. */
export async function readNotifications(deps: QueryDeps, me: { id: string; role: string }, limit: number) {
  const isRead = sql<boolean>`(exists (select 1 from notification_reads r where r.user_id = ${me.id} and r.notification_id = n.id)
  or n.created_at <= coalesce((select up_to from notification_reads_all a where a.user_id = ${me.id}), '-infinity'))`;
  const mine = deps.readDb.selectFrom('notifications as n').where('n.audience', '=', me.role);
  const rows = await mine
    .select(['n.id', 'n.title', 'n.message', 'n.type', 'n.link', 'n.created_at', isRead.as('is_read')])
    .orderBy('n.created_at', 'desc')
    .limit(limit)
    .execute();
  const unread = await mine
    .where(sql<boolean>`not ${isRead}`)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return {
    notifications: rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
    unreadCount: Number(unread.n),
  };
}
