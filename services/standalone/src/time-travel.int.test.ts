import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

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
