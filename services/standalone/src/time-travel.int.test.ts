import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Body, openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

const tick = () => new Promise((r) => setTimeout(r, 15));

/**
 * The books as of a business date (asOf) and as they stood at a moment of recording
 * (knownAt), around a backdated entry and an edit.
 */
describe.each(TEST_STORAGES)('time travel: asOf and knownAt [%s]', (storage) => {
  let t: TestApp;
  const call = (method: string, path: string, body?: unknown) => t.call(method, path, body);
  const ids: Record<string, string> = {};
  const moments: Record<string, string> = {};
  const ledger = async (query: string) =>
    (await call('GET', `/reports/ledger/Funder/${ids.funder}?${query}`)).body;
  const movements = async (query: string) =>
    (await call('GET', `/reports/balances?${query}`)).body.funders.data.find(
      (f: { id: string }) => f.id === ids.funder,
    ).balance.amount;

  beforeAll(async () => {
    t = await openTestApp({ storage });
    const mk = async (kind: string, body: unknown) =>
      (await call('POST', `/masters/${kind}`, body)).body.id as string;
    ids.city = await mk('cities', { name: 'Pune', currency_name: 'INR', rate: 1 });
    ids.funder = await mk('funders', { name: 'Farah', city_id: ids.city });
    ids.collector = await mk('collectors', { name: 'Kabir', city_id: ids.city });
    ids.godown = await mk('godowns', { name: 'G' });
    ids.product = await mk('products', { name: 'P' });
    const purchase = (quantity: number) => ({
      type: 'Godown',
      purchase_date: '2026-11-10',
      city_id: ids.city,
      funder_id: ids.funder,
      product_id: ids.product,
      godown_id: ids.godown,
      rate: 100,
      quantity,
    });
    ids.purchase = (await call('POST', '/transactions/purchases', purchase(10))).body.id;
    await tick();
    moments.afterPurchase = new Date().toISOString();
    await tick();
    // Backdated: recorded now, dated the 1st.
    await call('POST', '/transactions/payments', {
      related_entity_type: 'Funder',
      related_entity_id: ids.funder,
      payment_date: '2026-11-01',
      amount: 300,
      payment_mode: 'Currency',
      collector_id: ids.collector,
    });
    await tick();
    moments.afterBackdated = new Date().toISOString();
    await tick();
    expect((await call('PUT', `/transactions/purchases/${ids.purchase}`, purchase(12))).status).toBe(200);
    await tick();
    moments.afterEdit = new Date().toISOString();
    await tick();
    expect(
      (
        await call('PUT', `/masters/funders/${ids.funder}`, {
          name: 'Farah',
          city_id: ids.city,
          opening_balance: 50,
        })
      ).status,
    ).toBe(200);
    const cash = { city_id: ids.city, category: 'Rent', remarks: null };
    expect(
      (
        await call('POST', '/transactions/expenses', {
          ...cash,
          amount: 40,
          expense_date: '2026-11-12',
          paid_from_entity_type: 'Collector',
          paid_from_entity_id: ids.collector,
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call('POST', '/transactions/incomes', {
          ...cash,
          category: 'Interest',
          amount: 25,
          income_date: '2026-11-03',
          received_by_entity_type: 'Collector',
          received_by_entity_id: ids.collector,
        })
      ).status,
    ).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers the books as they are now', async () => {
    expect(await ledger('')).toMatchObject({ openingBalance: '50.00', closingBalance: '950.00' }); // 50 + 1,200 - 300
  });

  it('counts a backdated entry on its own business date (asOf)', async () => {
    expect((await ledger('asOf=2026-11-05')).closingBalance).toBe('-250.00'); // 50 - 300: the purchase is dated the 10th
    expect(await movements('asOf=2026-11-05')).toBe('-300.00');
    expect(await movements('asOf=2026-11-30')).toBe('900.00');
    // Stock as of a date before the purchase (dated the 10th) holds nothing; after it, the edited 12.
    expect((await call('GET', '/reports/stock?asOf=2026-11-09')).body).toEqual({});
    expect((await call('GET', '/reports/stock?asOf=2026-11-10')).body).toEqual({
      G: [{ godown_id: ids.godown, product_id: ids.product, product_name: 'P', quantity: '12.0000' }],
    });
  });

  it('day-wise and cashbook as of a business date: entries dated after it are not there yet', async () => {
    const range = `startDate=2026-11-01&endDate=2026-11-30&city_id=${ids.city}`;
    const daywise = async (extra: string) =>
      (await call('GET', `/reports/daywise-report?${range}${extra}`)).body.map(
        (r: { date: string; type: string; amount: string }) => [r.date, r.type, r.amount],
      );
    expect(await daywise('')).toEqual([
      ['2026-11-03', 'Income', '25.00'],
      ['2026-11-12', 'Expense', '40.00'],
    ]);
    expect(await daywise('&asOf=2026-11-05')).toEqual([['2026-11-03', 'Income', '25.00']]);
    expect(await daywise('&asOf=2026-11-02')).toEqual([]);

    const cashbook = async (extra: string) =>
      (
        await call(
          'GET',
          `/reports/cashbook-report?${range}&entity_type=Collector&entity_id=${ids.collector}${extra}`,
        )
      ).body.map((r: { date: string; cash_in: string; cash_out: string }) => [r.date, r.cash_in, r.cash_out]);
    // The backdated payment (recorded after the purchase, dated the 1st) is there from the 1st.
    expect(await cashbook('&asOf=2026-11-01')).toEqual([['2026-11-01', '0.00', '300.00']]);
    expect(await cashbook('&asOf=2026-11-05')).toEqual([
      ['2026-11-01', '0.00', '300.00'],
      ['2026-11-03', '25.00', '0.00'],
    ]);
    expect(await cashbook('')).toEqual([
      ['2026-11-01', '0.00', '300.00'],
      ['2026-11-03', '25.00', '0.00'],
      ['2026-11-12', '0.00', '40.00'],
    ]);
    // asOf later than the range's end leaves the range as it is; a bad date is a clear 400.
    expect(await cashbook('&asOf=2027-01-01')).toHaveLength(3);
    const bad = await call('GET', `/reports/daywise-report?${range}&asOf=2026-13-01`);
    expect(bad.status).toBe(400);
  });

  it('answers what the books said at a past moment (knownAt): before the backdated entry, before the edit', async () => {
    const before = await ledger(`knownAt=${moments.afterPurchase}`);
    expect(before).toMatchObject({ openingBalance: '0.00', closingBalance: '1000.00' });
    expect(before.transactions).toHaveLength(1);
    expect((await ledger(`knownAt=${moments.afterBackdated}`)).closingBalance).toBe('700.00');
    expect((await ledger(`knownAt=${moments.afterEdit}`)).closingBalance).toBe('900.00'); // the edit, but not the new opening
    expect(await movements(`knownAt=${moments.afterPurchase}`)).toBe('1000.00');
    // Both at once: dated by the 5th, as known right after the backdated entry.
    expect((await ledger(`asOf=2026-11-05&knownAt=${moments.afterBackdated}`)).closingBalance).toBe(
      '-300.00',
    );
  });

  it('refuses a moment that is not one, and a time before the funder existed', async () => {
    expect((await call('GET', `/reports/ledger/Funder/${ids.funder}?knownAt=yesterday`)).status).toBe(400);
    expect(
      (await call('GET', `/reports/ledger/Funder/${ids.funder}?knownAt=2020-01-01T00:00:00Z`)).status,
    ).toBe(404);
  });
});

/**
 * The rule of knownAt: a report read at a moment T is the same report read later with
 * knownAt=T, field for field, after later writes of every kind that touch it: backdated
 * expenses, incomes and salaries dated inside the range, an edit and a delete, purchases,
 * sales and returns for the stock, transfers and payments for the cashbook.
 */
describe.each(TEST_STORAGES)('time travel: a read at T equals knownAt=T [%s]', (storage) => {
  let t: TestApp;
  const call = (method: string, path: string, body?: unknown) => t.call(method, path, body);
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await call(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  const get = async (path: string) => {
    const res = await call('GET', path);
    expect(res.status, `GET ${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  const ids: Record<string, string> = {};
  const range = 'startDate=2026-11-01&endDate=2026-11-30';
  /** Every report as the screens read it, each with the filters it is read with. */
  const reads = () => [
    '/reports/stock',
    '/reports/stock?asOf=2026-11-10',
    `/reports/cashbook-report?${range}&entity_type=Collector&entity_id=${ids.kabir}`,
    `/reports/cashbook-report?${range}&entity_type=Collector&entity_id=${ids.kabir}&asOf=2026-11-08`,
    `/reports/cashbook-report?entity_type=Godown&entity_id=${ids.godown}`,
    `/reports/daywise-report?${range}`,
    `/reports/daywise-report?${range}&city_id=${ids.karachi}`,
    `/reports/daywise-report?${range}&category=rent&asOf=2026-11-12`,
    `/reports/ledger/Funder/${ids.funder}?${range}`,
    `/reports/ledger/Collector/${ids.kabir}`,
    `/reports/ledger/Godown/${ids.godown}?asOf=2026-11-10`,
    '/reports/balances?limit=-1',
    '/reports/balances?limit=1&page=2',
  ];
  const withKnownAt = (path: string, at: string) =>
    `${path}${path.includes('?') ? '&' : '?'}knownAt=${encodeURIComponent(at)}`;
  const atT: Record<string, unknown> = {};
  let T = '';
  const daywise = async (query: string) =>
    (await get(`/reports/daywise-report?${range}${query}`)).map((r: Body) => [
      r.date,
      r.category,
      r.type,
      r.amount_entered,
      r.amount,
    ]);

  beforeAll(async () => {
    t = await openTestApp({ storage });
    const mk = async (kind: string, body: unknown) =>
      (await ok('POST', `/masters/${kind}`, body)).id as string;
    ids.karachi = await mk('cities', { name: 'Karachi', currency_name: 'PKR', rate: '0.3' });
    ids.funder = await mk('funders', { name: 'Farah', city_id: ids.karachi });
    ids.agent = await mk('agents', { name: 'Arif', city_id: ids.karachi });
    ids.kabir = await mk('collectors', { name: 'Kabir', city_id: ids.karachi, salary_per_month: 15000 });
    ids.mohan = await mk('collectors', { name: 'Mohan', city_id: ids.karachi });
    ids.godown = await mk('godowns', { name: 'Bhiwandi' });
    ids.product = await mk('products', { name: 'Cumin' });
    ids.temp = await mk('agents', { name: 'Temp', city_id: ids.karachi, opening_balance: 5 });
    const purchase = (date: string, quantity: number) => ({
      type: 'Godown',
      purchase_date: date,
      city_id: ids.karachi,
      funder_id: ids.funder,
      product_id: ids.product,
      godown_id: ids.godown,
      rate: 200,
      quantity,
      paid_amount: 500,
      collector_id: ids.kabir,
    });
    const sale = (date: string, quantity: number) => ({
      sale_date: date,
      agent_id: ids.agent,
      product_id: ids.product,
      godown_id: ids.godown,
      rate: 300,
      quantity,
      clearing_charge: 50,
    });
    const cash = (extra: Record<string, unknown>) => ({ city_id: ids.karachi, remarks: null, ...extra });
    const expense = (date: string, amount: number, category = 'Rent') =>
      cash({
        category,
        amount,
        expense_date: date,
        paid_from_entity_type: 'Collector',
        paid_from_entity_id: ids.kabir,
      });
    const income = (date: string, amount: number) =>
      cash({
        category: 'Interest',
        amount,
        income_date: date,
        received_by_entity_type: 'Collector',
        received_by_entity_id: ids.kabir,
      });
    const salary = (date: string, amount: number) => ({
      collector_id: ids.kabir,
      month: 11,
      year: 2026,
      payment_type: 'Advance',
      payment_mode: 'Currency',
      amount,
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: ids.kabir,
      payment_date: date,
    });
    const payment = (date: string, amount: number) => ({
      related_entity_type: 'Funder',
      related_entity_id: ids.funder,
      payment_date: date,
      amount,
      payment_mode: 'Currency',
      collector_id: ids.kabir,
    });
    const transfer = (date: string, amount: number) => ({
      transfer_date: date,
      from_collector_id: ids.kabir,
      to_collector_id: ids.mohan,
      sent_amount: amount,
      transfer_charge: 10,
      operation: '*',
      rate: '1',
    });

    // The books up to T.
    ids.p1 = (await ok('POST', '/transactions/purchases', purchase('2026-11-10', 100))).id;
    ids.s1 = (await ok('POST', '/transactions/sales', sale('2026-11-11', 30))).id;
    ids.e1 = (await ok('POST', '/transactions/expenses', expense('2026-11-12', 400))).id;
    ids.e0 = (await ok('POST', '/transactions/expenses', expense('2026-11-12', 100, 'Rent deposit'))).id;
    ids.i1 = (await ok('POST', '/transactions/incomes', income('2026-11-03', 250))).id;
    await ok('POST', '/transactions/salary-payments', salary('2026-11-05', 1000));
    await ok('POST', '/transactions/payments', payment('2026-11-06', 2000));
    await ok('POST', '/transactions/transfers', transfer('2026-11-07', 300));

    // Read at T: every report, as the screens read it.
    await tick();
    T = new Date().toISOString();
    await tick();
    for (const path of reads()) atT[path] = await get(path);
    expect(await daywise('')).toEqual([
      ['2026-11-03', 'Interest', 'Income', '250.00', '75.00'],
      ['2026-11-05', 'Salary - Kabir', 'Expense', '1000.00', '300.00'],
      ['2026-11-12', 'Rent', 'Expense', '400.00', '120.00'],
      ['2026-11-12', 'Rent deposit', 'Expense', '100.00', '30.00'],
    ]);
    await tick();

    // Later writes of every kind, several dated inside the range (backdated).
    ids.e2 = (await ok('POST', '/transactions/expenses', expense('2026-11-04', 70, 'Repairs'))).id;
    await ok('POST', '/transactions/incomes', income('2026-11-08', 90));
    await ok('POST', '/transactions/salary-payments', salary('2026-11-09', 500));
    await ok('PUT', `/transactions/expenses/${ids.e1}`, expense('2026-11-13', 600));
    await ok('DELETE', `/transactions/incomes/${ids.i1}`);
    ids.p2 = (await ok('POST', '/transactions/purchases', purchase('2026-11-02', 20))).id;
    await ok('POST', '/transactions/sales', sale('2026-11-09', 5));
    await ok('POST', '/transactions/purchase-returns', {
      purchase_id: ids.p1,
      quantity: 10,
      return_date: '2026-11-10',
    });
    await ok('POST', '/transactions/sale-returns', {
      sale_id: ids.s1,
      quantity: 4,
      return_date: '2026-11-06',
    });
    await ok('POST', '/transactions/transfers', transfer('2026-11-02', 40));
    await ok('POST', '/transactions/payments', payment('2026-11-03', 60));
    // And of the masters the balances list: a new opening balance, a party deleted, one created.
    await ok('PUT', `/masters/funders/${ids.funder}`, {
      name: 'Farah',
      city_id: ids.karachi,
      opening_balance: 777,
    });
    await ok('DELETE', `/masters/agents/${ids.temp}`);
    await ok('POST', '/masters/collectors', { name: 'Later', city_id: ids.karachi, opening_balance: 9 });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers every report read at T, field for field, when asked later with knownAt=T', async () => {
    for (const path of reads()) {
      expect(await get(withKnownAt(path, T)), path).toEqual(atT[path]);
      // The same moment in another offset is the same moment.
      const ist = new Date(Date.parse(T) + 5.5 * 3600_000).toISOString().replace('Z', '+05:30');
      expect(await get(withKnownAt(path, ist)), `${path} (+05:30)`).toEqual(atT[path]);
    }
  });

  it('while the live answers show the later writes: the backdated entries on their own dates', async () => {
    expect(await daywise('')).toEqual([
      ['2026-11-04', 'Repairs', 'Expense', '70.00', '21.00'],
      ['2026-11-05', 'Salary - Kabir', 'Expense', '1000.00', '300.00'],
      ['2026-11-08', 'Interest', 'Income', '90.00', '27.00'],
      ['2026-11-09', 'Salary - Kabir', 'Expense', '500.00', '150.00'],
      ['2026-11-12', 'Rent deposit', 'Expense', '100.00', '30.00'],
      ['2026-11-13', 'Rent', 'Expense', '600.00', '180.00'],
    ]);
    const cashbook = `/reports/cashbook-report?${range}&entity_type=Collector&entity_id=${ids.kabir}`;
    const dated = (rows: Body[]) => rows.map((r) => [r.date, r.particulars, r.cash_in, r.cash_out]);
    const now = dated(await get(cashbook));
    expect(now).toContainEqual(['2026-11-04', 'Expense: Repairs', '0.00', '70.00']);
    expect(dated(atT[cashbook] as Body[])).not.toContainEqual([
      '2026-11-04',
      'Expense: Repairs',
      '0.00',
      '70.00',
    ]);
    expect(await get('/reports/stock')).toEqual({
      Bhiwandi: [
        { godown_id: ids.godown, product_id: ids.product, product_name: 'Cumin', quantity: '79.0000' },
      ],
    });
    expect(atT['/reports/stock']).toEqual({
      Bhiwandi: [
        { godown_id: ids.godown, product_id: ids.product, product_name: 'Cumin', quantity: '70.0000' },
      ],
    });
    const names = (list: Body) => list.data.map((p: Body) => [p.name, p.opening_balance]);
    const balances = await get('/reports/balances?limit=-1');
    const thenBalances = atT['/reports/balances?limit=-1'] as Body;
    expect(names(balances.agents)).toEqual([['Arif', '0.00']]);
    expect(names(thenBalances.agents)).toEqual([
      ['Arif', '0.00'],
      ['Temp', '5.00'],
    ]);
    expect(names(balances.funders)).toEqual([['Farah', '777.00']]);
    expect(names(thenBalances.funders)).toEqual([['Farah', '0.00']]);
    expect(names(balances.collectors)).toContainEqual(['Later', '9.00']);
    expect(names(thenBalances.collectors)).not.toContainEqual(['Later', '9.00']);
    // Each of these changed since T.
    const changed = reads().filter((p) => !p.includes('Godown'));
    expect(changed).toHaveLength(11);
    for (const path of changed) expect(await get(path), path).not.toEqual(atT[path]);
  });

  it('rebuilds the day-wise rows as known then: an edit, a delete, and records not yet recorded', async () => {
    // Known right after T: the deleted income is there, the edited expense as it was, the
    // backdated ones absent; with asOf too.
    const then = await daywise(`&knownAt=${T}`);
    expect(then).toContainEqual(['2026-11-03', 'Interest', 'Income', '250.00', '75.00']);
    expect(then).toContainEqual(['2026-11-12', 'Rent', 'Expense', '400.00', '120.00']);
    expect(then.map((r: string[]) => r[0])).not.toContain('2026-11-04');
    expect(await daywise(`&asOf=2026-11-04&knownAt=${T}`)).toEqual([
      ['2026-11-03', 'Interest', 'Income', '250.00', '75.00'],
    ]);
    const rows = await get(`/reports/daywise-report?${range}&knownAt=${T}`);
    expect(rows.find((r: Body) => r.category === 'Rent').record).toEqual({ type: 'Expense', id: ids.e1 });
    expect(rows[0].record).toEqual({ type: 'Income', id: ids.i1 });
    expect(rows[1].record.type).toBe('SalaryPayment');
    // Before anything was recorded: nothing; a moment that is not one: 400.
    expect(await daywise('&knownAt=2020-01-01T00:00:00Z')).toEqual([]);
    expect((await call('GET', '/reports/stock?knownAt=2020-01-01T00:00:00Z')).body).toEqual({});
    for (const bad of [
      'yesterday',
      '2026-11-21',
      '2026-11-21T10:00',
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59-23:59',
    ])
      for (const report of [
        'stock',
        'daywise-report',
        `cashbook-report?entity_type=Godown&entity_id=${ids.godown}`,
      ])
        expect(
          (
            await call(
              'GET',
              `/reports/${report}${report.includes('?') ? '&' : '?'}knownAt=${encodeURIComponent(bad)}`,
            )
          ).status,
          `${report} ${bad}`,
        ).toBe(400);
  });

  it('gives every ledger and cashbook line a key and its record, unique and the same in every read', async () => {
    const paths = [
      `/reports/ledger/Collector/${ids.kabir}`,
      `/reports/cashbook-report?entity_type=Collector&entity_id=${ids.kabir}`,
    ];
    for (const path of paths) {
      const lines = (body: Body) => (Array.isArray(body) ? body : body.transactions) as Body[];
      const [first, second] = [lines(await get(path)), lines(await get(path))];
      const keys = first.map((l) => l.key);
      expect(new Set(keys).size, path).toBe(keys.length);
      expect(second.map((l) => l.key)).toEqual(keys);
      for (const l of first) {
        expect(l.key).toMatch(/^\d+\.\d+$/);
        expect(Number.isNaN(Date.parse(l.recorded_at))).toBe(false);
        expect(l.recorded_at).toBe(new Date(l.recorded_at).toISOString());
      }
      expect(first.map((l) => l.record.type)).toEqual(
        expect.arrayContaining(['Purchase', 'Payment', 'Transfer', 'SalaryPayment', 'Expense', 'Income']),
      );
    }
    // A return's lines belong to its purchase or sale; an edit's to its record.
    const funder = (await get(`/reports/ledger/Funder/${ids.funder}`)).transactions as Body[];
    const returned = funder.filter((l) => String(l.particulars).startsWith('Purchase return: '));
    expect(returned.length).toBeGreaterThan(0);
    for (const l of returned) expect(l.record).toEqual({ type: 'Purchase', id: ids.p1 });
    const agent = (await get(`/reports/ledger/Agent/${ids.agent}`)).transactions as Body[];
    const saleReturn = agent.filter((l) => String(l.particulars).startsWith('Sale return: '));
    expect(saleReturn.length).toBeGreaterThan(0);
    for (const l of saleReturn) expect(l.record).toEqual({ type: 'Sale', id: ids.s1 });
    // Particulars in words (issue #18): the product and quantity, to or from whom, the category.
    const kabir = (await get(`/reports/ledger/Collector/${ids.kabir}`)).transactions as Body[];
    const edited = kabir.filter((l) => /^Expense: .* \(edited\)$/.test(String(l.particulars)));
    expect(edited.map((l) => l.record)).toEqual(edited.map(() => ({ type: 'Expense', id: ids.e1 })));
    // Particulars in words (issue #18): the product and quantity, to or from whom, the category;
    // an edit's and a delete's lines end with '(edited)' and '(deleted)'.
    expect(returned.map((l) => l.particulars)).toEqual(['Purchase return: 10.0000 Cumin']);
    expect(agent.map((l) => l.particulars)).toEqual([
      'Sale return: 4.0000 Cumin',
      'Sale: 5.0000 Cumin to Arif',
      'Sale: 30.0000 Cumin to Arif',
    ]);
    // Each record once, as it stands (issue #25): the edited rent on its new date, the deleted
    // income not at all.
    expect(kabir.map((l) => l.particulars)).toEqual([
      'Purchase: 20.0000 Cumin from Farah',
      'Transfer to Mohan',
      'Payment to Farah (PKR)',
      'Expense: Repairs',
      'Salary: Kabir, November 2026',
      'Payment to Farah (PKR)',
      'Transfer to Mohan',
      'Income: Interest',
      'Salary: Kabir, November 2026',
      'Purchase: 100.0000 Cumin from Farah',
      'Expense: Rent deposit',
      'Expense: Rent (edited)',
    ]);
    // The trail on request: the delete's and the edit's lines too, each saying what it is.
    const trail = (await get(`/reports/ledger/Collector/${ids.kabir}?corrections=true`))
      .transactions as Body[];
    expect(trail.map((l) => l.particulars.replace(/ - .*$/, ''))).toEqual([
      'Purchase: 20.0000 Cumin from Farah',
      'Transfer to Mohan',
      'Income: Interest',
      'Reversal of Income: Interest',
      'Payment to Farah (PKR)',
      'Expense: Repairs',
      'Salary: Kabir, November 2026',
      'Payment to Farah (PKR)',
      'Transfer to Mohan',
      'Income: Interest',
      'Salary: Kabir, November 2026',
      'Purchase: 100.0000 Cumin from Farah',
      'Expense: Rent',
      'Expense: Rent deposit',
      'Reversal of Expense: Rent',
      'Expense: Rent',
    ]);
    expect(new Set(trail.map((l) => l.key)).size).toBe(trail.length);
  });
});

/** The drill-down from a report line: a record, its latest data and its whole history. */
describe.each(TEST_STORAGES)('time travel: a record and its history [%s]', (storage) => {
  let t: TestApp;
  let viewer = '';
  const ids = {} as Record<
    'city' | 'funder' | 'agent' | 'collector' | 'godown' | 'product' | 'purchase' | 'sale' | 'expense',
    string
  >;
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await t.call(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  const record = (type: string, id: string, token = viewer) =>
    t.call('GET', `/reports/records/${type}/${id}`, undefined, token);

  beforeAll(async () => {
    t = await openTestApp({ storage });
    const mk = async (kind: string, body: unknown) =>
      (await ok('POST', `/masters/${kind}`, body)).id as string;
    ids.city = await mk('cities', { name: 'Pune', currency_name: 'INR', rate: 1 });
    ids.funder = await mk('funders', { name: 'Farah', city_id: ids.city });
    ids.agent = await mk('agents', { name: 'Arif', city_id: ids.city });
    ids.collector = await mk('collectors', { name: 'Kabir', city_id: ids.city });
    ids.godown = await mk('godowns', { name: 'Bhiwandi' });
    ids.product = await mk('products', { name: 'Cumin' });
    const purchase = (quantity: number) => ({
      type: 'Godown',
      purchase_date: '2026-11-10',
      city_id: ids.city,
      funder_id: ids.funder,
      product_id: ids.product,
      godown_id: ids.godown,
      rate: 100,
      quantity,
    });
    ids.purchase = (await ok('POST', '/transactions/purchases', purchase(10))).id;
    await ok('PUT', `/transactions/purchases/${ids.purchase}`, purchase(12));
    await ok('POST', '/transactions/purchase-returns', {
      purchase_id: ids.purchase,
      quantity: 2,
      return_date: '2026-11-11',
    });
    await ok('DELETE', `/transactions/purchases/${ids.purchase}`);
    await ok('POST', '/transactions/purchases', purchase(50));
    ids.sale = (
      await ok('POST', '/transactions/sales', {
        sale_date: '2026-11-12',
        agent_id: ids.agent,
        product_id: ids.product,
        godown_id: ids.godown,
        rate: 150,
        quantity: 5,
      })
    ).id;
    await ok('POST', '/transactions/sale-returns', {
      sale_id: ids.sale,
      quantity: 1,
      return_date: '2026-11-13',
    });
    ids.expense = (
      await ok('POST', '/transactions/expenses', {
        city_id: ids.city,
        category: 'Rent',
        remarks: 'November',
        amount: 40,
        expense_date: '2026-11-12',
        paid_from_entity_type: 'Collector',
        paid_from_entity_id: ids.collector,
      })
    ).id;
    const email = 'viewer@x.io';
    await ok('POST', '/masters/users', { name: 'Vera', email, password: 'secret-pw', role: 'Viewer' });
    viewer = await t.login(email, 'secret-pw');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("tells a purchase's whole life, returns included, oldest first, with who did what, to a Viewer", async () => {
    const me = (await t.call('GET', '/auth/profile')).body;
    const res = await record('Purchase', ids.purchase);
    expect(res.status).toBe(200);
    const r = res.body;
    expect(Object.keys(r).sort()).toEqual(['data', 'deleted', 'history', 'id', 'names', 'type']);
    expect([r.type, r.id, r.deleted]).toEqual(['Purchase', ids.purchase, true]);
    expect(r.history.map((h: Body) => [h.action_type, h.model_name])).toEqual([
      ['CREATE', 'Purchase'],
      ['UPDATE', 'Purchase'],
      ['CREATE', 'PurchaseReturn'],
      ['DELETE', 'Purchase'],
    ]);
    for (const h of r.history) {
      expect(Object.keys(h).sort()).toEqual([
        'action_type',
        'created_at',
        'id',
        'model_name',
        'new_data',
        'old_data',
        'user',
      ]);
      expect(h.user).toEqual({ id: me.id, name: me.name });
      for (const data of [h.old_data, h.new_data])
        for (const hidden of ['created_at', 'updated_at', 'createdAt', 'updatedAt', 'password'])
          expect(data ?? {}).not.toHaveProperty(hidden);
    }
    const times = r.history.map((h: Body) => h.created_at);
    expect([...times].sort()).toEqual(times);
    const [created, edited, returned, deleted] = r.history;
    expect(created.old_data).toBeNull();
    expect(Number(created.new_data.quantity)).toBe(10);
    expect(edited.old_data).toEqual(created.new_data);
    expect(Number(edited.new_data.quantity)).toBe(12);
    expect(returned.new_data).toMatchObject({ purchase_id: ids.purchase });
    expect(Number(returned.new_data.quantity)).toBe(2);
    expect(deleted.new_data).toBeNull();
    expect(deleted.old_data).toEqual(edited.new_data);
    // Its latest known data: the edit's, which the delete removed.
    expect(r.data).toEqual(edited.new_data);
    expect(r.names).toMatchObject({
      [ids.funder]: 'Farah',
      [ids.product]: 'Cumin',
      [ids.godown]: 'Bhiwandi',
      [ids.city]: 'Pune',
    });
    expect(r.names[ids.purchase]).toBeUndefined();
  });

  it('tells a sale with its return, and an expense that stands', async () => {
    const sale = (await record('Sale', ids.sale)).body;
    expect(sale.history.map((h: Body) => h.model_name)).toEqual(['Sale', 'SaleReturn']);
    expect(sale.deleted).toBe(false);
    expect(sale.names).toMatchObject({
      [ids.agent]: 'Arif',
      [ids.godown]: 'Bhiwandi',
      [ids.product]: 'Cumin',
    });
    const expense = (await record('Expense', ids.expense)).body;
    expect(expense).toMatchObject({ type: 'Expense', id: ids.expense, deleted: false });
    expect(expense.data).toMatchObject({ category: 'Rent', remarks: 'November' });
    expect(expense.data).toEqual(expense.history[0].new_data);
    expect(expense.names).toMatchObject({ [ids.city]: 'Pune', [ids.collector]: 'Kabir' });
  });

  it('leads from a report line to its record', async () => {
    const lines = (await t.call('GET', `/reports/ledger/Agent/${ids.agent}`)).body.transactions as Body[];
    for (const line of lines) {
      const res = await record(line.record.type, line.record.id);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(ids.sale);
    }
  });

  it('is a 404 for anything but a record of those kinds, and a 401 signed out', async () => {
    const unknown = '0b6f9a5c-3a4e-4c1e-9d2f-2a7c1e5b9d10';
    for (const type of ['User', '__proto__', 'constructor', 'purchase', 'PurchaseReturn', 'Funder']) {
      const res = await record(type, ids.purchase);
      expect(res.status, type).toBe(404);
      expect(res.body.message).toMatch(
        /Purchase, Sale, Payment, ClearingPayout, SalaryPayment, Transfer, Expense, Income/,
      );
    }
    for (const [type, id] of [
      ['Purchase', 'abc'],
      ['Purchase', unknown],
      ['Sale', ids.purchase],
      ['Income', ids.expense],
    ]) {
      const res = await record(type!, id!);
      expect(res.status, `${type} ${id}`).toBe(404);
      expect(res.body).toEqual({ message: `${type} not found.` });
    }
    const anonymous = await fetch(`${t.bahi.url}/api/reports/records/Purchase/${ids.purchase}`);
    expect(anonymous.status).toBe(401);
  });
});
