import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandTestApp, commandTestApp } from '../testing/command-app.ts';

/**
 * Importing purchases (issue #31) through the command API on PGlite: names where the purchase
 * API takes ids (a funder within its city; ambiguous names refused with the candidates), each
 * row checked as POST /api/transactions/purchases checks it (its schema, the deciders, the
 * period close), the preview's accounts and stock, the commit recording what the API records
 * (the import on every event), and the same file refused the second time.
 */
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const HEADER = [
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
type Grid = Array<Array<ExcelJS.CellValue>>;

async function workbook(rows: Grid): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Purchases');
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('importing purchases from a spreadsheet', () => {
  let t: CommandTestApp;
  const ids: Record<string, string> = {};

  const upload = (body: Buffer, fileName = 'purchases.xlsx') =>
    t.app.inject({
      method: 'POST',
      url: `/api/imports?kind=purchases&file_name=${encodeURIComponent(fileName)}`,
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': XLSX },
      payload: body,
    });
  const commit = (id: string) => t.call('POST', `/api/imports/${id}/commit`, t.adminToken);
  const purchases = async () =>
    (await t.eventStore.readAll(0n, 100_000)).filter((e) => e.type === 'PurchaseRecorded');
  const errorsOf = (res: LightMyRequestResponse) =>
    (
      res.json().rows as Array<{
        row: number;
        errors: Array<{ cell: string | null; msg: string; field: string | null }>;
      }>
    ).flatMap((r) => r.errors.map((e) => ({ row: r.row, ...e })));
  const create = async (path: string, key: string, body: Record<string, unknown>) => {
    const res = await t.call('POST', `/api/masters/${path}`, t.adminToken, body);
    expect(res.statusCode, res.body).toBe(201);
    ids[key] = res.json().id;
  };

  beforeAll(async () => {
    t = await commandTestApp();
    await create('cities', 'Kabul', { name: 'Kabul', currency_name: 'AFN', rate: '1.25' });
    await create('cities', 'Mumbai', { name: 'Mumbai', currency_name: 'INR', rate: '1' });
    await create('products', 'Cumin', { name: 'Cumin' });
    await create('godowns', 'Bhiwandi', { name: 'Bhiwandi' });
    await create('funders', 'Rahim', { name: 'Haji Rahim', city_id: ids.Kabul, opening_balance: '500' });
    await create('funders', 'Asha', { name: 'Asha', city_id: ids.Mumbai });
    await create('funders', 'Twin1', { name: 'Twin', city_id: ids.Kabul });
    await create('funders', 'Twin2', { name: 'Twin', city_id: ids.Kabul });
    await create('funders', 'Karim', { name: 'Karim', city_id: ids.Mumbai });
    await create('agents', 'Bilal', { name: 'Bilal', city_id: ids.Kabul });
    await create('collectors', 'Imran', { name: 'Imran', city_id: ids.Kabul });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('gives a template with the purchase columns and the masters to look names up', async () => {
    const res = await t.call('GET', '/api/imports/templates/purchases.xlsx', t.adminToken);
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((s) => s.name)).toEqual(['Purchases', 'Rules', 'Example', 'Cities', 'Masters']);
    expect((wb.getWorksheet('Purchases')!.getRow(1).values as unknown[]).slice(1)).toEqual(HEADER);
    const masters = wb.getWorksheet('Masters')!;
    const rows = masters.getSheetValues().slice(2) as unknown[][];
    expect(rows.map((r) => r.slice(1, 4))).toContainEqual(['Funder', 'Haji Rahim', 'Kabul']);
    expect(rows.map((r) => r.slice(1, 3))).toContainEqual(['Godown', 'Bhiwandi']);
    const csv = await t.call('GET', '/api/imports/templates/purchases.csv', t.adminToken);
    expect(csv.body).toBe(`\ufeff${HEADER.join(',')}\r\n`);
  });

  it('flags each wrong row on its cell, writes nothing and never answers 500', async () => {
    const closed = await t.call('POST', '/api/books/close', t.adminToken, { up_to: '2026-03-31' });
    expect(closed.statusCode, closed.body).toBe(200);
    const good = [
      'Godown',
      '2026-04-01',
      'Kabul',
      'Haji Rahim',
      'Cumin',
      'Bhiwandi',
      null,
      null,
      '100',
      '10',
    ];
    const file = await workbook([
      HEADER,
      good, // 2: fine
      ['Godown', '2026-04-01', 'Kabul', 'Nobody', 'Cumin', 'Bhiwandi', null, null, '100', '10'], // 3
      ['Godown', '2026-04-01', 'Kabul', 'Twin', 'Cumin', 'Bhiwandi', null, null, '100', '10'], // 4
      ['Godown', '2026-04-01', 'Kabul', 'Haji Rahim', 'Cumin', 'Bhiwandi', null, null, '100', '-5'], // 5
      ['Godown', '2026-03-15', 'Kabul', 'Haji Rahim', 'Cumin', 'Bhiwandi', null, null, '100', '10'], // 6
      ['Godown', '2026-04-01', 'Kabul', 'Karim', 'Cumin', 'Bhiwandi', null, null, '100', '10'], // 7
      ['Godown', '2026-04-01', 'Kabul', 'Haji Rahim', 'Saffron', null, null, null, '100', '10'], // 8
      ['Direct', '2026-04-01', 'Kabul', 'Haji Rahim', 'Cumin', null, null, null, '100', '10', '50'], // 9
    ]);
    const before = (await purchases()).length;
    const res = await upload(file);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: 'invalid', rows_total: 8, rows_valid: 1, effect: null });
    const errors = errorsOf(res);
    const at = (cell: string) => errors.filter((e) => e.cell === cell).map((e) => e.msg);
    expect(at('D3')).toEqual([expect.stringContaining('No funder of Kabul is named "Nobody"')]);
    expect(at('D4')).toEqual([expect.stringContaining('2 funders of Kabul are named "Twin"')]);
    expect(at('D4')[0]).toContain(ids.Twin1);
    expect(at('D4')[0]).toContain(ids.Twin2);
    expect(at('J5')).toEqual(['Quantity must be more than 0']);
    expect(at('B6')).toEqual([expect.stringContaining('closed')]);
    expect(at('D7')).toEqual([expect.stringContaining('there is one in another city: Karim (Mumbai')]);
    expect(at('E8')).toEqual([expect.stringContaining('No product is named "Saffron"')]);
    expect(at('F8')).toEqual(['Choose the destination godown']);
    expect(at('G9')).toEqual(['Agent is required for a direct purchase']);
    expect(at('H9')).toEqual(['Choose the collector who paid']);
    expect(errors).toHaveLength(9);
    expect((await commit(res.json().id)).statusCode).toBe(409);
    expect(await purchases()).toHaveLength(before);
  }, 60_000);

  it('previews the accounts and stock, and commits what the API would record, once', async () => {
    const file = await workbook([
      HEADER,
      [
        'Godown',
        '2026-04-02',
        'Kabul',
        'Haji Rahim',
        'Cumin',
        'Bhiwandi',
        null,
        'Imran',
        '100.5',
        '10',
        '1,000',
      ],
      ['godown', '02/04/2026', 'kabul', 'haji rahim', 'cumin', 'bhiwandi', null, null, 80, '2.5'],
      ['Direct', '2026-04-03', 'Kabul', ids.Twin2!, 'Cumin', null, 'Bilal', null, '10', '3', null, '7.25'],
    ]);
    const before = (await purchases()).length;
    const res = await upload(file, 'april.xlsx');
    expect(res.statusCode, res.body).toBe(201);
    const preview = res.json();
    expect(preview, JSON.stringify(errorsOf(res))).toMatchObject({ status: 'valid', rows_valid: 3 });
    // 100.5 x 10 + 80 x 2.5 = 1205.00 AFN to Haji Rahim (opening 500), 1,000 paid by Imran.
    const rahim = preview.effect.accounts.find((l: { name: string }) => l.name === 'Haji Rahim');
    expect(rahim).toMatchObject({ currency: 'AFN', before: '500.00', after: '705.00' });
    expect(preview.effect.totals).toEqual([
      { currency: 'AFN', records: 3, opening_balance: '0.00', amount: '1235.00' },
    ]);
    expect(preview.effect.stock).toEqual([
      expect.objectContaining({ godown: 'Bhiwandi', product: 'Cumin', before: '0.0000', change: '12.5000' }),
    ]);
    expect(await purchases()).toHaveLength(before);

    const done = await commit(preview.id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ records: 3, events: 4 });
    const recorded = (await purchases()).filter((e) => e.metadata.importId === preview.id);
    expect(recorded).toHaveLength(3);
    expect(recorded.every((e) => e.metadata.importFile === 'april.xlsx')).toBe(true);
    expect(recorded.map((e) => e.streamId)).toEqual([
      `inventory-${ids.Bhiwandi}`,
      `inventory-${ids.Bhiwandi}`,
      expect.stringMatching(/^purchase-/),
    ]);

    // The first row sent to the API: the same event, but for the record's id.
    const api = await t.call('POST', '/api/transactions/purchases', t.adminToken, {
      type: 'Godown',
      purchase_date: '2026-04-02',
      city_id: ids.Kabul,
      funder_id: ids.Rahim,
      product_id: ids.Cumin,
      godown_id: ids.Bhiwandi,
      collector_id: ids.Imran,
      rate: '100.5',
      quantity: '10',
      paid_amount: '1000',
    });
    expect(api.statusCode, api.body).toBe(201);
    const byApi = (await purchases()).at(-1)!;
    const importedId = (recorded[0]!.data as { purchase: { id: string } }).purchase.id;
    const apiId = (byApi.data as { purchase: { id: string } }).purchase.id;
    expect(JSON.parse(JSON.stringify(recorded[0]!.data).replaceAll(importedId, apiId))).toEqual(byApi.data);

    // The same bytes again: refused at upload and at commit, nothing written.
    const again = await upload(file, 'april-copy.xlsx');
    expect(again.json().file_errors[0].msg).toContain('already imported');
    const twice = await commit(again.json().id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toContain('already imported');
    expect((await commit(preview.id)).statusCode).toBe(409);
    expect((await purchases()).filter((e) => e.metadata.importId)).toHaveLength(3);
  }, 60_000);

  it('takes a required purchase custom field from its column: refused on the empty cell, or without the column', async () => {
    const field = await t.call('POST', '/api/masters/custom-fields', t.adminToken, {
      name: 'Lot number',
      type: 'TEXT',
      is_required: true,
      entity_types: ['Purchase'],
    });
    expect(field.statusCode, field.body).toBe(201);
    try {
      const before = (await purchases()).length;
      const row = [
        'Godown',
        '2026-04-05',
        'Kabul',
        'Haji Rahim',
        'Cumin',
        'Bhiwandi',
        null,
        null,
        '100',
        '1',
      ];
      const withoutColumn = await upload(await workbook([HEADER, row]), 'lots.xlsx');
      expect(withoutColumn.statusCode, withoutColumn.body).toBe(201);
      expect(withoutColumn.json().status).toBe('invalid');
      expect(withoutColumn.json().file_errors.map((e: { msg: string }) => e.msg)).toEqual([
        'The column "Lot number" is missing from row 1: it is required.',
      ]);
      const lots = [...HEADER, 'Lot number'];
      const empty = await upload(
        await workbook([lots, [...row, null, null, null], [...row, null, null, 'L-7']]),
        'lots-empty.xlsx',
      );
      expect(errorsOf(empty)).toEqual([
        expect.objectContaining({
          row: 2,
          cell: 'M2',
          field: `custom_fields.${field.json().id}`,
          msg: 'Lot number is required',
        }),
      ]);
      expect((await commit(empty.json().id)).statusCode).toBe(409);
      expect(await purchases()).toHaveLength(before);

      const fixed = await upload(await workbook([lots, [...row, null, null, ' L-6 ']]), 'lots-fixed.xlsx');
      expect(fixed.json().status, JSON.stringify(errorsOf(fixed))).toBe('valid');
      expect((await commit(fixed.json().id)).statusCode).toBe(200);
      const recorded = (await purchases()).at(-1)!.data as { purchase: { custom_fields: unknown } };
      expect(recorded.purchase.custom_fields).toEqual({ [field.json().id]: 'L-6' });
    } finally {
      const gone = await t.call('DELETE', `/api/masters/custom-fields/${field.json().id}`, t.adminToken);
      expect(gone.statusCode, gone.body).toBeLessThan(300);
    }
  }, 60_000);
});
