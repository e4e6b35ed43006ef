import { cityPage, customFieldList, partyPage, productPage, userPage, userView } from '@bahi/contracts';
import { waitForProjections } from '@bahi/read-db';
import { HttpError, signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { day, escapeLike, queryText } from './query-params.ts';
import type { QueryDeps } from './routes.ts';
import { VersionedCache } from './versioned-cache.ts';

/** Paging and filters of every list (spec section 7): page 1-based, limit 15 by default, -1 for all. */
export const listQuery = z.object({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, 'page starts at 1').default(1),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int()
    .refine((n) => n === -1 || (n >= 1 && n <= 500), 'limit is -1 (all) or 1 to 500')
    .default(15),
  search: queryText('search', 200),
  city_id: z.union([z.uuid('city_id must be the id of a city'), z.literal('')]).optional(),
});

type ListQuery = z.infer<typeof listQuery>;

/** A party list also takes `asOf`: balances as the books stood on a business date. */
const partyListQuery = listQuery.extend({ asOf: day('asOf') });

const PARTY_KINDS = {
  funders: 'Funder',
  agents: 'Agent',
  collectors: 'Collector',
  godowns: 'Godown',
} as const;

/**
 * Reading one's own writes: a request that carries X-Bahi-Position waits (bounded) until the
 * read models it reads have reached that position.
 */
export async function readAfterClientPosition(
  deps: QueryDeps,
  request: FastifyRequest,
  projections: string[],
) {
  const header = request.headers['x-bahi-position'];
  if (typeof header !== 'string' || !/^\d{1,19}$/.test(header)) return;
  const head = await deps.eventStore.headPosition();
  const target = BigInt(header) < head ? BigInt(header) : head;
  // Not there in time: a ProjectionBehindError, which the error handler answers with a 503.
  await waitForProjections(deps.readDb, projections, target, 2000);
}

export async function registerMasterListRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/auth/profile',
    { schema: { summary: 'The signed-in user', tags: ['auth'], response: { 200: userView } } },
    async (request) => {
      const me = signedIn(request);
      await readAfterClientPosition(deps, request, ['masters']);
      const row = await deps.readDb
        .selectFrom('users')
        .select(['id', 'name', 'email', 'phone', 'role', 'is_active'])
        .where('id', '=', me.id)
        .executeTakeFirst();
      return (
        row ?? { id: me.id, name: me.name, email: me.email, phone: null, role: me.role, is_active: true }
      );
    },
  );

  /** One master list; a kind that is no list is a 404 once the filters are valid. */
  const list = async (
    kind: string,
    request: FastifyRequest,
    q: ListQuery & { asOf?: string | undefined },
  ) => {
    const me = signedIn(request);
    await readAfterClientPosition(deps, request, ['masters', 'journal', 'custom_field_definitions']);
    const page = <T>(rows: T[], total: number) => ({ data: rows, totalItems: total });
    const offset = q.limit === -1 ? 0 : (q.page - 1) * q.limit;
    const like = q.search ? `%${escapeLike(q.search)}%` : undefined;

    if (kind === 'cities' || kind === 'products') {
      const table = kind;
      let base = deps.readDb.selectFrom(table).where('deleted', '=', false);
      if (like) base = base.where('name', 'ilike', like);
      const total = Number(
        (await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n,
      );
      let rows = base.selectAll().orderBy('name').orderBy('id');
      if (q.limit !== -1) rows = rows.limit(q.limit).offset(offset);
      const data = (await rows.execute()).map((r) =>
        kind === 'cities'
          ? {
              id: r.id,
              name: r.name,
              currency_name: (r as { currency_name: string }).currency_name,
              rate: (r as { rate: string }).rate,
            }
          : { id: r.id, name: r.name },
      );
      return page(data, total);
    }

    if (kind === 'users') {
      if (me.role !== 'Admin') throw new HttpError(403, `Your role (${me.role}) cannot see users.`);
      let base = deps.readDb.selectFrom('users').where('deleted', '=', false);
      if (like) base = base.where((eb) => eb.or([eb('name', 'ilike', like), eb('email', 'ilike', like)]));
      const total = Number(
        (await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n,
      );
      let rows = base
        .select(['id', 'name', 'email', 'phone', 'role', 'is_active'])
        .orderBy('name')
        .orderBy('id');
      if (q.limit !== -1) rows = rows.limit(q.limit).offset(offset);
      return page(await rows.execute(), total);
    }

    if (kind === 'custom-fields') {
      // A plain list (spec section 7).
      return deps.readDb
        .selectFrom('custom_field_definitions')
        .select(['id', 'name', 'type', 'is_required', 'options', 'entity_types'])
        .where('deleted', '=', false)
        .orderBy('name')
        .execute();
    }

    const partyKind = Object.hasOwn(PARTY_KINDS, kind)
      ? PARTY_KINDS[kind as keyof typeof PARTY_KINDS]
      : undefined;
    if (!partyKind) throw new HttpError(404, `There is no master list called "${kind}".`);
    // Balances as the books stood on a business date (the master screens' 'as of' control).
    return listParties(deps, partyKind, q, { asOf: q.asOf });
  };

  const tags = ['masters'];
  const lists = [
    ['cities', 'Cities, a page', cityPage, listQuery],
    ['products', 'Products, a page', productPage, listQuery],
    ['users', 'Users, a page (Admin)', userPage, listQuery],
    ['custom-fields', 'Custom field definitions', customFieldList, listQuery],
    ...Object.keys(PARTY_KINDS).map(
      (kind) =>
        [
          kind,
          `${kind[0]!.toUpperCase()}${kind.slice(1)} with their balances, a page`,
          partyPage,
          partyListQuery,
        ] as const,
    ),
  ] as const;
  for (const [kind, summary, answer, querystring] of lists) {
    api.get(
      `/api/masters/${kind}`,
      { schema: { summary, tags, querystring, response: { 200: answer } } },
      async (request) => list(kind, request, request.query) as never,
    );
  }
  // Any other kind: there is no such master list (hidden from openapi.json: it only refuses).
  api.get(
    '/api/masters/:kind',
    { schema: { hide: true, params: z.object({ kind: z.string() }), querystring: listQuery, response: {} } },
    async (request) => list(request.params.kind, request, request.query),
  );
}

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
  q: z.infer<typeof listQuery>,
  at: { asOf?: string | undefined; knownAt?: string | undefined } = {},
) {
  const offset = q.limit === -1 ? 0 : (q.page - 1) * q.limit;
  const like = q.search ? `%${escapeLike(q.search)}%` : undefined;
  const prefix = partyKind.toLowerCase();
  const sign = sql.raw(partyKind === 'Funder' ? '-' : '');
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
          ? sql<string>`coalesce((select -sum(j.amount) from journal j where j.account = 'clearing:' || p.id::text
              and (${at.asOf ?? null}::date is null or j.business_date <= ${at.asOf ?? null}::date)
              and j.recorded_at <= ${at.knownAt}::timestamptz), 0)::numeric(40, 2)::text`
          : at.asOf
            ? sql<string>`coalesce((select -sum(d.amount) from account_days d where d.account = 'clearing:' || p.id::text
                and d.business_date <= ${at.asOf}::date), 0)::numeric(40, 2)::text`
            : sql<string>`coalesce((select -sum(t.amount) from account_totals t where t.account = 'clearing:' || p.id::text), 0)::numeric(40, 2)::text`
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
