import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandTestApp, commandTestApp } from './testing/command-app.ts';

/** An id no record has: references to it must fail, never create anything. */
const GHOST = '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f';
const DATE = '2026-11-05';

/** Every write route with a payload of the right shape; references point at GHOST. */
const ROUTES: Array<{
  method: 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: Record<string, unknown>;
  required: string[];
}> = [
  {
    method: 'POST',
    url: '/api/auth/login',
    body: { email: 'a@b.c', password: 'x' },
    required: ['email', 'password'],
  },
  {
    method: 'POST',
    url: '/api/masters/cities',
    body: { name: 'C', currency_name: 'PKR', rate: '0.3' },
    required: ['name', 'currency_name', 'rate'],
  },
  { method: 'POST', url: '/api/masters/products', body: { name: 'P' }, required: ['name'] },
  {
    method: 'POST',
    url: '/api/masters/godowns',
    body: { name: 'G', opening_balance: 0 },
    required: ['name'],
  },
  {
    method: 'POST',
    url: '/api/masters/funders',
    body: { name: 'F', city_id: GHOST },
    required: ['name', 'city_id'],
  },
  {
    method: 'POST',
    url: '/api/masters/agents',
    body: { name: 'A', city_id: GHOST },
    required: ['name', 'city_id'],
  },
  {
    method: 'POST',
    url: '/api/masters/collectors',
    body: { name: 'K', city_id: GHOST, salary_per_month: 1 },
    required: ['name', 'city_id'],
  },
  {
    method: 'POST',
    url: '/api/masters/users',
    body: { name: 'U', email: 'u@x.io', password: 'secret-pw', role: 'Viewer' },
    required: ['name', 'email', 'password'],
  },
  {
    method: 'POST',
    url: '/api/masters/custom-fields',
    body: { name: 'F', type: 'TEXT', entity_types: ['Sale'] },
    required: ['name', 'type', 'entity_types'],
  },
  {
    method: 'PUT',
    url: `/api/masters/cities/${GHOST}`,
    body: { name: 'C', currency_name: 'PKR', rate: '0.3' },
    required: [],
  },
  {
    method: 'PUT',
    url: `/api/masters/users/${GHOST}`,
    body: { name: 'U', email: 'u2@x.io', role: 'Viewer', is_active: true },
    required: [],
  },
  { method: 'DELETE', url: `/api/masters/products/${GHOST}`, required: [] },
  { method: 'DELETE', url: `/api/masters/users/${GHOST}`, required: [] },
  {
    method: 'POST',
    url: '/api/transactions/purchases',
    body: {
      type: 'Godown',
      purchase_date: DATE,
      city_id: GHOST,
      funder_id: GHOST,
      product_id: GHOST,
      godown_id: GHOST,
      rate: 1,
      quantity: 1,
    },
    required: ['type', 'city_id', 'rate', 'quantity'],
  },
  {
    method: 'POST',
    url: '/api/transactions/sales',
    body: { sale_date: DATE, agent_id: GHOST, product_id: GHOST, godown_id: GHOST, rate: 1, quantity: 1 },
    required: ['agent_id', 'rate', 'quantity'],
  },
  {
    method: 'POST',
    url: '/api/transactions/sales/bulk',
    body: {
      common: { sale_date: DATE, godown_id: GHOST, product_id: GHOST },
      sales: [{ agent_id: GHOST, quantity: 1, rate: 1 }],
    },
    required: ['common', 'sales'],
  },
  {
    method: 'POST',
    url: '/api/transactions/purchase-returns',
    body: { purchase_id: GHOST, quantity: 1, return_date: DATE },
    required: ['purchase_id', 'quantity'],
  },
  {
    method: 'POST',
    url: '/api/transactions/sale-returns',
    body: { sale_id: GHOST, quantity: 1, return_date: DATE },
    required: ['sale_id', 'quantity'],
  },
  {
    method: 'POST',
    url: '/api/transactions/payments',
    body: {
      related_entity_type: 'Funder',
      related_entity_id: GHOST,
      payment_date: DATE,
      amount: 1,
      payment_mode: 'Currency',
      collector_id: GHOST,
    },
    required: ['amount', 'related_entity_id'],
  },
  {
    method: 'POST',
    url: '/api/transactions/clearing-payouts',
    body: { payout_date: DATE, godown_id: GHOST, payer_entity_id: GHOST, amount: 1 },
    required: ['amount'],
  },
  {
    method: 'POST',
    url: '/api/transactions/salary-payments',
    body: {
      collector_id: GHOST,
      month: 1,
      year: 2026,
      payment_type: 'Full',
      payment_mode: 'Currency',
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: GHOST,
    },
    required: ['collector_id', 'month'],
  },
  {
    method: 'POST',
    url: '/api/transactions/transfers',
    body: {
      transfer_date: DATE,
      from_collector_id: GHOST,
      to_collector_id: '1f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f',
      sent_amount: 1,
    },
    required: ['sent_amount'],
  },
  {
    method: 'POST',
    url: '/api/transactions/expenses',
    body: {
      city_id: GHOST,
      expense_date: DATE,
      category: 'X',
      amount: 1,
      paid_from_entity_type: 'Godown',
      paid_from_entity_id: GHOST,
    },
    required: ['category', 'amount'],
  },
  {
    method: 'POST',
    url: '/api/transactions/incomes',
    body: {
      city_id: GHOST,
      income_date: DATE,
      category: 'X',
      amount: 1,
      received_by_entity_type: 'Godown',
      received_by_entity_id: GHOST,
    },
    required: ['category', 'amount'],
  },
  {
    method: 'PUT',
    url: `/api/transactions/expenses/${GHOST}`,
    body: {
      city_id: GHOST,
      expense_date: DATE,
      category: 'X',
      amount: 1,
      paid_from_entity_type: 'Godown',
      paid_from_entity_id: GHOST,
    },
    required: [],
  },
  { method: 'DELETE', url: `/api/transactions/incomes/${GHOST}`, required: [] },
  { method: 'DELETE', url: `/api/transactions/purchases/${GHOST}`, required: [] },
  { method: 'DELETE', url: `/api/transactions/sales/${GHOST}`, required: [] },
  {
    method: 'PUT',
    url: `/api/transactions/sales/${GHOST}`,
    body: { sale_date: DATE, agent_id: GHOST, product_id: GHOST, godown_id: GHOST, rate: 1, quantity: 1 },
    required: [],
  },
  {
    method: 'PUT',
    url: `/api/transactions/purchases/${GHOST}`,
    body: {
      type: 'Direct',
      purchase_date: DATE,
      city_id: GHOST,
      funder_id: GHOST,
      product_id: GHOST,
      agent_id: GHOST,
      rate: 1,
      quantity: 1,
    },
    required: [],
  },
];

/** Values no required field of its kind accepts: wrong types, empty, too long, unstorable, hostile. */
const INVALID_TEXT = [
  null,
  123,
  -1,
  0,
  true,
  {},
  [],
  '',
  '   ',
  'x'.repeat(5000),
  'a\u0000b',
  '\ud800',
  { $gt: '' },
  ['a', 'b'],
];
const INVALID_NUMBER = [
  null,
  true,
  {},
  [],
  '',
  'abc',
  'NaN',
  'Infinity',
  '1e400',
  '-0.00001',
  '1.234567',
  -1,
  0,
  { $gt: '' },
];
const NUMERIC = new Set(['rate', 'quantity', 'amount', 'sent_amount', 'month']);
const HOSTILE_EXTRA = fc.constantFrom<Record<string, unknown>>(
  { __proto__: { role: 'Admin' } },
  JSON.parse('{"__proto__": {"polluted": true}}'),
  { constructor: { prototype: { polluted: true } } },
  { extra: 'x'.repeat(200_000) },
  { nested: JSON.parse(`${'['.repeat(500)}${']'.repeat(500)}`) },
);

type Case = {
  route: (typeof ROUTES)[number];
  body: unknown;
  raw?: string;
  contentType?: string;
  url?: string;
};

const cases: fc.Arbitrary<Case> = fc.oneof(
  // Any JSON at all.
  fc.record({ route: fc.constantFrom(...ROUTES), body: fc.jsonValue({ maxDepth: 4 }) }),
  // The right shape with required fields broken, and hostile keys mixed in.
  fc
    .record({
      route: fc.constantFrom(...ROUTES.filter((r) => r.body && r.required.length > 0)),
      broken: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
      picks: fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
      extra: fc.option(HOSTILE_EXTRA, { nil: undefined }),
    })
    .map(({ route, broken, picks, extra }) => {
      const body: Record<string, unknown> = { ...route.body, ...(extra ?? {}) };
      broken.forEach((n, i) => {
        const field = route.required[n % route.required.length]!;
        const pool = NUMERIC.has(field) ? INVALID_NUMBER : INVALID_TEXT;
        body[field] = pool[picks[i]! % pool.length];
      });
      return { route, body };
    }),
  // Not JSON, or not declared as JSON.
  fc.record({
    route: fc.constantFrom(...ROUTES.filter((r) => r.method !== 'DELETE')),
    body: fc.constant(undefined),
    raw: fc.constantFrom(
      '{"name": ',
      'name=x&rate=1',
      '\u0000',
      '[1,2',
      '{"a":1}}',
      'null',
      '"text"',
      '<xml/>',
    ),
    contentType: fc.constantFrom(
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/xml',
    ),
  }),
  // Ids in the path that are not ids, or ids of nothing.
  fc.record({
    route: fc.constantFrom(...ROUTES.filter((r) => r.method !== 'POST')),
    body: fc.constant({ name: 'x', currency_name: 'y', rate: 1 }),
    url: fc.constantFrom(
      '1',
      'abc',
      '../../etc/passwd',
      '%00',
      "1' OR '1'='1",
      '00000000-0000-0000-0000-000000000000',
      GHOST.toUpperCase(),
    ),
  }),
);

describe('every write route under malformed and hostile input', () => {
  let t: CommandTestApp;
  beforeAll(async () => {
    t = await commandTestApp();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers 2,000 malformed or hostile requests with a 4xx and a message, and the event log does not change', async () => {
    const head = await t.eventStore.headPosition();
    const count = (await t.eventStore.readAll(0n, 1_000_000)).length;
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const url = c.url ? c.route.url.replace(/[^/]+$/, encodeURIComponent(c.url)) : c.route.url;
        const headers: Record<string, string> = { authorization: `Bearer ${t.adminToken}` };
        let payload: string | undefined;
        if (c.raw !== undefined) {
          payload = c.raw;
          headers['content-type'] = c.contentType ?? 'application/json';
        } else if (c.body !== undefined && c.route.method !== 'DELETE') {
          payload = JSON.stringify(c.body);
          headers['content-type'] = 'application/json';
        }
        const res = await t.app.inject({
          method: c.route.method,
          url,
          headers,
          ...(payload === undefined ? {} : { payload }),
        });
        seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
        expect(
          res.statusCode,
          `${c.route.method} ${url} ${payload?.slice(0, 200)} -> ${res.body}`,
        ).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${c.route.method} ${url} -> ${res.body}`).toBeLessThan(500);
        const body = res.json();
        expect(typeof body.message, res.body).toBe('string');
        expect(body.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
    expect(await t.eventStore.headPosition()).toBe(head);
    expect((await t.eventStore.readAll(0n, 1_000_000)).length).toBe(count);
    expect({} as Record<string, unknown>).not.toHaveProperty('polluted');
    expect({} as Record<string, unknown>).not.toHaveProperty('role');
    // Most answers should be validation (400) or missing references; report the spread.
    console.log('fuzz status counts:', Object.fromEntries([...seen].sort()));
  }, 120_000);

  it('answers every required field of every route, broken every way, with a 4xx (a sweep, not a sample)', async () => {
    const head = await t.eventStore.headPosition();
    const failures: string[] = [];
    for (const route of ROUTES) {
      for (const field of route.required) {
        for (const value of NUMERIC.has(field) ? INVALID_NUMBER : INVALID_TEXT) {
          const res = await t.app.inject({
            method: route.method,
            url: route.url,
            headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
            payload: JSON.stringify({ ...route.body, [field]: value }),
          });
          if (res.statusCode < 400 || res.statusCode >= 500 || typeof res.json().message !== 'string') {
            failures.push(
              `${route.method} ${route.url} ${field}=${JSON.stringify(value)?.slice(0, 40)} -> ${res.statusCode} ${res.body.slice(0, 120)}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await t.eventStore.headPosition()).toBe(head);
  }, 120_000);

  it('stores hostile but legitimate text exactly, and refuses text Postgres cannot hold', async () => {
    const names = [
      "Robert'); DROP TABLE es.events;--",
      '<script>alert(1)</script>',
      'كراچی ٹاؤن',
      '東京 🏙️ 🇮🇳',
      'a'.repeat(100),
      '%s%n%x',
      '\\u0000',
    ];
    for (const name of names) {
      const res = await t.call('POST', '/api/masters/products', t.adminToken, { name });
      expect(res.statusCode, res.body).toBe(201);
      const [event] = await t.eventStore.readStream(`product-${res.json().id}`);
      expect((event!.data as { name: string }).name).toBe(name);
    }
    for (const name of ['nul\u0000char', 'lone\ud800half', 'x\udc00']) {
      const res = await t.call('POST', '/api/masters/products', t.adminToken, { name });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([
        { msg: 'Product name contains characters that cannot be stored', path: 'name' },
      ]);
    }
  });
});
