import type { Posting } from '@bahi/contracts';
import { add, amount, type Dec, format, isCashNominal, neg, zero } from '@bahi/domain';
import type { RecordedEvent } from '@bahi/event-store';
import type { Database } from '@bahi/read-db';
import { sql, type Transaction } from 'kysely';
import { chunks, createsRecord, RecordChanges } from './batch.ts';
import { type Projection, type TypedEvent, typed } from './projection.ts';

type CashKind = 'Payment' | 'Transfer' | 'SalaryPayment' | 'ClearingPayout' | 'Expense' | 'Income';

/** The record a cash event carries, with its date and amount, by the event's contract. */
function cashRecordOf(
  event: TypedEvent,
):
  | { kind: CashKind; record: { id: string; city_id?: string | null }; date: string; amount: string }
  | undefined {
  switch (event.type) {
    case 'PaymentRecorded': {
      const r = event.data.payment;
      return { kind: 'Payment', record: r, date: r.payment_date, amount: r.amount };
    }
    case 'TransferRecorded': {
      const r = event.data.transfer;
      return { kind: 'Transfer', record: r, date: r.transfer_date, amount: r.sent_amount };
    }
    case 'SalaryPaid': {
      const r = event.data.salary_payment;
      return { kind: 'SalaryPayment', record: r, date: r.payment_date, amount: r.amount };
    }
    case 'ClearingPaidOut': {
      const r = event.data.payout;
      return { kind: 'ClearingPayout', record: r, date: r.payout_date, amount: r.amount };
    }
    case 'ExpenseRecorded':
    case 'ExpenseUpdated': {
      const r = event.data.entry;
      return { kind: 'Expense', record: r, date: r.expense_date, amount: r.amount };
    }
    case 'IncomeRecorded':
    case 'IncomeUpdated': {
      const r = event.data.entry;
      return { kind: 'Income', record: r, date: r.income_date, amount: r.amount };
    }
    default:
      return undefined;
  }
}

/** The INR on the nominal side of an event's postings, signed (an expense debits, an income credits). */
export function nominalSum(postings: readonly Posting[] | undefined): Dec {
  return (postings ?? [])
    .filter((p) => isCashNominal(p.account))
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
    const edited = events
      .map(typed)
      .flatMap((e) => (e.type === 'ExpenseUpdated' || e.type === 'IncomeUpdated' ? [e.data.entry.id] : []));
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
  after(event: TypedEvent, id: string, postings: readonly Posting[] | undefined): string {
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
    for (const recorded of events) {
      const event = typed(recorded);
      if (
        event.type === 'ExpenseDeleted' ||
        event.type === 'IncomeDeleted' ||
        event.type === 'PaymentDeleted'
      ) {
        changes.deleted(event.data.id);
        continue;
      }
      const found = cashRecordOf(event);
      if (!found) continue;
      const { record } = found;
      changes.write(
        record.id,
        {
          id: record.id,
          kind: found.kind,
          business_date: found.date,
          city_id: record.city_id ?? null,
          amount: found.amount,
          nominal_inr: nominal.after(
            event,
            record.id,
            'postings' in event.data ? event.data.postings : undefined,
          ),
          record: JSON.stringify(record),
          created_at: event.metadata.recordedAt,
        },
        createsRecord(event.type),
      );
    }
    await changes.apply(tx);
  },
};
