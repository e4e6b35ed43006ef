import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
// Issues #25 and #28. journal_words: per event that posts, the fields of its record that a
// ledger's Particulars are made of, so a ledger reads one range of the journal and the names
// of the parties and products it names, not the activity log of every record on the page.
// The correction columns on journal: an edit's or a delete's reversal lines, and the lines
// they undo, are superseded (when, and by which event), so a ledger can show each record once
// at its current figures and the trail on request. Rows written
// before this migration have neither: the ledger describes them from the activity log and
// shows them as before until the journal is rebuilt.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE journal ADD COLUMN superseded_at timestamptz, ADD COLUMN superseded_by bigint`.execute(
    db,
  );
  await db.schema
    .createTable('journal_words')
    .addColumn('position', 'bigint', (c) => c.primaryKey())
    .addColumn('record_id', 'uuid', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('detail', 'jsonb', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('journal_words_record')
    .on('journal_words')
    .columns(['record_id', 'position'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('journal_words').execute();
  await sql`ALTER TABLE journal DROP COLUMN superseded_at, DROP COLUMN superseded_by`.execute(db);
}
