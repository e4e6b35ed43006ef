import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
// The INR value on the nominal side (nominal:Expense:*, nominal:Income:*, nominal:Salary) of
// a cash record's latest event, kept on the row by the cash_records projection: the day-wise
// report read it with two journal look-ups per row. Filled from the journal as it stands.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE cash_records ADD COLUMN nominal_inr numeric(20, 2) NOT NULL DEFAULT 0`.execute(db);
  await sql`UPDATE cash_records r SET nominal_inr = coalesce((
      SELECT abs(sum(j.inr)) FROM journal j
       WHERE j.record_id = r.id
         AND j.position = (SELECT max(position) FROM journal WHERE record_id = r.id)
         AND (j.account LIKE 'nominal:Expense:%' OR j.account LIKE 'nominal:Income:%' OR j.account = 'nominal:Salary')), 0)
     WHERE r.kind IN ('Expense', 'Income', 'SalaryPayment')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE cash_records DROP COLUMN nominal_inr`.execute(db);
}
