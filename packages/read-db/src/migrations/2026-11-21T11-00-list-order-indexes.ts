import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
// The purchase and sale lists page newest first (date, then time of recording), per city or
// for all: with these, a page is an index walk instead of a sort of every live row. The
// day-wise report reads one city's incomes and expenses over a range.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX sales_city_newest ON sales (agent_city_id, sale_date DESC, created_at DESC) WHERE deleted = false`.execute(
    db,
  );
  await sql`CREATE INDEX sales_newest ON sales (sale_date DESC, created_at DESC) WHERE deleted = false`.execute(
    db,
  );
  await sql`CREATE INDEX purchases_city_newest ON purchases (city_id, purchase_date DESC, created_at DESC) WHERE deleted = false`.execute(
    db,
  );
  await sql`CREATE INDEX purchases_newest ON purchases (purchase_date DESC, created_at DESC) WHERE deleted = false`.execute(
    db,
  );
  // The day-wise report: one city's incomes and expenses over a date range.
  await sql`CREATE INDEX cash_records_city_kind_date ON cash_records (city_id, kind, business_date)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'sales_city_newest',
    'sales_newest',
    'purchases_city_newest',
    'purchases_newest',
    'cash_records_city_kind_date',
  ])
    await db.schema.dropIndex(index).execute();
}
