import { randomUUID } from 'node:crypto';
import { waitForProjections } from '@bahi/read-db';
import { createPgSqlClient } from '@bahi/sql-client';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTestDatabase } from '../../../../test/postgres.ts';
import { type CommandTestApp, commandTestApp } from '../testing/command-app.ts';
import { IMPORT_SPECS } from './columns.ts';
import { setProgressListener } from './progress.ts';

/**
 * Undoing an import as a whole (issue #31), on PGlite and on Postgres: every record it created
 * reversed in one transaction, the books (accounts, stock, masters, purchases) as before the
 * import; refused, naming the record, while a record has a later reference (an edit, a payment
 * to an imported funder, a sale of imported stock) or the books are closed over its dates; undone
 * once; the same file importable again after it. And the commit's progress, seen between appends
 * (on Postgres by another copy of the command service too).
 */
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
// The templates' header rows (what the sheets are checked against is the other tests' business).
const header = (kind: 'funders' | 'purchases') => IMPORT_SPECS[kind].columns.map((c) => c.header);
const FUNDERS = header('funders');
const PURCHASES = header('purchases');

async function workbook(sheet: string, rows: ExcelJS.CellValue[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheet);
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const url = process.env.DATABASE_URL;

describe.each([
  ['pglite', false],
  ['postgres', true],
] as const)('undoing an import [%s]', (_name, postgres) => {
  if (postgres && !url) return;
  let t: CommandTestApp;
  /** On Postgres, a second copy of the command service on the same database (not running the commit). */
  let copy: CommandTestApp | undefined;
  let drop: (() => Promise<void>) | undefined;
  let manager: string;
  let viewer: string;
  const ids: Record<string, string> = {};

  const upload = async (kind: string, body: Buffer, fileName: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/imports?kind=${kind}&file_name=${encodeURIComponent(fileName)}`,
      headers: { authorization: `Bearer ${manager}`, 'content-type': XLSX },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; status: string; file_errors: Array<{ msg: string }> };
  };
  const commit = (id: string) => t.call('POST', `/api/imports/${id}/commit`, manager);
  const undo = (id: string, token = manager) => t.call('POST', `/api/imports/${id}/undo`, token);
  const create = async (path: string, key: string, body: Record<string, unknown>) => {
    const res = await t.call('POST', `/api/${path}`, t.adminToken, body);
    expect(res.statusCode, res.body).toBe(201);
    ids[key] = res.json().id;
  };
  /** What the read side shows of the books: every account's totals, the masters and purchases that stand. */
  const books = async () => {
    const db = t.deps.readDb;
    await waitForProjections(
      db,
      ['journal', 'masters', 'purchases_and_sales'],
      await t.eventStore.headPosition(),
    );
    const [accounts, parties, purchases] = await Promise.all([
      db
        .selectFrom('account_totals')
        .select(['account', 'currency', 'amount', 'inr', 'quantity'])
        .orderBy('account')
        .orderBy('currency')
        .execute(),
      db
        .selectFrom('parties')
        .select(['id', 'name', 'opening_balance'])
        .where('deleted', '=', false)
        .orderBy('id')
        .execute(),
      db.selectFrom('purchases').select(['id']).where('deleted', '=', false).orderBy('id').execute(),
    ]);
    // An account whose entries were all reversed sums to zero: the same as never posted to.
    const moved = accounts.filter((a) => [a.amount, a.inr, a.quantity].some((v) => Number(v) !== 0));
    return { accounts: moved, parties, purchases };
  };

  beforeAll(async () => {
    if (postgres) {
      const db = await withTestDatabase('import_undo');
      drop = db.drop;
      t = await commandTestApp({ sql: createPgSqlClient({ connectionString: db.url, max: 8 }) });
      copy = await commandTestApp({
        sql: createPgSqlClient({ connectionString: db.url, max: 4 }),
        projector: false,
      });
    } else t = await commandTestApp();
    manager = await t.signedInAs('Manager');
    viewer = await t.signedInAs('Viewer');
    await create('masters/cities', 'Kabul', { name: 'Kabul', currency_name: 'AFN', rate: '1.25' });
    await create('masters/cities', 'Mumbai', { name: 'Mumbai', currency_name: 'INR', rate: '1' });
    await create('masters/products', 'Cumin', { name: 'Cumin' });
    await create('masters/godowns', 'Bhiwandi', { name: 'Bhiwandi' });
    await create('masters/funders', 'Rahim', {
      name: 'Haji Rahim',
      city_id: ids.Kabul,
      opening_balance: '500',
    });
    await create('masters/agents', 'Bilal', { name: 'Bilal', city_id: ids.Kabul });
    await create('masters/collectors', 'Imran', { name: 'Imran', city_id: ids.Kabul });
    // Stock there before the import: a sale of it later is no reference to the import.
    await create('transactions/purchases', 'Old', {
      type: 'Godown',
      purchase_date: '2026-03-01',
      city_id: ids.Kabul,
      funder_id: ids.Rahim,
      product_id: ids.Cumin,
      godown_id: ids.Bhiwandi,
      rate: '90',
      quantity: '4',
    });
  }, 60_000);
  afterAll(async () => {
    setProgressListener(undefined);
    await copy?.close();
    await t?.close();
    await drop?.();
  });

  it('undoes a funders import: the funders and their opening balances gone, logged, once; the file importable again', async () => {
    const before = await books();
    const file = await workbook('Funders', [
      FUNDERS,
      ['Karim', 'Kabul', '1,000', null, null, null, null],
      ['Asha', 'Mumbai', '250.50', null, null, null, null],
      ['Zia', 'Kabul', null, null, null, null, null],
    ]);
    const imported = await upload('funders', file, 'funders.xlsx');
    expect((await commit(imported.id)).statusCode).toBe(200);
    const after = await books();
    expect(after.parties).toHaveLength(before.parties.length + 3);
    expect(after).not.toEqual(before);

    expect((await undo(imported.id, viewer)).statusCode).toBe(403);
    const res = await undo(imported.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: imported.id, records: 3, events: 4 });
    expect(await books()).toEqual(before);

    // Each reversal is the API's own delete, carrying the import and the undo mark.
    const log = await t.eventStore.readAll(0n, 100_000);
    const reversals = log.filter((e) => e.metadata.importUndo === true);
    expect(reversals.map((e) => e.type).sort()).toEqual([
      'FunderDeleted',
      'FunderDeleted',
      'FunderDeleted',
      'ImportUndone',
    ]);
    expect(reversals.every((e) => e.metadata.importId === imported.id)).toBe(true);
    expect(reversals.every((e) => e.metadata.importFile === 'funders.xlsx')).toBe(true);

    // The activity log: the import's entry, then its undo, naming the file.
    await waitForProjections(t.deps.readDb, ['activity_log'], await t.eventStore.headPosition());
    const entries = await t.deps.readDb
      .selectFrom('activity_log')
      .select(['action_type', 'new_data'])
      .where('model_name', '=', 'Import')
      .where('record_id', '=', imported.id)
      .orderBy('position')
      .execute();
    expect(entries.map((e) => [e.action_type, (e.new_data as { file_name: string }).file_name])).toEqual([
      ['CREATE', 'funders.xlsx'],
      ['DELETE', 'funders.xlsx'],
    ]);

    const again = await undo(imported.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('already undone');
    const shown = (await t.call('GET', `/api/imports/${imported.id}`, manager)).json();
    expect(shown).toMatchObject({ status: 'undone', undone: { by: { name: 'Manager' } } });
    expect((await commit(imported.id)).statusCode).toBe(409);

    // The same bytes again: no longer "already imported", and committed anew.
    const second = await upload('funders', file, 'funders-again.xlsx');
    expect(second.status, JSON.stringify(second.file_errors)).toBe('valid');
    expect((await commit(second.id)).statusCode).toBe(200);
    expect((await books()).parties).toHaveLength(before.parties.length + 3);
    const list = (await t.call('GET', '/api/imports?limit=5', manager)).json();
    expect(
      list.data.slice(0, 2).map((r: { file_name: string; status: string }) => [r.file_name, r.status]),
    ).toEqual([
      ['funders-again.xlsx', 'committed'],
      ['funders.xlsx', 'undone'],
    ]);
  }, 120_000);

  it('refuses, naming the record, while an imported master was edited or is referred to since', async () => {
    const edited = await upload(
      'funders',
      await workbook('Funders', [
        FUNDERS,
        ['Nadia', 'Kabul', null, null, null, null, null],
        ['Omar', 'Kabul', null, null, null, null, null],
      ]),
      'edited.xlsx',
    );
    expect((await commit(edited.id)).statusCode).toBe(200);
    await books(); // the read side caught up with the commit
    const nadia = (
      await t.deps.readDb
        .selectFrom('parties')
        .select('id')
        .where('name', '=', 'Nadia')
        .executeTakeFirstOrThrow()
    ).id;
    const put = await t.call('PUT', `/api/masters/funders/${nadia}`, t.adminToken, {
      name: 'Nadia Khan',
      city_id: ids.Kabul,
    });
    expect(put.statusCode, put.body).toBe(200);
    const refused = await undo(edited.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'This import cannot be undone: Funder "Nadia" was changed after the import (funder updated).',
    );

    const paid = await upload(
      'funders',
      await workbook('Funders', [FUNDERS, ['Yusuf', 'Kabul', '100', null, null, null, null]]),
      'paid.xlsx',
    );
    expect((await commit(paid.id)).statusCode).toBe(200);
    await books();
    const yusuf = (
      await t.deps.readDb
        .selectFrom('parties')
        .select('id')
        .where('name', '=', 'Yusuf')
        .executeTakeFirstOrThrow()
    ).id;
    await create('transactions/payments', 'Pay', {
      related_entity_type: 'Funder',
      related_entity_id: yusuf,
      payment_date: '2026-04-10',
      amount: '40',
      payment_mode: 'Currency',
      collector_id: ids.Imran,
    });
    const withPayment = await books();
    const blocked = await undo(paid.id);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().message).toBe(
      'This import cannot be undone: Funder "Yusuf" is referred to by 1 payment record recorded after the import.',
    );
    // Nothing half-done: no record reversed, the books as they were.
    expect(await books()).toEqual(withPayment);
  }, 120_000);

  it('undoes a purchases import (godown and direct) to the accounts and stock before it, unless imported stock was sold or the books closed over it', async () => {
    const before = await books();
    const file = await workbook('Purchases', [
      PURCHASES,
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
      ['Godown', '2026-04-03', 'Kabul', 'Haji Rahim', 'Cumin', 'Bhiwandi', null, null, '80', '2.5'],
      ['Direct', '2026-04-03', 'Kabul', 'Haji Rahim', 'Cumin', null, 'Bilal', null, '10', '3', null, '7.25'],
    ]);
    const imported = await upload('purchases', file, 'april.xlsx');
    expect(imported.status, JSON.stringify(imported.file_errors)).toBe('valid');
    expect((await commit(imported.id)).statusCode).toBe(200);
    expect((await books()).purchases).toHaveLength(before.purchases.length + 3);

    // A sale of Cumin from Bhiwandi after the import: its cost was averaged over the imported stock.
    await create('transactions/sales', 'Sale', {
      sale_date: '2026-04-05',
      product_id: ids.Cumin,
      godown_id: ids.Bhiwandi,
      agent_id: ids.Bilal,
      rate: '120',
      quantity: '5',
    });
    const sold = await undo(imported.id);
    expect(sold.statusCode).toBe(409);
    expect(sold.json().message).toBe(
      `This import cannot be undone: the purchase dated 2026-04-02 of 10.0000 (id ${(await importedPurchases(imported.id))[0]}) brought in stock that a sale recorded after the import took out of the godown (sale recorded dated 2026-04-05 (id ${ids.Sale})).`,
    );
    expect((await t.call('DELETE', `/api/transactions/sales/${ids.Sale}`, t.adminToken)).statusCode).toBe(
      200,
    );

    // The books closed over the purchases' dates: the close guard refuses, naming the record.
    expect((await t.call('POST', '/api/books/close', t.adminToken, { up_to: '2026-04-02' })).statusCode).toBe(
      200,
    );
    const closed = await undo(imported.id);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().message).toMatch(
      /^This import cannot be undone: the purchase dated 2026-04-02 of 10\.0000 \(id [0-9a-f-]+\) is dated 2026-04-02\. The books are closed up to /,
    );
    const reopen = await t.call('POST', '/api/books/reopen', t.adminToken, { reason: 'Undo an import' });
    expect(reopen.statusCode, reopen.body).toBe(200);

    const res = await undo(imported.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ records: 3, events: 4 });
    // The sale and its delete stay in the log; what they posted cancels out, as the import's does.
    expect(await books()).toEqual(before);
  }, 120_000);

  const importedPurchases = async (importId: string) =>
    (await t.eventStore.readAll(0n, 100_000))
      .filter((e) => e.type === 'PurchaseRecorded' && e.metadata.importId === importId)
      .map((e) => (e.data as { purchase: { id: string } }).purchase.id);

  it('shows the commit progress, records done of the total, to the key sent with it, while it runs', async () => {
    const rows: ExcelJS.CellValue[][] = [FUNDERS];
    for (let i = 1; i <= 6; i++)
      rows.push([`Progress ${i}`, i % 2 ? 'Kabul' : 'Mumbai', `${i}`, null, null, null, null]);
    const imported = await upload('funders', await workbook('Funders', rows), 'progress.xlsx');
    const key = randomUUID();
    const poll = (app = t) => app.app.inject({ method: 'GET', url: `/api/imports/progress?key=${key}` });
    expect((await poll()).statusCode).toBe(404);
    if (copy) expect((await poll(copy)).statusCode).toBe(404);
    const seen: unknown[] = [];
    const seenByCopy: unknown[] = [];
    // Called between two appends, inside the commit's transaction: the poll, with no session,
    // is answered without the database (on PGlite a query would wait for the commit, and this
    // test for it, until it timed out). On Postgres the other copy answers as well, from the
    // row the running copy keeps outside the commit's transaction.
    setProgressListener(async () => {
      const res = await poll();
      expect(res.statusCode, res.body).toBe(200);
      seen.push(res.json());
      if (!copy) return;
      const there = await poll(copy);
      expect(there.statusCode, there.body).toBe(200);
      seenByCopy.push(there.json());
    });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/imports/${imported.id}/commit`,
        headers: { authorization: `Bearer ${manager}`, 'x-bahi-progress-key': key },
      });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      setProgressListener(undefined);
    }
    expect(seen).toEqual(
      [0, 1, 2, 3, 4, 5, 6].map((done) => ({ id: imported.id, state: 'recording', done, total: 6 })),
    );
    if (copy) expect(seenByCopy).toEqual(seen);
    // Ended: the key no longer answers, on any copy; another key never did.
    expect((await poll()).statusCode).toBe(404);
    if (copy) expect((await poll(copy)).statusCode).toBe(404);
    const other = await t.app.inject({ method: 'GET', url: '/api/imports/progress?key=not-a-key' });
    expect(other.statusCode).toBe(400);
  }, 60_000);

  // Postgres only: on PGlite the commit's transaction holds the one connection, so no other
  // write can come between its check and its appends, and the case is not there to test.
  if (postgres)
    it('refuses the whole commit when another copy records on a godown of the file between its check and its appends; committed again, it records every row', async () => {
      const row = (date: string, rate: string): ExcelJS.CellValue[] => [
        'Godown',
        date,
        'Kabul',
        'Haji Rahim',
        'Cumin',
        'Bhiwandi',
        null,
        null,
        rate,
        '2',
      ];
      const file = await workbook('Purchases', [PURCHASES, row('2026-04-06', '90'), row('2026-04-07', '91')]);
      const imported = await upload('purchases', file, 'race.xlsx');
      expect(imported.status, JSON.stringify(imported.file_errors)).toBe('valid');
      const purchasesBefore = (await t.eventStore.readAll(0n, 100_000)).filter(
        (e) => e.type === 'PurchaseRecorded',
      ).length;
      let raced = false;
      // After the commit has checked the file and read the godown, before its first append.
      setProgressListener(async (p) => {
        if (raced || p.state !== 'recording') return;
        raced = true;
        const res = await copy!.call('POST', '/api/transactions/purchases', t.adminToken, {
          type: 'Godown',
          purchase_date: '2026-04-06',
          city_id: ids.Kabul,
          funder_id: ids.Rahim,
          product_id: ids.Cumin,
          godown_id: ids.Bhiwandi,
          rate: '95',
          quantity: '1',
        });
        expect(res.statusCode, res.body).toBe(201);
      });
      try {
        const res = await commit(imported.id);
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json().message).toBe(
          'Someone recorded something on a godown this file records on while it was being committed. Nothing was imported: commit it again.',
        );
      } finally {
        setProgressListener(undefined);
      }
      expect(raced).toBe(true);
      // Nothing of the file: not its purchases, not its ImportCommitted; the other copy's purchase stands.
      const log = await t.eventStore.readAll(0n, 100_000);
      expect(log.filter((e) => e.metadata.importId === imported.id)).toEqual([]);
      expect(log.filter((e) => e.type === 'PurchaseRecorded')).toHaveLength(purchasesBefore + 1);
      // Committed again, it is checked against the godown as it stands now and records both rows.
      const again = await commit(imported.id);
      expect(again.statusCode, again.body).toBe(200);
      expect(await importedPurchases(imported.id)).toHaveLength(2);
    }, 60_000);
});
