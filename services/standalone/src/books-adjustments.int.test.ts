import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dryRun, expectRebuildIdentical, headPosition } from './testing/books.ts';
import { type Body, openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

const CLOSED = 'The books are closed up to 31 Oct 2026.';

/**
 * Issue #30, adjustments (PGlite and Postgres): with October closed, a correction is a new
 * entry dated in November that names the October record it corrects (`adjusts`). The event
 * carries the reference; the purchases and sales lists, the record's history and the ledger's
 * and cashbook's Particulars show it ('Adjusts Purchase of 10 Oct 2026'); a rebuild says the
 * same. A reference to nothing, to what is no transaction record, to a deleted record or to the
 * entry itself is a 400 on `adjusts` and nothing is written, in the preview as on Save.
 */
describe.each(TEST_STORAGES)('adjustments of a closed period [%s]', (storage) => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  const call = (method: string, path: string, body?: unknown) => t.call(method, path, body);
  const purchaseBody = (date: string, extra: Record<string, unknown> = {}) => ({
    type: 'Godown',
    purchase_date: date,
    city_id: ids.city,
    funder_id: ids.funder,
    product_id: ids.product,
    godown_id: ids.godown,
    rate: 100,
    quantity: 5,
    ...extra,
  });
  const saleBody = (date: string, extra: Record<string, unknown> = {}) => ({
    sale_date: date,
    agent_id: ids.agent,
    product_id: ids.product,
    godown_id: ids.godown,
    rate: 120,
    quantity: 1,
    ...extra,
  });
  const head = () => headPosition(t);
  const preview = (method: string, path: string, body: unknown) => dryRun(t, method, path, body);
  const created = async (path: string, body: unknown) => {
    const r = await call('POST', path, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as string;
  };
  const expenseBody = (date: string, amount: number, extra: Record<string, unknown> = {}) => ({
    city_id: ids.city,
    category: 'Rent',
    amount,
    expense_date: date,
    paid_from_entity_type: 'Collector',
    paid_from_entity_id: ids.collector,
    ...extra,
  });
  const paymentBody = (adjusts: string | undefined) => ({
    related_entity_type: 'Funder',
    related_entity_id: ids.funder,
    payment_date: '2026-11-07',
    amount: 10,
    payment_mode: 'Currency',
    collector_id: ids.collector,
    adjusts,
  });
  const particulars = async (type: string, id: string | undefined) => {
    await t.syncToHead();
    const ledger = await call('GET', `/reports/ledger/${type}/${id}`);
    expect(ledger.status, JSON.stringify(ledger.body)).toBe(200);
    return (ledger.body.transactions as Body[]).map((l) => l.particulars as string);
  };

  beforeAll(async () => {
    t = await openTestApp({ storage });
    ids.city = await created('/masters/cities', { name: 'Surat', currency_name: 'INR', rate: 1 });
    ids.funder = await created('/masters/funders', { name: 'Bhavesh', city_id: ids.city });
    ids.agent = await created('/masters/agents', { name: 'Vikram', city_id: ids.city });
    ids.collector = await created('/masters/collectors', {
      name: 'Kiran',
      city_id: ids.city,
      salary_per_month: 1000,
    });
    ids.godown = await created('/masters/godowns', { name: 'Main' });
    ids.product = await created('/masters/products', { name: 'Cumin' });
    ids.october = await created('/transactions/purchases', purchaseBody('2026-10-10'));
    ids.octoberSale = await created('/transactions/sales', saleBody('2026-10-12'));
    ids.octoberExpense = await created('/transactions/expenses', expenseBody('2026-10-05', 300));
    ids.imran = await created('/masters/collectors', {
      name: 'Imran',
      city_id: ids.city,
      salary_per_month: 1000,
    });
    ids.gone = await created('/transactions/purchases', purchaseBody('2026-11-02'));
    expect((await call('DELETE', `/transactions/purchases/${ids.gone}`)).status).toBe(200);
    const close = await call('POST', '/books/close', { up_to: '2026-10-31' });
    expect(close.status, JSON.stringify(close.body)).toBe(200);
  }, 120_000);
  afterAll(() => t?.close());

  it('a November purchase that adjusts the October one is saved; the list, the history and the ledger say so', async () => {
    const before = await head();
    const dry = await preview(
      'POST',
      '/transactions/purchases',
      purchaseBody('2026-11-20', { adjusts: String(ids.october).toUpperCase() }),
    );
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(await head()).toBe(before);

    ids.adjustment = await created(
      '/transactions/purchases',
      purchaseBody('2026-11-20', {
        adjusts: ids.october,
        quantity: 2,
        paid_amount: 50,
        collector_id: ids.collector,
      }),
    );
    await t.syncToHead();
    const list = (await call('GET', `/transactions/purchases?city_id=${ids.city}&limit=50`)).body
      .data as Body[];
    expect(list.find((p) => p.id === ids.adjustment)?.adjusts).toEqual({
      id: ids.october,
      kind: 'Purchase',
      date: '2026-10-10',
    });
    expect(list.find((p) => p.id === ids.october)?.adjusts).toBeNull();

    // The record's history (the activity log) has the event's record as written: the reference with it.
    const history = (await call('GET', `/reports/records/Purchase/${ids.adjustment}`)).body;
    expect(history.data.adjusts).toEqual({ id: ids.october, kind: 'Purchase', date: '2026-10-10' });

    const words = 'Purchase: 2.0000 Cumin from Bhavesh. Adjusts Purchase of 10 Oct 2026';
    expect(await particulars('Funder', ids.funder)).toContain(words);
    // The cashbook's side of it: what the collector paid for the adjusting purchase.
    expect(await particulars('Collector', ids.collector)).toContain(words);
    // The October purchase itself says nothing new.
    expect(await particulars('Funder', ids.funder)).toContain('Purchase: 5.0000 Cumin from Bhavesh');
  });

  it('an adjustment is itself dated in the open period: dated in October it is refused on its date', async () => {
    const before = await head();
    const r = await call(
      'POST',
      '/transactions/purchases',
      purchaseBody('2026-10-31', { adjusts: ids.october }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(r.body.errors).toEqual([{ msg: CLOSED, path: 'purchase_date' }]);
    expect(await head()).toBe(before);
  });

  it('a sale adjusts a sale or a purchase; an edit keeps or drops the reference', async () => {
    ids.saleAdjustment = await created(
      '/transactions/sales',
      saleBody('2026-11-21', { adjusts: ids.octoberSale }),
    );
    expect(await particulars('Agent', ids.agent)).toContain(
      'Sale: 1.0000 Cumin to Vikram. Adjusts Sale of 12 Oct 2026',
    );
    const edited = await call(
      'PUT',
      `/transactions/sales/${ids.saleAdjustment}`,
      saleBody('2026-11-22', { adjusts: ids.october, quantity: 2 }),
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(await particulars('Agent', ids.agent)).toContain(
      'Sale: 2.0000 Cumin to Vikram. Adjusts Purchase of 10 Oct 2026 (edited)',
    );
    // The corrections trail names the edit after the words, the reference kept with them.
    const trail = (await call('GET', `/reports/ledger/Agent/${ids.agent}?corrections=true`)).body;
    expect((trail.transactions as Body[]).map((l) => l.particulars).join('\n')).toMatch(
      /Sale: 1\.0000 Cumin to Vikram\. Adjusts Sale of 12 Oct 2026 - replaced by an edit on /,
    );
    const dropped = await call('PUT', `/transactions/sales/${ids.saleAdjustment}`, saleBody('2026-11-22'));
    expect(dropped.status, JSON.stringify(dropped.body)).toBe(200);
    await t.syncToHead();
    const sales = (await call('GET', `/transactions/sales?city_id=${ids.city}&limit=50`)).body.data as Body[];
    expect(sales.find((s) => s.id === ids.saleAdjustment)?.adjusts).toBeNull();
    expect(await particulars('Agent', ids.agent)).toContain('Sale: 1.0000 Cumin to Vikram (edited)');
  });

  it('an expense, an income, a payment and a transfer take the reference too; the cashbook says so', async () => {
    const october = ids.octoberExpense!;
    const expense = await created(
      '/transactions/expenses',
      expenseBody('2026-11-05', 20, { adjusts: october }),
    );
    await created('/transactions/incomes', {
      city_id: ids.city,
      category: 'Interest',
      amount: 5,
      income_date: '2026-11-06',
      received_by_entity_type: 'Collector',
      received_by_entity_id: ids.collector,
      adjusts: october,
    });
    await created('/transactions/payments', paymentBody(ids.october));
    await created('/transactions/transfers', {
      transfer_date: '2026-11-08',
      from_collector_id: ids.collector,
      to_collector_id: ids.imran,
      sent_amount: 15,
      adjusts: october,
    });
    const cashbook = await particulars('Collector', ids.collector);
    expect(cashbook).toContain('Transfer to Imran. Adjusts Expense of 5 Oct 2026');
    expect(cashbook).toContain('Expense: Rent. Adjusts Expense of 5 Oct 2026');
    expect(cashbook).toContain('Income: Interest. Adjusts Expense of 5 Oct 2026');
    expect(cashbook).toContain('Payment to Bhavesh (INR). Adjusts Purchase of 10 Oct 2026');
    // An edit keeps the reference it is sent with; the expense's history has it.
    const edited = await call(
      'PUT',
      `/transactions/expenses/${expense}`,
      expenseBody('2026-11-05', 25, { adjusts: october }),
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(await particulars('Collector', ids.collector)).toContain(
      'Expense: Rent. Adjusts Expense of 5 Oct 2026 (edited)',
    );
    const history = (await call('GET', `/reports/records/Expense/${expense}`)).body;
    expect(history.data.adjusts).toEqual({ id: october, kind: 'Expense', date: '2026-10-05' });
    // A bad one on a cash record, as on a purchase.
    const bad = await call('POST', '/transactions/payments', paymentBody(ids.collector));
    expect(bad.status, JSON.stringify(bad.body)).toBe(400);
    expect(bad.body.errors.map((e: Body) => e.path)).toEqual(['adjusts']);
  });

  it('a bad reference is a 400 on adjusts, in the preview as on Save, and nothing is written', async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['nothing there', '00000000-0000-4000-8000-000000000123', /that exists/],
      ['not an id', 'purchase of October', /that exists/],
      ['a number', 42, /that exists/],
      ['an object', { id: 'x' }, /adjusts/i],
      ['a funder', 'funder', /can be adjusted/],
      ['a product', 'product', /can be adjusted/],
      ['a deleted purchase', 'gone', /was deleted/],
    ];
    for (const [what, value, message] of cases) {
      const adjusts = typeof value === 'string' && value in ids ? ids[value] : value;
      for (const [method, path, body] of [
        ['POST', '/transactions/purchases', purchaseBody('2026-11-23', { adjusts })],
        ['POST', '/transactions/sales', saleBody('2026-11-23', { adjusts })],
        ['PUT', `/transactions/purchases/${ids.adjustment}`, purchaseBody('2026-11-23', { adjusts })],
      ] as const) {
        const before = await head();
        for (const r of [await preview(method, path, body), await call(method, path, body)]) {
          expect(r.status, `${what} ${method} ${path}: ${JSON.stringify(r.body)}`).toBe(400);
          expect(
            r.body.errors.map((e: Body) => e.path),
            what,
          ).toEqual(['adjusts']);
          expect(r.body.errors[0].msg, what).toMatch(message);
        }
        expect(await head(), what).toBe(before);
      }
    }
    const self = await call(
      'PUT',
      `/transactions/purchases/${ids.adjustment}`,
      purchaseBody('2026-11-20', { adjusts: ids.adjustment }),
    );
    expect(self.status).toBe(400);
    expect(self.body.errors).toEqual([{ msg: 'An entry cannot adjust itself.', path: 'adjusts' }]);
  });

  it('a rebuild gives the same read models, words included', async () => {
    await expectRebuildIdentical(t);
    expect(await particulars('Funder', ids.funder)).toContain(
      'Purchase: 2.0000 Cumin from Bhavesh. Adjusts Purchase of 10 Oct 2026',
    );
  });
});
