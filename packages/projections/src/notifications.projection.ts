import { type Projection, typed } from './projection.ts';

/** Notifications and who has read them. */
export const notifications: Projection = {
  name: 'notifications',
  tables: ['notifications', 'notification_reads', 'notification_reads_all'],
  async apply(tx, events) {
    for (const recorded of events) {
      const event = typed(recorded);
      if (event.type === 'NotificationRaised') {
        const d = event.data;
        await tx
          .insertInto('notifications')
          .values({
            id: d.id,
            audience: d.audience,
            type: d.type,
            title: d.title,
            message: d.message,
            link: d.link ?? null,
            created_at: event.metadata.recordedAt,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
      } else if (event.type === 'NotificationRead') {
        const d = event.data;
        await tx
          .insertInto('notification_reads')
          .values({ user_id: d.user_id, notification_id: d.notification_id })
          .onConflict((oc) => oc.columns(['user_id', 'notification_id']).doNothing())
          .execute();
      } else if (event.type === 'NotificationsAllRead') {
        const d = event.data;
        await tx
          .insertInto('notification_reads_all')
          .values({ user_id: d.user_id, up_to: d.up_to })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ up_to: d.up_to }))
          .execute();
      }
    }
  },
};
