import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Body, openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

/**
 * One small business worked out by hand (ACCOUNTING.md sections 2-4), then every report read
 * back and compared with the figures written below. Dates are days before today (the dashboard
 * shows the last 30 days), so the test means the same whenever it runs.
 *
 * Cities: Mumbai (INR, rate 1), Karachi (PKR, rate 0.3: 1 PKR = 0.30 INR).
 * Parties: funders Farah (Karachi, opening 0) and Dev (Mumbai, opening 1,000); agents Arif
 * (Karachi, opening 500) and Mehta (Mumbai); collectors Kabir (Karachi, salary 15,000) and
 * Mohan (Mumbai, opening 2,000); godowns Bhiwandi and Jebel Ali (opening 10,000 INR); Cumin.
 *
 *  d2  P1 purchase, Godown, Karachi: Farah, 100 Cumin @ 200 PKR into Bhiwandi, 5,000 paid by Kabir
 *        Farah Cr 20,000 Dr 5,000; Kabir Cr 5,000; stock +100 units, +6,000 INR
 *  d3  P2 purchase, Direct, Mumbai: Dev, 40 @ 50 to Mehta, commission 100
 *        Dev Cr 2,000; Mehta Dr 2,100; commission income 100            (deleted at the end)
 *  d4  P3 purchase, Godown, Mumbai: Dev, 50 @ 90 into Bhiwandi   -> stock 150 units, 10,500 INR
 *        (edited at the end to @ 100: Dev Dr 4,500 Cr 5,000; stock value +500)
 *  d5  S1 sale: Arif, 30 @ 300 PKR from Bhiwandi, clearing 150 INR
 *        Arif Dr 9,000 PKR (2,700 INR); cost 10,500 x 30/150 = 2,100 -> 120 units, 8,400
 *  d6  bulk sale from Bhiwandi: Mehta 20 @ 100 (cost 1,400 -> 100 units, 7,000);
 *        Arif 10 @ 310 PKR, clearing 50 (3,100 PKR = 930 INR; cost 700 -> 90 units, 6,300)
 *  d7  return of 10 of P1: Farah Dr 2,000 PKR; stock -10 units at P1's cost 600 -> 80, 5,700
 *  d8  return of 5 of S1: Arif Cr 1,500 PKR; stock +5 at S1's cost 350 -> 85 units, 6,050
 *  d9  payment to Farah, Currency, by Kabir: 3,000 PKR
 *  d10 receipt from Arif, INR, into Jebel Ali: 900 INR = 3,000 PKR off Arif
 *  d11 receipt from Arif, Currency, by Kabir: 2,000 PKR
 *  d12 transfer Kabir -> Mohan: 1,000 PKR sent, charge 100, x 0.3 -> 270 INR received
 *  d13 salary, Advance, Kabir paid by himself: 4,000 PKR (1,200 INR)
 *  d14 clearing payout: Bhiwandi's clearing (200) paid 150 by Jebel Ali
 *  d15 expenses: Rent 500 INR by Mohan (Mumbai); Tea 300 PKR = 90 INR by Kabir (Karachi)
 *  d16 income: Interest 1,000 PKR = 300 INR to Kabir (Karachi)
 *  d0  income (backdated, keyed after everything above): Scrap 250 INR to Mohan (Mumbai)
 *  then the edit of P3 and the delete of P2.
 */
describe.each(TEST_STORAGES)('a business worked out by hand, every report [%s]', (storage) => {
  let t: TestApp;
  type Name = 'mumbai' | 'karachi' | 'farah' | 'dev' | 'arif' | 'mehta' | 'kabir' | 'mohan' | 'bhiwandi';
  const ids = {} as Record<Name | 'jebel' | 'cumin' | 'p1' | 'p2' | 'p3' | 's1', string>;
  const base = new Date(Date.now() - 20 * 86_400_000);
  const d = (n: number) => new Date(base.getTime() + n * 86_400_000).toISOString().slice(0, 10);
  const get = async (path: string): Promise<Body> => {
    const r = await t.call('GET', path);
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
    return r.body;
  };
  const write = async (method: string, path: string, body?: unknown) => {
    const r = await t.call(method, path, body);
    expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
    return r.body.id as string;
  };

  beforeAll(async () => {
    t = await openTestApp({ storage });
    ids.mumbai = await write('POST', '/masters/cities', { name: 'Mumbai', currency_name: 'INR', rate: 1 });
    ids.karachi = await write('POST', '/masters/cities', {
      name: 'Karachi',
      currency_name: 'PKR',
      rate: '0.3',
    });
    ids.farah = await write('POST', '/masters/funders', { name: 'Farah', city_id: ids.karachi });
    ids.dev = await write('POST', '/masters/funders', {
      name: 'Dev',
      city_id: ids.mumbai,
      opening_balance: 1000,
    });
    ids.arif = await write('POST', '/masters/agents', {
      name: 'Arif',
      city_id: ids.karachi,
      opening_balance: 500,
    });
    ids.mehta = await write('POST', '/masters/agents', { name: 'Mehta', city_id: ids.mumbai });
    ids.kabir = await write('POST', '/masters/collectors', {
      name: 'Kabir',
      city_id: ids.karachi,
      salary_per_month: 15000,
    });
    ids.mohan = await write('POST', '/masters/collectors', {
      name: 'Mohan',
      city_id: ids.mumbai,
      opening_balance: 2000,
    });
    ids.bhiwandi = await write('POST', '/masters/godowns', { name: 'Bhiwandi' });
    ids.jebel = await write('POST', '/masters/godowns', { name: 'Jebel Ali', opening_balance: 10000 });
    ids.cumin = await write('POST', '/masters/products', { name: 'Cumin' });

    const purchase3 = {
      type: 'Godown',
      purchase_date: d(4),
      city_id: ids.mumbai,
      funder_id: ids.dev,
      product_id: ids.cumin,
      godown_id: ids.bhiwandi,
      rate: 90,
      quantity: 50,
    };
    ids.p1 = await write('POST', '/transactions/purchases', {
      type: 'Godown',
      purchase_date: d(2),
      city_id: ids.karachi,
      funder_id: ids.farah,
      product_id: ids.cumin,
      godown_id: ids.bhiwandi,
      rate: 200,
      quantity: 100,
      paid_amount: 5000,
      collector_id: ids.kabir,
    });
    ids.p2 = await write('POST', '/transactions/purchases', {
      type: 'Direct',
      purchase_date: d(3),
      city_id: ids.mumbai,
      funder_id: ids.dev,
      product_id: ids.cumin,
      agent_id: ids.mehta,
      rate: 50,
      quantity: 40,
      commission: 100,
    });
    ids.p3 = await write('POST', '/transactions/purchases', purchase3);
    ids.s1 = await write('POST', '/transactions/sales', {
      sale_date: d(5),
      agent_id: ids.arif,
      product_id: ids.cumin,
      godown_id: ids.bhiwandi,
      rate: 300,
      quantity: 30,
      clearing_charge: 150,
    });
    await write('POST', '/transactions/sales/bulk', {
      common: { sale_date: d(6), godown_id: ids.bhiwandi, product_id: ids.cumin },
      sales: [
        { agent_id: ids.mehta, rate: 100, quantity: 20 },
        { agent_id: ids.arif, rate: 310, quantity: 10, clearing_charge: 50 },
      ],
    });
    await write('POST', '/transactions/purchase-returns', {
      purchase_id: ids.p1,
      quantity: 10,
      return_date: d(7),
    });
    await write('POST', '/transactions/sale-returns', { sale_id: ids.s1, quantity: 5, return_date: d(8) });
    await write('POST', '/transactions/payments', {
      related_entity_type: 'Funder',
      related_entity_id: ids.farah,
      payment_date: d(9),
      amount: 3000,
      payment_mode: 'Currency',
      collector_id: ids.kabir,
    });
    await write('POST', '/transactions/payments', {
      related_entity_type: 'Agent',
      related_entity_id: ids.arif,
      payment_date: d(10),
      amount: 900,
      payment_mode: 'INR',
      godown_id: ids.jebel,
    });
    await write('POST', '/transactions/payments', {
      related_entity_type: 'Agent',
      related_entity_id: ids.arif,
      payment_date: d(11),
      amount: 2000,
      payment_mode: 'Currency',
      collector_id: ids.kabir,
    });
    await write('POST', '/transactions/transfers', {
      transfer_date: d(12),
      from_collector_id: ids.kabir,
      to_collector_id: ids.mohan,
      sent_amount: 1000,
      transfer_charge: 100,
      operation: '*',
      rate: '0.3',
    });
    const month = new Date(`${d(13)}T00:00:00Z`);
    await write('POST', '/transactions/salary-payments', {
      collector_id: ids.kabir,
      month: month.getUTCMonth() + 1,
      year: month.getUTCFullYear(),
      payment_type: 'Advance',
      payment_mode: 'Currency',
      amount: 4000,
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: ids.kabir,
      payment_date: d(13),
    });
    await write('POST', '/transactions/clearing-payouts', {
      payout_date: d(14),
      godown_id: ids.bhiwandi,
      payer_entity_id: ids.jebel,
      amount: 150,
    });
    await write('POST', '/transactions/expenses', {
      city_id: ids.mumbai,
      category: 'Rent',
      amount: 500,
      expense_date: d(15),
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: ids.mohan,
    });
    await write('POST', '/transactions/expenses', {
      city_id: ids.karachi,
      category: 'Tea',
      amount: 300,
      expense_date: d(15),
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: ids.kabir,
    });
    await write('POST', '/transactions/incomes', {
      city_id: ids.karachi,
      category: 'Interest',
      amount: 1000,
      income_date: d(16),
      received_by_entity_type: 'Collector',
      received_by_entity_id: ids.kabir,
    });
    await write('POST', '/transactions/incomes', {
      city_id: ids.mumbai,
      category: 'Scrap',
      amount: 250,
      income_date: d(0),
      received_by_entity_type: 'Collector',
      received_by_entity_id: ids.mohan,
    });
    await write('PUT', `/transactions/purchases/${ids.p3}`, { ...purchase3, rate: 100 });
    await write('DELETE', `/transactions/purchases/${ids.p2}`);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('balances: every party on its normal side, in its own currency', async () => {
    const b = await get('/reports/balances?limit=-1');
    const of = (list: Body) =>
      Object.fromEntries(list.data.map((p: Body) => [p.name, [p.opening_balance, p.balance.amount]]));
    // Farah: owed 20,000 - 5,000 paid - 2,000 returned - 3,000 paid = 10,000 PKR.
    // Dev: 1,000 opening; P2 credited and deleted; P3 now 50 @ 100 = 5,000.
    expect(of(b.funders)).toEqual({ Dev: ['1000.00', '5000.00'], Farah: ['0.00', '10000.00'] });
    // Arif: 9,000 + 3,100 - 1,500 - 3,000 - 2,000 = 5,600 PKR. Mehta: 2,100 (deleted) + 2,000.
    expect(of(b.agents)).toEqual({ Arif: ['500.00', '5600.00'], Mehta: ['0.00', '2000.00'] });
    // Kabir: -5,000 - 3,000 + 2,000 - 1,000 - 4,000 - 300 + 1,000. Mohan: 270 - 500 + 250.
    expect(of(b.collectors)).toEqual({ Kabir: ['0.00', '-10300.00'], Mohan: ['2000.00', '20.00'] });
    // Godown cash: Jebel Ali received 900 and paid the 150 clearing payout.
    expect(of(b.godowns)).toEqual({ Bhiwandi: ['0.00', '0.00'], 'Jebel Ali': ['10000.00', '750.00'] });
  });

  it('the godowns master list: stock and clearing balance, now and as of a date; party balances as of a date', async () => {
    const of = (list: Body) =>
      Object.fromEntries(
        list.data.map((g: Body) => [
          g.name,
          [g.clearing_balance, g.stock.map((s: Body) => `${s.product_name}: ${s.quantity}`)],
        ]),
      );
    // Clearing: 150 (S1) + 50 (bulk row) - 150 paid out by Jebel Ali = 50. Stock: 85 Cumin.
    expect(of(await get('/masters/godowns'))).toEqual({
      Bhiwandi: ['50.00', ['Cumin: 85.0000']],
      'Jebel Ali': ['0.00', []],
    });
    // As of d5: P1's 100 and P3's 50 in, S1's 30 out; S1's clearing 150 not yet paid out.
    expect(of(await get(`/masters/godowns?asOf=${d(5)}`))).toEqual({
      Bhiwandi: ['150.00', ['Cumin: 120.0000']],
      'Jebel Ali': ['0.00', []],
    });
    // Farah as of d2: owed 20,000, 5,000 paid on the same day.
    const farah = (await get(`/masters/funders?asOf=${d(2)}&search=Farah`)).data[0];
    expect([farah.opening_balance, farah.balance.amount]).toEqual(['0.00', '15000.00']);
  });

  it('ledgers: a funder with a purchase, its payment, a return and a payment; one with an edit and a delete', async () => {
    const farah = await get(`/reports/ledger/Funder/${ids.farah}`);
    expect(farah).toMatchObject({
      openingBalance: '0.00',
      closingBalance: '10000.00',
      totalDebit: '10000.00',
      totalCredit: '20000.00',
    });
    expect(
      farah.transactions.map((l: Body) => [l.date, l.particulars, l.debit, l.credit, l.balance]),
    ).toEqual([
      [d(2), 'Purchase: 100.0000 Cumin from Farah', '0.00', '20000.00', '20000.00'],
      [d(2), 'Purchase: 100.0000 Cumin from Farah', '5000.00', '0.00', '15000.00'],
      [d(7), 'Purchase return: 10.0000 Cumin', '2000.00', '0.00', '13000.00'],
      [d(9), 'Payment to Farah via Kabir (PKR)', '3000.00', '0.00', '10000.00'],
    ]);
    // Each record once, as it stands (issue #25): the edited purchase at its new figures, the
    // deleted one not at all; the totals are not swollen by the corrections.
    const dev = await get(`/reports/ledger/Funder/${ids.dev}`);
    expect(dev).toMatchObject({
      openingBalance: '1000.00',
      closingBalance: '6000.00',
      totalDebit: '0.00',
      totalCredit: '5000.00',
    });
    expect(dev.transactions.map((l: Body) => [l.date, l.particulars, l.debit, l.credit, l.balance])).toEqual([
      [d(4), 'Purchase: 50.0000 Cumin from Dev (edited)', '0.00', '5000.00', '6000.00'],
    ]);
    // The trail on request: what each line is, and how it stands to the edit and the delete.
    const trail = await get(`/reports/ledger/Funder/${ids.dev}?corrections=true`);
    expect(trail).toMatchObject({
      closingBalance: '6000.00',
      totalDebit: '6500.00',
      totalCredit: '11500.00',
    });
    expect(
      trail.transactions.map((l: Body) => [
        l.date,
        l.debit,
        l.credit,
        l.balance,
        l.correction?.state ?? null,
      ]),
    ).toEqual([
      [d(3), '0.00', '2000.00', '3000.00', 'superseded'],
      [d(3), '2000.00', '0.00', '1000.00', 'reversal'],
      [d(4), '0.00', '4500.00', '5500.00', 'superseded'],
      [d(4), '4500.00', '0.00', '1000.00', 'reversal'],
      [d(4), '0.00', '5000.00', '6000.00', 'amended'],
    ]);
    expect(trail.transactions[0].particulars).toMatch(/^Purchase: 40\.0000 Cumin from Dev - deleted on /);
    expect(trail.transactions[3].particulars).toMatch(
      /^Reversal of Purchase: 50\.0000 Cumin from Dev - edit of /,
    );
    // A date range: the opening carries what came before it.
    const later = await get(`/reports/ledger/Funder/${ids.farah}?startDate=${d(8)}&endDate=${d(20)}`);
    expect(later).toMatchObject({
      openingBalance: '13000.00',
      closingBalance: '10000.00',
      totalDebit: '3000.00',
    });
    const arif = await get(`/reports/ledger/Agent/${ids.arif}`);
    expect(arif).toMatchObject({ openingBalance: '500.00', closingBalance: '6100.00' });
    expect(arif.transactions.map((l: Body) => l.balance)).toEqual([
      '9500.00', // sale 9,000
      '12600.00', // bulk row 3,100
      '11100.00', // sale return 1,500
      '8100.00', // receipt in INR: 900 / 0.3
      '6100.00', // receipt in PKR
    ]);
  });

  it('stock and the average rate: quantities after sales, returns and the edit; INR value per unit', async () => {
    expect(await get('/reports/stock')).toEqual({
      Bhiwandi: [
        { godown_id: ids.bhiwandi, product_id: ids.cumin, product_name: 'Cumin', quantity: '85.0000' },
      ],
    });
    // 6,050 INR before the edit, + 500 by it: 6,550 / 85 = 77.0588...
    expect(
      await get(`/reports/stock/average-purchase-rate?product_id=${ids.cumin}&godown_id=${ids.bhiwandi}`),
    ).toEqual({
      product_id: ids.cumin,
      godown_id: ids.bhiwandi,
      quantity: '85.0000',
      average_rate: '77.0588',
    });
    // Before the sales (as of d4): 150 units.
    expect(await get(`/reports/stock?asOf=${d(4)}`)).toEqual({
      Bhiwandi: [
        { godown_id: ids.bhiwandi, product_id: ids.cumin, product_name: 'Cumin', quantity: '150.0000' },
      ],
    });
  });

  it("cashbook: Kabir's cash in and out", async () => {
    const rows = await get(
      `/reports/cashbook-report?startDate=${d(0)}&endDate=${d(20)}&city_id=${ids.karachi}&entity_type=Collector&entity_id=${ids.kabir}`,
    );
    expect(rows.map((r: Body) => [r.date, r.particulars, r.cash_in, r.cash_out])).toEqual([
      [d(2), 'Purchase: 100.0000 Cumin from Farah', '0.00', '5000.00'],
      [d(9), 'Payment to Farah (PKR)', '0.00', '3000.00'],
      [d(11), 'Payment from Arif (PKR)', '2000.00', '0.00'],
      [d(12), 'Transfer to Mohan', '0.00', '1000.00'],
      [d(13), 'Salary: Kabir, November 2026', '0.00', '4000.00'],
      [d(15), 'Expense: Tea', '0.00', '300.00'],
      [d(16), 'Income: Interest', '1000.00', '0.00'],
    ]);
  });

  it('day-wise: incomes and expenses (salary among them) in INR, by city and for all', async () => {
    const range = `startDate=${d(0)}&endDate=${d(20)}`;
    const rows = async (city: string) =>
      (await get(`/reports/daywise-report?${range}&city_id=${city}`)).map((r: Body) => [
        r.date,
        r.category,
        r.type,
        r.amount,
      ]);
    expect(await rows(ids.karachi)).toEqual([
      [d(13), expect.stringContaining('Salary'), 'Expense', '1200.00'],
      [d(15), 'Tea', 'Expense', '90.00'],
      [d(16), 'Interest', 'Income', '300.00'],
    ]);
    expect(await rows(ids.mumbai)).toEqual([
      [d(0), 'Scrap', 'Income', '250.00'],
      [d(15), 'Rent', 'Expense', '500.00'],
    ]);
    const all = await get(`/reports/daywise-report?${range}`);
    expect(all).toHaveLength(5);
    const sum = (type: string) =>
      all
        .filter((r: Body) => r.type === type)
        .reduce((s: number, r: Body) => s + Math.round(Number(r.amount) * 100), 0);
    expect([sum('Income'), sum('Expense')]).toEqual([55000, 179000]); // 550.00 and 1,790.00 INR
  });

  it('dashboard: totals in INR at each posting’s rate, and the last 30 days of income and expense', async () => {
    const s = await get('/reports/dashboard-summary');
    // Funders: Farah (20,000 - 5,000 - 2,000 - 3,000) x 0.3 = 3,000; Dev 1,000 + 5,000.
    expect(s.totalFunderBalance).toBe('9000.00');
    // Agents: Arif 500 x 0.3 + 2,700 + 930 - 450 - 900 - 600 = 1,830; Mehta 2,000.
    expect(s.totalAgentBalance).toBe('3830.00');
    // Collectors: Kabir -1,500 - 900 + 600 - 300 - 1,200 - 90 + 300 = -3,090; Mohan 2,000 + 20.
    expect(s.totalCollectorBalance).toBe('-1070.00');
    expect(s.totalGodownBalance).toBe('10750.00');
    const byDay = Object.fromEntries(s.dailyIncomeExpense.map((r: Body) => [r.day, [r.income, r.expense]]));
    expect(s.dailyIncomeExpense).toHaveLength(30);
    expect(byDay[d(0)]).toEqual(['250.00', '0.00']);
    expect(byDay[d(5)]).toEqual(['0.00', '150.00']); // clearing charge of the sale
    expect(byDay[d(6)]).toEqual(['0.00', '50.00']);
    expect(byDay[d(13)]).toEqual(['0.00', '1200.00']); // salary
    expect(byDay[d(15)]).toEqual(['0.00', '590.00']);
    expect(byDay[d(16)]).toEqual(['300.00', '0.00']);
    const quiet = Object.entries(byDay).filter(([day]) => ![0, 5, 6, 13, 15, 16].some((n) => d(n) === day));
    expect(quiet.every(([, v]) => (v as string[]).join() === '0.00,0.00')).toBe(true);
  });

  it('lists: the purchase and sale lists with returns, the edit and the delete', async () => {
    const purchases = await get('/transactions/purchases?limit=-1');
    expect(purchases.totalItems).toBe(2);
    const p = Object.fromEntries(purchases.data.map((r: Body) => [r.id, r]));
    expect(p[ids.p1]).toMatchObject({ quantity: '100.0000', returned_quantity: '10.0000' });
    expect(p[ids.p3]).toMatchObject({ rate: '100.0000', quantity: '50.0000' });
    expect(p[ids.p2]).toBeUndefined();
    const sales = await get('/transactions/sales?limit=-1');
    expect(sales.totalItems).toBe(3);
    expect(sales.data.find((r: Body) => r.id === ids.s1)).toMatchObject({ returned_quantity: '5.0000' });
  });
});
