import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Standalone } from './standalone.ts';
import { openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

/** The read side as the UI uses it: write through the command routes, read the lists back. */
describe.each(TEST_STORAGES)('master lists [%s]', (storage) => {
  let t: TestApp;
  let bahi: Standalone;
  const call = (method: string, path: string, body?: unknown, token?: string) =>
    t.call(method, path, body, token);
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await openTestApp({ storage });
    bahi = t.bahi;
    const mk = async (kind: string, body: unknown) => {
      const r = await call('POST', `/masters/${kind}`, body);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.id as string;
    };
    ids.karachi = await mk('cities', { name: 'Karachi', currency_name: 'PKR', rate: '0.3' });
    ids.mumbai = await mk('cities', { name: 'Mumbai', currency_name: 'INR', rate: 1 });
    ids.asha = await mk('funders', {
      name: 'Asha',
      city_id: ids.karachi,
      phone: '0300-1234567',
      opening_balance: 500,
    });
    ids.bala = await mk('funders', { name: 'Bala', city_id: ids.mumbai });
    ids.collector = await mk('collectors', { name: 'Imran', city_id: ids.karachi, salary_per_month: 15000 });
    ids.godown = await mk('godowns', { name: 'Bhiwandi' });
    ids.product = await mk('products', { name: 'Cumin' });
    await call('POST', '/transactions/purchases', {
      type: 'Godown',
      purchase_date: '2026-11-01',
      city_id: ids.karachi,
      funder_id: ids.asha,
      product_id: ids.product,
      godown_id: ids.godown,
      rate: 250,
      quantity: 100,
    });
    await call('POST', '/transactions/payments', {
      related_entity_type: 'Funder',
      related_entity_id: ids.asha,
      payment_date: '2026-11-05',
      amount: 1000,
      payment_mode: 'Currency',
      collector_id: ids.collector,
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('lists funders with their city and balance on the normal side, read right after the writes', async () => {
    const r = await call('GET', '/masters/funders?page=1&limit=15');
    expect(r.status).toBe(200);
    expect(r.body.totalItems).toBe(2);
    expect(r.body.data[0]).toEqual({
      id: ids.asha,
      name: 'Asha',
      city_id: ids.karachi,
      city: { id: ids.karachi, name: 'Karachi', currency_name: 'PKR' },
      joining_date: null,
      address: null,
      narration: null,
      phone: '0300-1234567',
      opening_balance: '500.00',
      // Owed 25,000 PKR for the goods, 1,000 paid: 24,000 on top of the opening balance.
      balance: { amount: '24000.00' },
    });
    expect(r.body.data[1]).toMatchObject({ name: 'Bala', balance: { amount: '0.00' } });
    const collectors = await call('GET', '/masters/collectors');
    expect(collectors.body.data[0]).toMatchObject({
      name: 'Imran',
      salary_per_month: '15000.00',
      balance: { amount: '-1000.00' },
    });
  });

  it('pages, searches by name or phone, and filters by city', async () => {
    const first = await call('GET', '/masters/funders?page=1&limit=1');
    const second = await call('GET', '/masters/funders?page=2&limit=1');
    expect([first.body.data[0].name, second.body.data[0].name]).toEqual(['Asha', 'Bala']);
    expect(first.body.totalItems).toBe(2);
    expect((await call('GET', '/masters/funders?limit=-1')).body.data).toHaveLength(2);
    expect(
      (await call('GET', '/masters/funders?search=bal')).body.data.map((f: { name: string }) => f.name),
    ).toEqual(['Bala']);
    expect(
      (await call('GET', '/masters/funders?search=1234')).body.data.map((f: { name: string }) => f.name),
    ).toEqual(['Asha']);
    expect((await call('GET', '/masters/funders?search=%25')).body.totalItems).toBe(0); // % is a letter here
    // Counts are remembered per version of the parties; a new funder moves it.
    const carl = (await call('POST', '/masters/funders', { name: 'Carl', city_id: ids.mumbai })).body.id;
    expect((await call('GET', '/masters/funders?page=1&limit=1')).body.totalItems).toBe(3);
    expect((await call('DELETE', `/masters/funders/${carl}`)).status).toBe(200);
    expect((await call('GET', '/masters/funders?page=1&limit=1')).body.totalItems).toBe(2);
    expect(
      (await call('GET', `/masters/funders?city_id=${ids.mumbai}`)).body.data.map(
        (f: { name: string }) => f.name,
      ),
    ).toEqual(['Bala']);
    expect(
      (await call('GET', '/masters/cities')).body.data.map((c: { name: string; rate: string }) => [
        c.name,
        c.rate,
      ]),
    ).toEqual([
      ['Karachi', '0.3000'],
      ['Mumbai', '1.0000'],
    ]);
  });

  it('answers bad paging with 400, an unknown list with 404, users only to Admins, and the profile', async () => {
    expect((await call('GET', '/masters/funders?limit=0')).status).toBe(400);
    expect((await call('GET', '/masters/funders?page=abc')).body.errors[0].path).toBe('page');
    expect((await call('GET', '/masters/planets')).status).toBe(404);
    const users = await call('GET', '/masters/users');
    expect(users.body.data.map((u: { email: string }) => u.email)).toEqual([bahi.config.BAHI_ADMIN_EMAIL]);
    await call('POST', '/masters/users', {
      name: 'Mona',
      email: 'mona@x.io',
      password: 'secret-pw',
      role: 'Manager',
    });
    const mona = await t.login('mona@x.io', 'secret-pw');
    expect((await call('GET', '/masters/users', undefined, mona)).status).toBe(403);
    expect((await call('GET', '/masters/products', undefined, mona)).body.totalItems).toBe(1);
    const profile = await call('GET', '/auth/profile', undefined, mona);
    expect(profile.body).toMatchObject({
      name: 'Mona',
      email: 'mona@x.io',
      role: 'Manager',
      is_active: true,
    });
    expect(JSON.stringify(profile.body)).not.toMatch(/password|argon/i);
    const license = await call('GET', '/auth/license-status', undefined, mona);
    expect(license.body).toMatchObject({
      isValid: true,
      reason: null,
      config: { status: 'Active', type: 'Development', grace_period_days: 7 },
    });
  });

  it('keeps a ledger in business-date order with a running balance, counting a backdated entry on its own date', async () => {
    // Recorded last, dated first.
    await call('POST', '/transactions/payments', {
      related_entity_type: 'Funder',
      related_entity_id: ids.asha,
      payment_date: '2026-10-15T00:00:00.000Z',
      amount: 200,
      payment_mode: 'Currency',
      collector_id: ids.collector,
    });
    const all = await call('GET', `/reports/ledger/Funder/${ids.asha}`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({
      entity: { id: ids.asha, name: 'Asha', type: 'Funder', currency: 'PKR' },
      openingBalance: '500.00',
      closingBalance: '24300.00',
    });
    // Each line also names itself (its journal place) and its record, for the drill-down.
    const identity = (type: string) => ({
      key: expect.stringMatching(/^\d+\.\d+$/),
      record: { type, id: expect.any(String) },
      recorded_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      // No edit or delete touched these lines.
      correction: null,
    });
    expect(all.body.transactions).toEqual([
      {
        date: '2026-10-15',
        particulars: 'Payment to Asha via Imran (PKR)',
        type: 'Debit',
        debit: '200.00',
        credit: '0.00',
        balance: '300.00',
        ...identity('Payment'),
      },
      {
        date: '2026-11-01',
        particulars: 'Purchase: 100.0000 Cumin from Asha',
        type: 'Credit',
        debit: '0.00',
        credit: '25000.00',
        balance: '25300.00',
        ...identity('Purchase'),
      },
      {
        date: '2026-11-05',
        particulars: 'Payment to Asha via Imran (PKR)',
        type: 'Debit',
        debit: '1000.00',
        credit: '0.00',
        balance: '24300.00',
        ...identity('Payment'),
      },
    ]);
    const fromNov2 = await call(
      'GET',
      `/reports/ledger/Funder/${ids.asha}?startDate=2026-11-02T00:00:00.000Z`,
    );
    expect(fromNov2.body).toMatchObject({
      openingBalance: '25300.00',
      closingBalance: '24300.00',
      totalDebit: '1000.00',
      totalCredit: '0.00',
    });
    expect(fromNov2.body.transactions).toHaveLength(1);
    const untilOct31 = await call('GET', `/reports/ledger/Funder/${ids.asha}?endDate=2026-10-31`);
    expect(untilOct31.body.closingBalance).toBe('300.00');
    expect((await call('GET', `/reports/ledger/Planet/${ids.asha}`)).status).toBe(404);
    expect((await call('GET', `/reports/ledger/Agent/${ids.asha}`)).status).toBe(404);
    expect((await call('GET', `/reports/ledger/Funder/${ids.asha}?startDate=yesterday`)).status).toBe(400);
  });

  it('reports stock per godown and the moving-average rate', async () => {
    expect((await call('GET', '/reports/stock')).body).toEqual({
      Bhiwandi: [
        { godown_id: ids.godown, product_id: ids.product, product_name: 'Cumin', quantity: '100.0000' },
      ],
    });
    const rate = await call(
      'GET',
      `/reports/stock/average-purchase-rate?product_id=${ids.product}&godown_id=${ids.godown}`,
    );
    expect(rate.body).toMatchObject({ quantity: '100.0000', average_rate: '75.0000' }); // 7,500 INR for 100 units
  });

  it('reports balances by kind with the list filters', async () => {
    const r = await call('GET', `/reports/balances?city_id=${ids.karachi}`);
    expect(r.status).toBe(200);
    expect(
      r.body.funders.data.map((f: { name: string; balance: { amount: string } }) => [
        f.name,
        f.balance.amount,
      ]),
    ).toEqual([['Asha', '23800.00']] /* movements only: the UI adds the opening balance */);
    expect(r.body.collectors.totalItems).toBe(1);
    expect(r.body.godowns.totalItems).toBe(1); // godowns have no city: the city filter does not apply
  });

  it('lists purchases and sales with names, totals, what remains, and the city and date filters', async () => {
    const purchases = await call('GET', `/transactions/purchases?city_id=${ids.karachi}`);
    expect(purchases.body.totalItems).toBe(1);
    const purchase = purchases.body.data[0];
    expect(purchase).toMatchObject({
      type: 'Godown',
      purchase_date: '2026-11-01',
      funder: { id: ids.asha, name: 'Asha' },
      product: { id: ids.product, name: 'Cumin' },
      godown: { id: ids.godown, name: 'Bhiwandi' },
      rate: '250.0000',
      quantity: '100.0000',
      returned_quantity: '0.0000',
      remaining: '100.0000',
      total: '25000.00',
      customFieldValues: [],
    });
    await call('POST', '/transactions/purchase-returns', {
      purchase_id: purchase.id,
      quantity: 10,
      return_date: '2026-11-06',
    });
    expect((await call('GET', '/transactions/purchases')).body.data[0]).toMatchObject({
      returned_quantity: '10.0000',
      remaining: '90.0000',
    });
    expect((await call('GET', `/transactions/purchases?city_id=${ids.mumbai}`)).body.totalItems).toBe(0);
    expect((await call('GET', '/transactions/purchases?startDate=2026-11-02')).body.totalItems).toBe(0);

    const agent = (await call('POST', '/masters/agents', { name: 'Vikram', city_id: ids.karachi })).body.id;
    const grade = (
      await call('POST', '/masters/custom-fields', {
        name: 'Grade',
        type: 'SELECT',
        options: ['A', 'B'],
        entity_types: ['Sale'],
      })
    ).body.id;
    const sold = await call('POST', '/transactions/sales', {
      sale_date: '2026-11-07',
      agent_id: agent,
      product_id: ids.product,
      godown_id: ids.godown,
      rate: 300,
      quantity: 5,
      custom_fields: { [grade]: 'A' },
    });
    expect(sold.status).toBe(201);
    const sales = await call('GET', `/transactions/sales?city_id=${ids.karachi}`);
    expect(sales.body.totalItems).toBe(1);
    // The count follows every write: a remembered count serves only the version it was read at.
    const second = await call('POST', '/transactions/sales', {
      sale_date: '2026-11-08',
      agent_id: agent,
      product_id: ids.product,
      godown_id: ids.godown,
      rate: 300,
      quantity: 1,
    });
    const karachiPage = () => call('GET', `/transactions/sales?city_id=${ids.karachi}&limit=1`);
    expect((await karachiPage()).body.totalItems).toBe(2);
    expect((await karachiPage()).body.totalItems).toBe(2);
    expect((await call('DELETE', `/transactions/sales/${second.body.id}`)).status).toBe(200);
    expect((await karachiPage()).body.totalItems).toBe(1);
    expect(sales.body.data[0]).toMatchObject({
      agent: { name: 'Vikram' },
      quantity: '5.0000',
      total: '1500.00',
      customFieldValues: [{ custom_field_definition_id: grade, value: 'A', definition: { name: 'Grade' } }],
    });
    // The agent's ledger names it in its Particulars (the names read once, then remembered).
    const agentLedger = async () =>
      (await call('GET', `/reports/ledger/Agent/${agent}`)).body.transactions.map(
        (t: { particulars: string }) => t.particulars,
      );
    expect(await agentLedger()).toEqual(['Sale: 5.0000 Cumin to Vikram']);
    expect(await agentLedger()).toEqual(['Sale: 5.0000 Cumin to Vikram']);
    // A renamed agent shows under the new name at once (names are remembered per version).
    const renamedAgent = await call('PUT', `/masters/agents/${agent}`, {
      name: 'Vikram S',
      city_id: ids.karachi,
    });
    expect(renamedAgent.status).toBe(200);
    expect((await call('GET', '/transactions/sales')).body.data[0].agent).toEqual({
      id: agent,
      name: 'Vikram S',
    });
    expect(await agentLedger()).toEqual(['Sale: 5.0000 Cumin to Vikram S']);
    // Renamed, the list shows the new name at once (names are remembered per version).
    const renamed = await call('PUT', `/masters/custom-fields/${grade}`, {
      name: 'Quality',
      type: 'SELECT',
      options: ['A', 'B'],
      entity_types: ['Sale'],
    });
    expect(renamed.status).toBe(200);
    expect((await call('GET', '/transactions/sales')).body.data[0].customFieldValues).toMatchObject([
      { definition: { name: 'Quality' } },
    ]);
    // A deleted definition's values leave the screens; the event history keeps them.
    await call('DELETE', `/masters/custom-fields/${grade}`);
    expect((await call('GET', '/transactions/sales')).body.data[0].customFieldValues).toEqual([]);
  });

  it('stops listing what was deleted', async () => {
    await call('DELETE', `/masters/funders/${ids.bala}`);
    expect((await call('GET', '/masters/funders')).body.data.map((f: { name: string }) => f.name)).toEqual([
      'Asha',
    ]);
  });

  it('sums the dashboard in INR at each posting’s rate and shows the last 30 days of income and expense', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const spent = await call('POST', '/transactions/expenses', {
      city_id: ids.karachi,
      expense_date: today,
      category: 'Fuel',
      amount: 100,
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: ids.collector,
    });
    expect(spent.status).toBe(201);
    const r = await call('GET', '/reports/dashboard-summary');
    expect(r.status).toBe(200);
    // Asha: opening 500 PKR = 150 INR, owed 7,500 INR for the goods, paid 300 + 60 INR,
    // 10 units returned (2,500 PKR = 750 INR): 150 + 7,500 - 360 - 750 = 6,540.
    expect(r.body.totalFunderBalance).toBe('6540.00');
    // Imran paid out 1,000 + 200 + 100 PKR = 390 INR.
    expect(r.body.totalCollectorBalance).toBe('-390.00');
    expect(r.body.totalAgentBalance).toBe('450.00'); // Vikram owes 5 x 300 PKR = 1,500 PKR = 450 INR
    expect(r.body.dailyIncomeExpense).toHaveLength(30);
    expect(r.body.dailyIncomeExpense.at(-1)).toEqual({ day: today, income: '0.00', expense: '30.00' });
  });

  it('lists expenses (salaries among them), incomes, transfers, and reports payments and salaries', async () => {
    const ravi = (await call('POST', '/masters/collectors', { name: 'Ravi', city_id: ids.mumbai })).body.id;
    expect(
      (
        await call('POST', '/transactions/salary-payments', {
          collector_id: ids.collector,
          month: 11,
          year: 2026,
          payment_type: 'Advance',
          amount: 500,
          payment_mode: 'Currency',
          paid_from_entity_type: 'Collector',
          paid_from_entity_id: ids.collector,
          payment_date: '2026-11-20',
        })
      ).status,
    ).toBe(201);
    await call('POST', '/transactions/transfers', {
      transfer_date: '2026-11-08',
      from_collector_id: ids.collector,
      to_collector_id: ravi,
      sent_amount: 10000,
      transfer_charge: 100,
      rate: '0.3',
    });
    await call('POST', '/transactions/incomes', {
      city_id: ids.mumbai,
      income_date: '2026-11-09',
      category: 'Rent',
      amount: 250,
      received_by_entity_type: 'Collector',
      received_by_entity_id: ravi,
    });

    const expenses = await call('GET', `/transactions/expenses?city_id=${ids.karachi}`);
    expect(
      expenses.body.data.map((e: { category: string; amount: string; payerName: string }) => [
        e.category,
        e.amount,
        e.payerName,
      ]),
    ).toEqual([
      ['Fuel', '100.00', 'Imran'], // newest business date first
      ['Salary - Imran', '500.00', 'Imran'],
    ]);
    expect((await call('GET', '/transactions/expenses?category=fue')).body.totalItems).toBe(1);
    const incomes = await call('GET', '/transactions/incomes');
    expect(incomes.body.data[0]).toMatchObject({
      income_date: '2026-11-09',
      category: 'Rent',
      amount: '250.00',
      receiverName: 'Ravi',
    });
    const transfers = await call('GET', `/transactions/transfers?to_collector_id=${ravi}`);
    expect(transfers.body.data[0]).toMatchObject({
      sent_amount: '10000.00',
      amount: '2970.00',
      fromCollector: { name: 'Imran', city: { name: 'Karachi', currency_name: 'PKR' } },
      toCollector: { name: 'Ravi', city: { name: 'Mumbai', currency_name: 'INR' } },
    });
    expect((await call('GET', `/transactions/transfers?from_collector_id=${ravi}`)).body.totalItems).toBe(0);

    const payments = await call('GET', `/reports/payments?city_id=${ids.karachi}&related_entity_type=Funder`);
    expect(
      payments.body.data.map(
        (x: {
          payment_date: string;
          type: string;
          relatedEntityName: string;
          handlerEntityName: string;
          currency: string;
          amount: string;
        }) => [x.payment_date, x.type, x.relatedEntityName, x.handlerEntityName, x.currency, x.amount],
      ),
    ).toEqual([
      // The currency of each payment (issue #18: the payments file totals per currency).
      ['2026-11-05', 'Payment To', 'Asha', 'Imran', 'PKR', '1000.00'],
      ['2026-10-15', 'Payment To', 'Asha', 'Imran', 'PKR', '200.00'],
    ]);
    expect((await call('GET', '/reports/payments?related_entity_type=Agent')).body.totalItems).toBe(0);
    const salaries = await call(
      'GET',
      `/reports/salary-report?collector_id=${ids.collector}&month=11&year=2026`,
    );
    expect(salaries.body.data[0]).toMatchObject({
      collectorName: 'Imran',
      month: 11,
      year: 2026,
      amount: '500.00',
      currency: 'PKR',
      payerName: 'Imran',
    });
    const paid = await call(
      'GET',
      `/transactions/salary-payments/paid-for-month?collector_id=${ids.collector}&month=11&year=2026`,
    );
    expect(paid.body.totalPaid).toBe('500.00');
    expect(
      (
        await call(
          'GET',
          `/transactions/salary-payments/paid-for-month?collector_id=${ids.collector}&month=13&year=2026`,
        )
      ).status,
    ).toBe(400);

    // Day-wise: in INR at each record's rate (Fuel 100 PKR = 30, salary 500 PKR = 150, rent 250 INR).
    const daywise = await call('GET', '/reports/daywise-report?startDate=2026-11-01');
    expect(
      daywise.body.map((r: { date: string; category: string; type: string; amount: string }) => [
        r.category,
        r.type,
        r.amount,
      ]),
    ).toEqual([
      ['Rent', 'Income', '250.00'],
      ['Salary - Imran', 'Expense', '150.00'],
      ['Fuel', 'Expense', '30.00'],
    ]);
    expect(
      (await call('GET', `/reports/daywise-report?city_id=${ids.karachi}&category=fuel`)).body,
    ).toHaveLength(1);
    // Imran's cash: everything he paid, in business-date order.
    const cashbook = await call(
      'GET',
      `/reports/cashbook-report?entity_type=Collector&entity_id=${ids.collector}`,
    );
    expect(
      cashbook.body.map((r: { date: string; particulars: string; cash_in: string; cash_out: string }) => [
        r.date,
        r.particulars,
        r.cash_in,
        r.cash_out,
      ]),
    ).toEqual([
      ['2026-10-15', 'Payment to Asha (PKR)', '0.00', '200.00'],
      ['2026-11-05', 'Payment to Asha (PKR)', '0.00', '1000.00'],
      ['2026-11-08', 'Transfer to Ravi', '0.00', '10000.00'],
      ['2026-11-20', 'Salary: Imran, November 2026', '0.00', '500.00'],
      [new Date().toISOString().slice(0, 10), 'Expense: Fuel', '0.00', '100.00'],
    ]);
    expect(
      (await call('GET', `/reports/cashbook-report?entity_type=Funder&entity_id=${ids.asha}`)).status,
    ).toBe(400);
  });

  it('keeps an activity log with the data before and after, the user, and a recent list for the dashboard', async () => {
    expect((await call('PUT', `/masters/products/${ids.product}`, { name: 'Cumin seeds' })).status).toBe(200);
    const updates = await call('GET', '/logs?modelName=Product&actionType=UPDATE');
    expect(updates.status).toBe(200);
    expect(updates.body.totalItems).toBe(1);
    expect(updates.body.data[0]).toMatchObject({
      action_type: 'UPDATE',
      model_name: 'Product',
      record_id: ids.product,
      user: { name: 'Administrator' },
      old_data: { id: ids.product, name: 'Cumin' },
      new_data: { id: ids.product, name: 'Cumin seeds' },
    });
    const deleted = await call('GET', '/logs?modelName=Funder&actionType=DELETE');
    expect(deleted.body.data[0]).toMatchObject({
      record_id: ids.bala,
      old_data: { name: 'Bala' },
      new_data: null,
    });
    const created = await call('GET', '/logs?modelName=User&actionType=CREATE&limit=-1');
    expect(JSON.stringify(created.body)).not.toMatch(/password|argon/i);
    expect((await call('GET', '/logs?actionType=MAYBE')).status).toBe(400);

    const recent = await call('GET', '/logs/recent');
    expect(recent.body).toHaveLength(10);
    expect(recent.body[0]).toMatchObject({ action_type: 'UPDATE', model_name: 'Product' }); // newest first
    const mona = await t.login('mona@x.io', 'secret-pw');
    expect((await call('GET', '/logs', undefined, mona)).status).toBe(403);
    expect((await call('GET', '/logs/recent', undefined, mona)).status).toBe(200);
  });
});
