import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBooksCaughtUp, expectRebuildIdentical } from './testing/books.ts';
import { type Body, openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

/**
 * Every command the command side accepts can be projected (issue #16): random valid and
 * boundary commands go through the real HTTP routes; none may answer 5xx; then every
 * projection must have applied all of them (none stopped, status failed) and a rebuild from
 * the log must compare identical to the live read models.
 *
 * Bounded for `npm test`; `scripts/projectable.sh` runs it longer (BAHI_PROPERTY_COMMANDS,
 * BAHI_PROPERTY_SEED). A failure prints the seed and the command that broke it.
 */
const COMMANDS = Number(process.env.BAHI_PROPERTY_COMMANDS ?? 150);
const SEED = Number(process.env.BAHI_PROPERTY_SEED ?? Date.now() % 2 ** 31);

// ---- values: everyday ones, the edges of what is accepted, and a little beyond --------------

const digits = (maxInt: number, scale: number) =>
  fc
    .tuple(
      fc.bigInt({ min: 0n, max: 10n ** BigInt(maxInt) - 1n }),
      fc.bigInt({ min: 0n, max: 10n ** BigInt(scale) - 1n }),
    )
    .map(([i, f]) => (scale ? `${i}.${f.toString().padStart(scale, '0')}` : `${i}`));

const amount = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 100_000 }) },
  { weight: 2, arbitrary: fc.constantFrom('0.01', '999999999999999.99', '100000000000000', '0') },
  { weight: 2, arbitrary: digits(15, 2) },
  { weight: 1, arbitrary: fc.constantFrom('1000000000000000', '-5', '1e3', 'NaN', '') },
);
const quantity = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 50 }) },
  { weight: 2, arbitrary: fc.constantFrom('0.0001', '999999999999999.9999', '1') },
  { weight: 1, arbitrary: digits(15, 4) },
);
const rate = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('0.3', '1', '3.67', '250', '1000') },
  { weight: 2, arbitrary: fc.constantFrom('0.0001', '999999999999999.9999', '999999999999999') },
  { weight: 1, arbitrary: digits(15, 4) },
);
const day = fc
  .integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31) })
  .map((ms) => new Date(ms).toISOString().slice(0, 10));
const date = fc.oneof(
  { weight: 6, arbitrary: day },
  { weight: 2, arbitrary: fc.constantFrom('2000-01-01', '2099-12-31', '2026-02-28T18:30:00.000Z') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('0000-01-01', '9999-12-31', '2026-02-28Tgarbage', '1999-12-31', '2026-02-30'),
  },
);
const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', 'A') },
  { weight: 1, arbitrary: fc.string({ maxLength: 8, unit: 'binary' }) },
);
const pick = fc.nat();
const optionalDate = fc.option(date, { nil: undefined });

type Pools = Record<string, string[]>;
type Step = (pools: Pools) => {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  pool?: string;
};
const remember = (pools: Pools, kind: string, id: string) => {
  pools[kind] = [...(pools[kind] ?? []), id];
};
const from = (pools: Pools, kind: string, i: number) => {
  const list = pools[kind] ?? [];
  return list.length ? list[i % list.length]! : '00000000-0000-4000-8000-000000000000';
};

/** One random command, built against the records that exist when it runs. */
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ name: text, currency: text, rate }).map(
    (c): Step =>
      () => ({
        method: 'POST',
        path: '/masters/cities',
        body: { name: c.name, currency_name: c.currency, rate: c.rate },
        pool: 'city',
      }),
  ),
  fc.record({ city: pick, rate }).map(
    (c): Step =>
      (p) => ({
        method: 'PUT',
        path: `/masters/cities/${from(p, 'city', c.city)}`,
        body: { name: `City ${c.city}`, currency_name: 'CUR', rate: c.rate },
      }),
  ),
  text.map(
    (name): Step =>
      () => ({ method: 'POST', path: '/masters/products', body: { name }, pool: 'product' }),
  ),
  fc
    .record({
      kind: fc.constantFrom('funders', 'agents', 'collectors', 'godowns'),
      name: text,
      city: pick,
      joining: optionalDate,
      opening: amount,
      salary: amount,
    })
    .map(
      (m): Step =>
        (p) => ({
          method: 'POST',
          path: `/masters/${m.kind}`,
          body: {
            name: m.name,
            joining_date: m.joining,
            opening_balance: m.opening,
            ...(m.kind === 'godowns' ? {} : { city_id: from(p, 'city', m.city) }),
            ...(m.kind === 'collectors' ? { salary_per_month: m.salary } : {}),
          },
          pool: m.kind.slice(0, -1),
        }),
    ),
  fc
    .record({
      direct: fc.boolean(),
      date,
      city: pick,
      funder: pick,
      product: pick,
      godown: pick,
      agent: pick,
      collector: pick,
      rate,
      quantity,
      paid: fc.option(amount, { nil: undefined }),
      commission: fc.option(amount, { nil: undefined }),
      edit: fc.option(pick, { nil: undefined }),
    })
    .map(
      (x): Step =>
        (p) => {
          // The funder's city, as the UI sends it; the collector may be of another city (a 4xx).
          const body = {
            type: x.direct ? 'Direct' : 'Godown',
            purchase_date: x.date,
            city_id: from(p, 'city', x.city),
            funder_id: from(p, 'funder', x.funder),
            product_id: from(p, 'product', x.product),
            godown_id: x.direct ? null : from(p, 'godown', x.godown),
            agent_id: x.direct ? from(p, 'agent', x.agent) : null,
            collector_id: x.paid ? from(p, 'collector', x.collector) : null,
            rate: x.rate,
            quantity: x.quantity,
            paid_amount: x.paid,
            commission: x.commission,
          };
          return x.edit === undefined
            ? { method: 'POST', path: '/transactions/purchases', body, pool: 'purchase' }
            : { method: 'PUT', path: `/transactions/purchases/${from(p, 'purchase', x.edit)}`, body };
        },
    ),
  fc
    .record({
      date,
      product: pick,
      godown: pick,
      agent: pick,
      rate,
      quantity,
      clearing: amount,
      edit: fc.option(pick),
    })
    .map(
      (x): Step =>
        (p) => {
          const body = {
            sale_date: x.date,
            product_id: from(p, 'product', x.product),
            godown_id: from(p, 'godown', x.godown),
            agent_id: from(p, 'agent', x.agent),
            rate: x.rate,
            quantity: x.quantity,
            clearing_charge: x.clearing,
          };
          return x.edit === null
            ? { method: 'POST', path: '/transactions/sales', body, pool: 'sale' }
            : { method: 'PUT', path: `/transactions/sales/${from(p, 'sale', x.edit)}`, body };
        },
    ),
  fc
    .record({
      date,
      product: pick,
      godown: pick,
      rows: fc.array(fc.record({ agent: pick, rate, quantity }), { minLength: 1, maxLength: 3 }),
    })
    .map(
      (x): Step =>
        (p) => ({
          method: 'POST',
          path: '/transactions/sales/bulk',
          body: {
            common: {
              sale_date: x.date,
              product_id: from(p, 'product', x.product),
              godown_id: from(p, 'godown', x.godown),
            },
            sales: x.rows.map((r) => ({
              agent_id: from(p, 'agent', r.agent),
              rate: r.rate,
              quantity: r.quantity,
            })),
          },
        }),
    ),
  fc.record({ sale: fc.boolean(), record: pick, quantity, date }).map(
    (x): Step =>
      (p) =>
        x.sale
          ? {
              method: 'POST',
              path: '/transactions/sale-returns',
              body: { sale_id: from(p, 'sale', x.record), quantity: x.quantity, return_date: x.date },
            }
          : {
              method: 'POST',
              path: '/transactions/purchase-returns',
              body: { purchase_id: from(p, 'purchase', x.record), quantity: x.quantity, return_date: x.date },
            },
  ),
  fc.record({ kind: fc.constantFrom('purchases', 'sales', 'expenses', 'incomes'), record: pick }).map(
    (x): Step =>
      (p) => ({
        method: 'DELETE',
        path: `/transactions/${x.kind}/${from(p, x.kind.slice(0, -1), x.record)}`,
      }),
  ),
  fc
    .record({
      funder: fc.boolean(),
      party: pick,
      date,
      amount,
      inr: fc.boolean(),
      collector: pick,
      godown: pick,
    })
    .map(
      (x): Step =>
        (p) => ({
          method: 'POST',
          path: '/transactions/payments',
          body: {
            related_entity_type: x.funder ? 'Funder' : 'Agent',
            related_entity_id: from(p, x.funder ? 'funder' : 'agent', x.party),
            payment_date: x.date,
            amount: x.amount,
            payment_mode: x.inr ? 'INR' : 'Currency',
            collector_id: x.inr ? null : from(p, 'collector', x.collector),
            godown_id: x.inr ? from(p, 'godown', x.godown) : null,
          },
        }),
    ),
  fc
    .record({
      from: pick,
      to: pick,
      date,
      sent: amount,
      charge: fc.option(amount),
      op: fc.constantFrom('*', '/'),
      rate,
    })
    .map(
      (x): Step =>
        (p) => ({
          method: 'POST',
          path: '/transactions/transfers',
          body: {
            transfer_date: x.date,
            from_collector_id: from(p, 'collector', x.from),
            to_collector_id: from(p, 'collector', x.to),
            sent_amount: x.sent,
            transfer_charge: x.charge ?? 0,
            operation: x.op,
            rate: x.rate,
          },
        }),
    ),
  fc
    .record({
      income: fc.boolean(),
      city: pick,
      category: text,
      amount,
      date,
      godown: fc.boolean(),
      payer: pick,
      edit: fc.option(pick),
    })
    .map(
      (x): Step =>
        (p) => {
          const kind = x.income ? 'income' : 'expense';
          const payerType = x.godown ? 'Godown' : 'Collector';
          const payer = from(p, x.godown ? 'godown' : 'collector', x.payer);
          const body = {
            city_id: from(p, 'city', x.city),
            category: x.category,
            amount: x.amount,
            [`${kind}_date`]: x.date,
            ...(x.income
              ? { received_by_entity_type: payerType, received_by_entity_id: payer }
              : { paid_from_entity_type: payerType, paid_from_entity_id: payer }),
          };
          return x.edit === null
            ? { method: 'POST', path: `/transactions/${kind}s`, body, pool: kind }
            : { method: 'PUT', path: `/transactions/${kind}s/${from(p, kind, x.edit)}`, body };
        },
    ),
  fc
    .record({
      collector: pick,
      full: fc.boolean(),
      inr: fc.boolean(),
      payer: pick,
      amount,
      month: fc.integer({ min: 1, max: 12 }),
      year: fc.integer({ min: 2000, max: 2100 }),
      date: optionalDate,
    })
    .map(
      (x): Step =>
        (p) => ({
          method: 'POST',
          path: '/transactions/salary-payments',
          body: {
            collector_id: from(p, 'collector', x.collector),
            month: x.month,
            year: x.year,
            payment_type: x.full ? 'Full' : 'Advance',
            payment_mode: x.inr ? 'INR' : 'Currency',
            amount: x.amount,
            paid_from_entity_type: x.inr ? 'Godown' : 'Collector',
            paid_from_entity_id: from(p, x.inr ? 'godown' : 'collector', x.payer),
            payment_date: x.date,
          },
        }),
    ),
  fc.record({ godown: pick, payer: pick, amount, date }).map(
    (x): Step =>
      (p) => ({
        method: 'POST',
        path: '/transactions/clearing-payouts',
        body: {
          payout_date: x.date,
          godown_id: from(p, 'godown', x.godown),
          payer_entity_id: from(p, 'godown', x.payer),
          amount: x.amount,
        },
      }),
  ),
);

/** A business to act on from the start, so early commands have records to refer to. */
async function seed(t: TestApp, pools: Pools) {
  const add = async (pool: string, path: string, body: unknown) => {
    const r = await t.call('POST', path, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    remember(pools, pool, r.body.id);
  };
  await add('city', '/masters/cities', { name: 'Karachi', currency_name: 'PKR', rate: '0.3' });
  await add('city', '/masters/cities', { name: 'Mumbai', currency_name: 'INR', rate: '1' });
  for (const [i, city] of pools.city!.entries()) {
    await add('funder', '/masters/funders', { name: `F${i}`, city_id: city });
    await add('agent', '/masters/agents', { name: `A${i}`, city_id: city });
    await add('collector', '/masters/collectors', { name: `K${i}`, city_id: city, salary_per_month: 5000 });
  }
  await add('godown', '/masters/godowns', { name: 'G0' });
  await add('godown', '/masters/godowns', { name: 'G1' });
  await add('product', '/masters/products', { name: 'P0' });
  await add('purchase', '/transactions/purchases', {
    type: 'Godown',
    purchase_date: '2026-01-01',
    city_id: pools.city![0],
    funder_id: pools.funder![0],
    product_id: pools.product![0],
    godown_id: pools.godown![0],
    rate: 100,
    quantity: 1000,
  });
}

describe.each(TEST_STORAGES)('every accepted command can be projected [%s]', (storage) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp({ storage });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it(
    `${COMMANDS} random commands through the routes: no 5xx, every projection applies them, a rebuild agrees`,
    async () => {
      const pools: Pools = {};
      await seed(t, pools);
      const steps = fc.sample(step, { numRuns: COMMANDS, seed: SEED });
      const tally = { tried: 0, accepted: 0, refused: 0 };
      for (const make of steps) {
        const { method, path, body, pool } = make(pools);
        const r = await t.call(method, path, body);
        tally.tried++;
        const context = `seed ${SEED}, command ${tally.tried}: ${method} ${path} ${JSON.stringify(body)} -> ${r.status} ${JSON.stringify(r.body)}`;
        expect(r.status, context).toBeLessThan(500);
        if (r.status < 300) {
          tally.accepted++;
          if (pool && method === 'POST') remember(pools, pool, (r.body as Body).id);
        } else tally.refused++;
      }
      const projections = await expectBooksCaughtUp(t);
      const rebuild = await expectRebuildIdentical(t);
      console.info(
        `projectable [${storage}] seed ${SEED}: ${tally.tried} commands (${tally.accepted} accepted, ${tally.refused} refused), ${projections.length} projections applied them, rebuild compared ${rebuild.report.comparisons.length} identical`,
      );
      // The run must have exercised the books, not refused everything.
      expect(tally.accepted).toBeGreaterThan(COMMANDS / 5);
    },
    Math.max(240_000, COMMANDS * 500),
  );
});
