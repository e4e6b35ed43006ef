import type { Posting } from '@bahi/contracts';
import { add, amount, format, neg, zero } from '@bahi/domain';
import { createsRecord, RecordChanges } from './batch.ts';
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

/** The INR value on the nominal side of an event's postings (what the day-wise report shows). */
export function nominalInr(postings: readonly Posting[] | undefined): string {
  const sum = (postings ?? [])
    .filter((p) => isNominal(p.account))
    .reduce((s, p) => add(s, amount(p.inr)), zero(2));
  return format(sum.units < 0n ? neg(sum) : sum, 2);
}

/** Payments, transfers, salary payments, clearing payouts, expenses and incomes as rows. */
export const cashRecords: Projection = {
  name: 'cash_records',
  tables: ['cash_records'],
  async apply(tx, events) {
    const changes = new RecordChanges('cash_records');
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
          nominal_inr: nominalInr(d.postings as Posting[] | undefined),
          record: JSON.stringify(r),
          created_at: event.metadata.recordedAt,
        },
        createsRecord(event.type),
      );
    }
    await changes.apply(tx);
  },
};
