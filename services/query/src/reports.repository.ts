import type { CashbookRow, LedgerLine, LedgerReport } from '@bahi/contracts';
import {
  ACCOUNT_PATTERNS,
  AMOUNT_SCALE,
  PARTY_ACCOUNTS,
  parseDecimal,
  round,
  toFixedString,
} from '@bahi/domain';
import { HttpError } from '@bahi/server-kit';
import { sql } from 'kysely';
import type { QueryDeps } from './deps.ts';
import { lineIdentity, readAccountLines, withCorrection, wordsToDescribe } from './journal-lines.ts';
import { describeLines, PARTICULARS } from './particulars.ts';

/**
 * The reports' reads (issue #19: SQL in repository functions, not in route handlers). Each
 * takes the read side's dependencies and the request's already-validated filters, and answers
 * the report's JSON; the routes (reports.routes.ts) check who asks and wait for the read models.
 */

type At = { asOf?: string | undefined; knownAt?: string | undefined };
type Entity = (typeof PARTY_ACCOUNTS)[keyof typeof PARTY_ACCOUNTS];
/** A ledger's party as its statement answers it: id, name, kind, city, opening balance, currency. */
type PartyTuple = [string, string, keyof typeof PARTY_ACCOUNTS, string | null, string, string];

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

/** Amounts as cents (exact, at scale 2) for running balances, and back to decimal text. */
const cents = (text: string) => round(parseDecimal(text), AMOUNT_SCALE).units;
const money = (units: bigint) => toFixedString({ units, scale: AMOUNT_SCALE });

/**
 * One entity's account in business-date order (ties: event order) with a running balance on
 * its normal side; the opening balance is the entity's opening_balance plus everything before
 * startDate (ACCOUNTING.md section 3).
 */
export async function readLedger(
  deps: QueryDeps,
  params: { type: string; id: string; entity: Entity },
  q: { startDate?: string | undefined; endDate?: string | undefined; corrections?: boolean | undefined } & At,
): Promise<LedgerReport> {
  const { id, entity } = params;
  const account = `${entity.prefix}:${id}`;
  const endDate = upTo(q.endDate, q.asOf);
  const corrections = q.corrections === true;
  // The party and what its account held before the range, in the lines' own statement (as
  // recorded by a moment, the sum is the journal's lines recorded by then; the sums do not know
  // when they were recorded).
  const { lines, names, extra } = await readAccountLines(
    deps.readDb,
    account,
    { ...q, endDate },
    corrections,
    {
      extra: {
        party: sql<PartyTuple | string | null>`(SELECT json_build_array(p.id, p.name, p.kind, p.city_id,
              p.opening_balance::text, coalesce(c.currency_name, 'INR'))
            FROM parties p LEFT JOIN cities c ON c.id = p.city_id
           WHERE p.id = ${id} AND p.kind = ${params.type})`,
        before: !q.startDate
          ? sql<string>`'0.00'`
          : q.knownAt
            ? sql<string>`(SELECT coalesce(sum(amount), 0)::numeric(40, 2)::text FROM journal
                 WHERE account = ${account} AND business_date < ${q.startDate}::date
                   AND recorded_at <= ${new Date(q.knownAt)})`
            : sql<string>`(SELECT coalesce(sum(amount), 0)::numeric(40, 2)::text FROM account_days
                 WHERE account = ${account} AND business_date < ${q.startDate}::date)`,
      },
    },
  );
  if (extra.party === null) throw new HttpError(404, `${params.type} not found.`);
  const [partyId, partyName, kind, cityId, openingBalance, currency] =
    typeof extra.party === 'string' ? (JSON.parse(extra.party) as PartyTuple) : extra.party;
  const party = {
    id: partyId,
    name: partyName,
    kind,
    city_id: cityId,
    opening_balance: openingBalance,
    currency,
  };
  if (q.knownAt) {
    const then = await openingBalanceKnownAt(deps, params.type, id, q.knownAt);
    if (then === undefined) throw new HttpError(404, `${params.type} did not exist yet at ${q.knownAt}.`);
    party.opening_balance = then;
  }
  const rows = await wordsToDescribe(deps.readDb, lines);
  const particulars = await describeLines(deps, rows, { id }, names);
  const sign = BigInt(entity.sign);
  const opening = cents(party.opening_balance) + sign * cents(extra.before);
  let running = opening;
  let debit = 0n;
  let credit = 0n;
  const transactions = rows.map((r): LedgerLine => {
    const amount = cents(r.amount); // + debit, - credit
    if (amount >= 0n) debit += amount;
    else credit -= amount;
    running += sign * amount;
    return {
      date: r.date,
      particulars: withCorrection(
        particulars.get(r.key) ?? PARTICULARS[r.event_type] ?? r.event_type,
        r.correction,
        corrections,
      ),
      type: amount >= 0n ? 'Debit' : 'Credit',
      debit: amount >= 0n ? money(amount) : '0.00',
      credit: amount < 0n ? money(-amount) : '0.00',
      balance: money(running),
      correction: r.correction,
      ...lineIdentity(r),
    };
  });
  return {
    entity: {
      id: party.id,
      name: party.name,
      type: party.kind,
      city_id: party.city_id,
      currency: party.currency,
    },
    openingBalance: money(opening),
    closingBalance: money(running),
    totalDebit: money(debit),
    totalCredit: money(credit),
    transactions,
  };
}

/** Stock per godown: product and quantity, from the stock lines of the journal. */
export async function readStock(deps: QueryDeps, q: At) {
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
}

/** The moving-average cost of a product in a godown, in INR per unit (0 when none is held). */
export async function readAveragePurchaseRate(deps: QueryDeps, q: { product_id: string; godown_id: string }) {
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
}

/**
 * The dashboard: each kind's total balance in INR (postings at their own rate snapshot,
 * opening balances at the city's current rate) and income against expense for the last 30
 * days (salaries count as expenses).
 */
export async function readDashboardSummary(deps: QueryDeps) {
  // Each kind's account prefix and normal side, from the domain (PARTY_ACCOUNTS).
  const kinds = Object.entries(PARTY_ACCOUNTS);
  const partySign = sql.raw(
    `(case p.kind ${kinds.map(([k, a]) => `when '${k}' then ${a.sign}`).join(' ')} end)`,
  );
  const partyPrefix = sql.raw(
    `(case p.kind ${kinds.map(([k, a]) => `when '${k}' then '${a.prefix}'`).join(' ')} end)`,
  );
  const totalsQuery = sql<{ kind: string; total: string }>`
  select p.kind,
         (sum(p.opening_balance * coalesce(c.rate, 1))
          + coalesce(sum(m.inr) filter (where m.inr is not null), 0))::numeric(40, 2)::text as total
    from parties p
    left join cities c on c.id = p.city_id
    left join lateral (
      select ${partySign} * sum(t.inr) as inr
        from account_totals t where t.account = ${partyPrefix} || ':' || p.id::text
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
                  coalesce(-sum(inr) filter (where account like ${sql.lit(ACCOUNT_PATTERNS.income)}), 0)::numeric(40, 2)::text as income,
                  coalesce(sum(inr) filter (where account like ${sql.lit(ACCOUNT_PATTERNS.expense)} or account = ${sql.lit(ACCOUNT_PATTERNS.salary)}), 0)::numeric(40, 2)::text as expense
             from account_days
            where business_date between current_date - 29 and current_date
              and account like ${sql.lit(ACCOUNT_PATTERNS.nominal)}
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
}

/** A collector's or godown's cash: Cash In and Cash Out in business-date order. */
export async function readCashbook(
  deps: QueryDeps,
  q: {
    entity_type: 'Collector' | 'Godown';
    entity_id: string;
    startDate?: string | undefined;
    endDate?: string | undefined;
    corrections?: boolean | undefined;
  } & At,
): Promise<CashbookRow[]> {
  const endDate = upTo(q.endDate, q.asOf);
  const corrections = q.corrections === true;
  const book = await readAccountLines(
    deps.readDb,
    `${q.entity_type.toLowerCase()}:${q.entity_id}`,
    { ...q, endDate },
    corrections,
  );
  const lines = await wordsToDescribe(deps.readDb, book.lines);
  const particulars = await describeLines(deps, lines, { id: q.entity_id }, book.names);
  return lines.map((r) => {
    const c = cents(r.amount);
    return {
      date: r.date,
      particulars: withCorrection(
        particulars.get(r.key) ?? PARTICULARS[r.event_type] ?? r.event_type,
        r.correction,
        corrections,
      ),
      cash_in: c > 0n ? money(c) : '0.00',
      cash_out: c < 0n ? money(-c) : '0.00',
      currency: r.currency,
      correction: r.correction,
      ...lineIdentity(r),
    };
  });
}

/**
 * The stock lines to sum per account: now (account_totals), up to a business date
 * (account_days), or as recorded by a moment (the journal's lines, which know their recording
 * time; the sums do not).
 */
function stockSource(at: { asOf?: string | undefined; knownAt?: string | undefined }) {
  if (at.knownAt)
    return sql`journal where account like ${sql.lit(ACCOUNT_PATTERNS.stock)} and recorded_at <= ${at.knownAt}::timestamptz
      ${at.asOf ? sql`and business_date <= ${at.asOf}::date` : sql``}`;
  if (at.asOf)
    return sql`account_days where account like ${sql.lit(ACCOUNT_PATTERNS.stock)} and business_date <= ${at.asOf}::date`;
  return sql`account_totals where account like ${sql.lit(ACCOUNT_PATTERNS.stock)}`;
}

/** The books as of a business date end there: the earlier of the range's end and `asOf`. */
export function upTo(endDate: string | undefined, asOf: string | undefined): string | undefined {
  return asOf && (!endDate || asOf < endDate) ? asOf : endDate;
}
