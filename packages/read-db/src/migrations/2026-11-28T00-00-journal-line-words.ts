import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
// Issue #28. Each journal line carries its event's words (the same JSON journal_words keeps per
// event), so a ledger or cashbook reads one range of the journal with no look-up per line.
// Lines written before this migration have none: the reads fall back to journal_words for them,
// and the projector rebuilds such a journal at start-up (projector.ts startUpRebuilds).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE journal ADD COLUMN words jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE journal DROP COLUMN words`.execute(db);
}
