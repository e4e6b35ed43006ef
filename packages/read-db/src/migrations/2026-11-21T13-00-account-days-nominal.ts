import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
// The dashboard sums the last 30 days of the nominal accounts (income, expense, salary):
// through account_days_date it read every account's day rows (~15,700 on the large seed) to
// keep ~250.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX account_days_nominal ON account_days (business_date) WHERE account LIKE 'nominal:%'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX account_days_nominal`.execute(db);
}
