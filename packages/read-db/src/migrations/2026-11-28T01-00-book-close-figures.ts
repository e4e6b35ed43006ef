import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
// Issue #30, reports as closed: the figures of each close (balances, stock, each party's
// balance as of the close date, as the log stood at the close) and their SHA-256, by the
// close's log position. Not a projection: a rebuild leaves it alone, and a row computed again
// from the log is the same bytes (docs/decisions.md, "Reports as closed").
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE book_close_figures (
    position int8 PRIMARY KEY,
    up_to text NOT NULL,
    closed_at timestamptz NOT NULL,
    figures text NOT NULL,
    digest text NOT NULL,
    chain_head text,
    stored_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE book_close_figures`.execute(db);
}
