import type { Kysely } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('activity_log')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('action_type', 'text', (c) => c.notNull())
    .addColumn('model_name', 'text', (c) => c.notNull())
    .addColumn('record_id', 'uuid', (c) => c.notNull())
    .addColumn('user_id', 'uuid')
    .addColumn('old_data', 'jsonb')
    .addColumn('new_data', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('activity_log_created')
    .on('activity_log')
    .columns(['created_at', 'position'])
    .execute();
  // The last known data of each record, so an update or delete can show what it was before.
  await db.schema
    .createTable('activity_records')
    .addColumn('record_id', 'uuid', (c) => c.primaryKey())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('activity_records').execute();
  await db.schema.dropTable('activity_log').execute();
}
