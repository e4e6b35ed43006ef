import type { ListQuery } from '@bahi/contracts';
import { ACCOUNT_PATTERNS, PARTY_ACCOUNTS } from '@bahi/domain';
import { type RawBuilder, sql } from 'kysely';
import type { QueryDeps } from './deps.ts';
import { escapeLike } from './query-params.ts';
import { VersionedCache } from './versioned-cache.ts';

/** The party lists by URL word (`/api/masters/<word>`). */
export const PARTY_KINDS = {
  funders: 'Funder',
  agents: 'Agent',
  collectors: 'Collector',
  godowns: 'Godown',
} as const;

export type PartyKind = (typeof PARTY_KINDS)[keyof typeof PARTY_KINDS];

const partyCountCaches = new WeakMap<QueryDeps['readDb'], VersionedCache<number>>();
/** Party list counts, per read database (tests run several in one process). */
function partyCounts(deps: QueryDeps) {
  const cache = partyCountCaches.get(deps.readDb) ?? new VersionedCache<number>();
  partyCountCaches.set(deps.readDb, cache);
  return cache;
}

/** One kind of party as a list page: city, opening balance and movements on its normal side. */
export async function listParties(
  deps: QueryDeps,
  partyKind: PartyKind,
  q: ListQuery,
  at: { asOf?: string | undefined; knownAt?: string | undefined } = {},
) {
  const offset = q.limit === -1 ? 0 : (q.page - 1) * q.limit;
  const like = q.search ? `%${escapeLike(q.search)}%` : undefined;
  const { prefix, sign: normalSign } = PARTY_ACCOUNTS[partyKind];
  const sign = sql.raw(normalSign < 0 ? '-' : '');
  const account = sql`${sql.lit(`${prefix}:`)} || p.id::text`;
  // As known at a moment, a party is there when its latest activity-log entry by then is not a
  // delete (one created later is not, one deleted later is), with its opening balance of then.
  const knownAt = at.knownAt;
  const known = (value: RawBuilder<unknown>) =>
    sql`(select ${value} from activity_log k where k.record_id = p.id and k.model_name = ${partyKind}
          and k.created_at <= ${knownAt ?? null}::timestamptz order by k.position desc limit 1)`;
  let base = deps.readDb
    .selectFrom('parties as p')
    .leftJoin('cities as c', 'c.id', 'p.city_id')
    .where('p.kind', '=', partyKind)
    .where(
      knownAt
        ? sql<boolean>`${known(sql`k.action_type`)} in ('CREATE', 'UPDATE')`
        : sql<boolean>`not p.deleted`,
    );
  if (like) base = base.where((eb) => eb.or([eb('p.name', 'ilike', like), eb('p.phone', 'ilike', like)]));
  if (q.city_id) base = base.where('p.city_id', '=', q.city_id);
  let rows = base
    .select([
      VersionedCache.version('masters').as('read_version'),
      'p.id',
      'p.name',
      'p.city_id',
      'p.phone',
      'p.address',
      'p.narration',
      sql<string | null>`p.joining_date::text`.as('joining_date'),
      (knownAt
        ? sql<string>`${known(sql`(k.new_data->>'opening_balance')::numeric(20, 2)`)}::text`
        : sql<string>`p.opening_balance::text`
      ).as('opening_balance'),
      sql<string | null>`p.salary_per_month::text`.as('salary_per_month'),
      'c.name as city_name',
      'c.currency_name',
      // Movements on the party's account, on its normal side (ACCOUNTING.md section 3):
      // what the business owes a funder is its credits, the rest count debits.
      // Now: the account's running sum; as of a date: its daily sums up to then; as known at a
      // moment: the journal lines recorded by then.
      (at.knownAt
        ? sql<string>`coalesce((select ${sign}sum(j.amount) from journal j where j.account = ${account}
            and (${at.asOf ?? null}::date is null or j.business_date <= ${at.asOf ?? null}::date)
            and j.recorded_at <= ${at.knownAt}::timestamptz), 0)::numeric(40, 2)::text`
        : at.asOf
          ? sql<string>`coalesce((select ${sign}sum(d.amount) from account_days d where d.account = ${account}
              and d.business_date <= ${at.asOf}::date), 0)::numeric(40, 2)::text`
          : sql<string>`coalesce((select ${sign}sum(t.amount) from account_totals t where t.account = ${account}), 0)::numeric(40, 2)::text`
      ).as('movements'),
      // A godown's clearing account (ACCOUNTING.md section 3): charges owed, credits less debits.
      (partyKind !== 'Godown'
        ? sql<string | null>`null`
        : at.knownAt
          ? sql<string>`coalesce((select -sum(j.amount) from journal j where j.account = ${sql.lit(ACCOUNT_PATTERNS.clearingPrefix)} || p.id::text
              and (${at.asOf ?? null}::date is null or j.business_date <= ${at.asOf ?? null}::date)
              and j.recorded_at <= ${at.knownAt}::timestamptz), 0)::numeric(40, 2)::text`
          : at.asOf
            ? sql<string>`coalesce((select -sum(d.amount) from account_days d where d.account = ${sql.lit(ACCOUNT_PATTERNS.clearingPrefix)} || p.id::text
                and d.business_date <= ${at.asOf}::date), 0)::numeric(40, 2)::text`
            : sql<string>`coalesce((select -sum(t.amount) from account_totals t where t.account = ${sql.lit(ACCOUNT_PATTERNS.clearingPrefix)} || p.id::text), 0)::numeric(40, 2)::text`
      ).as('clearing'),
    ])
    .orderBy('p.name')
    .orderBy('p.id');
  if (q.limit !== -1) rows = rows.limit(q.limit).offset(offset);
  const found = await rows.execute();
  // The count reads only the masters projection's parties: remembered at its version.
  const total =
    q.limit === -1
      ? found.length
      : knownAt
        ? Number((await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n)
        : await partyCounts(deps).get(
            JSON.stringify([partyKind, like ?? '', q.city_id ?? '']),
            found[0]?.read_version,
            async () => {
              const row = await base
                .select((eb) => [
                  eb.fn.countAll<string>().as('n'),
                  VersionedCache.version('masters').as('read_version'),
                ])
                .executeTakeFirstOrThrow();
              return { value: Number(row.n), version: row.read_version };
            },
          );
  const stock =
    partyKind === 'Godown'
      ? await godownStock(
          deps,
          found.map((r) => r.id),
          at,
        )
      : undefined;
  const data = found.map((r) => ({
    id: r.id,
    name: r.name,
    city_id: r.city_id,
    city: r.city_id ? { id: r.city_id, name: r.city_name, currency_name: r.currency_name } : null,
    joining_date: r.joining_date,
    address: r.address,
    narration: r.narration,
    phone: r.phone,
    opening_balance: r.opening_balance,
    balance: { amount: r.movements },
    ...(partyKind === 'Collector' ? { salary_per_month: r.salary_per_month } : {}),
    ...(stock ? { clearing_balance: r.clearing, stock: stock.get(r.id) ?? [] } : {}),
  }));
  return { data, totalItems: total };
}

/**
 * What each of these godowns holds (spec section 3: a list of product_name and quantity), now,
 * as of a business date, or as known at a moment; products with nothing left are not listed.
 */
async function godownStock(
  deps: QueryDeps,
  ids: string[],
  at: { asOf?: string | undefined; knownAt?: string | undefined },
): Promise<Map<string, Array<{ product_id: string; product_name: string; quantity: string }>>> {
  const held = new Map<string, Array<{ product_id: string; product_name: string; quantity: string }>>();
  if (ids.length === 0) return held;
  const accounts = sql.join(ids.map((id) => sql`${`stock:${id}:`} || '%'`));
  const source = at.knownAt
    ? sql`(select account, quantity from journal where recorded_at <= ${at.knownAt}::timestamptz
           and (${at.asOf ?? null}::date is null or business_date <= ${at.asOf ?? null}::date)
           and account like any (array[${accounts}]))`
    : at.asOf
      ? sql`(select account, quantity from account_days where business_date <= ${at.asOf}::date
             and account like any (array[${accounts}]))`
      : sql`(select account, quantity from account_totals where account like any (array[${accounts}]))`;
  const rows = await sql<{ godown_id: string; product_id: string; product_name: string; quantity: string }>`
    select s.godown_id, s.product_id, pr.name as product_name, s.quantity::numeric(40, 4)::text as quantity
      from (select split_part(account, ':', 2) as godown_id, split_part(account, ':', 3) as product_id,
                   sum(quantity) as quantity
              from ${source} src group by account) s
      join products pr on pr.id::text = s.product_id
     where s.quantity <> 0
     order by pr.name, s.product_id`.execute(deps.readDb);
  for (const r of rows.rows) {
    const list = held.get(r.godown_id) ?? [];
    list.push({ product_id: r.product_id, product_name: r.product_name, quantity: r.quantity });
    held.set(r.godown_id, list);
  }
  return held;
}

/**
 * The names of cities and parties by id (deleted ones too: an old report still names them),
 * for the headings of report files.
 */
export async function namesOf(deps: QueryDeps, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return deps.readDb
    .selectFrom('cities')
    .select(['id', 'name'])
    .where('id', 'in', ids)
    .unionAll(deps.readDb.selectFrom('parties').select(['id', 'name']).where('id', 'in', ids))
    .execute();
}
