import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

/**
 * Issue #16, generated: every method and path the app registers, called as an Admin with
 * generated hostile path parameters, query strings and bodies. No answer is a 5xx, no answer
 * shows internals, and a refused request (4xx) appends nothing. Seeded: a failure names the
 * seed and the request, and HOSTILE_SEED=<n> replays it.
 */
const SEED = Number(process.env.HOSTILE_SEED ?? 20261124);
const REQUESTS = Number(process.env.HOSTILE_REQUESTS ?? 2400);

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick };
}
type Rng = ReturnType<typeof prng>;

const FIELDS = [
  'name',
  'email',
  'phone',
  'password',
  'role',
  'is_active',
  'city_id',
  'funder_id',
  'agent_id',
  'product_id',
  'godown_id',
  'collector_id',
  'from_godown_id',
  'to_godown_id',
  'rate',
  'quantity',
  'amount',
  'currency_name',
  'purchase_date',
  'sale_date',
  'date',
  'payment_date',
  'transfer_date',
  'type',
  'kind',
  'entity_type',
  'month',
  'year',
  'notes',
  'description',
  'id',
  'ids',
  'items',
  'sales',
  'lines',
  'custom_fields',
  'data',
  'field_type',
  'options',
  'recipientNumber',
  'reportName',
  'projections',
  'eventId',
  'search',
  'limit',
  'offset',
  'page',
  'asOf',
  'knownAt',
  'from',
  'to',
  'sort',
  'order',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
] as const;
const KINDS = ['cities', 'products', 'funders', 'agents', 'godowns', 'collectors', 'users', 'custom-fields'];

/** Hostile text: control characters, NUL, lone surrogates, SQL and path look-alikes, long runs. */
function hostileText(r: Rng): string {
  return r.pick<() => string>([
    () => '',
    () => ' ',
    () => 'a\u0000b',
    () => '\ud800',
    () => 'x\udfffy',
    () => '\u202e\u200b\ufeff',
    () => "' or 1=1 --",
    () => '"; drop table events; --',
    () => '../../../etc/passwd',
    () => '%00%2e%2e%2f',
    () => '<script>alert(1)</script>',
    () => `$${'{'}7*7}{{7*7}}`,
    () => '__proto__',
    () => 'constructor',
    () => 'hasOwnProperty',
    () => 'x'.repeat(r.pick([101, 256, 5_000, 70_000])),
    () => '\u{1f600}'.repeat(300),
    () => 'Surat',
    () => 'cities',
    () => String(r.next()),
  ])();
}

/** A value of any kind, most of them wrong for whatever field they land in. */
function hostileValue(r: Rng, known: readonly string[], depth = 0): unknown {
  const choices: (() => unknown)[] = [
    () => hostileText(r),
    () => r.pick(known),
    () => r.pick(known).toUpperCase(), // the same id (issue #27)
    () => randomUUIDFrom(r),
    () =>
      r.pick([0, -1, 1, -0, 1e15, -1e15, 1e308, -1e308, 2 ** 53, 2 ** 63, 1e-7, 0.1 + 0.2, 123.456789123]),
    () =>
      r.pick([
        '1e15',
        '999999999999999.99',
        '-0.001',
        '0.0000001',
        '1,000',
        'NaN',
        'Infinity',
        '0x10',
        ' 5 ',
      ]),
    () =>
      r.pick([
        '2026-11-24',
        '1999-12-31',
        '2100-01-01',
        '0000-00-00',
        '2026-02-30',
        '+275760-09-13',
        '2026-11-24T99:99',
      ]),
    () => r.pick([true, false, null]),
    () => r.pick(['Admin', 'Viewer', 'Godown', 'Direct', 'INR', 'stock', 'ledger', 'TEXT', 'Purchase']),
  ];
  if (depth < 3) {
    choices.push(
      () => Array.from({ length: r.int(4) }, () => hostileValue(r, known, depth + 1)),
      () => hostileObject(r, known, depth + 1),
    );
  }
  return r.pick(choices)();
}

function randomUUIDFrom(r: Rng): string {
  const hex = () => r.int(16).toString(16);
  const h = (n: number) => Array.from({ length: n }, hex).join('');
  return `${h(8)}-${h(4)}-4${h(3)}-a${h(3)}-${h(12)}`;
}

function hostileObject(r: Rng, known: readonly string[], depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = r.int(8); i > 0; i--) {
    const key = r.next() < 0.85 ? r.pick(FIELDS) : hostileText(r);
    // defineProperty: `__proto__` becomes an own key, as JSON.parse makes it.
    Object.defineProperty(out, key, {
      value: hostileValue(r, known, depth),
      enumerable: true,
      writable: true,
    });
  }
  return out;
}

/** Custom fields by the hundred or thousand, unknown, some with over-long names (issue #27). */
function manyNames(r: Rng): Record<string, string> {
  const count = r.pick([25, 499, 501, 60_000]);
  const width = r.pick([8, 100, 101, 3_000]);
  return Object.fromEntries(
    Array.from({ length: width > 100 ? Math.min(count, 300) : count }, (_, i) => [
      String(i).padStart(width, 'k'),
      'x',
    ]),
  );
}

/** Deeply nested JSON, written as text (JSON.stringify itself would overflow the stack). */
function nestedJson(depth: number): string {
  return `${'{"a":['.repeat(depth)}"deep"${']}'.repeat(depth)}`;
}

/** A path segment: unknown or known ids, route words, and hostile text, percent-encoded. */
function segment(r: Rng, name: string, known: readonly string[]): string {
  const raw = r.pick<() => string>([
    () => randomUUID(),
    () => r.pick(known),
    () => r.pick(known).toUpperCase(),
    () => (name === 'kind' ? r.pick(KINDS) : r.pick(['purchases', 'sales', 'expenses', 'incomes'])),
    () => r.pick(['Funder', 'Agent', 'Godown', 'Collector', 'journal', 'masters', 'stock', 'notifications']),
    () => hostileText(r),
    () => r.pick(['-1', '0', '99999999999999999999', '1.5', 'NaN', 'null', 'undefined']),
  ])();
  if (raw === '') return '%20';
  try {
    return encodeURIComponent(raw);
  } catch {
    return '%ED%A0%80'; // a lone surrogate, as raw UTF-8 bytes
  }
}

/** The query parameters a route declares: since issue #27 any other name is refused at the door. */
function declaredQuery(schema: unknown): string[] {
  // A zod object's shape (the schemas are @bahi/contracts' zod schemas); a record has none.
  const query = (schema as { querystring?: { shape?: unknown } } | undefined)?.querystring;
  return query && typeof query.shape === 'object' && query.shape ? Object.keys(query.shape) : [];
}

function queryString(r: Rng, known: readonly string[], declared: readonly string[]): string {
  const parts: string[] = [];
  for (let i = r.int(5); i > 0; i--) {
    const key =
      declared.length && r.next() < 0.5
        ? r.pick(declared)
        : r.next() < 0.8
          ? r.pick(FIELDS)
          : r.pick(['__proto__[x]', 'constructor[prototype][y]', 'a[]', 'a[b][c]', 'city_id[]', 'page[0]']);
    const value = hostileValue(r, known, 2);
    const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
    let encoded: string;
    try {
      encoded = encodeURIComponent(text);
    } catch {
      encoded = '%ED%A0%80';
    }
    parts.push(`${encodeURIComponent(key)}=${encoded}`);
    if (r.next() < 0.2) parts.push(`${encodeURIComponent(key)}=${encoded}`); // a repeated key: an array
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** What no answer may contain: stack frames, SQL error words, file paths. */
const INTERNALS =
  /\n\s+at |\bat [\w.<>$]+ \(|\(?[\w/.-]+\.(?:ts|js|mjs):\d+|node_modules|\/work\/|\/usr\/|\brelation "|\bcolumn "|\bsyntax error\b|\bduplicate key\b|\bviolates\b|\bpg_|\bSQLSTATE\b|\bTypeError\b|\bReferenceError\b|\bundefined is not\b|Cannot read propert/;

describe.each(TEST_STORAGES)('generated hostile requests on every route [%s]', (storage) => {
  let t: TestApp;
  const known: string[] = [];

  beforeAll(async () => {
    t = await openTestApp({ storage });
    const make = async (path: string, body: unknown) => {
      const res = await t.call('POST', path, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      known.push(res.body.id as string);
      return res.body.id as string;
    };
    const city = await make('/masters/cities', { name: 'Surat', currency_name: 'INR', rate: 1 });
    const funder = await make('/masters/funders', { name: 'Asha', city_id: city });
    const product = await make('/masters/products', { name: 'Cumin' });
    const godown = await make('/masters/godowns', { name: 'Main' });
    await make('/masters/agents', { name: 'Ravi', city_id: city });
    await make('/transactions/purchases', {
      type: 'Godown',
      purchase_date: '2026-11-02',
      city_id: city,
      funder_id: funder,
      product_id: product,
      godown_id: godown,
      rate: 10,
      quantity: 7,
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it(`answers ${REQUESTS} generated hostile requests (seed ${SEED}) without a 5xx, internals, or a refused write`, async () => {
    const routes = t.bahi.routes.filter(
      (route) =>
        route.url.startsWith('/api/') &&
        ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(route.method) &&
        route.url !== '/api/events', // the live stream never ends: hardened in events-hardening.int.test.ts
    );
    expect(routes.length).toBeGreaterThan(50);
    const r = prng(SEED);
    const head = async () =>
      ((await (await fetch(`${t.bahi.url}/api/ready`)).json()) as { eventStore: { headPosition: string } })
        .eventStore.headPosition;
    const seen = new Set<string>();
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (let i = 0; i < REQUESTS && failures.length < 10; i++) {
      const route = routes[i % routes.length]!; // every route, round after round
      seen.add(`${route.method} ${route.url}`);
      const path =
        route.url.replace(/:(\w+)/g, (_, name: string) => segment(r, name, known)) +
        queryString(r, known, declaredQuery(route.schema));
      const headers: Record<string, string> = { authorization: `Bearer ${t.token}` };
      let body: string | undefined;
      if (route.method !== 'GET' && route.method !== 'DELETE' && r.next() < 0.95) {
        const shape = r.next();
        if (shape < 0.75) body = JSON.stringify(hostileObject(r, known));
        else if (shape < 0.82) body = JSON.stringify(hostileValue(r, known));
        else if (shape < 0.87) body = nestedJson(r.pick([64, 500, 5_000]));
        else if (shape < 0.92)
          body = r.pick([
            '{',
            '{"a":',
            '[1,2',
            'null',
            '"\\ud800"',
            '{"__proto__":{"isAdmin":true}}',
            '{"name":"x","custom_fields":{"__proto__":{"x":"1"}}}',
            '{"\\u005f_proto__":1}',
            '{"a":{"constructor":{"prototype":{"x":1}}}}',
            '\u0000',
          ]);
        else if (shape < 0.94)
          body = JSON.stringify({ ...hostileObject(r, known), custom_fields: manyNames(r) });
        else body = JSON.stringify({ name: 'y'.repeat(r.pick([10_000, 2_000_000])) });
        headers['content-type'] =
          r.next() < 0.93
            ? 'application/json'
            : r.pick(['text/plain', 'application/xml', 'application/json; charset=latin1']);
      }
      if (r.next() < 0.1)
        headers['x-bahi-position'] = r.pick(['-1', 'abc', '99999999999999999999999', '1e3']);
      if (r.next() < 0.05)
        headers['idempotency-key'] = r.pick([
          '',
          ' ',
          'k'.repeat(300),
          '\u00e9t\u00e9' /* fetch sends only bytes */,
        ]);
      const before = await head();
      let status: number;
      let text: string;
      try {
        const res = await fetch(`${t.bahi.url}${path}`, {
          method: route.method,
          headers,
          ...(body === undefined ? {} : { body }),
        });
        status = res.status;
        text = await res.text();
      } catch (error) {
        failures.push(
          `#${i} ${route.method} ${path.slice(0, 200)}: request failed: ${(error as Error).message}`,
        );
        continue;
      }
      const what = `#${i} ${route.method} ${path.slice(0, 200)} body ${String(body).slice(0, 200)} -> ${status} ${text.slice(0, 300)}`;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status === 401 && route.url !== '/api/auth/login') failures.push(`the Admin was refused: ${what}`);
      if (status >= 500) failures.push(`5xx: ${what}`);
      else if (INTERNALS.test(text) && !route.url.startsWith('/api/reports/files'))
        failures.push(`internals: ${what}`);
      else if (status >= 400 && (await head()) !== before) failures.push(`appended on a refusal: ${what}`);
      // A refusal lists at most 20 problems, clipped (issue #27): never megabytes echoing the input.
      else if (status >= 400 && text.length > 32_768) failures.push(`a ${text.length}-byte refusal: ${what}`);
    }
    expect(failures, `seed ${SEED}`).toEqual([]);
    expect(seen.size).toBe(routes.length);
    // Not only refusals at the door: some requests get through to the handlers and succeed.
    const ok = [...statuses].filter(([s]) => s < 300).reduce((n, [, c]) => n + c, 0);
    expect(ok).toBeGreaterThan(100);
    console.info(`hostile-generated [${storage}] seed ${SEED}:`, Object.fromEntries([...statuses].sort()));
  }, 180_000);
});
