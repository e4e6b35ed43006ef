import type { Kysely } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('purchases')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('purchase_date', 'date', (c) => c.notNull())
    .addColumn('city_id', 'uuid', (c) => c.notNull())
    .addColumn('funder_id', 'uuid', (c) => c.notNull())
    .addColumn('product_id', 'uuid', (c) => c.notNull())
    .addColumn('godown_id', 'uuid')
    .addColumn('collector_id', 'uuid')
    .addColumn('agent_id', 'uuid')
    .addColumn('rate', 'numeric(20, 4)', (c) => c.notNull())
    .addColumn('quantity', 'numeric(20, 4)', (c) => c.notNull())
    .addColumn('returned_quantity', 'numeric(20, 4)', (c) => c.notNull().defaultTo(0))
    .addColumn('paid_amount', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('commission', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('custom_fields', 'jsonb', (c) => c.notNull())
    .addColumn('deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('purchases_city_date')
    .on('purchases')
    .columns(['city_id', 'purchase_date'])
    .execute();
  await db.schema
    .createTable('sales')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('sale_date', 'date', (c) => c.notNull())
    .addColumn('agent_id', 'uuid', (c) => c.notNull())
    .addColumn('agent_city_id', 'uuid', (c) => c.notNull())
    .addColumn('product_id', 'uuid', (c) => c.notNull())
    .addColumn('godown_id', 'uuid', (c) => c.notNull())
    .addColumn('rate', 'numeric(20, 4)', (c) => c.notNull())
    .addColumn('quantity', 'numeric(20, 4)', (c) => c.notNull())
    .addColumn('returned_quantity', 'numeric(20, 4)', (c) => c.notNull().defaultTo(0))
    .addColumn('clearing_charge', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('custom_fields', 'jsonb', (c) => c.notNull())
    .addColumn('deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sales_city_date')
    .on('sales')
    .columns(['agent_city_id', 'sale_date'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sales').execute();
  await db.schema.dropTable('purchases').execute();
}
