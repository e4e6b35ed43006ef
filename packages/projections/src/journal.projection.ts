import type { Posting } from '@bahi/contracts';
import { sql } from 'kysely';
import { chunks, insertRows } from './batch.ts';
import { type Projection, type TypedEvent, typed } from './projection.ts';

/**
 * The record an event's postings belong to and the business date they count on. Returns
 * count on the day of the return but belong to their purchase or sale (a delete undoes them
 * with it); a delete carries no date, so it counts on its record's last known date.
 */
function recordOf(event: TypedEvent): { id: string; date: string | undefined } | undefined {
  switch (event.type) {
    case 'PurchaseRecorded':
    case 'PurchaseUpdated':
      return { id: event.data.purchase.id, date: event.data.purchase.purchase_date };
    case 'SaleRecorded':
    case 'SaleUpdated':
      return { id: event.data.sale.id, date: event.data.sale.sale_date };
    case 'PurchaseReturned':
      return { id: event.data.purchase_return.purchase_id, date: event.data.purchase_return.return_date };
    case 'SaleReturned':
      return { id: event.data.sale_return.sale_id, date: event.data.sale_return.return_date };
    case 'PaymentRecorded':
      return { id: event.data.payment.id, date: event.data.payment.payment_date };
    case 'ClearingPaidOut':
      return { id: event.data.payout.id, date: event.data.payout.payout_date };
    case 'SalaryPaid':
      return { id: event.data.salary_payment.id, date: event.data.salary_payment.payment_date };
    case 'TransferRecorded':
      return { id: event.data.transfer.id, date: event.data.transfer.transfer_date };
    case 'ExpenseRecorded':
    case 'ExpenseUpdated':
      return { id: event.data.entry.id, date: event.data.entry.expense_date };
    case 'IncomeRecorded':
    case 'IncomeUpdated':
      return { id: event.data.entry.id, date: event.data.entry.income_date };
    case 'PurchaseDeleted':
    case 'SaleDeleted':
    case 'ExpenseDeleted':
    case 'IncomeDeleted':
      return { id: event.data.id, date: undefined };
    default:
      return undefined;
  }
}

/** The posting lines an event carries (the events that move money or stock carry them). */
const postingsOf = (event: TypedEvent): readonly Posting[] | undefined =>
  'postings' in event.data ? event.data.postings : undefined;

/** Every posting line of every event: the source of balances, ledgers and the day-wise books. */
export const journal: Projection = {
  name: 'journal',
  tables: ['journal', 'account_totals', 'account_days'],
  // A delete's postings count on its record's last date, looked up by record.
  readIndexes: ['journal_record'],
  async apply(tx, events) {
    // A delete counts on its record's last known date: from this batch if the record was
    // written in it, else from the journal (one query for all of them).
    const lastDate = new Map<string, string>();
    const undated = events.flatMap((event) => {
      const record = recordOf(typed(event));
      return record && !record.date ? [record.id] : [];
    });
    for (const ids of chunks([...new Set(undated)])) {
      const known = await tx
        .selectFrom('journal')
        .select(['record_id', sql<string>`business_date::text`.as('business_date')])
        .distinctOn('record_id')
        .where('record_id', 'in', ids)
        .orderBy('record_id')
        .orderBy('position', 'desc')
        .execute();
      for (const row of known) lastDate.set(row.record_id, row.business_date);
    }
    const rows = [];
    for (const recorded of events) {
      const event = typed(recorded);
      const postings = postingsOf(event);
      const record = recordOf(event);
      if (!postings || postings.length === 0 || !record) continue;
      const date = record.date ?? lastDate.get(record.id) ?? event.metadata.recordedAt.slice(0, 10);
      lastDate.set(record.id, date);
      rows.push(
        ...postings.map((p, line) => ({
          position: event.position,
          line,
          event_type: event.type,
          record_id: record.id,
          business_date: date,
          recorded_at: event.metadata.recordedAt,
          account: p.account,
          currency: p.currency,
          amount: p.amount,
          inr: p.inr,
          quantity: p.quantity ?? null,
        })),
      );
    }
    await insertRows(tx, 'journal', rows);
    if (rows.length === 0) return;
    // This batch's lines are the journal's lines of its positions: add them to the sums.
    const [first, last] = [rows[0]!.position, rows.at(-1)!.position];
    await sql`INSERT INTO account_totals (account, currency, amount, inr, quantity)
      SELECT account, currency, sum(amount), sum(inr), coalesce(sum(quantity), 0)
        FROM journal WHERE position BETWEEN ${first} AND ${last} GROUP BY account, currency
      ON CONFLICT (account, currency) DO UPDATE SET amount = account_totals.amount + excluded.amount,
        inr = account_totals.inr + excluded.inr, quantity = account_totals.quantity + excluded.quantity`.execute(
      tx,
    );
    await sql`INSERT INTO account_days (account, currency, business_date, amount, inr, quantity)
      SELECT account, currency, business_date, sum(amount), sum(inr), coalesce(sum(quantity), 0)
        FROM journal WHERE position BETWEEN ${first} AND ${last} GROUP BY account, currency, business_date
      ON CONFLICT (account, currency, business_date) DO UPDATE SET amount = account_days.amount + excluded.amount,
        inr = account_days.inr + excluded.inr, quantity = account_days.quantity + excluded.quantity`.execute(
      tx,
    );
  },
};
