import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
// Issue #28. A ledger's or cashbook's opening sum (an account's day rows before the range) read
// ~115 heap pages for ~130 rows through the primary key, a sixth of the ledger's statement; with
// the amount in the index it is an index-only scan of a few pages.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX account_days_opening ON account_days (account, business_date) INCLUDE (amount)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX account_days_opening`.execute(db);
}
