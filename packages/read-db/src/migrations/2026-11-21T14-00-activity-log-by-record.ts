import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
// The activity log finds a record's data before an edit or delete in its own latest entry for
// that record, by this index; activity_records kept the same data a second time (a million
// JSON upserts and 444 MB on the large seed).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX activity_log_record ON activity_log (record_id, position)`.execute(db);
  await sql`DROP TABLE activity_records`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE activity_records (record_id uuid PRIMARY KEY, data jsonb NOT NULL)`.execute(db);
  await sql`INSERT INTO activity_records (record_id, data)
    SELECT DISTINCT ON (record_id) record_id, new_data FROM activity_log
     WHERE new_data IS NOT NULL ORDER BY record_id, position DESC`.execute(db);
  await sql`DROP INDEX activity_log_record`.execute(db);
}
