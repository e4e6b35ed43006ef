import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandTestApp, commandTestApp } from '../testing/command-app.ts';
import { expectOnlyRegisteredEvents } from '../testing/registered-events.ts';

/**
 * Importing masters (issue #31) through the command API on PGlite: templates, the preview of a
 * file with wrong rows (each error on its cell, nothing written), the commit (all rows, one
 * import id in every event's metadata), the same file refused the second time, and hostile
 * files each answered with a message on its cell, never a 500.
 */
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
type Grid = Array<Array<ExcelJS.CellValue>>;

async function workbook(
  sheets: Record<string, Grid>,
  edit?: (wb: ExcelJS.Workbook) => void,
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    for (const row of rows) ws.addRow(row);
  }
  edit?.(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const HEADER = ['Name', 'City', 'Opening Balance', 'Joining Date', 'Phone', 'Address', 'Narration'];

describe('importing masters from a spreadsheet', () => {
  let t: CommandTestApp;
  let manager: string;
  let viewer: string;
  const cities: Record<string, string> = {};

  const upload = (
    body: Buffer | string,
    kind = 'funders',
    fileName = 'funders.xlsx',
    token = manager,
    type = XLSX,
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/api/imports?kind=${kind}&file_name=${encodeURIComponent(fileName)}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': type },
      payload: body,
    });
  const commit = (id: string, token = manager) => t.call('POST', `/api/imports/${id}/commit`, token);
  const funderCount = async () => {
    let n = 0;
    for (const e of await t.eventStore.readAll(0n, 100_000)) if (e.type === 'FunderCreated') n++;
    return n;
  };
  const errorsOf = (res: LightMyRequestResponse) =>
    (
      res.json().rows as Array<{
        row: number;
        errors: Array<{ cell: string | null; msg: string; field: string | null }>;
      }>
    ).flatMap((r) => r.errors.map((e) => ({ row: r.row, ...e })));

  beforeAll(async () => {
    t = await commandTestApp();
    manager = await t.signedInAs('Manager');
    viewer = await t.signedInAs('Viewer');
    for (const [name, currency, rate] of <Array<[string, string, string]>>[
      ['Kabul', 'AFN', '1.25'],
      ['Mumbai', 'INR', '1'],
      ['Karachi', 'PKR', '0.3'],
      ['Herat', 'AFN', '1.25'],
      ['Herat', 'AFN', '1.3'],
    ]) {
      const res = await t.call('POST', '/api/masters/cities', manager, {
        name,
        currency_name: currency,
        rate,
      });
      expect(res.statusCode, res.body).toBe(201);
      cities[name as string] = res.json().id;
    }
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('gives an XLSX template with the columns, rules, an example and the current cities, and a CSV one', async () => {
    const res = await t.call('GET', '/api/imports/templates/funders.xlsx', manager);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((s) => s.name)).toEqual(['Funders', 'Rules', 'Example', 'Cities']);
    expect((wb.getWorksheet('Funders')!.getRow(1).values as unknown[]).slice(1)).toEqual(HEADER);
    expect(wb.getWorksheet('Funders')!.rowCount).toBe(1);
    expect(wb.getWorksheet('Rules')!.getRow(3).getCell(1).value).toBe('City');
    expect(String(wb.getWorksheet('Rules')!.getRow(3).getCell(3).value)).toContain('city already in Bahi');
    expect(wb.getWorksheet('Example')!.getRow(2).getCell(1).value).toBe('Haji Rahim');
    const looked = wb.getWorksheet('Cities')!.getColumn(1).values.slice(2);
    expect(looked).toEqual(['Herat', 'Herat', 'Kabul', 'Karachi', 'Mumbai']);
    const csv = await t.call('GET', '/api/imports/templates/cities.csv', manager);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toBe('\ufeffName,Currency Name,Rate\r\n');
    expect((await t.call('GET', '/api/imports/templates/planets.xlsx', manager)).statusCode).toBe(400);
    expect((await t.call('GET', '/api/imports/templates/funders.xlsx', viewer)).statusCode).toBe(403);
  });

  it('flags the wrong rows on their cells and writes nothing; fixed, it previews the balances; commit records all', async () => {
    const rows: Grid = [HEADER];
    const names = ['Kabul', 'Mumbai', 'Karachi'];
    for (let i = 1; i <= 50; i++)
      rows.push([`Funder ${i}`, names[i % 3]!, `${i * 1000}`, null, null, null, null]);
    const wrong = rows.map((r) => [...r]);
    wrong[3]![1] = 'Atlantis'; // row 4: no such city
    wrong[7]![2] = 'lots'; // row 8: not a number
    wrong[11]![0] = '   '; // row 12: no name
    wrong[20]![1] = 'Herat'; // row 21: two cities named Herat
    const before = await funderCount();
    const first = await upload(await workbook({ Funders: wrong }));
    expect(first.statusCode, first.body).toBe(201);
    const preview = first.json();
    expect(preview).toMatchObject({
      status: 'invalid',
      rows_total: 50,
      rows_valid: 46,
      rows_invalid: 4,
      effect: null,
    });
    const errors = errorsOf(first);
    expect(errors.map((e) => [e.cell, e.field])).toEqual([
      ['B4', 'city_id'],
      ['C8', 'opening_balance'],
      ['A12', 'name'],
      ['B21', 'city_id'],
    ]);
    expect(errors[0]!.msg).toContain('No city is named "Atlantis"');
    expect(errors[1]!.msg).toBe('Opening balance must be a number');
    expect(errors[2]!.msg).toBe('Name is required');
    expect(errors[3]!.msg).toContain('2 cities are named "Herat"');
    expect(errors[3]!.msg).toContain(cities.Herat);
    expect(await funderCount()).toBe(before);
    const refused = await commit(preview.id);
    expect(refused.statusCode).toBe(409);
    expect(await funderCount()).toBe(before);

    const fixedFile = await workbook({ Funders: rows });
    const fixed = await upload(fixedFile, 'funders', 'funders-fixed.xlsx');
    expect(fixed.statusCode, fixed.body).toBe(201);
    const valid = fixed.json();
    expect(valid).toMatchObject({ status: 'valid', rows_valid: 50, rows_invalid: 0 });
    expect(valid.effect.records).toBe(50);
    expect(valid.effect.opening_balances[0]).toEqual({
      row: 2,
      name: 'Funder 1',
      city: 'Mumbai',
      currency: 'INR',
      before: '0.00',
      after: '1000.00',
    });
    expect(valid.effect.totals).toEqual(
      expect.arrayContaining([{ currency: 'AFN', records: 16, opening_balance: expect.any(String) }]),
    );
    expect((await t.call('GET', `/api/imports/${valid.id}`, manager)).json()).toEqual(valid);
    expect(await funderCount()).toBe(before);

    const done = await commit(valid.id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ id: valid.id, records: 50, events: 51 });
    const all = await t.eventStore.readAll(0n, 100_000);
    const created = all.filter((e) => e.type === 'FunderCreated');
    expect(created).toHaveLength(before + 50);
    const imported = created.filter((e) => e.metadata.importId === valid.id);
    expect(imported).toHaveLength(50);
    expect(imported.every((e) => e.metadata.importFile === 'funders-fixed.xlsx')).toBe(true);
    expect(imported.find((e) => (e.data as { name: string }).name === 'Funder 3')!.data).toMatchObject({
      city_id: cities.Kabul,
      opening_balance: '3000.00',
    });
    const marker = all.find((e) => e.type === 'ImportCommitted')!;
    expect(marker.data).toMatchObject({ id: valid.id, file_name: 'funders-fixed.xlsx', records: 50 });
    expect(marker.metadata.userId).toBe(imported[0]!.metadata.userId);
    const got = (await t.call('GET', `/api/imports/${valid.id}`, manager)).json();
    expect(got.status).toBe('committed');
    expect(got.committed).toMatchObject({ events: 51, by: { name: 'Manager' } });

    // The same bytes again: refused as already imported, at upload and at commit, nothing written.
    const again = await upload(fixedFile, 'funders', 'copy.xlsx');
    expect(again.json().file_errors[0].msg).toContain('already imported');
    const twice = await commit(again.json().id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toContain('already imported');
    expect((await commit(valid.id)).statusCode).toBe(409);
    expect(await funderCount()).toBe(before + 50);
  }, 60_000);

  it('reads hostile cells as a person means them, or says what is wrong with each, never a 500', async () => {
    const file = await workbook(
      {
        Funders: [
          HEADER,
          ['  Zoë Ñúñez  ', 'kabul ', '1,00,000', '01/04/2026', null, null, null], // 2: trimmed, case, Indian grouping, text date
          ['राम लाल', 'Mumbai', '₹ 5,000.50', 46113, null, null, null], // 3: Unicode, ₹, Excel serial date
          ['Ali', 'Karachi', 'Rs. 250', new Date(Date.UTC(2026, 3, 1)), null, null, null], // 4: Rs., a date cell
          ['Formula', 'Kabul', { formula: 'SUM(1,2)', result: 3 }, null, null, null, null], // 5: formula
          ['Bad date', 'Kabul', '10', '31/02/2026', null, null, null], // 6: no such day
          ['Merged', 'Kabul', '10', null, null, null, null], // 7: C7:C8 merged
          ['Merged too', 'Kabul', null, null, null, null, null], // 8
          ['Scale', 'Kabul', '1.234', null, null, null, null], // 9: 3 decimals
          ['Old', 'Kabul', '10', '1999-12-31', null, null, null], // 10: before 2000
        ],
      },
      (wb) => wb.getWorksheet('Funders')!.mergeCells('C7:C8'),
    );
    const res = await upload(file);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    const byRow = new Map(body.rows.map((r: { row: number }) => [r.row, r]));
    expect(byRow.get(2)).toMatchObject({ outcome: 'ok' });
    expect(byRow.get(3)).toMatchObject({ outcome: 'ok' });
    expect(byRow.get(4)).toMatchObject({ outcome: 'ok' });
    const errors = errorsOf(res).map((e) => [e.cell, e.msg]);
    expect(errors).toEqual([
      ['C5', 'Cell C5 holds a formula (=SUM(1,2)): paste its value instead (Paste Special > Values).'],
      ['D6', expect.stringContaining('"31/02/2026" is not a date')],
      ['C7', expect.stringContaining('merged cells C7:C8')],
      ['C8', expect.stringContaining('merged cells C7:C8')],
      ['C9', 'Opening balance can have at most 2 decimal places'],
      ['D10', expect.stringContaining('Joining date')],
    ]);
    // What the good rows would record: exact amounts and dates from each kind of cell.
    const fixedRows = await workbook({
      Funders: [
        HEADER,
        ['  Zoë Ñúñez  ', 'kabul ', '1,00,000', '01/04/2026', null, null, null],
        ['राम लाल', 'Mumbai', '₹ 5,000.50', 46113, null, null, null],
        ['Ali', 'Karachi', 'Rs. 250', new Date(Date.UTC(2026, 3, 1)), null, null, null],
        ['Float', 'Karachi', 1234.56, null, null, null, null],
      ],
    });
    const ok = await upload(fixedRows, 'funders', 'unicode.xlsx');
    expect(ok.json().status, ok.body).toBe('valid');
    expect(
      ok.json().effect.opening_balances.map((l: { name: string; after: string }) => [l.name, l.after]),
    ).toEqual([
      ['Zoë Ñúñez', '100000.00'],
      ['राम लाल', '5000.50'],
      ['Ali', '250.00'],
      ['Float', '1234.56'],
    ]);
    const done = await commit(ok.json().id);
    expect(done.statusCode, done.body).toBe(200);
    const dates = (await t.eventStore.readAll(0n, 100_000))
      .filter((e) => e.metadata.importId === ok.json().id && e.type === 'FunderCreated')
      .map((e) => (e.data as { joining_date: string | null }).joining_date);
    expect(dates).toEqual(['2026-04-01', '2026-04-01', '2026-04-01', null]);
  }, 60_000);

  it('says what is wrong with a file as a whole: wrong sheet, columns, formats; limits are 413 and 400', async () => {
    const wrongSheet = await upload(await workbook({ Sheet1: [HEADER], Other: [HEADER] }));
    expect(wrongSheet.statusCode).toBe(201);
    expect(wrongSheet.json().file_errors[0].msg).toContain(
      'no sheet named "Funders" (its sheets: "Sheet1", "Other")',
    );
    const columns = await upload(
      await workbook({
        Funders: [
          ['Name', 'Colour'],
          ['A', 'red'],
        ],
      }),
    );
    expect(
      columns.json().file_errors.map((e: { cell: string | null; msg: string }) => [e.cell, e.msg]),
    ).toEqual([
      ['B1', expect.stringContaining('Column B is headed "Colour"')],
      [null, expect.stringContaining('"City" is missing')],
    ]);
    const garbage = await upload(Buffer.from('PK\u0003\u0004 not really a zip'));
    expect(garbage.json().file_errors[0].msg).toContain('could not be read as an Excel workbook');
    const xls = await upload(Buffer.from('d0cf11e0a1b11ae1000000', 'hex'), 'funders', 'old.xls');
    expect(xls.json().file_errors[0].msg).toContain('old Excel file (.xls)');
    const latin1 = await upload(
      Buffer.from('Name,City\nJos\xe9,Kabul\n', 'latin1'),
      'funders',
      'f.csv',
      manager,
      'text/csv',
    );
    expect(latin1.json().file_errors[0].msg).toContain('not UTF-8');
    const empty = await upload(Buffer.alloc(0), 'funders', 'f.csv', manager, 'text/csv');
    expect(empty.statusCode).toBe(400);
    const large = await upload(
      Buffer.alloc(5 * 1024 * 1024 + 1, 65),
      'funders',
      'f.csv',
      manager,
      'text/csv',
    );
    expect(large.statusCode).toBe(413);
    expect(large.json().message).toContain('larger than 5 MB');
    const many = `Name\n${'P\n'.repeat(20_001)}`;
    const tooMany = await upload(many, 'products', 'p.csv', manager, 'text/csv');
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toContain('too many rows');
    expect((await upload('Name\nX\n', 'products', 'p.csv', viewer, 'text/csv')).statusCode).toBe(403);
    expect((await upload('Name\nX\n', 'planets', 'p.csv', manager, 'text/csv')).statusCode).toBe(400);
    expect(
      (await t.call('GET', '/api/imports/00000000-0000-4000-8000-000000000000', manager)).statusCode,
    ).toBe(404);
  }, 60_000);

  it('imports cities and products from CSV (quotes, a semicolon file, a byte-order mark)', async () => {
    const csv = '\ufeffName,Currency Name,Rate\r\n"Dubai, UAE",AED,"22.5"\r\nTashkent ,UZS,0.0066\r\n\r\n';
    const res = await upload(csv, 'cities', 'cities.csv', manager, 'text/csv');
    expect(res.json()).toMatchObject({ status: 'valid', format: 'csv', rows_total: 2 });
    expect((await commit(res.json().id)).statusCode).toBe(200);
    const created = (await t.eventStore.readAll(0n, 100_000)).filter(
      (e) => e.type === 'CityCreated' && e.metadata.importId === res.json().id,
    );
    expect(created.map((e) => e.data)).toEqual([
      expect.objectContaining({ name: 'Dubai, UAE', currency_name: 'AED', rate: '22.5000' }),
      expect.objectContaining({ name: 'Tashkent', currency_name: 'UZS', rate: '0.0066' }),
    ]);
    const products = await upload(
      'Name;\nCumin;\n"Saffron ""Super""";\n',
      'products',
      'p.csv',
      manager,
      'text/csv',
    );
    expect(products.json().status, products.body).toBe('valid');
    const bad = await upload('Name,Currency Name,Rate\nX,Y,0\n', 'cities', 'c.csv', manager, 'text/csv');
    expect(errorsOf(bad).map((e) => [e.cell, e.msg])).toEqual([['C2', 'Rate must be more than 0']]);
    // Every event an import appended is registered, passes its schema and names its version.
    expect(await expectOnlyRegisteredEvents(t.eventStore)).toBeGreaterThan(3);
  }, 60_000);
});
