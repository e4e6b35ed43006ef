import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Body, openTestApp, type TestApp } from './testing/test-app.ts';

/**
 * The API contract (issue #19): every /api route declares its schema, GET /api/openapi.json is
 * generated from them and is a valid OpenAPI document, and what the GET operations answer on a
 * small business matches the response schemas the document declares.
 */
describe('the API contract', () => {
  let t: TestApp;
  let document: Body;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await openTestApp();
    const mk = async (kind: string, body: unknown) => {
      const r = await t.call('POST', `/masters/${kind}`, body);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.id as string;
    };
    ids.city = await mk('cities', { name: 'Karachi', currency_name: 'PKR', rate: '0.3' });
    ids.Funder = await mk('funders', { name: 'Asha', city_id: ids.city, opening_balance: 500 });
    ids.Agent = await mk('agents', { name: 'Bilal', city_id: ids.city });
    ids.Collector = await mk('collectors', { name: 'Imran', city_id: ids.city, salary_per_month: 15000 });
    ids.Godown = await mk('godowns', { name: 'Bhiwandi' });
    ids.product = await mk('products', { name: 'Cumin' });
    const purchase = await t.call('POST', '/transactions/purchases', {
      type: 'Godown',
      purchase_date: '2026-11-01',
      city_id: ids.city,
      funder_id: ids.Funder,
      product_id: ids.product,
      godown_id: ids.Godown,
      rate: 250,
      quantity: 100,
    });
    expect(purchase.status, JSON.stringify(purchase.body)).toBe(201);
    ids.Purchase = purchase.body.id;
    const payment = await t.call('POST', '/transactions/payments', {
      related_entity_type: 'Funder',
      related_entity_id: ids.Funder,
      payment_date: '2026-11-05',
      amount: 1000,
      payment_mode: 'Currency',
      collector_id: ids.Collector,
    });
    expect(payment.status, JSON.stringify(payment.body)).toBe(201);
    // One record of each listed kind, so each list's rows are checked, not only its empty page.
    ids.Collector2 = await mk('collectors', { name: 'Sana', city_id: ids.city, salary_per_month: 9000 });
    const writes: Array<[string, unknown]> = [
      [
        '/transactions/sales',
        {
          sale_date: '2026-11-02',
          agent_id: ids.Agent,
          product_id: ids.product,
          godown_id: ids.Godown,
          rate: 300,
          quantity: 10,
        },
      ],
      [
        '/transactions/expenses',
        {
          expense_date: '2026-11-03',
          city_id: ids.city,
          category: 'Rent',
          amount: 200,
          paid_from_entity_type: 'Collector',
          paid_from_entity_id: ids.Collector,
        },
      ],
      [
        '/transactions/incomes',
        {
          income_date: '2026-11-03',
          city_id: ids.city,
          category: 'Interest',
          amount: 50,
          received_by_entity_type: 'Godown',
          received_by_entity_id: ids.Godown,
        },
      ],
      [
        '/transactions/transfers',
        {
          transfer_date: '2026-11-04',
          from_collector_id: ids.Collector,
          to_collector_id: ids.Collector2,
          sent_amount: 100,
        },
      ],
    ];
    for (const [path, body] of writes) {
      const r = await t.call('POST', path, body);
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(201);
    }
    await t.syncToHead();
    const res = await fetch(`${t.bahi.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    document = await res.json();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('has a schema on every /api route', () => {
    const api = t.bahi.routes.filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD');
    expect(api.length).toBeGreaterThan(50);
    const without = api.filter((r) => r.schema === undefined).map((r) => `${r.method} ${r.url}`);
    expect(without).toEqual([]);
  });

  it('serves openapi.json without a token, and it is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
    // Both sides of the standalone: the command's writes and the query's reads.
    expect(document.paths['/api/transactions/purchases'].post.requestBody).toBeDefined();
    expect(document.paths['/api/transactions/purchases'].get.parameters.map((p: Body) => p.name)).toContain(
      'page',
    );
    expect(document.paths['/api/masters/cities/{id}'].put.parameters[0]).toMatchObject({
      name: 'id',
      in: 'path',
      required: true,
    });
    expect(document.paths['/api/auth/login'].post.security).toEqual([]);
    const page = await fetch(`${t.bahi.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('/api/transactions/purchases');
  });

  it('answers every GET operation it can call with a body its response schema accepts', async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    /** Path parameters from the seeded business; an operation needing others is left out. */
    const fill = (path: string): string | undefined => {
      if (path === '/api/reports/ledger/{type}/{id}') return `/api/reports/ledger/Funder/${ids.Funder}`;
      if (path === '/api/reports/records/{type}/{id}') return `/api/reports/records/Purchase/${ids.Purchase}`;
      return path.includes('{') ? undefined : path;
    };
    /** Required query parameters, from the seeded business. */
    const query: Record<string, string> = {
      '/api/transactions/salary-payments/paid-for-month': `?collector_id=${ids.Collector}&month=11&year=2026`,
      '/api/reports/stock/average-purchase-rate': `?product_id=${ids.product}&godown_id=${ids.Godown}`,
      '/api/reports/cashbook-report': `?entity_type=Collector&entity_id=${ids.Collector}`,
    };
    const skipped = new Set(['/api/events']); // the live stream never ends (events.int.test.ts)
    const called: string[] = [];
    const failures: string[] = [];
    for (const [path, operations] of Object.entries(document.paths as Record<string, Body>)) {
      const get = operations.get;
      const url = fill(path);
      if (!get || !url || skipped.has(path)) continue;
      const res = await fetch(`${t.bahi.url}${url}${query[path] ?? ''}`, {
        headers: { authorization: `Bearer ${t.token}` },
      });
      const declared = get.responses[String(res.status)];
      const type = (res.headers.get('content-type') ?? '').split(';')[0]!;
      const media = declared?.content?.[type];
      if (!media) {
        failures.push(`GET ${url}: answered ${res.status} ${type}, which the document does not declare`);
        continue;
      }
      called.push(path);
      if (type !== 'application/json') continue; // a page or a file: its media type is the contract
      const validate = ajv.compile(media.schema);
      const body = await res.json();
      if (!validate(body)) failures.push(`GET ${url}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(failures).toEqual([]);
    expect(called.length).toBeGreaterThan(25);
    expect(called).toContain('/api/reports/ledger/{type}/{id}');
    // The lists answered rows, so their row schemas were checked, not only an empty page.
    for (const list of ['purchases', 'sales', 'expenses', 'incomes', 'transfers']) {
      const r = await t.call('GET', `/transactions/${list}`);
      expect(r.body.data.length, list).toBeGreaterThan(0);
    }
  });
});
