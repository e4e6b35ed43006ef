import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
// Sums of the journal kept by the journal projection, so balances, the dashboard and a
// ledger's opening need not add up every line each time: per account in all, and per account
// and business date (balances as of a date, income and expense per day). Filled from the
// journal as it stands; the projection keeps them from then on.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_totals')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('inr', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('quantity', 'numeric(20, 4)', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_totals_pkey', ['account', 'currency'])
    .execute();
  await db.schema
    .createTable('account_days')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('business_date', 'date', (c) => c.notNull())
    .addColumn('amount', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('inr', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('quantity', 'numeric(20, 4)', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_days_pkey', ['account', 'currency', 'business_date'])
    .execute();
  await db.schema
    .createIndex('account_days_date')
    .on('account_days')
    .columns(['business_date', 'account'])
    .execute();
  await sql`INSERT INTO account_totals (account, currency, amount, inr, quantity)
    SELECT account, currency, sum(amount), sum(inr), coalesce(sum(quantity), 0) FROM journal GROUP BY account, currency`.execute(
    db,
  );
  await sql`INSERT INTO account_days (account, currency, business_date, amount, inr, quantity)
    SELECT account, currency, business_date, sum(amount), sum(inr), coalesce(sum(quantity), 0)
      FROM journal GROUP BY account, currency, business_date`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_days').execute();
  await db.schema.dropTable('account_totals').execute();
}
