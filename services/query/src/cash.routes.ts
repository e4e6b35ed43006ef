import {
  expensePage,
  incomePage,
  paidForMonth,
  paymentPage,
  salaryPage,
  transferPage,
} from '@bahi/contracts';
import { signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { listQuery, readAfterClientPosition } from './masters.routes.ts';
import { day, escapeLike, queryText } from './query-params.ts';
import type { QueryDeps } from './routes.ts';

const optionalId = (label: string) => z.union([z.uuid(`${label} must be an id`), z.literal('')]).optional();
const cashQuery = listQuery.extend({
  startDate: day('startDate'),
  endDate: day('endDate'),
  category: queryText('category', 100),
  from_collector_id: optionalId('from_collector_id'),
  to_collector_id: optionalId('to_collector_id'),
  related_entity_type: z.enum(['Funder', 'Agent', 'All', '']).optional(),
  collector_id: optionalId('collector_id'),
  month: z.coerce.number().int().min(1).max(12).optional(),
  year: z.coerce.number().int().min(2000).max(2100).optional(),
});
type CashQuery = z.infer<typeof cashQuery>;
/** The schema of a cash list: the cash filters, and a page of rows. */
const cashList = <R extends z.ZodType>(summary: string, tag: 'transactions' | 'reports', page: R) => ({
  schema: { summary, tags: [tag], querystring: cashQuery, response: { 200: page } },
});
type Rec = Record<string, string | null>;
type Kind = 'Payment' | 'Transfer' | 'SalaryPayment' | 'ClearingPayout' | 'Expense' | 'Income';

export async function registerCashListRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  /** One page of cash records of some kinds, filtered, newest business date first, with party names. */
  const page = async (
    kinds: Kind[],
    q: CashQuery,
    where: (r: ReturnType<typeof base>) => ReturnType<typeof base> = (r) => r,
  ) => {
    const total = Number(
      (
        await where(base(kinds, q))
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    let rows = where(base(kinds, q))
      .select(['id', 'kind', 'record', sql<string>`business_date::text`.as('date'), 'created_at'])
      .orderBy('business_date', 'desc')
      .orderBy('created_at', 'desc');
    if (q.limit !== -1) rows = rows.limit(q.limit).offset((q.page - 1) * q.limit);
    const found = await rows.execute();
    const ids = new Set<string>();
    for (const r of found) {
      for (const value of Object.values(r.record as Rec))
        if (typeof value === 'string' && /^[0-9a-f-]{36}$/.test(value)) ids.add(value);
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
      rows: found.map((r) => ({ ...r, record: r.record as Rec })),
      name: (id: string | null) => (id ? (byId.get(id)?.name ?? null) : null),
      party: (id: string | null) => (id ? byId.get(id) : undefined),
    };
  };
  const base = (kinds: Kind[], q: CashQuery) => {
    let r = deps.readDb.selectFrom('cash_records').where('kind', 'in', kinds).where('deleted', '=', false);
    if (q.startDate) r = r.where('business_date', '>=', q.startDate);
    if (q.endDate) r = r.where('business_date', '<=', q.endDate);
    if (q.city_id) r = r.where('city_id', '=', q.city_id);
    return r;
  };
  const reads = ['cash_records', 'masters'];

  // Expenses, with salary payments listed among them (ACCOUNTING.md section 4).
  api.get(
    '/api/transactions/expenses',
    cashList('Expenses (salary payments among them), a page', 'transactions', expensePage),
    async (request) => {
      signedIn(request);
      const q = request.query;
      await readAfterClientPosition(deps, request, reads);
      const p = await page(['Expense', 'SalaryPayment'], q, (r) =>
        q.category ? r.where(sql<string>`record->>'category'`, 'ilike', `%${escapeLike(q.category)}%`) : r,
      );
      const data = p.rows.map(({ id, kind, record: e, date }) => ({
        id,
        expense_date: date,
        city_id: e.city_id,
        category: e.category,
        amount: e.amount,
        paid_from_entity_type: e.paid_from_entity_type,
        paid_from_entity_id: e.paid_from_entity_id,
        payerName: p.name(e.paid_from_entity_id ?? null),
        remarks: e.remarks,
        ...(kind === 'SalaryPayment'
          ? { salary_payment: { collector_id: e.collector_id, month: e.month, year: e.year } }
          : {}),
      }));
      return { data, totalItems: p.total };
    },
  );

  api.get(
    '/api/transactions/incomes',
    cashList('Incomes, a page', 'transactions', incomePage),
    async (request) => {
      signedIn(request);
      const q = request.query;
      await readAfterClientPosition(deps, request, reads);
      const p = await page(['Income'], q, (r) =>
        q.category ? r.where(sql<string>`record->>'category'`, 'ilike', `%${escapeLike(q.category)}%`) : r,
      );
      const data = p.rows.map(({ id, record: e, date }) => ({
        id,
        income_date: date,
        city_id: e.city_id,
        category: e.category,
        amount: e.amount,
        received_by_entity_type: e.received_by_entity_type,
        received_by_entity_id: e.received_by_entity_id,
        receiverName: p.name(e.received_by_entity_id ?? null),
        remarks: e.remarks,
      }));
      return { data, totalItems: p.total };
    },
  );

  api.get(
    '/api/transactions/transfers',
    cashList('Transfers between collectors, a page', 'transactions', transferPage),
    async (request) => {
      signedIn(request);
      const q = request.query;
      await readAfterClientPosition(deps, request, reads);
      const p = await page(['Transfer'], { ...q, city_id: undefined }, (r) => {
        let out = r;
        if (q.from_collector_id)
          out = out.where(sql<string>`record->>'from_collector_id'`, '=', q.from_collector_id);
        if (q.to_collector_id)
          out = out.where(sql<string>`record->>'to_collector_id'`, '=', q.to_collector_id);
        return out;
      });
      const collector = (id: string | null) => {
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
        fromCollector: collector(t.from_collector_id ?? null),
        toCollector: collector(t.to_collector_id ?? null),
      }));
      return { data, totalItems: p.total };
    },
  );

  api.get(
    '/api/reports/payments',
    cashList('Payments to funders and from agents, a page', 'reports', paymentPage),
    async (request) => {
      signedIn(request);
      const q = request.query;
      await readAfterClientPosition(deps, request, reads);
      const type =
        q.related_entity_type && q.related_entity_type !== 'All' ? q.related_entity_type : undefined;
      const p = await page(['Payment'], q, (r) =>
        type ? r.where(sql<string>`record->>'related_entity_type'`, '=', type) : r,
      );
      const data = p.rows.map(({ id, record: x, date }) => ({
        id,
        payment_date: date,
        type: x.related_entity_type === 'Funder' ? 'Payment To' : 'Payment From',
        related_entity_type: x.related_entity_type,
        related_entity_id: x.related_entity_id,
        relatedEntityName: p.name(x.related_entity_id ?? null),
        payment_mode: x.payment_mode,
        handlerEntityName: p.name(x.collector_id ?? x.godown_id ?? null),
        // INR in the INR mode, else the party's city's currency: what the amount is counted in.
        currency:
          x.payment_mode === 'INR' ? 'INR' : (p.party(x.related_entity_id ?? null)?.currency_name ?? null),
        amount: x.amount,
        reference: x.reference,
      }));
      return { data, totalItems: p.total };
    },
  );

  api.get(
    '/api/reports/salary-report',
    cashList('Salary payments, a page', 'reports', salaryPage),
    async (request) => {
      signedIn(request);
      const q = request.query;
      await readAfterClientPosition(deps, request, reads);
      const p = await page(['SalaryPayment'], q, (r) => {
        let out = r;
        if (q.collector_id) out = out.where(sql<string>`record->>'collector_id'`, '=', q.collector_id);
        if (q.month) out = out.where(sql<number>`(record->>'month')::int`, '=', q.month);
        if (q.year) out = out.where(sql<number>`(record->>'year')::int`, '=', q.year);
        return out;
      });
      const data = p.rows.map(({ id, record: s, date, created_at }) => ({
        id,
        created_at,
        payment_date: date,
        collector_id: s.collector_id,
        collectorName: p.name(s.collector_id ?? null),
        month: s.month,
        year: s.year,
        payment_type: s.payment_type,
        payment_mode: s.payment_mode,
        // A salary is in the collector's city's currency in either mode (from a godown, its INR value is paid).
        currency: p.party(s.collector_id ?? null)?.currency_name ?? null,
        amount: s.amount,
        payerName: p.name(s.paid_from_entity_id ?? null),
        expense: { category: s.category, remarks: s.remarks },
        remarks: s.remarks,
      }));
      return { data, totalItems: p.total };
    },
  );

  /** What has been paid of one collector's salary for a month, in the city's currency. */
  api.get(
    '/api/transactions/salary-payments/paid-for-month',
    {
      schema: {
        summary: "What is paid of a collector's salary for a month",
        tags: ['transactions'],
        querystring: z.object({
          collector_id: z.uuid('collector_id must be an id'),
          month: z.coerce.number({ error: 'month must be 1 to 12' }).int().min(1).max(12),
          year: z.coerce.number({ error: 'year must be a year' }).int().min(2000).max(2100),
        }),
        response: { 200: paidForMonth },
      },
    },
    async (request) => {
      signedIn(request);
      const q = request.query;
      await readAfterClientPosition(deps, request, reads);
      const row = await deps.readDb
        .selectFrom('cash_records')
        .select(sql<string>`coalesce(sum(amount), 0)::numeric(40, 2)::text`.as('total'))
        .where('kind', '=', 'SalaryPayment')
        .where(sql<string>`record->>'collector_id'`, '=', q.collector_id)
        .where(sql<number>`(record->>'month')::int`, '=', q.month)
        .where(sql<number>`(record->>'year')::int`, '=', q.year)
        .executeTakeFirstOrThrow();
      return { collector_id: q.collector_id, month: q.month, year: q.year, totalPaid: row.total };
    },
  );
}
