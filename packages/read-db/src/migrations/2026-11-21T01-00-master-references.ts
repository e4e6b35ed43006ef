import type { Kysely } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('master_references')
    .addColumn('source_kind', 'text', (c) => c.notNull())
    .addColumn('source_id', 'uuid', (c) => c.notNull())
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'uuid', (c) => c.notNull())
    .addPrimaryKeyConstraint('master_references_pkey', ['source_id', 'target_id'])
    .execute();
  await db.schema
    .createIndex('master_references_target')
    .on('master_references')
    .column('target_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('master_references').execute();
}
