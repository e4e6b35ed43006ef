import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
// Issue #30. A purchase or sale that adjusts a record of a closed period keeps the reference its
// event carries ({ id, kind, date }). Additive: rows written before have none, and no event
// before this had one, so no rebuild is needed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE purchases ADD COLUMN adjusts jsonb`.execute(db);
  await sql`ALTER TABLE sales ADD COLUMN adjusts jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE purchases DROP COLUMN adjusts`.execute(db);
  await sql`ALTER TABLE sales DROP COLUMN adjusts`.execute(db);
}
