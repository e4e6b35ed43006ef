import {
  type CashQuery,
  type EventData,
  type ExpenseRow,
  type IncomeRow,
  isUuid,
  type PaymentRow,
  type SalaryRow,
  type TransferRow,
} from '@bahi/contracts';
import { sql } from 'kysely';
import type { QueryDeps } from './deps.ts';
import { escapeLike } from './query-params.ts';

/**
 * The cash lists' reads (issue #19: SQL in repository functions, not in route handlers):
 * expenses, incomes, transfers, the payments and salary reports, and what is paid of a
 * salary. Each takes the read side's dependencies and the request's validated filters; the
 * routes (cash.routes.ts) check who asks and wait for the read models.
 */

/** The filters of every cash list (each list reads the ones that concern it). */
type Page<R> = { data: R[]; totalItems: number };

/** The read models a cash list reads. */
export const CASH_READS = ['cash_records', 'masters'];

/** The record a cash_records row keeps for each kind: its event's record, as the event wrote it. */
interface CashRecordOf {
  Payment: EventData<'PaymentRecorded'>['payment'];
  Transfer: EventData<'TransferRecorded'>['transfer'];
  SalaryPayment: EventData<'SalaryPaid'>['salary_payment'];
  ClearingPayout: EventData<'ClearingPaidOut'>['payout'];
  Expense: EventData<'ExpenseRecorded'>['entry'];
  Income: EventData<'IncomeRecorded'>['entry'];
}
type Kind = keyof CashRecordOf;

type Base = ReturnType<typeof base>;
const base = (deps: QueryDeps, kinds: Kind[], q: CashQuery) => {
  let r = deps.readDb.selectFrom('cash_records').where('kind', 'in', kinds).where('deleted', '=', false);
  if (q.startDate) r = r.where('business_date', '>=', q.startDate);
  if (q.endDate) r = r.where('business_date', '<=', q.endDate);
  if (q.city_id) r = r.where('city_id', '=', q.city_id);
  return r;
};

/**
 * One page of cash records of some kinds, filtered, newest business date first, with the
 * names (and cities) of the parties they mention.
 */
async function cashPage<K extends Kind>(
  deps: QueryDeps,
  kinds: K[],
  q: CashQuery,
  where: (r: Base) => Base = (r) => r,
) {
  let rows = where(base(deps, kinds, q))
    .select(['id', 'kind', 'record', sql<string>`business_date::text`.as('date'), 'created_at'])
    .orderBy('business_date', 'desc')
    .orderBy('created_at', 'desc');
  if (q.limit !== -1) rows = rows.limit(q.limit).offset((q.page - 1) * q.limit);
  const found = (await rows.execute()).map((r) => ({
    id: r.id,
    kind: r.kind as K,
    // The row's record is its event's record of this kind (cash-records.projection.ts writes it
    // from the event its command side parsed against the contract): typed here, once.
    record: r.record as CashRecordOf[K],
    date: r.date,
    created_at: r.created_at,
  }));
  // All rows asked for: they are the count; else one count of the filtered rows.
  const total =
    q.limit === -1
      ? found.length
      : Number(
          (
            await where(base(deps, kinds, q))
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
  const ids = new Set<string>();
  for (const r of found) {
    for (const value of Object.values(r.record))
      if (typeof value === 'string' && isUuid(value)) ids.add(value);
  }
  const parties = ids.size
    ? await deps.readDb
        .selectFrom('parties as p')
        .leftJoin('cities as c', 'c.id', 'p.city_id')
        .select(['p.id', 'p.name', 'c.name as city_name', 'c.currency_name'])
        .where('p.id', 'in', [...ids])
        .execute()
    : [];
  const byId = new Map(parties.map((p) => [p.id, p]));
  return {
    total,
    rows: found,
    name: (id: string | null | undefined) => (id ? (byId.get(id)?.name ?? null) : null),
    party: (id: string | null | undefined) => (id ? byId.get(id) : undefined),
  };
}

/** A filter on a text field of the record, `ilike` with its wildcards taken literally. */
const categoryLike = (category: string | undefined) => (r: Base) =>
  category ? r.where(sql<string>`record->>'category'`, 'ilike', `%${escapeLike(category)}%`) : r;

/** Expenses, with salary payments listed among them (ACCOUNTING.md section 4). */
export async function readExpenses(deps: QueryDeps, q: CashQuery): Promise<Page<ExpenseRow>> {
  const p = await cashPage(deps, ['Expense', 'SalaryPayment'], q, categoryLike(q.category));
  const data = p.rows.map(({ id, kind, record: e, date }) => ({
    id,
    expense_date: date,
    city_id: e.city_id,
    category: e.category,
    amount: e.amount,
    paid_from_entity_type: e.paid_from_entity_type,
    paid_from_entity_id: e.paid_from_entity_id,
    payerName: p.name(e.paid_from_entity_id),
    remarks: e.remarks,
    ...(kind === 'SalaryPayment' && 'collector_id' in e
      ? { salary_payment: { collector_id: e.collector_id, month: e.month, year: e.year } }
      : {}),
  }));
  return { data, totalItems: p.total };
}

export async function readIncomes(deps: QueryDeps, q: CashQuery): Promise<Page<IncomeRow>> {
  const p = await cashPage(deps, ['Income'], q, categoryLike(q.category));
  const data = p.rows.map(({ id, record: e, date }) => ({
    id,
    income_date: date,
    city_id: e.city_id,
    category: e.category,
    amount: e.amount,
    received_by_entity_type: e.received_by_entity_type,
    received_by_entity_id: e.received_by_entity_id,
    receiverName: p.name(e.received_by_entity_id),
    remarks: e.remarks,
  }));
  return { data, totalItems: p.total };
}

/** Transfers between collectors (of any city: a transfer may cross cities). */
export async function readTransfers(deps: QueryDeps, q: CashQuery): Promise<Page<TransferRow>> {
  const p = await cashPage(deps, ['Transfer'], { ...q, city_id: undefined }, (r) => {
    let out = r;
    if (q.from_collector_id)
      out = out.where(sql<string>`record->>'from_collector_id'`, '=', q.from_collector_id);
    if (q.to_collector_id) out = out.where(sql<string>`record->>'to_collector_id'`, '=', q.to_collector_id);
    return out;
  });
  const collector = (id: string) => {
    const c = p.party(id);
    return c ? { id, name: c.name, city: { name: c.city_name, currency_name: c.currency_name } } : null;
  };
  const data = p.rows.map(({ id, record: t, date }) => ({
    id,
    transfer_date: date,
    from_collector_id: t.from_collector_id,
    to_collector_id: t.to_collector_id,
    sent_amount: t.sent_amount,
    transfer_charge: t.transfer_charge,
    operation: t.operation,
    rate: t.rate,
    amount: t.amount,
    remarks: t.remarks,
    fromCollector: collector(t.from_collector_id),
    toCollector: collector(t.to_collector_id),
  }));
  return { data, totalItems: p.total };
}

/** The Payments report: payments to funders ('Payment To') and from agents ('Payment From'). */
export async function readPayments(deps: QueryDeps, q: CashQuery): Promise<Page<PaymentRow>> {
  const type = q.related_entity_type && q.related_entity_type !== 'All' ? q.related_entity_type : undefined;
  const p = await cashPage(deps, ['Payment'], q, (r) =>
    type ? r.where(sql<string>`record->>'related_entity_type'`, '=', type) : r,
  );
  const data = p.rows.map(
    ({ id, record: x, date }): PaymentRow => ({
      id,
      payment_date: date,
      type: x.related_entity_type === 'Funder' ? 'Payment To' : 'Payment From',
      related_entity_type: x.related_entity_type,
      related_entity_id: x.related_entity_id,
      relatedEntityName: p.name(x.related_entity_id),
      payment_mode: x.payment_mode,
      handlerEntityName: p.name(x.collector_id ?? x.godown_id),
      // INR in the INR mode, else the party's city's currency: what the amount is counted in.
      currency: x.payment_mode === 'INR' ? 'INR' : (p.party(x.related_entity_id)?.currency_name ?? null),
      amount: x.amount,
      reference: x.reference,
    }),
  );
  return { data, totalItems: p.total };
}

/** The Salary report: salary payments, filtered by collector, month and year. */
export async function readSalaryReport(deps: QueryDeps, q: CashQuery): Promise<Page<SalaryRow>> {
  const p = await cashPage(deps, ['SalaryPayment'], q, (r) => {
    let out = r;
    if (q.collector_id) out = out.where(sql<string>`record->>'collector_id'`, '=', q.collector_id);
    if (q.month) out = out.where(sql<number>`(record->>'month')::int`, '=', q.month);
    if (q.year) out = out.where(sql<number>`(record->>'year')::int`, '=', q.year);
    return out;
  });
  const data = p.rows.map(({ id, record: s, date, created_at }) => ({
    id,
    created_at: created_at.toISOString(),
    payment_date: date,
    collector_id: s.collector_id,
    collectorName: p.name(s.collector_id),
    month: s.month,
    year: s.year,
    payment_type: s.payment_type,
    payment_mode: s.payment_mode,
    // A salary is in the collector's city's currency in either mode (from a godown, its INR value is paid).
    currency: p.party(s.collector_id)?.currency_name ?? null,
    amount: s.amount,
    payerName: p.name(s.paid_from_entity_id),
    expense: { category: s.category, remarks: s.remarks },
    remarks: s.remarks,
  }));
  return { data, totalItems: p.total };
}

/** What has been paid of one collector's salary for a month, in the city's currency. */
export async function readPaidForMonth(
  deps: QueryDeps,
  q: { collector_id: string; month: number; year: number },
) {
  const row = await deps.readDb
    .selectFrom('cash_records')
    .select(sql<string>`coalesce(sum(amount), 0)::numeric(40, 2)::text`.as('total'))
    .where('kind', '=', 'SalaryPayment')
    .where(sql<string>`record->>'collector_id'`, '=', q.collector_id)
    .where(sql<number>`(record->>'month')::int`, '=', q.month)
    .where(sql<number>`(record->>'year')::int`, '=', q.year)
    .executeTakeFirstOrThrow();
  return { collector_id: q.collector_id, month: q.month, year: q.year, totalPaid: row.total };
}
