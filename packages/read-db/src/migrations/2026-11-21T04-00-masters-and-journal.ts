import type { Kysely } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cities')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('currency_name', 'text', (c) => c.notNull())
    .addColumn('rate', 'numeric(20, 4)', (c) => c.notNull())
    .addColumn('deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('products')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // Funders, agents, collectors and godowns: one table, told apart by kind.
  await db.schema
    .createTable('parties')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('city_id', 'uuid')
    .addColumn('joining_date', 'date')
    .addColumn('address', 'text')
    .addColumn('narration', 'text')
    .addColumn('phone', 'text')
    .addColumn('opening_balance', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('salary_per_month', 'numeric(20, 2)')
    .addColumn('deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('parties_kind_name').on('parties').columns(['kind', 'name']).execute();
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('is_active', 'boolean', (c) => c.notNull())
    .addColumn('deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // Every posting line of every event, dated by the business date of its record.
  await db.schema
    .createTable('journal')
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('record_id', 'uuid', (c) => c.notNull())
    .addColumn('business_date', 'date', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('inr', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('quantity', 'numeric(20, 4)')
    .addPrimaryKeyConstraint('journal_pkey', ['position', 'line'])
    .execute();
  await db.schema
    .createIndex('journal_account_date')
    .on('journal')
    .columns(['account', 'business_date', 'position'])
    .execute();
  await db.schema.createIndex('journal_record').on('journal').column('record_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['journal', 'users', 'parties', 'products', 'cities'])
    await db.schema.dropTable(table).execute();
}
