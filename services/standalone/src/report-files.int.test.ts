import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { momentInWords } from '../../reports-worker/src/render/document.ts';
import { pdfInfo, pdfText, readXlsx } from '../../reports-worker/src/testing/readers.ts';
import { type Body, openTestApp, type TestApp } from './testing/test-app.ts';

/** Report downloads and WhatsApp sends through the whole standalone app (in-process queue). */
describe('report files and WhatsApp through the API', () => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  const call = (method: string, path: string, body?: unknown) => t.call(method, path, body);
  const get = (path: string) =>
    fetch(`${t.bahi.url}/api${path}`, { headers: { authorization: `Bearer ${t.token}` } }) as Promise<
      Omit<Response, 'json'> & { json(): Promise<Body> }
    >;

  beforeAll(async () => {
    t = await openTestApp({ env: () => ({ BAHI_BUSINESS_NAME: 'Shree Ganesh Traders' }) });
    const mk = async (kind: string, body: unknown) =>
      (await call('POST', `/masters/${kind}`, body)).body.id as string;
    ids.city = await mk('cities', { name: 'Surat', currency_name: 'INR', rate: 1 });
    ids.funder = await mk('funders', { name: 'ભાવેશ Shah', city_id: ids.city, opening_balance: 1000 });
    ids.collector = await mk('collectors', { name: 'Kabir', city_id: ids.city });
    ids.godown = await mk('godowns', { name: 'Main' });
    ids.product = await mk('products', { name: '=cmd|calc' });
    for (const [date, quantity] of [
      ['2026-11-02', 10],
      ['2026-11-05', 3],
    ] as const) {
      const r = await call('POST', '/transactions/purchases', {
        type: 'Godown',
        purchase_date: date,
        city_id: ids.city,
        funder_id: ids.funder,
        product_id: ids.product,
        godown_id: ids.godown,
        rate: 100.1,
        quantity,
      });
      expect(r.status).toBe(201);
    }
    const expense = await call('POST', '/transactions/expenses', {
      expense_date: '2026-11-03',
      city_id: ids.city,
      category: 'Rent',
      amount: 250.5,
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: ids.collector,
    });
    expect(expense.status).toBe(201);
    await t.syncToHead();
  }, 120_000);
  afterAll(() => t?.close());

  it('streams the ledger as a PDF with the same figures as the screen, and says where it was read', async () => {
    const screen = (
      await call('GET', `/reports/ledger/Funder/${ids.funder}?startDate=2026-11-01&endDate=2026-11-30`)
    ).body;
    const res = await get(
      `/reports/ledger/Funder/${ids.funder}/download/pdf?startDate=2026-11-01&endDate=2026-11-30`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="ledger_Funder_______Shah_2026-11-01_to_2026-11-30\.pdf"; filename\*=UTF-8''ledger_Funder_/,
    );
    const position = res.headers.get('x-bahi-position');
    expect(Number(position)).toBeGreaterThan(0);
    const file = Buffer.from(await res.arrayBuffer());
    const text = pdfText(file);
    expect(text).toContain('Shree Ganesh Traders');
    expect(text).toContain('Ledger: ભાવેશ Shah (Funder)');
    // Which books, in words; the position small at the foot and in the PDF's metadata (issue #18).
    expect(text).toMatch(/Books as recorded at \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d:\d\d UTC/);
    // Issue #25: a verification code worded for people; the position stays in the metadata.
    expect(text).toMatch(/Verification code [0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}/);
    // Issue #30: the chain head at the file's position, for an auditor to compare with the log.
    expect(text).toMatch(new RegExp(`Chain [0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4} at ${position}`));
    expect(text).not.toMatch(/log position|read at position/i);
    expect(pdfInfo(file).Keywords).toMatch(
      new RegExp(`^bahi-read-position=${position} bahi-verification=[0-9a-f]{64} bahi-chain=[0-9a-f]{64}$`),
    );
    expect(screen.totalCredit).toBe('1301.30');
    expect(text).toMatch(/Total\s+0\.00\s+1,301\.30\s+2,301\.30/);
    // The file's Particulars are the screen's, word for word (issue #18).
    expect(screen.transactions.map((l: Body) => l.particulars)).toEqual([
      'Purchase: 10.0000 =cmd|calc from ભાવેશ Shah',
      'Purchase: 3.0000 =cmd|calc from ભાવેશ Shah',
    ]);
    const xlsx = await get(
      `/reports/ledger/Funder/${ids.funder}/download/xlsx?startDate=2026-11-01&endDate=2026-11-30`,
    );
    const particulars: unknown[] = [];
    (await readXlsx(Buffer.from(await xlsx.arrayBuffer()))).eachRow((row) =>
      particulars.push(row.getCell(2).value),
    );
    for (const l of screen.transactions as Body[]) expect(particulars).toContain(l.particulars);
  });

  it('names the day-wise file daywise_report_{start}_to_{end} and keeps its filters', async () => {
    const res = await get(
      `/reports/daywise-report/download/xlsx?startDate=2026-11-01T00:00:00.000Z&endDate=2026-11-30&city_id=${ids.city}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(
      'filename="daywise_report_2026-11-01_to_2026-11-30.xlsx"',
    );
    const sheet = await readXlsx(Buffer.from(await res.arrayBuffer()));
    const values: unknown[][] = [];
    sheet.eachRow((row) => values.push((row.values as unknown[]).slice(1)));
    expect(values.flat().some((v) => typeof v === 'string' && v.includes('City: Surat'))).toBe(true);
    const rent = values.find((r) => r[1] === 'Rent')!;
    expect(rent[4]).toBe(250.5);
    expect(values.find((r) => r[0] === 'Net Total')?.[3]).toBe(-250.5);
  });

  it('escapes formula-like names in the stock sheet', async () => {
    const res = await get('/reports/stock/download/xlsx');
    expect(res.status).toBe(200);
    const sheet = await readXlsx(Buffer.from(await res.arrayBuffer()));
    const products: unknown[] = [];
    sheet.eachRow((row) => products.push(row.getCell(2).value));
    expect(products).toContain("'=cmd|calc");
  });

  it('renders every report in both formats from its screen data', async () => {
    const reports: Array<[string, string, RegExp]> = [
      ['balances', '', /Total Funder \(INR\)\s+1,000\.00\s+2,301\.30/],
      [
        'cashbook-report',
        `?entity_type=Collector&entity_id=${ids.collector}&city_id=${ids.city}`,
        /Net Total\s+-250\.50/,
      ],
      ['payments', `?city_id=${ids.city}`, /No payments found/],
      ['salary-report', `?city_id=${ids.city}`, /No salary payments found/],
      ['stock', '', /Main\s+'?=cmd\|calc\s+13/],
    ];
    // A file asked for one city is named with it (issue #18); the day-wise keeps the spec's name.
    const names: Record<string, RegExp> = {
      balances: /filename="balances_report\.pdf"/,
      'cashbook-report': /filename="cashbook_report_Surat_start_to_end\.pdf"/,
      payments: /filename="payments_report_Surat_start_to_end\.pdf"/,
      'salary-report': /filename="salary_report_Surat\.pdf"/,
      stock: /filename="stock_report\.pdf"/,
    };
    for (const [report, query, expected] of reports) {
      const pdf = await get(`/reports/${report}/download/pdf${query}`);
      expect(pdf.status, report).toBe(200);
      expect(pdf.headers.get('content-disposition'), report).toMatch(names[report]!);
      expect(pdfText(Buffer.from(await pdf.arrayBuffer())), report).toMatch(expected);
      const xlsx = await get(`/reports/${report}/download/xlsx${query}`);
      expect(xlsx.status, report).toBe(200);
      expect((await readXlsx(Buffer.from(await xlsx.arrayBuffer()))).rowCount, report).toBeGreaterThan(4);
    }
  });

  it('answers bad input with a clear 4xx and no file', async () => {
    const csv = await get('/reports/stock/download/csv');
    expect(csv.status).toBe(400);
    expect(await csv.json()).toEqual({ message: 'Download format is pdf or xlsx.' });
    const kind = await get(`/reports/ledger/Customer/${ids.funder}/download/pdf`);
    expect(kind.status).toBe(404);
    expect((await kind.json()).message).toMatch(/Funder, Agent, Collector and Godown/);
    const cashbook = await get('/reports/cashbook-report/download/pdf?entity_type=Bank');
    expect(cashbook.status).toBe(400);
    const date = await get(`/reports/ledger/Funder/${ids.funder}/download/pdf?startDate=yesterday`);
    expect(date.status).toBe(400);
    expect((await get('/reports/files/0123456789012345678901234567890123456789')).status).toBe(404);
    const anonymous = await fetch(`${t.bahi.url}/api/reports/stock/download/pdf`);
    expect(anonymous.status).toBe(401);
    const head = await fetch(`${t.bahi.url}/api/reports/stock/download/pdf`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${t.token}` },
    });
    expect(head.status).toBe(404);
  });

  it('refuses a WhatsApp number without a country code, and puts a good one in the outbox with its SHA-256', async () => {
    const bad = await call('POST', '/reports/whatsapp', {
      recipientNumber: '9876543210',
      reportName: 'stock',
      data: {},
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/international form with its country code/);
    const unknown = await call('POST', '/reports/whatsapp', {
      recipientNumber: '+919876543210',
      reportName: 'everything',
    });
    expect(unknown.status).toBe(400);
    const noLedger = await call('POST', '/reports/whatsapp', {
      recipientNumber: '+919876543210',
      reportName: 'ledger',
      data: {},
    });
    expect(noLedger.status).toBe(400);

    const sent = await call('POST', '/reports/whatsapp', {
      recipientNumber: '+91 98765 43210',
      reportName: 'ledger',
      data: { type: 'Funder', id: ids.funder, startDate: '2026-11-01' },
    });
    expect(sent.status).toBe(200);
    expect(sent.body.message).toMatch(/outbox for \+919876543210/);
    const outbox = await (await get('/reports/whatsapp/outbox')).json();
    const entry = outbox.data.find((e: { job_id: string }) => e.job_id === sent.body.jobId);
    expect(entry).toMatchObject({
      status: 'outbox',
      transport: 'outbox',
      recipient: '+919876543210',
      report: 'ledger',
    });
    expect(entry.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Number(entry.read_position)).toBeGreaterThan(0);
    const file = await get(entry.link.replace(/^\/api/, ''));
    expect(file.status).toBe(200);
    const body = Buffer.from(await file.arrayBuffer());
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(body).digest('hex')).toBe(entry.sha256);
  });

  it('prints As of and As recorded at on stock, day-wise and cashbook files read with knownAt, with the figures then', async () => {
    await new Promise((r) => setTimeout(r, 15));
    const knownAt = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 15));
    // Recorded after that moment: 5 more units, and an expense dated inside the range.
    expect(
      (
        await call('POST', '/transactions/purchases', {
          type: 'Godown',
          purchase_date: '2026-11-03',
          city_id: ids.city,
          funder_id: ids.funder,
          product_id: ids.product,
          godown_id: ids.godown,
          rate: 100,
          quantity: 5,
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call('POST', '/transactions/expenses', {
          expense_date: '2026-11-04',
          city_id: ids.city,
          category: 'Later',
          amount: 99,
          paid_from_entity_type: 'Collector',
          paid_from_entity_id: ids.collector,
        })
      ).status,
    ).toBe(201);
    await t.syncToHead();
    const at = `asOf=2026-11-30&knownAt=${encodeURIComponent(knownAt)}`;
    const range = `startDate=2026-11-01&endDate=2026-11-30&city_id=${ids.city}`;
    const cashbook = `entity_type=Collector&entity_id=${ids.collector}`;
    const pdf = async (path: string) => {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      return pdfText(Buffer.from(await res.arrayBuffer()));
    };
    const books = `Books as of 30 Nov 2026, as recorded at ${momentInWords(knownAt)}`;
    expect(books).toMatch(/as recorded at \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d:\d\d UTC$/);
    const stamped = (text: string) => expect(text).toContain(books);
    const stockThen = await pdf(`/reports/stock/download/pdf?${at}`);
    stamped(stockThen);
    expect(stockThen).toMatch(/=cmd\|calc\s+13\.0000/);
    expect(await pdf('/reports/stock/download/pdf')).toMatch(/=cmd\|calc\s+18\.0000/);
    const daywiseThen = await pdf(`/reports/daywise-report/download/pdf?${range}&${at}`);
    stamped(daywiseThen);
    expect(daywiseThen).not.toContain('Later');
    expect(daywiseThen).toMatch(/Net Total\s+-250\.50/);
    expect(await pdf(`/reports/daywise-report/download/pdf?${range}`)).toMatch(/Net Total\s+-349\.50/);
    const cashbookThen = await pdf(`/reports/cashbook-report/download/pdf?${range}&${cashbook}&${at}`);
    stamped(cashbookThen);
    expect(cashbookThen).toMatch(/Net Total\s+-250\.50/);
    // The spreadsheet carries the same line.
    const xlsx = await get(`/reports/cashbook-report/download/xlsx?${range}&${cashbook}&${at}`);
    expect(xlsx.status).toBe(200);
    const cells: unknown[] = [];
    (await readXlsx(Buffer.from(await xlsx.arrayBuffer()))).eachRow((row) =>
      cells.push(...(row.values as unknown[]).slice(1)),
    );
    expect(cells).toContain(books);
  });
});
