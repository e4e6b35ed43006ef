import {
  anyRow,
  averagePurchaseRate,
  balancesReport,
  dashboardSummary,
  ledgerReport,
  stockReport,
} from '@bahi/contracts';
import { HttpError, signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { daywiseRows } from './daywise.ts';
import { identityColumns, lineIdentity } from './journal-lines.ts';
import { listParties, listQuery, readAfterClientPosition } from './masters.routes.ts';
import { describeLines, PARTICULARS } from './particulars.ts';
import { day, moment, queryText } from './query-params.ts';
import type { QueryDeps } from './routes.ts';

const ENTITY = {
  Funder: { prefix: 'funder', sign: -1 }, // what the business owes: credits add
  Agent: { prefix: 'agent', sign: 1 },
  Collector: { prefix: 'collector', sign: 1 },
  Godown: { prefix: 'godown', sign: 1 },
} as const;

/** The books as recorded at a moment: every report takes it (docs/read-side.md, Time travel). */
const knownAt = moment('knownAt');
const ledgerQuery = z.object({
  startDate: day('startDate'),
  endDate: day('endDate'),
  asOf: day('asOf'),
  knownAt,
});

/** `:type/:id` of a ledger: a type that keeps no ledger, or an id that is no id, is a 404. */
const ledgerParams = z
  .object({
    type: z.string().describe('Funder, Agent, Collector or Godown'),
    id: z.string().describe("The party's id (a UUID)"),
  })
  .transform(({ type, id }) => {
    const entity = Object.hasOwn(ENTITY, type) ? ENTITY[type as keyof typeof ENTITY] : undefined;
    if (!entity) throw new HttpError(404, 'Ledgers are kept for Funder, Agent, Collector and Godown.');
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new HttpError(404, `${type} not found.`);
    return { type, id, entity };
  });

/**
 * A party's opening balance as it stood at a moment of recording, from its own events: an
 * edit of the opening balance after that moment does not count.
 */
export async function openingBalanceKnownAt(
  deps: QueryDeps,
  kind: string,
  id: string,
  at: string,
): Promise<string | undefined> {
  let opening: string | undefined;
  for (const event of await deps.eventStore.readStream(`${kind.toLowerCase()}-${id}`)) {
    if (Date.parse(event.metadata.recordedAt) > Date.parse(at)) break;
    if (event.type.endsWith('Created') || event.type.endsWith('Updated')) {
      opening = (event.data as { opening_balance: string }).opening_balance;
    }
  }
  return opening;
}

/** Exact sums of decimal text at scale 2, for the running balance. */
const cents = (s: string) => BigInt(s.replace('.', ''));
const money = (c: bigint) => {
  const neg = c < 0n;
  const abs = (neg ? -c : c).toString().padStart(3, '0');
  return `${neg ? '-' : ''}${abs.slice(0, -2)}.${abs.slice(-2)}`;
};

export async function registerReportRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  /**
   * One entity's account in business-date order (ties: event order) with a running balance on
   * its normal side; the opening balance is the entity's opening_balance plus everything before
   * startDate (ACCOUNTING.md section 3).
   */
  api.get(
    '/api/reports/ledger/:type/:id',
    {
      schema: {
        summary: "A party's ledger with its running balance",
        tags: ['reports'],
        params: ledgerParams,
        querystring: ledgerQuery,
        response: { 200: ledgerReport },
      },
    },
    async (request) => {
      signedIn(request);
      const { id, entity } = request.params;
      const q = request.query;
      // The activity log holds each line's record as its event wrote it (the Particulars' words).
      await readAfterClientPosition(deps, request, ['masters', 'journal', 'activity_log']);
      const party = await deps.readDb
        .selectFrom('parties')
        .select(['id', 'name', 'kind', 'city_id', sql<string>`opening_balance::text`.as('opening_balance')])
        .where('id', '=', id)
        .where('kind', '=', request.params.type as 'Funder')
        .executeTakeFirst();
      if (!party) throw new HttpError(404, `${request.params.type} not found.`);
      const account = `${entity.prefix}:${id}`;
      const endDate = upTo(q.endDate, q.asOf);
      if (q.knownAt) {
        const then = await openingBalanceKnownAt(deps, request.params.type, id, q.knownAt);
        if (then === undefined)
          throw new HttpError(404, `${request.params.type} did not exist yet at ${q.knownAt}.`);
        party.opening_balance = then;
      }
      const recordedBy = q.knownAt;
      const before = !q.startDate
        ? { sum: '0.00' }
        : recordedBy
          ? await deps.readDb
              .selectFrom('journal')
              .select(sql<string>`coalesce(sum(amount), 0)::numeric(40, 2)::text`.as('sum'))
              .where('account', '=', account)
              .where('business_date', '<', q.startDate)
              .where('recorded_at', '<=', new Date(recordedBy))
              .executeTakeFirstOrThrow()
          : await deps.readDb
              .selectFrom('account_days')
              .select(sql<string>`coalesce(sum(amount), 0)::numeric(40, 2)::text`.as('sum'))
              .where('account', '=', account)
              .where('business_date', '<', q.startDate)
              .executeTakeFirstOrThrow();
      let lines = deps.readDb
        .selectFrom('journal')
        .select([
          ...identityColumns,
          sql<string>`business_date::text`.as('date'),
          sql<string>`amount::text`.as('amount'),
        ])
        .where('account', '=', account);
      if (q.startDate) lines = lines.where('business_date', '>=', q.startDate);
      if (endDate) lines = lines.where('business_date', '<=', endDate);
      if (recordedBy) lines = lines.where('recorded_at', '<=', new Date(recordedBy));
      const rows = await lines.orderBy('business_date').orderBy('position').orderBy('line').execute();
      const particulars = await describeLines(deps, rows, { id });
      const sign = BigInt(entity.sign);
      const opening = cents(party.opening_balance) + sign * cents(before.sum);
      let running = opening;
      let debit = 0n;
      let credit = 0n;
      const transactions = rows.map((r) => {
        const amount = cents(r.amount); // + debit, - credit
        if (amount >= 0n) debit += amount;
        else credit -= amount;
        running += sign * amount;
        return {
          date: r.date,
          particulars: particulars.get(r.key) ?? PARTICULARS[r.event_type] ?? r.event_type,
          type: amount >= 0n ? 'Debit' : 'Credit',
          debit: amount >= 0n ? money(amount) : '0.00',
          credit: amount < 0n ? money(-amount) : '0.00',
          balance: money(running),
          ...lineIdentity(r),
        };
      });
      return {
        entity: { id: party.id, name: party.name, type: party.kind, city_id: party.city_id },
        openingBalance: money(opening),
        closingBalance: money(running),
        totalDebit: money(debit),
        totalCredit: money(credit),
        transactions,
      };
    },
  );

  /**
   * Stock per godown: product and quantity, from the stock lines of the journal. The spec's shape
   * (godown name -> its rows) in an object without a prototype, so a godown named `constructor`
   * or `__proto__` is a key like any other; each row carries its godown's and product's ids, so
   * two godowns of one name, listed under it together, stay apart.
   */
  api.get(
    '/api/reports/stock',
    {
      schema: {
        summary: 'Stock per godown',
        tags: ['reports'],
        querystring: z.object({ asOf: day('asOf'), knownAt }),
        response: { 200: stockReport },
      },
    },
    async (request) => {
      signedIn(request);
      const q = request.query;
      await readAfterClientPosition(deps, request, ['masters', 'journal']);
      const rows = await sql<{
        godown_id: string;
        godown: string;
        product_id: string;
        product: string;
        quantity: string;
      }>`
      select g.id as godown_id, g.name as godown, p.id as product_id, p.name as product,
             s.quantity::numeric(40, 4)::text as quantity
        from (select split_part(account, ':', 2)::uuid as godown_id, split_part(account, ':', 3)::uuid as product_id,
                     sum(quantity) as quantity
                from ${stockSource(q)}
               group by account) s
        join parties g on g.id = s.godown_id
        join products p on p.id = s.product_id
       where s.quantity <> 0
       order by g.name, g.id, p.name, p.id`.execute(deps.readDb);
      const stock: Record<
        string,
        Array<{ godown_id: string; product_id: string; product_name: string; quantity: string }>
      > = Object.create(null);
      for (const r of rows.rows) {
        const list = stock[r.godown] ?? [];
        list.push({
          godown_id: r.godown_id,
          product_id: r.product_id,
          product_name: r.product,
          quantity: r.quantity,
        });
        stock[r.godown] = list;
      }
      return stock;
    },
  );

  /** The moving-average cost of a product in a godown, in INR per unit (0 when none is held). */
  api.get(
    '/api/reports/stock/average-purchase-rate',
    {
      schema: {
        summary: 'The moving-average cost of a product in a godown (INR per unit)',
        tags: ['reports'],
        querystring: z.object({
          product_id: z.uuid('product_id must be an id'),
          godown_id: z.uuid('godown_id must be an id'),
        }),
        response: { 200: averagePurchaseRate },
      },
    },
    async (request) => {
      signedIn(request);
      const q = request.query;
      await readAfterClientPosition(deps, request, ['journal']);
      const row = await deps.readDb
        .selectFrom('account_totals')
        .select([
          sql<string>`coalesce(sum(quantity), 0)::numeric(40, 4)::text`.as('quantity'),
          sql<string>`case when coalesce(sum(quantity), 0) = 0 then '0.0000' else round(sum(inr) / sum(quantity), 4)::text end`.as(
            'average_rate',
          ),
        ])
        .where('account', '=', `stock:${q.godown_id}:${q.product_id}`)
        .executeTakeFirstOrThrow();
      return {
        product_id: q.product_id,
        godown_id: q.godown_id,
        quantity: row.quantity,
        average_rate: row.average_rate,
      };
    },
  );

  /** The Balances report: the four kinds of account, each a list page with its filters. */
  api.get(
    '/api/reports/balances',
    {
      schema: {
        summary: 'The Balances report: funders, agents, collectors and godowns',
        tags: ['reports'],
        querystring: listQuery.extend({ asOf: day('asOf'), knownAt }),
        response: { 200: balancesReport },
      },
    },
    async (request) => {
      signedIn(request);
      const q = request.query;
      // As known at a moment, which parties there were comes from the activity log.
      await readAfterClientPosition(
        deps,
        request,
        q.knownAt ? ['masters', 'journal', 'activity_log'] : ['masters', 'journal'],
      );
      const at = { asOf: q.asOf, knownAt: q.knownAt };
      const [funders, agents, collectors, godowns] = await Promise.all(
        (['Funder', 'Agent', 'Collector', 'Godown'] as const).map((kind) =>
          listParties(deps, kind, kind === 'Godown' ? { ...q, city_id: undefined } : q, at),
        ),
      );
      return { funders: funders!, agents: agents!, collectors: collectors!, godowns: godowns! };
    },
  );

  /**
   * The dashboard: each kind's total balance in INR (postings at their own rate snapshot,
   * opening balances at the city's current rate) and income against expense for the last 30
   * days (salaries count as expenses).
   */
  api.get(
    '/api/reports/dashboard-summary',
    {
      schema: {
        summary: "The dashboard's totals and the last 30 days' income and expense",
        tags: ['reports'],
        response: { 200: dashboardSummary },
      },
    },
    async (request) => {
      signedIn(request);
      await readAfterClientPosition(deps, request, ['masters', 'journal']);
      const totalsQuery = sql<{ kind: string; total: string }>`
      select p.kind,
             (sum(p.opening_balance * coalesce(c.rate, 1))
              + coalesce(sum(m.inr) filter (where m.inr is not null), 0))::numeric(40, 2)::text as total
        from parties p
        left join cities c on c.id = p.city_id
        left join lateral (
          select case when p.kind = 'Funder' then -sum(t.inr) else sum(t.inr) end as inr
            from account_totals t where t.account = lower(p.kind) || ':' || p.id::text
        ) m on true
       where not p.deleted
       group by p.kind`.execute(deps.readDb);
      // The last 30 days' nominal sums (a scan of account_days_nominal), and the day they end on
      // from the same statement, so the two agree about "today"; days without any count as zero.
      const sumsQuery = sql<{
        today: string;
        days: Array<{ day: string; income: string; expense: string }>;
      }>`
      select current_date::text as today,
             coalesce((select json_agg(s) from (
               select business_date::text as day,
                      coalesce(-sum(inr) filter (where account like 'nominal:Income:%'), 0)::numeric(40, 2)::text as income,
                      coalesce(sum(inr) filter (where account like 'nominal:Expense:%' or account = 'nominal:Salary'), 0)::numeric(40, 2)::text as expense
                 from account_days
                where business_date between current_date - 29 and current_date
                  and account like 'nominal:%'
                group by business_date) s), '[]') as days`.execute(deps.readDb);
      const [totals, { rows: found }] = await Promise.all([totalsQuery, sumsQuery]);
      const total = (kind: string) => totals.rows.find((r) => r.kind === kind)?.total ?? '0.00';
      const today = found[0]!.today;
      const byDay = new Map(found[0]!.days.map((r) => [r.day, r]));
      const end = Date.parse(`${today}T00:00:00Z`);
      const days = Array.from({ length: 30 }, (_, i) => {
        const day = new Date(end - (29 - i) * 86_400_000).toISOString().slice(0, 10);
        const found = byDay.get(day);
        return { day, income: found?.income ?? '0.00', expense: found?.expense ?? '0.00' };
      });
      return {
        totalFunderBalance: total('Funder'),
        totalAgentBalance: total('Agent'),
        totalCollectorBalance: total('Collector'),
        totalGodownBalance: total('Godown'),
        dailyIncomeExpense: days,
      };
    },
  );

  /**
   * Income and expense by day (salaries count as expenses). Amounts are in INR at each
   * record's own rate, so rows of different currencies add up to the Total and Net Total
   * rows; the amount as entered and its currency come along.
   */
  api.get(
    '/api/reports/daywise-report',
    {
      schema: {
        summary: 'Income and expense by day',
        tags: ['reports'],
        querystring: z.object({
          startDate: day('startDate'),
          endDate: day('endDate'),
          city_id: z.union([z.uuid('city_id must be an id'), z.literal('')]).optional(),
          category: queryText('category', 100),
          asOf: day('asOf'),
          knownAt,
        }),
        response: { 200: z.array(anyRow) },
      },
    },
    async (request) => {
      signedIn(request);
      const q = request.query;
      await readAfterClientPosition(
        deps,
        request,
        q.knownAt ? ['activity_log', 'journal'] : ['cash_records', 'journal'],
      );
      return daywiseRows(deps, {
        startDate: q.startDate,
        endDate: upTo(q.endDate, q.asOf),
        city_id: q.city_id || undefined,
        category: q.category || undefined,
        knownAt: q.knownAt,
      });
    },
  );

  /** A collector's or godown's cash: Cash In and Cash Out in business-date order. */
  api.get(
    '/api/reports/cashbook-report',
    {
      schema: {
        summary: "A collector's or godown's cash in and out",
        tags: ['reports'],
        querystring: z.object({
          startDate: day('startDate'),
          endDate: day('endDate'),
          entity_type: z.enum(['Collector', 'Godown'], { error: 'entity_type must be Collector or Godown' }),
          entity_id: z.uuid('entity_id must be an id'),
          city_id: queryText('city_id', 100), // the UI sends it; the cashbook is one entity's
          asOf: day('asOf'),
          knownAt,
        }),
        response: { 200: z.array(anyRow) },
      },
    },
    async (request) => {
      signedIn(request);
      const q = request.query;
      const endDate = upTo(q.endDate, q.asOf);
      await readAfterClientPosition(deps, request, ['masters', 'journal', 'activity_log']);
      let rows = deps.readDb
        .selectFrom('journal')
        .select([
          ...identityColumns,
          sql<string>`business_date::text`.as('date'),
          sql<string>`amount::text`.as('amount'),
        ])
        .where('account', '=', `${q.entity_type.toLowerCase()}:${q.entity_id}`)
        .orderBy('business_date')
        .orderBy('position')
        .orderBy('line');
      if (q.startDate) rows = rows.where('business_date', '>=', q.startDate);
      if (endDate) rows = rows.where('business_date', '<=', endDate);
      if (q.knownAt) rows = rows.where('recorded_at', '<=', new Date(q.knownAt));
      const lines = await rows.execute();
      const particulars = await describeLines(deps, lines, { id: q.entity_id });
      return lines.map((r) => {
        const c = cents(r.amount);
        return {
          date: r.date,
          particulars: particulars.get(r.key) ?? PARTICULARS[r.event_type] ?? r.event_type,
          cash_in: c > 0n ? money(c) : '0.00',
          cash_out: c < 0n ? money(-c) : '0.00',
          ...lineIdentity(r),
        };
      });
    },
  );
}

/**
 * The stock lines to sum per account: now (account_totals), up to a business date
 * (account_days), or as recorded by a moment (the journal's lines, which know their recording
 * time; the sums do not).
 */
function stockSource(at: { asOf?: string | undefined; knownAt?: string | undefined }) {
  if (at.knownAt)
    return sql`journal where account like 'stock:%' and recorded_at <= ${at.knownAt}::timestamptz
      ${at.asOf ? sql`and business_date <= ${at.asOf}::date` : sql``}`;
  if (at.asOf) return sql`account_days where account like 'stock:%' and business_date <= ${at.asOf}::date`;
  return sql`account_totals where account like 'stock:%'`;
}

/** The books as of a business date end there: the earlier of the range's end and `asOf`. */
function upTo(endDate: string | undefined, asOf: string | undefined): string | undefined {
  return asOf && (!endDate || asOf < endDate) ? asOf : endDate;
}
