import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsOf, messagesOn, uploadFile, workbookOf } from './testing/imports.ts';
import { type Body, openTestApp, type TestApp } from './testing/test-app.ts';

/**
 * Importing sales, payments, expenses and incomes (issue #31) through the whole app (command and
 * query): each kind's template; a file with wrong rows flagged on their cells (names looked up
 * where the API takes ids, the route's schema, its decider - a sale's stock counting the file's
 * earlier rows - and the period close) with nothing written; a valid file of hostile cells
 * (Indian grouping, currency symbols, Excel serial dates, dates as text, trailing spaces)
 * previewed with its effect on the accounts, committed with the import on every event, shown by
 * the lists and ledgers; the same file refused the second time; and each import undone by
 * reversal (payments too, by `PaymentDeleted`), the books as before it.
 */
type Grid = ExcelJS.CellValue[][];

const HEADERS = {
  sales: ['Sale Date', 'City', 'Agent', 'Product', 'Godown', 'Rate', 'Quantity', 'Clearing Charge'],
  payments: [
    'Payment Date',
    'Party Type',
    'City',
    'Party',
    'Amount',
    'Payment Mode',
    'Collector',
    'Godown',
    'Reference',
  ],
  expenses: ['Expense Date', 'City', 'Category', 'Amount', 'Paid From Type', 'Paid From', 'Remarks'],
  incomes: ['Income Date', 'City', 'Category', 'Amount', 'Received By Type', 'Received By', 'Remarks'],
} as const;
type Kind = keyof typeof HEADERS;
const SHEETS: Record<Kind, string> = {
  sales: 'Sales',
  payments: 'Payments',
  expenses: 'Expenses',
  incomes: 'Incomes',
};

let app: TestApp;
const ids: Record<string, string> = {};

async function api(method: string, path: string, body?: unknown): Promise<Body> {
  const r = await app.call(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

const workbook = (kind: Kind, rows: Grid) => workbookOf(SHEETS[kind], [[...HEADERS[kind]], ...rows]);
const upload = (kind: Kind, body: Buffer, fileName = `${kind}.xlsx`) => uploadFile(app, kind, body, fileName);

const commit = (id: string) => app.call('POST', `/imports/${id}/commit`);
const on = messagesOn;

/** Events of these types in the log. */
async function recorded(types: string[]): Promise<Array<{ type: string; metadata: Body; data: Body }>> {
  const store = app.bahi.eventStore;
  return (await store.readAll(0n, 100_000))
    .filter((e) => types.includes(e.type))
    .map((e) => ({ type: e.type, metadata: e.metadata, data: e.data }));
}

/** A wrong file: flagged where expected, refused at commit, nothing of the kind written. */
async function expectRefused(kind: Kind, rows: Grid, eventType: string): Promise<Body> {
  const before = (await recorded([eventType])).length;
  const res = await upload(kind, await workbook(kind, rows), `${kind}-wrong.xlsx`);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.status).toBe('invalid');
  expect(res.body.effect).toBeNull();
  expect((await commit(res.body.id)).status).toBe(409);
  expect(await recorded([eventType])).toHaveLength(before);
  return res.body;
}

/** A valid file: previewed, committed once (every event carries the import), refused the second time. */
async function expectCommitted(kind: Kind, rows: Grid, eventType: string, records: number) {
  const file = await workbook(kind, rows);
  const res = await upload(kind, file, `${kind}-april.xlsx`);
  expect(res.status).toBe(201);
  const preview = res.body;
  expect(preview.status, JSON.stringify(errorsOf(preview))).toBe('valid');
  expect(preview.rows_valid).toBe(records);
  const done = await commit(preview.id);
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  expect(done.body).toMatchObject({ records, events: records + 1 });
  const events = (await recorded([eventType])).filter((e) => e.metadata.importId === preview.id);
  expect(events).toHaveLength(records);
  expect(events.every((e) => e.metadata.importFile === `${kind}-april.xlsx`)).toBe(true);

  const total = (await recorded([eventType])).length;
  const again = await upload(kind, file, `${kind}-copy.xlsx`);
  expect(again.body.file_errors[0].msg).toContain('already imported');
  const twice = await commit(again.body.id);
  expect(twice.status).toBe(409);
  expect(twice.body.message).toContain('already imported');
  expect(await recorded([eventType])).toHaveLength(total);
  await app.syncToHead();
  return { preview, events };
}

const account = (preview: Body, name: string, kind?: string) =>
  (preview.effect.accounts as Array<{ name: string; kind: string }>).find(
    (l) => l.name === name && (!kind || l.kind === kind),
  );

beforeAll(async () => {
  app = await openTestApp();
  ids.Kabul = (
    await api('POST', '/masters/cities', { name: 'Kabul', currency_name: 'AFN', rate: '1.25' })
  ).id;
  ids.Mumbai = (await api('POST', '/masters/cities', { name: 'Mumbai', currency_name: 'INR', rate: '1' })).id;
  ids.Cumin = (await api('POST', '/masters/products', { name: 'Cumin' })).id;
  ids.Bhiwandi = (await api('POST', '/masters/godowns', { name: 'Bhiwandi' })).id;
  ids.Surat = (await api('POST', '/masters/godowns', { name: 'Surat' })).id;
  ids.Rahim = (
    await api('POST', '/masters/funders', { name: 'Haji Rahim', city_id: ids.Kabul, opening_balance: '500' })
  ).id;
  ids.Bilal = (await api('POST', '/masters/agents', { name: 'Bilal', city_id: ids.Kabul })).id;
  ids.TwinKabul = (await api('POST', '/masters/agents', { name: 'Twin', city_id: ids.Kabul })).id;
  ids.TwinMumbai = (await api('POST', '/masters/agents', { name: 'Twin', city_id: ids.Mumbai })).id;
  ids.Imran = (await api('POST', '/masters/collectors', { name: 'Imran', city_id: ids.Kabul })).id;
  ids.Ravi = (await api('POST', '/masters/collectors', { name: 'Ravi', city_id: ids.Mumbai })).id;
  // 100 Cumin into Bhiwandi at 50 AFN (62.50 rupees a unit).
  await api('POST', '/transactions/purchases', {
    type: 'Godown',
    purchase_date: '2026-04-01',
    city_id: ids.Kabul,
    funder_id: ids.Rahim,
    product_id: ids.Cumin,
    godown_id: ids.Bhiwandi,
    rate: '50',
    quantity: '100',
  });
  await api('POST', '/books/close', { up_to: '2026-03-31' });
  await app.syncToHead();
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('importing sales', () => {
  it('gives a template with the sale columns and the agents, products and godowns to look names up', async () => {
    const res = await fetch(`${app.bahi.url}/api/imports/templates/sales.xlsx`, {
      headers: { authorization: `Bearer ${app.token}` },
    });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    expect(wb.worksheets.map((s) => s.name)).toEqual(['Sales', 'Rules', 'Example', 'Cities', 'Masters']);
    expect((wb.getWorksheet('Sales')!.getRow(1).values as unknown[]).slice(1)).toEqual([...HEADERS.sales]);
    const masters = (wb.getWorksheet('Masters')!.getSheetValues().slice(2) as unknown[][]).map((r) =>
      r.slice(1, 4),
    );
    expect(masters).toContainEqual(['Agent', 'Twin', 'Mumbai']);
    expect(masters).toContainEqual(['Godown', 'Surat', '']);
    // Only the kinds a sale names: no funders, no collectors.
    expect(masters.some((r) => r[0] === 'Funder' || r[0] === 'Collector')).toBe(false);
    const csv = await fetch(`${app.bahi.url}/api/imports/templates/sales.csv`, {
      headers: { authorization: `Bearer ${app.token}` },
    });
    // Read as bytes: fetch's text() drops the byte-order mark Excel needs to read UTF-8.
    expect(Buffer.from(await csv.arrayBuffer()).toString('utf8')).toBe(
      `\ufeff${HEADERS.sales.join(',')}\r\n`,
    );
  });

  it('flags wrong rows on their cells (the stock counting the rows above) and writes nothing', async () => {
    const p = await expectRefused(
      'sales',
      [
        ['2026-04-02', null, 'Bilal', 'Cumin', 'Bhiwandi', '60', '30'], // 2: fine
        ['2026-04-02', null, 'Twin', 'Cumin', 'Bhiwandi', '60', '1'], // 3: two agents named Twin
        ['2026-04-02', null, 'Bilal', 'Cumin', 'Bhiwandi', '60', '80'], // 4: 70 left after row 2
        ['2026-03-15', null, 'Bilal', 'Cumin', 'Bhiwandi', '60', '1'], // 5: closed period
        ['2026-04-02', null, 'Bilal', 'Cumin', 'Surat', '60', '1'], // 6: Surat holds nothing
        ['2026-04-02', 'Mumbai', ids.Bilal!, 'Cumin', 'Bhiwandi', '-5', '1'], // 7: Bilal is of Kabul; rate
      ],
      'SaleRecorded',
    );
    expect(p).toMatchObject({ rows_total: 6, rows_valid: 1 });
    expect(on(p, 'C3')).toEqual([expect.stringContaining('2 agents are named "Twin"')]);
    expect(on(p, 'C3')[0]).toContain(ids.TwinMumbai);
    expect(on(p, 'G4')).toEqual([
      'Not enough stock: Bhiwandi holds 70.0000 of Cumin; the sale needs 80.0000.',
    ]);
    expect(on(p, 'A5')).toEqual([expect.stringContaining('closed')]);
    expect(on(p, 'G6')).toEqual([expect.stringContaining('Not enough stock: Surat holds 0.0000')]);
    expect(on(p, 'F7')).toEqual(['Sale rate must be more than 0']);
    expect(errorsOf(p)).toHaveLength(5);
    const fixed = await expectRefused(
      'sales',
      [['2026-04-02', 'Mumbai', ids.Bilal!, 'Cumin', 'Bhiwandi', '60', '1']],
      'SaleRecorded',
    );
    expect(on(fixed, 'C2')).toEqual(['Agent is not of the chosen city']);
  }, 60_000);

  it('previews the accounts and stock of hostile cells, commits them once, and the sales list shows them', async () => {
    const { preview } = await expectCommitted(
      'sales',
      [
        ['2026-04-02', null, 'Bilal  ', 'cumin', ' Bhiwandi', '₹ 1,000', '10', '1,00,000'],
        [46115, 'Mumbai ', 'twin', 'Cumin', 'Bhiwandi', 'Rs. 80.50', '2.5', null],
        ['03/04/2026', 'Kabul', 'Twin', 'Cumin', 'Bhiwandi', '60', '87.5'],
      ],
      'SaleRecorded',
      3,
    );
    ids.salesImport = preview.id;
    // 1,000 x 10 AFN owed by Bilal; the whole 100 units leave Bhiwandi.
    expect(account(preview, 'Bilal')).toMatchObject({ currency: 'AFN', before: '0.00', after: '10000.00' });
    expect(account(preview, 'Twin')).toBeDefined();
    expect(preview.effect.stock).toEqual([
      expect.objectContaining({
        godown: 'Bhiwandi',
        before: '100.0000',
        change: '-100.0000',
        after: '0.0000',
      }),
    ]);
    expect(preview.effect.totals).toEqual(
      expect.arrayContaining([{ currency: 'INR', records: 1, opening_balance: '0.00', amount: '201.25' }]),
    );

    const list = await api('GET', `/transactions/sales?city_id=${ids.Kabul}&limit=50`);
    const rows = (list.rows ?? list.data ?? list.items) as Body[];
    expect(rows.map((r) => [r.sale_date, r.rate, r.quantity, r.clearing_charge]).sort()).toEqual(
      [
        ['2026-04-02', '1000.0000', '10.0000', '100000.00'],
        ['2026-04-03', '60.0000', '87.5000', '0.00'],
      ].sort(),
    );
    const ledger = await api('GET', `/reports/ledger/Agent/${ids.Bilal}`);
    expect(ledger.closingBalance).toBe('10000.00');
  }, 60_000);
});

describe('importing payments', () => {
  it('flags wrong rows on their cells and writes nothing', async () => {
    const p = await expectRefused(
      'payments',
      [
        ['2026-04-05', 'Funder', null, 'Haji Rahim', '100', 'Currency', 'Imran'], // 2: fine
        ['2026-04-05', 'Funder', null, 'Haji Rahim', '100', 'Currency', 'Ravi'], // 3: Ravi is of Mumbai
        ['2026-04-05', 'Agent', null, 'Twin', '100', 'INR', null, 'Bhiwandi'], // 4: two agents named Twin
        ['2026-04-05', 'Supplier', null, 'Haji Rahim', '100', 'Currency', 'Imran'], // 5: no such type
        ['2026-04-05', 'Funder', null, 'Haji Rahim', '0', 'INR', null, null], // 6: amount, godown
        ['2026-03-31', 'Agent', 'Kabul', 'Twin', '5', 'INR', null, 'Bhiwandi'], // 7: closed
      ],
      'PaymentRecorded',
    );
    expect(on(p, 'G3')).toEqual([expect.stringContaining('No collector of Kabul is named "Ravi"')]);
    expect(on(p, 'D4')).toEqual([expect.stringContaining('2 agents are named "Twin"')]);
    expect(on(p, 'B5')).toEqual(['Pay a Funder or receive from an Agent']);
    expect(on(p, 'E6')).toEqual(['Amount must be more than 0']);
    expect(on(p, 'H6')).toEqual(['Choose the godown that handles the cash']);
    expect(on(p, 'A7')).toEqual([expect.stringContaining('closed')]);
    expect(errorsOf(p).filter((e) => e.row !== 5)).toHaveLength(5);
  }, 60_000);

  it('commits payments and receipts of hostile cells; the ledgers and the payments report show them', async () => {
    const before = await api('GET', `/reports/ledger/Funder/${ids.Rahim}`);
    ids.rahimBeforePayments = before.closingBalance;
    const { preview } = await expectCommitted(
      'payments',
      [
        ['2026-04-05', 'funder', null, 'Haji Rahim ', '1,000', 'currency', 'Imran', null, 'chq 12'],
        [46117, 'Agent', 'Kabul', 'Twin', '₹ 2,500', 'INR', null, 'Bhiwandi'],
      ],
      'PaymentRecorded',
      2,
    );
    ids.paymentsImport = preview.id;
    // Paying the funder 1,000 AFN lowers what is owed to him; Imran's cash goes down by it.
    expect(account(preview, 'Haji Rahim')).toMatchObject({ currency: 'AFN' });
    expect(account(preview, 'Imran')).toMatchObject({ currency: 'AFN', before: '0.00', after: '-1000.00' });
    // 2,500 rupees from Twin of Kabul into Bhiwandi's cash: 2,000.00 AFN off Twin's account.
    const twin = account(preview, 'Twin');
    expect(twin).toMatchObject({ currency: 'AFN' });
    expect(preview.effect.totals).toEqual(
      expect.arrayContaining([
        { currency: 'AFN', records: 1, opening_balance: '0.00', amount: '1000.00' },
        { currency: 'INR', records: 1, opening_balance: '0.00', amount: '2500.00' },
      ]),
    );
    const after = await api('GET', `/reports/ledger/Funder/${ids.Rahim}`);
    expect(Number(before.closingBalance) - Number(after.closingBalance)).toBe(1000);
    // The ledger line says where the payment came from and who brought it in.
    const { name } = await api('GET', '/auth/profile');
    expect(after.transactions.map((l: { particulars: string }) => l.particulars)).toContain(
      `Payment to Haji Rahim via Imran (AFN). Imported from payments-april.xlsx by ${name}`,
    );
    const report = await api('GET', `/reports/payments?city_id=${ids.Kabul}&limit=50`);
    const text = JSON.stringify(report);
    expect(text).toContain('2500.00');
    expect(text).toContain('1000.00');
  }, 60_000);
});

describe('importing expenses and incomes', () => {
  it('flags wrong expense rows on their cells and writes nothing', async () => {
    const p = await expectRefused(
      'expenses',
      [
        ['2026-04-06', 'Kabul', 'Rent', '100', 'Collector', 'Imran'], // 2: fine
        ['2026-04-06', 'Kabul', 'Rent', '100', 'Collector', 'Ravi'], // 3: Ravi is of Mumbai
        ['2026-04-06', 'Kabul', null, '100', 'Godown', 'Bhiwandi'], // 4: no category
        ['2026-04-06', 'Delhi', 'Rent', '100', 'Godown', 'Bhiwandi'], // 5: no such city
        ['2026-04-06', 'Kabul', 'Rent', 'abc', 'Godown', 'Nowhere'], // 6: amount, godown
        ['2026-02-01', 'Kabul', 'Rent', '100', 'Godown', 'Bhiwandi'], // 7: closed
        ['2026-04-06', 'Kabul', 'Rent', '100', 'Collector', ids.Ravi!], // 8: Ravi by id
      ],
      'ExpenseRecorded',
    );
    expect(on(p, 'F3')).toEqual([expect.stringContaining('No collector of Kabul is named "Ravi"')]);
    expect(on(p, 'C4')).toEqual([expect.stringMatching(/^Category/)]);
    expect(on(p, 'B5')).toEqual([expect.stringContaining('No city is named "Delhi"')]);
    expect(on(p, 'D6')).toHaveLength(1);
    expect(on(p, 'F6')).toEqual([expect.stringContaining('No godown is named "Nowhere"')]);
    expect(on(p, 'A7')).toEqual([expect.stringContaining('closed')]);
    expect(on(p, 'F8')).toEqual(['The collector is not of the same city']);
  }, 60_000);

  it('commits expenses of hostile cells; the expenses list and the collector ledger show them', async () => {
    const { preview } = await expectCommitted(
      'expenses',
      [
        ['2026-04-06', 'Kabul', 'Rent ', 'AFN 1,200.50', 'collector', 'imran'],
        ['07/04/2026', ' Mumbai', 'Freight', '₹1,00,000', 'Godown', 'Bhiwandi', 'truck'],
      ],
      'ExpenseRecorded',
      2,
    );
    expect(account(preview, 'Imran')).toMatchObject({ currency: 'AFN', after: '-2200.50' });
    expect(account(preview, 'Bhiwandi')).toMatchObject({ currency: 'INR' });
    const kabul = await api('GET', `/transactions/expenses?city_id=${ids.Kabul}&limit=50`);
    expect(JSON.stringify(kabul)).toContain('1200.50');
    const mumbai = await api('GET', `/transactions/expenses?city_id=${ids.Mumbai}&limit=50`);
    expect(JSON.stringify(mumbai)).toContain('100000.00');
    const ledger = await api('GET', `/reports/ledger/Collector/${ids.Imran}`);
    expect(ledger.closingBalance).toBe('-2200.50');
  }, 60_000);

  it('commits incomes, flags a wrong one, and the incomes list shows them', async () => {
    const p = await expectRefused(
      'incomes',
      [['2026-04-08', 'Kabul', 'Commission', '10', 'Cashier', 'Imran']],
      'IncomeRecorded',
    );
    expect(on(p, 'E2')).toEqual(['Received by must be a Collector or a Godown']);
    expect(on(p, 'F2')).toEqual([expect.stringContaining('cannot be looked up')]);
    const { preview } = await expectCommitted(
      'incomes',
      [['2026-04-08 ', 'Kabul', 'Commission', '700', 'Collector', 'Imran', 'April']],
      'IncomeRecorded',
      1,
    );
    ids.incomesImport = preview.id;
    expect(account(preview, 'Imran')).toMatchObject({ before: '-2200.50', after: '-1500.50' });
    const list = await api('GET', `/transactions/incomes?city_id=${ids.Kabul}&limit=50`);
    expect(JSON.stringify(list)).toContain('700.00');
  }, 60_000);
});

describe('undoing transaction imports', () => {
  const undo = (id: string) => app.call('POST', `/imports/${id}/undo`);

  it('undoes the sales import: the units back in the godown, the agent owes nothing, once', async () => {
    const res = await undo(ids.salesImport!);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await recorded(['SaleDeleted'])).toHaveLength(3);
    await app.syncToHead();
    const stock = await api('GET', '/reports/stock');
    expect(JSON.stringify(stock.Bhiwandi ?? stock)).toContain('"quantity":"100.0000"');
    expect((await api('GET', `/reports/ledger/Agent/${ids.Bilal}`)).closingBalance).toBe('0.00');
    const again = await undo(ids.salesImport!);
    expect(again.status).toBe(409);
    expect(await recorded(['SaleDeleted'])).toHaveLength(3);
  }, 60_000);

  it('undoes the incomes import: the collector ledger as before it', async () => {
    const res = await undo(ids.incomesImport!);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const deleted = await recorded(['IncomeDeleted']);
    expect(deleted).toHaveLength(1);
    expect(deleted[0]!.metadata.importUndo).toBe(true);
    await app.syncToHead();
    expect((await api('GET', `/reports/ledger/Collector/${ids.Imran}`)).closingBalance).toBe('-2200.50');
  }, 60_000);
  it('undoes the payments import: the funder, the agent and the collector as before it, the payments report without them', async () => {
    // Twin's 2,500 rupees at Kabul's 1.25 came off his account (his sales are undone above).
    const twin = () => api('GET', `/reports/ledger/Agent/${ids.TwinKabul}`);
    expect((await twin()).closingBalance).toBe('-2000.00');
    const res = await undo(ids.paymentsImport!);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ records: 2, events: 3 });
    const deleted = await recorded(['PaymentDeleted']);
    expect(deleted).toHaveLength(2);
    expect(deleted.every((e) => e.metadata.importUndo === true)).toBe(true);
    await app.syncToHead();
    expect((await api('GET', `/reports/ledger/Funder/${ids.Rahim}`)).closingBalance).toBe(
      ids.rahimBeforePayments,
    );
    expect((await twin()).closingBalance).toBe('0.00');
    // Imran paid the funder 1,000 of his -2,200.50 (the expenses' 1,200.50 stay).
    expect((await api('GET', `/reports/ledger/Collector/${ids.Imran}`)).closingBalance).toBe('-1200.50');
    const report = JSON.stringify(await api('GET', `/reports/payments?city_id=${ids.Kabul}&limit=50`));
    expect(report).not.toContain('2500.00');
    expect(report).not.toContain('1000.00');
    const log = JSON.stringify(await api('GET', '/logs?modelName=Payment&actionType=DELETE&limit=10'));
    expect(log).toContain(deleted[0]!.data.id as string);
    const again = await undo(ids.paymentsImport!);
    expect(again.status).toBe(409);
    expect(await recorded(['PaymentDeleted'])).toHaveLength(2);
  }, 60_000);
});
