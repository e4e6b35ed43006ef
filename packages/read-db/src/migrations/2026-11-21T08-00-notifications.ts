import type { Kysely } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('audience', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('link', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('notification_reads')
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('notification_id', 'uuid', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_reads_pkey', ['user_id', 'notification_id'])
    .execute();
  await db.schema
    .createTable('notification_reads_all')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey())
    .addColumn('up_to', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['notification_reads_all', 'notification_reads', 'notifications'])
    await db.schema.dropTable(t).execute();
}
