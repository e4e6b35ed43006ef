import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit after it has shipped.
// nominal_inr (migration 12) took the nominal lines of a record's latest event alone; an edit's
// lines undo the earlier ones and post the new ones, so an edited record showed the difference
// (400 -> 600 showed 200). The value as the record stands is the sum of the nominal lines of
// all its events; a delete leaves the row's value as it was, so its lines do not count. Nothing
// to undo: the earlier figure was wrong.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE cash_records r SET nominal_inr = coalesce((
      SELECT abs(sum(j.inr)) FROM journal j
       WHERE j.record_id = r.id AND j.event_type NOT LIKE '%Deleted'
         AND (j.account LIKE 'nominal:Expense:%' OR j.account LIKE 'nominal:Income:%' OR j.account = 'nominal:Salary')), 0)
     WHERE r.kind IN ('Expense', 'Income', 'SalaryPayment')`.execute(db);
}
