import type { SignedInUser } from '@bahi/server-kit';
import type { CommandDeps } from '../deps.ts';

/**
 * What the notification writes look up in the notifications read model (issue #19: SQL in
 * functions of their own, not in route handlers): whether there is anything to append.
 */

type Me = Pick<SignedInUser, 'id' | 'role'>;

/** The moment up to which the user marked everything read, if they ever did. */
export const readAllUpTo = async (deps: CommandDeps, me: Me) =>
  (
    await deps.readDb
      .selectFrom('notification_reads_all')
      .select('up_to')
      .where('user_id', '=', me.id)
      .executeTakeFirst()
  )?.up_to;

/** A notification for the user's role, by id. */
export const findMine = async (deps: CommandDeps, me: Me, id: string) =>
  deps.readDb
    .selectFrom('notifications')
    .select(['id', 'created_at'])
    .where('id', '=', id)
    .where('audience', '=', me.role)
    .executeTakeFirst();

/** Whether the user has read this notification (on its own, or by marking all read after it). */
export async function isReadBy(
  deps: CommandDeps,
  me: Me,
  notification: { id: string; created_at: Date | string },
): Promise<boolean> {
  const upTo = await readAllUpTo(deps, me);
  if (upTo !== undefined && new Date(notification.created_at) <= new Date(upTo)) return true;
  const row = await deps.readDb
    .selectFrom('notification_reads')
    .select('notification_id')
    .where('user_id', '=', me.id)
    .where('notification_id', '=', notification.id)
    .executeTakeFirst();
  return row !== undefined;
}

/** How many of the role's notifications the user has not read. */
export async function unreadCount(deps: CommandDeps, me: Me): Promise<number> {
  const upTo = await readAllUpTo(deps, me);
  let q = deps.readDb
    .selectFrom('notifications as n')
    .where('n.audience', '=', me.role)
    .where('n.id', 'not in', (eb) =>
      eb.selectFrom('notification_reads as r').select('r.notification_id').where('r.user_id', '=', me.id),
    );
  if (upTo !== undefined) q = q.where('n.created_at', '>', upTo);
  const row = await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
