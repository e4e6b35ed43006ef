import type { Kysely } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cash_records')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('business_date', 'date', (c) => c.notNull())
    .addColumn('city_id', 'uuid')
    .addColumn('amount', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('record', 'jsonb', (c) => c.notNull())
    .addColumn('deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('cash_records_kind_date')
    .on('cash_records')
    .columns(['kind', 'business_date'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cash_records').execute();
}
