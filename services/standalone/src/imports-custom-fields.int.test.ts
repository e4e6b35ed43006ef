import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsOf, messagesOn, uploadFile, workbookOf } from './testing/imports.ts';
import { type Body, openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

/**
 * Custom field values imported with purchases and sales (issue #31), through the whole app: the
 * template has a column per custom field that applies (headed by its name, required ones marked,
 * the type in its rule); each row's values are checked by the API's own check
 * (checkCustomFields), each refusal on its cell with the API's message, nothing written while a
 * row is wrong; the committed records carry the values, as the lists show them.
 */
const PURCHASE = [
  'Type',
  'Purchase Date',
  'City',
  'Funder',
  'Product',
  'Godown',
  'Agent',
  'Collector',
  'Rate',
  'Quantity',
  'Paid Amount',
  'Commission',
];
// The custom fields of purchases, by name: columns M to Q.
const FIELDS = ['Arrived', 'Checked', 'Grade', 'Lot number', 'Moisture'];
const SALE = ['Sale Date', 'City', 'Agent', 'Product', 'Godown', 'Rate', 'Quantity', 'Clearing Charge'];
type Cell = ExcelJS.CellValue;
type Grid = Cell[][];

describe.each(TEST_STORAGES)('importing custom field values [%s]', (storage) => {
  let app: TestApp;
  const ids: Record<string, string> = {};

  async function api(method: string, path: string, body?: unknown): Promise<Body> {
    const r = await app.call(method, path, body);
    expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
    return r.body;
  }
  const workbook = (sheet: string, rows: Grid) => workbookOf(sheet, rows);
  async function upload(kind: string, body: Buffer, fileName: string) {
    const res = await uploadFile(app, kind, body, fileName);
    expect(res.status).toBe(201);
    return res.body;
  }
  async function template(file: string): Promise<ExcelJS.Workbook> {
    const res = await fetch(`${app.bahi.url}/api/imports/templates/${file}`, {
      headers: { authorization: `Bearer ${app.token}` },
    });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    return wb;
  }
  const commit = (id: string) => app.call('POST', `/imports/${id}/commit`);
  const on = messagesOn;
  const count = async (type: string) =>
    (await app.bahi.eventStore.readAll(0n, 100_000)).filter((e) => e.type === type).length;
  /** A header cell's note as text (a note read back from a file is its list of runs). */
  const note = (cell: ExcelJS.Cell) => {
    const n = cell.note as string | { texts?: Array<{ text: string }> } | undefined;
    return typeof n === 'string' ? n : (n?.texts ?? []).map((t) => t.text).join('');
  };
  /** A record's custom field values as the list shows them: field name -> value. */
  const shown = (row: Body) =>
    Object.fromEntries(
      (row.customFieldValues as Array<{ definition: { name: string }; value: unknown }>).map((v) => [
        v.definition.name,
        v.value,
      ]),
    );

  beforeAll(async () => {
    app = await openTestApp({ storage });
    ids.Kabul = (
      await api('POST', '/masters/cities', { name: 'Kabul', currency_name: 'AFN', rate: '1.25' })
    ).id;
    ids.Cumin = (await api('POST', '/masters/products', { name: 'Cumin' })).id;
    ids.Bhiwandi = (await api('POST', '/masters/godowns', { name: 'Bhiwandi' })).id;
    await api('POST', '/masters/funders', { name: 'Haji Rahim', city_id: ids.Kabul });
    await api('POST', '/masters/agents', { name: 'Bilal', city_id: ids.Kabul });
    const field = async (name: string, type: string, entity_types: string[], extra = {}) =>
      (await api('POST', '/masters/custom-fields', { name, type, entity_types, ...extra })).id as string;
    ids.lot = await field('Lot number', 'TEXT', ['Purchase'], { is_required: true });
    ids.grade = await field('Grade', 'SELECT', ['Purchase', 'Sale'], { options: ['A', 'B'] });
    ids.checked = await field('Checked', 'BOOLEAN', ['Purchase']);
    ids.arrived = await field('Arrived', 'DATE', ['Purchase']);
    ids.moisture = await field('Moisture', 'NUMBER', ['Purchase']);
    ids.truck = await field('Truck', 'TEXT', ['Sale']);
    ids.returns = await field('Return reason', 'TEXT', ['SaleReturn'], { is_required: true });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('gives templates with a column per custom field that applies, its type in the rule', async () => {
    const wb = await template('purchases.xlsx');
    const sheet = wb.getWorksheet('Purchases')!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([...PURCHASE, ...FIELDS]);
    // Marked as the other required columns are: the header's note and the Rules sheet.
    expect(note(sheet.getCell('P1'))).toMatch(/^Required\. A custom field of purchases \(text/);
    expect(note(sheet.getCell('O1'))).not.toMatch(/^Required/);
    const rules = (wb.getWorksheet('Rules')!.getSheetValues().slice(2) as unknown[][]).map((r) =>
      r.slice(1, 5),
    );
    const rule = (name: string) => rules.find((r) => r[0] === name)!;
    expect(rule('Type')[1]).toBe('Yes');
    expect(rule('Lot number')).toEqual(['Lot number', 'Yes', expect.stringContaining('text'), 'A-101']);
    expect(rule('Grade')).toEqual(['Grade', 'No', expect.stringContaining('One of: A, B.'), 'A']);
    expect(rule('Checked')[2]).toContain('Yes or No');
    expect(rule('Arrived')[2]).toContain('date');
    expect(rule('Moisture')[2]).toContain('number');
    const example = (wb.getWorksheet('Example')!.getRow(2).values as unknown[]).slice(13);
    expect(example).toEqual(['2026-04-01', 'Yes', 'A', 'A-101', '10']);

    // Sales: the fields of sales only (not a purchase's, not a sale return's).
    const sales = (await template('sales.xlsx')).getWorksheet('Sales')!;
    expect((sales.getRow(1).values as unknown[]).slice(1)).toEqual([...SALE, 'Grade', 'Truck']);

    // The CSV template's header row has the same columns.
    const csv = await fetch(`${app.bahi.url}/api/imports/templates/purchases.csv`, {
      headers: { authorization: `Bearer ${app.token}` },
    });
    expect(csv.status).toBe(200);
    const header = (await csv.text()).replace(/^\uFEFF/, '').split(/\r?\n/)[0]!;
    expect(header.split(',').map((h) => h.replace(/^"|"$/g, ''))).toEqual([...PURCHASE, ...FIELDS]);
  });

  it("flags each wrong custom field value on its cell with the API's message and writes nothing", async () => {
    const row = (lot: Cell, grade: Cell, more: Cell[] = [null, null], quantity = '10'): Cell[] => [
      'Godown',
      '2026-04-02',
      'Kabul',
      'Haji Rahim',
      'Cumin',
      'Bhiwandi',
      null,
      null,
      '100',
      quantity,
      null,
      null,
      more[0],
      more[1],
      grade,
      lot,
      null,
    ];
    const before = await count('PurchaseRecorded');
    const preview = await upload(
      'purchases',
      await workbook('Purchases', [
        [...PURCHASE, ...FIELDS],
        row('L-1', 'A'), // 2: fine
        row(null, 'B'), // 3: the required Lot number left empty
        row('L-3', 'C'), // 4: not an option of Grade
        row('L-4', null, ['2026-02-30', 'maybe']), // 5: no such day; neither yes nor no
        row(null, null, [null, null], '-5'), // 6: a wrong quantity, and no Lot number
      ]),
      'lots-wrong.xlsx',
    );
    expect(preview).toMatchObject({ status: 'invalid', rows_total: 5, rows_valid: 1, effect: null });
    expect(on(preview, 'P3')).toEqual(['Lot number is required']);
    expect(on(preview, 'O4')).toEqual(['Grade must be one of: A, B']);
    expect(on(preview, 'M5')).toEqual([expect.stringContaining('"2026-02-30" is not a date')]);
    expect(on(preview, 'N5')).toEqual(['Checked must be yes or no']);
    // A row the schema refuses still has its custom fields checked: one upload shows every wrong cell.
    expect(on(preview, 'J6')).toEqual(['Quantity must be more than 0']);
    expect(on(preview, 'P6')).toEqual(['Lot number is required']);
    expect(errorsOf(preview)).toHaveLength(6);
    expect(errorsOf(preview).find((e) => e.cell === 'P3')).toMatchObject({
      field: `custom_fields.${ids.lot}`,
      header: 'Lot number',
    });
    expect((await commit(preview.id)).status).toBe(409);
    expect(await count('PurchaseRecorded')).toBe(before);

    // A file without the required field's column is refused as a whole, as for any required column.
    const missing = await upload(
      'purchases',
      await workbook('Purchases', [PURCHASE, row('L-1', 'A').slice(0, 12)]),
      'no-lots.xlsx',
    );
    expect(missing.file_errors.map((e: { msg: string }) => e.msg)).toEqual([
      'The column "Lot number" is missing from row 1: it is required.',
    ]);
    // A field of another form is not a column of this one.
    const truck = await upload(
      'purchases',
      await workbook('Purchases', [
        [...PURCHASE, 'Lot number', 'Truck'],
        [...row('L-1', 'A').slice(0, 12), 'L-1', 'MH-04'],
      ]),
      'truck.xlsx',
    );
    expect(truck.file_errors[0].msg).toMatch(/^Column N is headed "Truck", which is not a column/);
  }, 60_000);

  it('commits the fixed file: the purchases carry the values, as the API records and lists them', async () => {
    const base = ['Godown', '2026-04-02', 'Kabul', 'Haji Rahim', 'Cumin', 'Bhiwandi', null, null, '100'];
    const preview = await upload(
      'purchases',
      await workbook('Purchases', [
        // Headers in any case and order, the required mark kept.
        [...PURCHASE, 'lot NUMBER *', 'grade', 'Checked', 'Arrived', 'Moisture'],
        [...base, '10', null, null, ' L-1 ', 'b', true, new Date(Date.UTC(2026, 3, 1)), 12.5],
        [...base, '5', null, null, 'L-2', null, 'No', '03/04/2026', '1,000'],
        [...base, '1', null, null, 'L-3', 'A', 'yes', 46115, null],
      ]),
      'lots.xlsx',
    );
    expect(preview.status, JSON.stringify(errorsOf(preview))).toBe('valid');
    expect(preview.columns).toContainEqual({
      header: 'Lot number',
      field: `custom_fields.${ids.lot}`,
      letter: 'M',
    });
    expect(preview.rows[0].values).toMatchObject({ 'Lot number': 'L-1', Grade: 'b', Checked: 'true' });
    const done = await commit(preview.id);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.records).toBe(3);
    await app.syncToHead();

    const list = await api('GET', `/transactions/purchases?city_id=${ids.Kabul}&limit=50`);
    const byQuantity = Object.fromEntries((list.data as Body[]).map((r) => [r.quantity, shown(r)]));
    expect(byQuantity).toEqual({
      '10.0000': {
        'Lot number': 'L-1',
        Grade: 'B',
        Checked: true,
        Arrived: '2026-04-01',
        Moisture: '12.5',
      },
      '5.0000': { 'Lot number': 'L-2', Checked: false, Arrived: '2026-04-03', Moisture: '1000' },
      '1.0000': { 'Lot number': 'L-3', Grade: 'A', Checked: true, Arrived: '2026-04-03' },
    });
  }, 60_000);

  it('commits sales with their custom field values, checked as the sales API checks them', async () => {
    const row = (grade: Cell, truck: Cell): Cell[] => [
      '2026-04-04',
      null,
      'Bilal',
      'Cumin',
      'Bhiwandi',
      '120',
      '2',
      null,
      grade,
      truck,
    ];
    const wrong = await upload(
      'sales',
      await workbook('Sales', [[...SALE, 'Grade', 'Truck'], row('Z', 'MH-04')]),
      'sales-wrong.xlsx',
    );
    expect(on(wrong, 'I2')).toEqual(['Grade must be one of: A, B']);
    const preview = await upload(
      'sales',
      await workbook('Sales', [[...SALE, 'Grade', 'Truck'], row('a', 'MH-04'), row(null, null)]),
      'sales.xlsx',
    );
    expect(preview.status, JSON.stringify(errorsOf(preview))).toBe('valid');
    expect((await commit(preview.id)).status).toBe(200);
    await app.syncToHead();
    const list = await api('GET', `/transactions/sales?city_id=${ids.Kabul}&limit=50`);
    expect((list.data as Body[]).map(shown)).toEqual(
      expect.arrayContaining([{ Grade: 'A', Truck: 'MH-04' }, {}]),
    );
    expect(list.data).toHaveLength(2);
  }, 60_000);
});
