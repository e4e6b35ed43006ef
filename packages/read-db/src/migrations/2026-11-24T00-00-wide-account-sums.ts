import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
// Issue #16: every value a record carries or posts is under 10^15 (the domain refuses more),
// but account_totals and account_days add them up: a thousand of the largest postings to one
// account, or to one day of it, overflowed numeric(20, 2) and stopped the journal projection
// for good. 40 digits hold 10^20 such postings; the scales stay 2 and 4, so every figure reads
// as before.
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['account_totals', 'account_days']) {
    await sql`ALTER TABLE ${sql.id(table)}
      ALTER COLUMN amount TYPE numeric(40, 2),
      ALTER COLUMN inr TYPE numeric(40, 2),
      ALTER COLUMN quantity TYPE numeric(40, 4)`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['account_totals', 'account_days']) {
    await sql`ALTER TABLE ${sql.id(table)}
      ALTER COLUMN amount TYPE numeric(20, 2),
      ALTER COLUMN inr TYPE numeric(20, 2),
      ALTER COLUMN quantity TYPE numeric(20, 4)`.execute(db);
  }
}
