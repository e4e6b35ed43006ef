import { cashbookReport, daywiseReport } from '@bahi/contracts';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBooksCaughtUp, expectRebuildIdentical } from './testing/books.ts';
import { plantUnprojectableGodown } from './testing/poison.ts';
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
  /** Answers read while a projection was stopped (the walk below sees it running again). */
  const stopped: Array<[string, Body]> = [];

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
    // A custom field on purchases, so a purchase row carries its values.
    ids.field = await mk('custom-fields', { name: 'Lot', type: 'TEXT', entity_types: ['Purchase'] });
    const purchase = await t.call('POST', '/transactions/purchases', {
      type: 'Godown',
      purchase_date: '2026-11-01',
      city_id: ids.city,
      funder_id: ids.Funder,
      product_id: ids.product,
      godown_id: ids.Godown,
      rate: 250,
      quantity: 100,
      custom_fields: { [ids.field]: 'L-7' },
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
      [
        '/transactions/salary-payments',
        {
          collector_id: ids.Collector,
          month: 11,
          year: 2026,
          payment_type: 'Advance',
          payment_mode: 'Currency',
          amount: 100,
          paid_from_entity_type: 'Collector',
          paid_from_entity_id: ids.Collector,
          payment_date: '2026-11-06',
        },
      ],
    ];
    for (const [path, body] of writes) {
      const r = await t.call('POST', path, body);
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(201);
    }
    // A WhatsApp send (kept in the outbox: no transport here), so the outbox has a row.
    const send = await t.call('POST', '/reports/whatsapp', {
      recipientNumber: '+919876543210',
      reportName: 'stock',
    });
    expect(send.status, JSON.stringify(send.body)).toBe(200);
    await t.syncToHead();
    const res = await fetch(`${t.bahi.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    document = await res.json();

    // A projection stopped at an event it cannot apply (a godown of year 0, planted as a buggy
    // writer would have): its status and the failing event are checked while it is stopped,
    // then it is set aside, so the status lists a quarantined event.
    const poison = await plantUnprojectableGodown(t.bahi.eventStore, 'Year zero');
    for (let i = 0; ; i++) {
      const status = await t.call('GET', '/admin/projections');
      if (status.body.projections.some((p: Body) => p.status === 'failed')) {
        stopped.push(['/api/admin/projections', status.body]);
        break;
      }
      if (i > 200) throw new Error('the planted event did not stop a projection');
      await new Promise((r) => setTimeout(r, 50));
    }
    const failing = await t.call('GET', '/admin/projections/masters/failing-event');
    expect(failing.status, JSON.stringify(failing.body)).toBe(200);
    stopped.push(['/api/admin/projections/{name}/failing-event', failing.body]);
    const aside = await t.call('POST', '/admin/projections/masters/quarantine', {
      position: poison,
      reason: 'joining date in year 0',
    });
    expect(aside.status, JSON.stringify(aside.body)).toBe(200);
    await t.syncToHead();
    await expectBooksCaughtUp(t);
    // A rebuild that only compares, so the status lists a rebuild with its report.
    await expectRebuildIdentical(t);
  }, 120_000);
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
    // The day-wise and cashbook routes (reports.routes.ts) still declare their rows only as
    // objects: their answers are checked against the contract's row schemas as well.
    const reports: Array<[string, { toJSONSchema(o: { io: 'output' }): object }]> = [
      ['/api/reports/daywise-report', daywiseReport],
      [`/api/reports/cashbook-report${query['/api/reports/cashbook-report']}`, cashbookReport],
    ];
    for (const [url, schema] of reports) {
      const validate = ajv.compile(schema.toJSONSchema({ io: 'output' }));
      const res = await fetch(`${t.bahi.url}${url}`, { headers: { authorization: `Bearer ${t.token}` } });
      if (!validate(await res.json()))
        failures.push(`GET ${url} (contract rows): ${ajv.errorsText(validate.errors)}`);
    }
    // What the Admin's status and the failing event answered while a projection was stopped.
    for (const [path, body] of stopped) {
      const validate = ajv.compile(
        document.paths[path].get.responses['200'].content['application/json'].schema,
      );
      if (!validate(body)) failures.push(`GET ${path} (stopped): ${ajv.errorsText(validate.errors)}`);
    }
    expect(failures).toEqual([]);
    expect(called.length).toBeGreaterThan(25);
    expect(called).toContain('/api/reports/ledger/{type}/{id}');
    // The lists answered rows, so their row schemas were checked, not only an empty page.
    for (const list of ['purchases', 'sales', 'expenses', 'incomes', 'transfers']) {
      const r = await t.call('GET', `/transactions/${list}`);
      expect(r.body.data.length, list).toBeGreaterThan(0);
    }
    // So were the reports' rows and the nested lists' (the walk's own requests, read again).
    const rows = async (path: string) => (await t.call('GET', path)).body;
    expect((await rows('/transactions/purchases')).data[0].customFieldValues.length).toBeGreaterThan(0);
    expect((await rows('/reports/daywise-report')).length).toBeGreaterThan(0);
    expect(
      (await rows(`/reports/cashbook-report${query['/api/reports/cashbook-report']}`)).length,
    ).toBeGreaterThan(0);
    expect((await rows(`/reports/ledger/Funder/${ids.Funder}`)).transactions.length).toBeGreaterThan(0);
    expect((await rows('/reports/salary-report')).data.length).toBeGreaterThan(0);
    expect((await rows('/reports/payments')).data.length).toBeGreaterThan(0);
    expect((await rows('/reports/whatsapp/outbox')).data.length).toBeGreaterThan(0);
    expect((await rows(`/reports/records/Purchase/${ids.Purchase}`)).history.length).toBeGreaterThan(0);
    expect((await rows('/masters/custom-fields')).length).toBeGreaterThan(0);
    expect((await rows('/masters/godowns')).data[0].stock.length).toBeGreaterThan(0);
    const status = await rows('/admin/projections');
    expect(status.quarantined.length).toBeGreaterThan(0);
    expect(status.rebuilds[0].report.comparisons.length).toBeGreaterThan(0);
    expect(stopped.map(([path]) => path)).toHaveLength(2);
  });
});
