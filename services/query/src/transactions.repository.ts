import { isCustomFieldScalar, type PurchaseRow, type SaleRow, type TransactionQuery } from '@bahi/contracts';
import { lineTotalText, remainingQuantityText } from '@bahi/domain';
import type { Database } from '@bahi/read-db';
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { QueryDeps } from './deps.ts';
import { VersionedCache } from './versioned-cache.ts';

/**
 * The purchase and sale lists' reads (issue #19: SQL in repository functions, not in route
 * handlers). A row's Total and Remaining come from the domain's rules (rules/lines.ts), the
 * ones its postings were made with, not from SQL arithmetic of their own.
 */

/** The read models a purchase or sale list reads. */
export const TRANSACTION_READS = ['purchases_and_sales', 'masters', 'custom_field_definitions'];

const PROJECTION = 'purchases_and_sales';
const FIELDS = 'custom_field_definitions';
const MASTERS = 'masters';

type Page<R> = { data: R[]; totalItems: number };

/**
 * Names by id from one projection's tables (`rows`: a query of `id` and `name`), remembered at
 * the version of that projection a page was read at.
 */
function namesAtVersion(deps: QueryDeps, projection: string, rows: RawBuilder<unknown>) {
  const names = new VersionedCache<Map<string, string>>(1);
  const load = async () => {
    const { rows: found } = await sql<{ version: string | null; names: Array<{ id: string; name: string }> }>`
      SELECT ${VersionedCache.version(projection)} AS version,
             coalesce((SELECT json_agg(json_build_object('id', n.id, 'name', n.name)) FROM (${rows}) n),
                      '[]') AS names`.execute(deps.readDb);
    const row = found[0]!;
    return { version: row.version, value: new Map(row.names.map((n) => [n.id, n.name])) };
  };
  return (version: string | null | undefined) => names.get('', version, load);
}

/**
 * Custom field values as the screens read them: only fields whose definition still exists
 * (a deleted definition's values stay in the event history, not on screen).
 */
function customFieldValues(deps: QueryDeps) {
  const definitions = namesAtVersion(
    deps,
    FIELDS,
    sql`SELECT id, name FROM custom_field_definitions WHERE NOT deleted`,
  );
  /** The values of the page's rows, given the definitions' version read with them. */
  return async (version: string | null | undefined) => {
    const names = await definitions(version);
    return (recordId: string, values: Record<string, unknown>) =>
      Object.entries(values)
        .filter(([id]) => names.has(id))
        .flatMap(([id, value]) => (isCustomFieldScalar(value) ? [[id, value] as const] : []))
        .map(([id, value]) => ({
          id: `${recordId}:${id}`,
          custom_field_definition_id: id,
          value,
          definition: { name: names.get(id)! },
        }));
  };
}

/** What a list remembers between requests, per read database (tests run several in one process). */
interface ListCaches {
  counts: VersionedCache<number>;
  fieldValues: ReturnType<typeof customFieldValues>;
  /**
   * The names of every party and product (deleted ones too: their old records still show
   * them). A list page joined up to five of them; planning those joins cost Postgres more than
   * running the page.
   */
  masterNames: ReturnType<typeof namesAtVersion>;
}
const listCaches = new WeakMap<QueryDeps['readDb'], ListCaches>();
function cachesOf(deps: QueryDeps): ListCaches {
  let caches = listCaches.get(deps.readDb);
  if (!caches) {
    caches = {
      counts: new VersionedCache<number>(),
      fieldValues: customFieldValues(deps),
      masterNames: namesAtVersion(
        deps,
        MASTERS,
        sql`SELECT id, name FROM parties UNION ALL SELECT id, name FROM products`,
      ),
    };
    listCaches.set(deps.readDb, caches);
  }
  return caches;
}

/** totalItems: the rows themselves when all were asked for, else the (remembered) count. */
function countOf(
  deps: QueryDeps,
  q: TransactionQuery,
  list: 'purchases' | 'sales',
  found: Array<{ read_version: string }>,
  // biome-ignore lint/suspicious/noExplicitAny: the list's filtered query, either table
  base: SelectQueryBuilder<Database, any, object>,
) {
  if (q.limit === -1) return Promise.resolve(found.length);
  return cachesOf(deps).counts.get(
    JSON.stringify([list, q.city_id ?? '', q.startDate ?? '', q.endDate ?? '']),
    found[0]?.read_version,
    async () => {
      const row = await base
        .select((eb) => [
          eb.fn.countAll<string>().as('n'),
          VersionedCache.version(PROJECTION).as('read_version'),
        ])
        .executeTakeFirstOrThrow();
      return { value: Number(row.n), version: row.read_version };
    },
  );
}

/** The versions of the projections a page was read at, read with its rows. */
const versions = () => [
  VersionedCache.version(PROJECTION).as('read_version'),
  VersionedCache.version(FIELDS).as('fields_version'),
  VersionedCache.version(MASTERS).as('masters_version'),
];

/** An adjustment's reference as its column holds it (a driver may hand jsonb over as text). */
const adjustsOf = (value: Record<string, unknown> | string | null) =>
  value === null ? null : ((typeof value === 'string' ? JSON.parse(value) : value) as PurchaseRow['adjusts']);

/** Purchases, a page, newest purchase date first. */
export async function readPurchases(deps: QueryDeps, q: TransactionQuery): Promise<Page<PurchaseRow>> {
  let base = deps.readDb.selectFrom('purchases as t').where('t.deleted', '=', false);
  if (q.city_id) base = base.where('t.city_id', '=', q.city_id);
  if (q.startDate) base = base.where('t.purchase_date', '>=', q.startDate);
  if (q.endDate) base = base.where('t.purchase_date', '<=', q.endDate);
  let rows = base
    .select([
      't.id',
      't.type',
      't.city_id',
      't.funder_id',
      't.product_id',
      't.godown_id',
      't.collector_id',
      't.agent_id',
      't.custom_fields',
      't.adjusts',
      sql<string>`t.purchase_date::text`.as('purchase_date'),
      sql<string>`t.rate::text`.as('rate'),
      sql<string>`t.quantity::text`.as('quantity'),
      sql<string>`t.returned_quantity::text`.as('returned_quantity'),
      sql<string>`t.paid_amount::text`.as('paid_amount'),
      sql<string>`t.commission::text`.as('commission'),
      ...versions(),
    ])
    .orderBy('t.purchase_date', 'desc')
    .orderBy('t.created_at', 'desc');
  if (q.limit !== -1) rows = rows.limit(q.limit).offset((q.page - 1) * q.limit);
  const found = await rows.execute();
  const caches = cachesOf(deps);
  const total = await countOf(deps, q, 'purchases', found, base);
  const values = await caches.fieldValues(found[0]?.fields_version);
  const names = await caches.masterNames(found[0]?.masters_version);
  const named = (id: string | null) => (id ? { id, name: names.get(id) ?? null } : null);
  const data = found.map((r) => ({
    id: r.id,
    type: r.type,
    purchase_date: r.purchase_date,
    city_id: r.city_id,
    funder_id: r.funder_id,
    funder: named(r.funder_id),
    product_id: r.product_id,
    product: named(r.product_id),
    godown_id: r.godown_id,
    godown: named(r.godown_id),
    collector_id: r.collector_id,
    collector: named(r.collector_id),
    agent_id: r.agent_id,
    agent: named(r.agent_id),
    rate: r.rate,
    quantity: r.quantity,
    returned_quantity: r.returned_quantity,
    remaining: remainingQuantityText(r.quantity, r.returned_quantity),
    total: lineTotalText(r.quantity, r.rate),
    paid_amount: r.paid_amount,
    commission: r.commission,
    customFieldValues: values(r.id, r.custom_fields),
    adjusts: adjustsOf(r.adjusts),
  }));
  return { data, totalItems: total };
}

/** Sales, a page, newest sale date first (a city's: its agents'). */
export async function readSales(deps: QueryDeps, q: TransactionQuery): Promise<Page<SaleRow>> {
  let base = deps.readDb.selectFrom('sales as t').where('t.deleted', '=', false);
  if (q.city_id) base = base.where('t.agent_city_id', '=', q.city_id);
  if (q.startDate) base = base.where('t.sale_date', '>=', q.startDate);
  if (q.endDate) base = base.where('t.sale_date', '<=', q.endDate);
  let rows = base
    .select([
      't.id',
      't.agent_id',
      't.product_id',
      't.godown_id',
      't.custom_fields',
      't.adjusts',
      sql<string>`t.sale_date::text`.as('sale_date'),
      sql<string>`t.rate::text`.as('rate'),
      sql<string>`t.quantity::text`.as('quantity'),
      sql<string>`t.returned_quantity::text`.as('returned_quantity'),
      sql<string>`t.clearing_charge::text`.as('clearing_charge'),
      ...versions(),
    ])
    .orderBy('t.sale_date', 'desc')
    .orderBy('t.created_at', 'desc');
  if (q.limit !== -1) rows = rows.limit(q.limit).offset((q.page - 1) * q.limit);
  const found = await rows.execute();
  const caches = cachesOf(deps);
  const total = await countOf(deps, q, 'sales', found, base);
  const values = await caches.fieldValues(found[0]?.fields_version);
  const names = await caches.masterNames(found[0]?.masters_version);
  const named = (id: string) => ({ id, name: names.get(id) ?? null });
  const data = found.map((r) => ({
    id: r.id,
    sale_date: r.sale_date,
    agent_id: r.agent_id,
    agent: named(r.agent_id),
    product_id: r.product_id,
    product: named(r.product_id),
    godown_id: r.godown_id,
    godown: named(r.godown_id),
    rate: r.rate,
    quantity: r.quantity,
    returned_quantity: r.returned_quantity,
    remaining: remainingQuantityText(r.quantity, r.returned_quantity),
    total: lineTotalText(r.quantity, r.rate),
    clearing_charge: r.clearing_charge,
    customFieldValues: values(r.id, r.custom_fields),
    adjusts: adjustsOf(r.adjusts),
  }));
  return { data, totalItems: total };
}
