import type { EventData } from '@bahi/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandTestApp, commandTestApp } from './testing/command-app.ts';
import { expectOnlyRegisteredEvents } from './testing/registered-events.ts';

describe('cash movements through the command API', () => {
  let t: CommandTestApp;
  let collectorToken: string;
  const m: Record<string, string> = {};

  beforeAll(async () => {
    t = await commandTestApp();
    const mk = async (kind: string, body: unknown) => {
      const res = await t.call('POST', `/api/masters/${kind}`, t.adminToken, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    m.karachi = await mk('cities', { name: 'Karachi', currency_name: 'PKR', rate: '0.3' });
    m.mumbai = await mk('cities', { name: 'Mumbai', currency_name: 'INR', rate: 1 });
    m.funder = await mk('funders', { name: 'Asha', city_id: m.karachi });
    m.agent = await mk('agents', { name: 'Vikram', city_id: m.karachi });
    m.k1 = await mk('collectors', { name: 'Imran', city_id: m.karachi, salary_per_month: 15000 });
    m.k2 = await mk('collectors', { name: 'Ravi', city_id: m.mumbai });
    m.godown = await mk('godowns', { name: 'Bhiwandi' });
    m.godown2 = await mk('godowns', { name: 'Nhava' });
    m.product = await mk('products', { name: 'Cumin' });
    await t.call('POST', '/api/masters/users', t.adminToken, {
      name: 'Col',
      email: 'col@test.local',
      password: 'secret-pw',
      role: 'Collector',
    });
    collectorToken = await t.login('col@test.local', 'secret-pw');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const post = (path: string, body: unknown, token = t.adminToken) =>
    t.call('POST', `/api/transactions/${path}`, token, body);
  const only = async (stream: string) => (await t.eventStore.readStream(stream))[0]!;

  it('pays a funder through a collector (a Collector may), and checks the collector’s city', async () => {
    const res = await post(
      'payments',
      {
        related_entity_type: 'Funder',
        related_entity_id: m.funder,
        payment_date: '2026-11-05',
        amount: 1000,
        payment_mode: 'Currency',
        collector_id: m.k1,
      },
      collectorToken,
    );
    expect(res.statusCode, res.body).toBe(201);
    const event = await only(`payment-${res.json().id}`);
    expect((event.data as EventData<'PaymentRecorded'>).postings.map((p) => [p.account, p.amount])).toEqual([
      [`funder:${m.funder}`, '1000.00'],
      [`collector:${m.k1}`, '-1000.00'],
    ]);
    const wrongCity = await post('payments', {
      related_entity_type: 'Funder',
      related_entity_id: m.funder,
      payment_date: '2026-11-05',
      amount: 1,
      payment_mode: 'Currency',
      collector_id: m.k2,
    });
    expect(wrongCity.statusCode).toBe(400);
    expect(wrongCity.json().errors).toEqual([
      { msg: 'Collector is not of the same city', path: 'collector_id' },
    ]);
    const noHandler = await post('payments', {
      related_entity_type: 'Agent',
      related_entity_id: m.agent,
      payment_date: '2026-11-05',
      amount: 1,
      payment_mode: 'INR',
    });
    expect(noHandler.json().errors).toEqual([
      { msg: 'Choose the godown that handles the cash', path: 'godown_id' },
    ]);
  });

  it('transfers between collectors of different cities at a rate, with a charge', async () => {
    const res = await post(
      'transfers',
      {
        transfer_date: '2026-11-05',
        from_collector_id: m.k1,
        to_collector_id: m.k2,
        sent_amount: 10000,
        transfer_charge: 100,
        operation: '*',
        rate: '0.3',
      },
      collectorToken,
    );
    expect(res.statusCode, res.body).toBe(201);
    const data = (await only(`transfer-${res.json().id}`)).data as EventData<'TransferRecorded'>;
    expect(data.transfer.amount).toBe('2970.00');
    expect(data.transfer.rate).toBe('0.3000');
    const same = await post('transfers', {
      transfer_date: '2026-11-05',
      from_collector_id: m.k1,
      to_collector_id: m.k1,
      sent_amount: 1,
    });
    expect(same.json().errors).toEqual([{ msg: 'Choose two different collectors', path: 'to_collector_id' }]);
    const tooMuchCharge = await post('transfers', {
      transfer_date: '2026-11-05',
      from_collector_id: m.k1,
      to_collector_id: m.k2,
      sent_amount: 1,
      transfer_charge: 2,
    });
    expect(tooMuchCharge.json().errors).toEqual([
      { msg: 'Charge cannot be more than the amount sent', path: 'transfer_charge' },
    ]);
  });

  it('pays salary: an advance, then Full pays exactly the rest, then no more', async () => {
    const base = {
      collector_id: m.k1,
      month: 11,
      year: 2026,
      payment_mode: 'Currency',
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: m.k1,
    };
    expect(
      (await post('salary-payments', { ...base, payment_type: 'Advance', amount: 5000 })).statusCode,
    ).toBe(201);
    const full = await post('salary-payments', { ...base, payment_type: 'Full' });
    expect(full.statusCode, full.body).toBe(201);
    const events = await t.eventStore.readStream(`salary-${m.k1}-2026-11`);
    expect(events.map((e) => (e.data as EventData<'SalaryPaid'>).salary_payment.amount)).toEqual([
      '5000.00',
      '10000.00',
    ]);
    expect((events[0]!.data as EventData<'SalaryPaid'>).salary_payment.category).toBe('Salary - Imran');
    const more = await post('salary-payments', { ...base, payment_type: 'Advance', amount: 1 });
    expect(more.statusCode).toBe(409);
    expect(more.json().message).toMatch(/^Only 0.00 of the salary of Imran for 11\/2026 is left to pay/);
    // On the field it concerns, so the Pay Salary dialog shows it under the amount.
    expect(more.json().errors).toEqual([{ msg: more.json().message, path: 'amount' }]);
    const wrongMode = await post('salary-payments', { ...base, payment_type: 'Full', payment_mode: 'INR' });
    expect(wrongMode.json().errors).toEqual([
      { msg: 'In INR mode a godown pays', path: 'paid_from_entity_type' },
    ]);
    const collectorMayNot = await post(
      'salary-payments',
      { ...base, month: 10, payment_type: 'Full' },
      collectorToken,
    );
    expect(collectorMayNot.statusCode).toBe(403);
  });

  it('pays out clearing up to what the godown’s sales built', async () => {
    await post('purchases', {
      type: 'Godown',
      purchase_date: '2026-11-01',
      city_id: m.karachi,
      funder_id: m.funder,
      product_id: m.product,
      godown_id: m.godown,
      rate: 1,
      quantity: 10,
    });
    await post('sales', {
      sale_date: '2026-11-02',
      agent_id: m.agent,
      product_id: m.product,
      godown_id: m.godown,
      rate: 2,
      quantity: 1,
      clearing_charge: 50,
    });
    const ok = await post('clearing-payouts', {
      payout_date: '2026-11-06',
      godown_id: m.godown,
      payer_entity_id: m.godown2,
      amount: 30,
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const over = await post('clearing-payouts', {
      payout_date: '2026-11-06',
      godown_id: m.godown,
      payer_entity_id: m.godown2,
      amount: 20.01,
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe(
      'The clearing balance of Bhiwandi is 20.00; a payout of 20.01 is more than that.',
    );
    expect(over.json().errors).toEqual([{ msg: over.json().message, path: 'amount' }]);
  });

  it('records, edits and deletes an expense; an income paid into a godown; checks the collector’s city', async () => {
    const body = {
      city_id: m.karachi,
      expense_date: '2026-11-05',
      category: 'Fuel',
      amount: 1000,
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: m.k1,
    };
    const created = await post('expenses', body);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    expect(
      (await t.call('PUT', `/api/transactions/expenses/${id}`, t.adminToken, { ...body, amount: 1200 }))
        .statusCode,
    ).toBe(200);
    expect((await t.call('DELETE', `/api/transactions/expenses/${id}`, t.adminToken)).statusCode).toBe(200);
    expect((await t.eventStore.readStream(`expense-${id}`)).map((e) => e.type)).toEqual([
      'ExpenseRecorded',
      'ExpenseUpdated',
      'ExpenseDeleted',
    ]);
    expect((await t.call('DELETE', `/api/transactions/expenses/${id}`, t.adminToken)).json()).toEqual({
      message: 'Expense not found.',
    });
    const otherCity = await post('expenses', { ...body, city_id: m.mumbai });
    expect(otherCity.json().errors).toEqual([
      { msg: 'The collector is not of the same city', path: 'paid_from_entity_id' },
    ]);
    const income = await post('incomes', {
      city_id: m.mumbai,
      income_date: '2026-11-05',
      category: 'Rent',
      amount: 500,
      received_by_entity_type: 'Godown',
      received_by_entity_id: m.godown,
    });
    expect(income.statusCode, income.body).toBe(201);
    const viewer = await post('expenses', body, collectorToken);
    expect(viewer.statusCode).toBe(403);
  });

  it('keeps collectors that cash records refer to from being deleted', async () => {
    const res = await t.call('DELETE', `/api/masters/collectors/${m.k2}`, t.adminToken);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/Collector "Ravi" cannot be deleted: .*transfer/);
  });

  it('wrote only registered event types, each passing its schema', async () => {
    expect(await expectOnlyRegisteredEvents(t.eventStore)).toBeGreaterThan(5);
  });
});
