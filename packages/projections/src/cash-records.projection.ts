import type { Posting } from '@bahi/contracts';
import { add, amount, type Dec, format, neg, zero } from '@bahi/domain';
import type { RecordedEvent } from '@bahi/event-store';
import type { Database } from '@bahi/read-db';
import { sql, type Transaction } from 'kysely';
import { chunks, createsRecord, RecordChanges } from './batch.ts';
import type { Projection } from './projection.ts';

type Rec = Record<string, unknown>;

/** Where each cash event keeps its record, date, city and amount. */
const SHAPES: Record<string, { kind: string; key: string; date: string; amount: string }> = {
  PaymentRecorded: { kind: 'Payment', key: 'payment', date: 'payment_date', amount: 'amount' },
  TransferRecorded: { kind: 'Transfer', key: 'transfer', date: 'transfer_date', amount: 'sent_amount' },
  SalaryPaid: { kind: 'SalaryPayment', key: 'salary_payment', date: 'payment_date', amount: 'amount' },
  ClearingPaidOut: { kind: 'ClearingPayout', key: 'payout', date: 'payout_date', amount: 'amount' },
  ExpenseRecorded: { kind: 'Expense', key: 'entry', date: 'expense_date', amount: 'amount' },
  ExpenseUpdated: { kind: 'Expense', key: 'entry', date: 'expense_date', amount: 'amount' },
  IncomeRecorded: { kind: 'Income', key: 'entry', date: 'income_date', amount: 'amount' },
  IncomeUpdated: { kind: 'Income', key: 'entry', date: 'income_date', amount: 'amount' },
};

const isNominal = (account: string) =>
  account.startsWith('nominal:Expense:') ||
  account.startsWith('nominal:Income:') ||
  account === 'nominal:Salary';

/** The INR on the nominal side of an event's postings, signed (an expense debits, an income credits). */
export function nominalSum(postings: readonly Posting[] | undefined): Dec {
  return (postings ?? [])
    .filter((p) => isNominal(p.account))
    .reduce((s, p) => add(s, amount(p.inr)), zero(2));
}

const unsigned = (d: Dec) => format(d.units < 0n ? neg(d) : d, 2);

/**
 * The INR on the nominal side of each record as it stands (what the day-wise report shows),
 * signed. An edit's postings undo the record's earlier lines and post the new ones, so the
 * record's value is the sum of the nominal lines of all its events: the one before the edit
 * (earlier in the batch, else its row's) plus the edit's. A delete leaves the row as it was.
 */
class NominalValues {
  readonly #signed = new Map<string, Dec>();

  /** The rows of the records these events edit that were written before this batch. */
  async load(tx: Transaction<Database>, events: readonly RecordedEvent[]): Promise<void> {
    const edited = events.flatMap((e) =>
      UPDATES.has(e.type) ? [(e.data as { entry: Rec }).entry.id as string] : [],
    );
    for (const ids of chunks([...new Set(edited)])) {
      const rows = await tx
        .selectFrom('cash_records')
        .select(['id', 'kind', sql<string>`nominal_inr::text`.as('nominal_inr')])
        .where('id', 'in', ids)
        .execute();
      for (const r of rows) {
        const value = amount(r.nominal_inr);
        this.#signed.set(r.id, r.kind === 'Income' ? neg(value) : value);
      }
    }
  }

  /** The record's value after this event, unsigned as the row keeps it. */
  after(event: RecordedEvent, id: string, postings: readonly Posting[] | undefined): string {
    const before = UPDATES.has(event.type) ? (this.#signed.get(id) ?? zero(2)) : zero(2);
    const value = add(before, nominalSum(postings));
    this.#signed.set(id, value);
    return unsigned(value);
  }
}

const UPDATES = new Set(['ExpenseUpdated', 'IncomeUpdated']);

/** Payments, transfers, salary payments, clearing payouts, expenses and incomes as rows. */
export const cashRecords: Projection = {
  name: 'cash_records',
  tables: ['cash_records'],
  async apply(tx, events) {
    const changes = new RecordChanges('cash_records');
    const nominal = new NominalValues();
    await nominal.load(tx, events);
    for (const event of events) {
      const d = event.data as Rec;
      if (event.type === 'ExpenseDeleted' || event.type === 'IncomeDeleted') {
        changes.deleted(d.id as string);
        continue;
      }
      const shape = SHAPES[event.type];
      if (!shape) continue;
      const r = d[shape.key] as Rec;
      changes.write(
        r.id as string,
        {
          id: r.id as string,
          kind: shape.kind as 'Payment',
          business_date: r[shape.date] as string,
          city_id: (r.city_id as string | undefined) ?? null,
          amount: r[shape.amount] as string,
          nominal_inr: nominal.after(event, r.id as string, d.postings as Posting[] | undefined),
          record: JSON.stringify(r),
          created_at: event.metadata.recordedAt,
        },
        createsRecord(event.type),
      );
    }
    await changes.apply(tx);
  },
};
