import { randomUUID } from 'node:crypto';
import { decideCashEntry, initialCashEntry, requireStorable } from '@bahi/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBooksCaughtUp, expectRebuildIdentical, headPosition } from './testing/books.ts';
import { type Body, openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

/**
 * Issue #16: input the command side accepted but a projection could not store stopped that
 * read model for good (a poison event). Each such input must now be a 400 on its field that
 * appends nothing, and what is accepted at the edges must project and rebuild identically.
 */
describe.each(TEST_STORAGES)('inputs that would stop the books [%s]', (storage) => {
  let t: TestApp;
  const ids: Record<string, string> = {};

  /** A refused write: 400, the message on the field, and nothing appended. */
  const refused = async (method: string, path: string, body: unknown, field: string) => {
    const before = await headPosition(t);
    const r = await t.call(method, path, body);
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.message).toEqual(expect.any(String));
    expect(r.body.errors, JSON.stringify(r.body)).toContainEqual({ msg: expect.any(String), path: field });
    expect(await headPosition(t)).toBe(before);
    return r.body as Body;
  };
  const created = async (path: string, body: unknown) => {
    const r = await t.call('POST', path, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as string;
  };

  beforeAll(async () => {
    t = await openTestApp({ storage });
    ids.karachi = await created('/masters/cities', { name: 'Karachi', currency_name: 'PKR', rate: '0.3' });
    ids.dubai = await created('/masters/cities', { name: 'Dubai', currency_name: 'AED', rate: '1000' });
    ids.funder = await created('/masters/funders', { name: 'Asha', city_id: ids.karachi });
    ids.dubaiFunder = await created('/masters/funders', { name: 'Omar', city_id: ids.dubai });
    ids.collector = await created('/masters/collectors', { name: 'Imran', city_id: ids.karachi });
    ids.collector2 = await created('/masters/collectors', { name: 'Zaid', city_id: ids.dubai });
    ids.godown = await created('/masters/godowns', { name: 'Bhiwandi' });
    ids.product = await created('/masters/products', { name: 'Cumin' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('refuses business dates outside 2000-01-01 .. 2099-12-31 and anything after the date', async () => {
    for (const joining_date of [
      '0000-01-01',
      '1999-12-31',
      '2100-01-01',
      '9999-12-31',
      '2026-02-28Tgarbage',
      '2026-02-28x',
      '2026-02-30',
      '+02026-02-28',
    ]) {
      const body = await refused('POST', '/masters/godowns', { name: 'x', joining_date }, 'joining_date');
      expect(body.errors[0].msg).toMatch(/Joining date must be (a date|between 2000-01-01 and 2099-12-31)/);
    }
    const expense = {
      city_id: ids.karachi,
      category: 'Rent',
      amount: 10,
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: ids.collector,
    };
    for (const expense_date of ['0000-01-01', '9999-12-31', '2026-02-28Tgarbage']) {
      await refused('POST', '/transactions/expenses', { ...expense, expense_date }, 'expense_date');
    }
    // The edges, and a full ISO timestamp the UI sends, are business dates.
    for (const joining_date of ['2000-01-01', '2099-12-31', '2026-02-28T18:30:00.000Z', '2026-02-28T10:30']) {
      await created('/masters/godowns', { name: `g ${joining_date}`, joining_date });
    }
    await created('/transactions/expenses', { ...expense, expense_date: '2099-12-31' });
    await created('/transactions/expenses', { ...expense, expense_date: '2000-01-01' });
    await expectBooksCaughtUp(t);
  });

  it('refuses a purchase, its edit, a sale, a payment and a transfer whose derived amounts would overflow the read models', async () => {
    const purchase = {
      type: 'Godown',
      purchase_date: '2026-11-01',
      city_id: ids.karachi,
      funder_id: ids.funder,
      product_id: ids.product,
      godown_id: ids.godown,
      rate: 10,
      quantity: 100,
    };
    const huge = '999999999999999';
    await refused('POST', '/transactions/purchases', { ...purchase, rate: huge, quantity: huge }, 'quantity');
    // Each part fits; the product in INR (x 1000 AED) would not.
    await refused(
      'POST',
      '/transactions/purchases',
      { ...purchase, city_id: ids.dubai, funder_id: ids.dubaiFunder, rate: 1_000_000, quantity: 10_000_000 },
      'quantity',
    );
    const id = await created('/transactions/purchases', purchase);
    await refused(
      'PUT',
      `/transactions/purchases/${id}`,
      { ...purchase, rate: huge, quantity: 1000 },
      'quantity',
    );
    // A paid amount in AED whose INR value is too large.
    await refused(
      'POST',
      '/transactions/purchases',
      {
        ...purchase,
        city_id: ids.dubai,
        funder_id: ids.dubaiFunder,
        collector_id: ids.collector2,
        paid_amount: '9999999999999.99',
      },
      'paid_amount',
    );
    await refused(
      'POST',
      '/transactions/sales',
      {
        sale_date: '2026-11-02',
        product_id: ids.product,
        godown_id: ids.godown,
        agent_id: await created('/masters/agents', { name: 'Ravi', city_id: ids.dubai }),
        rate: huge,
        quantity: 1,
      },
      'quantity',
    );
    // Paying a Karachi funder 10^14 INR from a godown is 3.3 x 10^14 PKR: fits. At rate 0.3 and
    // from Dubai's side, a transfer divided by a tiny rate does not.
    await refused(
      'POST',
      '/transactions/transfers',
      {
        transfer_date: '2026-11-03',
        from_collector_id: ids.collector,
        to_collector_id: ids.collector2,
        sent_amount: '100000000000000',
        operation: '/',
        rate: '0.0001',
      },
      'rate',
    );
    await refused(
      'POST',
      '/transactions/expenses',
      {
        city_id: ids.dubai,
        category: 'Rent',
        amount: '999999999999999.99',
        expense_date: '2026-11-03',
        paid_from_entity_type: 'Collector',
        paid_from_entity_id: ids.collector2,
      },
      'amount',
    );
    // The largest values that fit are recorded and projected.
    await created('/transactions/purchases', {
      ...purchase,
      city_id: ids.dubai,
      funder_id: ids.dubaiFunder,
      godown_id: await created('/masters/godowns', { name: 'Jebel Ali' }),
      rate: '99999.9999',
      quantity: '9999999.9999',
    });
    await created('/transactions/purchases', { ...purchase, rate: '999999999999999', quantity: '0.0001' });
    await created('/transactions/expenses', {
      city_id: ids.karachi,
      category: 'Rent',
      amount: '999999999999999.99',
      expense_date: '2026-11-03',
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: ids.collector,
    });
    await expectBooksCaughtUp(t);
  });

  it('adds up a thousand of the largest postings to one account on one day without overflowing the sums', async () => {
    // Each expense is the largest the domain accepts; their sum per account and day (over 10^18)
    // overflowed numeric(20, 2) in account_totals and account_days and stopped the journal.
    // Appended as the command side writes them (the domain decides each), 1,001 of them quickly.
    const big = await created('/masters/collectors', { name: 'Big', city_id: ids.karachi });
    for (let i = 0; i < 1001; i++) {
      const id = randomUUID();
      const [event] = decideCashEntry(
        'Expense',
        {
          type: 'Record',
          entry: {
            id,
            city_id: ids.karachi!,
            category: 'Huge',
            amount: '999999999999999.99',
            remarks: null,
            expense_date: '2026-11-20',
            paid_from_entity_type: 'Collector',
            paid_from_entity_id: big,
          },
          payer: { rate: '0.3000', currency: 'PKR' },
        },
        initialCashEntry(),
      );
      requireStorable(event!);
      await t.bahi.eventStore.append(
        `expense-${id}`,
        [{ type: event!.type, data: event!.data, metadata: { schemaVersion: 1 } }],
        'no_stream',
      );
    }
    await expectBooksCaughtUp(t, 120_000);
    await t.syncToHead();
    const collectors = (await t.call('GET', '/masters/collectors?limit=-1')).body.data as Body[];
    expect(collectors.find((c) => c.id === big)?.balance).toEqual({ amount: '-1000999999999999989.99' });
    const day = await t.call('GET', `/reports/ledger/Collector/${big}?asOf=2026-11-30`);
    expect(day.status, JSON.stringify(day.body)).toBe(200);
    expect(day.body.closingBalance).toBe('-1000999999999999989.99');
  }, 180_000);

  it('keeps every projection running, and a rebuild agrees with the live read models', async () => {
    await expectBooksCaughtUp(t);
    await expectRebuildIdentical(t);
  }, 180_000);
});
