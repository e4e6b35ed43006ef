import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
// One row per rebuild of read models: asked for (by the Admin API), running (progress), done
// (with its comparison report) or failed. At most one is asked for or running at a time.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('projection_rebuilds')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('projections', 'jsonb', (c) => c.notNull())
    .addColumn('swap', 'boolean', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('position', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('target', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('report', 'jsonb')
    .addColumn('error', 'text')
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX projection_rebuilds_one_active ON projection_rebuilds ((true))
    WHERE status IN ('requested', 'running')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('projection_rebuilds').execute();
}
