import type { DomainEvent, EventData } from '@bahi/contracts';
import { describe, expect, it } from 'vitest';
import { inrTotal } from '../accounting/postings.ts';
import { isZero } from '../decimal.ts';
import { decideInventory, evolveInventory, initialInventory } from '../inventory/inventory.ts';
import { givenWhenThen } from '../testing.ts';
import {
  cashEntryDecider,
  decideCashEntry,
  decidePayment,
  decideSalaryPayment,
  decideTransfer,
  evolveCashEntry,
  evolveSalaryMonth,
  initialCashEntry,
  initialOnce,
  initialSalaryMonth,
  paymentDeletionDecider,
  salaryMonthDecider,
} from './cash.ts';

const u = (c: string) => `00000000-0000-4000-8000-0000000000${c}`;
const [F, A, K, K2, G, H, C] = ['f1', 'a1', 'c1', 'c2', 'g1', 'g2', 'ci'].map(u) as string[];
const pkr = { rate: '0.3000', currency: 'PKR' };
const postingsOf = (events: DomainEvent[]) =>
  (events[0]!.data as { postings: EventData<'PaymentRecorded'>['postings'] }).postings;
const balanced = (events: DomainEvent[]) =>
  events.every((e) => isZero(inrTotal((e.data as unknown as { postings: [] }).postings)));

const payment = (extra: Partial<EventData<'PaymentRecorded'>['payment']>) => ({
  id: u('p1'),
  related_entity_type: 'Funder' as const,
  related_entity_id: F!,
  city_id: C!,
  payment_date: '2026-11-05',
  amount: '1000.00',
  payment_mode: 'Currency' as const,
  collector_id: K!,
  godown_id: null,
  reference: null,
  ...extra,
});

describe('payments and receipts', () => {
  it('pays a funder from a collector: the funder is debited, the collector credited, in the city currency', () => {
    expect(postingsOf(decidePayment({ payment: payment({}), city: pkr }, initialOnce()))).toEqual([
      { account: `funder:${F}`, currency: 'PKR', amount: '1000.00', inr: '300.00' },
      { account: `collector:${K}`, currency: 'PKR', amount: '-1000.00', inr: '-300.00' },
    ]);
  });

  it('receives from an agent into a collector', () => {
    const events = decidePayment(
      { payment: payment({ related_entity_type: 'Agent', related_entity_id: A! }), city: pkr },
      initialOnce(),
    );
    expect(postingsOf(events)).toEqual([
      { account: `agent:${A}`, currency: 'PKR', amount: '-1000.00', inr: '-300.00' },
      { account: `collector:${K}`, currency: 'PKR', amount: '1000.00', inr: '300.00' },
    ]);
  });

  it('pays a funder in INR from a godown: the funder moves by the amount over the city rate', () => {
    const events = decidePayment(
      {
        payment: payment({ payment_mode: 'INR', collector_id: null, godown_id: G!, amount: '300.00' }),
        city: pkr,
      },
      initialOnce(),
    );
    expect(postingsOf(events)).toEqual([
      { account: `funder:${F}`, currency: 'PKR', amount: '1000.00', inr: '300.00' },
      { account: `godown:${G}`, currency: 'INR', amount: '-300.00', inr: '-300.00' },
    ]);
    expect(balanced(events)).toBe(true);
  });

  it('receives INR from an agent into a godown, rounding to FX difference when the rate does not divide', () => {
    const events = decidePayment(
      {
        payment: payment({
          related_entity_type: 'Agent',
          related_entity_id: A!,
          payment_mode: 'INR',
          collector_id: null,
          godown_id: G!,
          amount: '100.00',
        }),
        city: { rate: '0.0700', currency: 'AFN' },
      },
      initialOnce(),
    );
    // 100 / 0.07 = 1428.5714... -> 1428.57 AFN, worth 99.9999 -> 100.00 INR
    expect(postingsOf(events)).toEqual([
      { account: `agent:${A}`, currency: 'AFN', amount: '-1428.57', inr: '-100.00' },
      { account: `godown:${G}`, currency: 'INR', amount: '100.00', inr: '100.00' },
    ]);
  });
});

describe("a payment's reversal (an import's undo)", () => {
  const d = paymentDeletionDecider;
  const fold = (events: DomainEvent[]) => events.reduce(d.evolve, d.initialState());

  it('reverses exactly what the payment posted, INR included', () => {
    const paid = decidePayment(
      {
        payment: payment({ payment_mode: 'INR', collector_id: null, godown_id: G!, amount: '300.00' }),
        city: pkr,
      },
      initialOnce(),
    );
    const undone = d.decide({ type: 'Delete', id: u('p1') }, fold(paid));
    expect(undone).toEqual([
      {
        type: 'PaymentDeleted',
        data: {
          id: u('p1'),
          postings: [
            { account: `funder:${F}`, currency: 'PKR', amount: '-1000.00', inr: '-300.00' },
            { account: `godown:${G}`, currency: 'INR', amount: '300.00', inr: '300.00' },
          ],
        },
      },
    ]);
    expect(balanced(undone)).toBe(true);
  });

  it('refuses a payment never recorded, or already deleted', () => {
    expect(() => d.decide({ type: 'Delete', id: u('p1') }, d.initialState())).toThrow('Payment not found.');
    const paid = decidePayment({ payment: payment({}), city: pkr }, initialOnce());
    const deleted = d.decide({ type: 'Delete', id: u('p1') }, fold(paid));
    expect(() => d.decide({ type: 'Delete', id: u('p1') }, fold([...paid, ...deleted]))).toThrow(
      'Payment not found.',
    );
  });
});

describe('collector transfers', () => {
  const transfer = (extra: Partial<EventData<'TransferRecorded'>['transfer']> = {}) => ({
    id: u('t1'),
    transfer_date: '2026-11-05',
    from_collector_id: K!,
    to_collector_id: K2!,
    sent_amount: '10000.00',
    transfer_charge: '100.00',
    operation: '*' as const,
    rate: '0.3000',
    remarks: null,
    ...extra,
  });
  const inr = { rate: '1.0000', currency: 'INR' };

  it('sends (sent - charge) x rate, books the charge, and balances the difference to FX', () => {
    const events = decideTransfer({ transfer: transfer(), from: pkr, to: inr }, initialOnce());
    expect((events[0]!.data as EventData<'TransferRecorded'>).transfer.amount).toBe('2970.00');
    expect(postingsOf(events)).toEqual([
      { account: `collector:${K}`, currency: 'PKR', amount: '-10000.00', inr: '-3000.00' },
      { account: `collector:${K2}`, currency: 'INR', amount: '2970.00', inr: '2970.00' },
      { account: 'nominal:TransferCharges', currency: 'INR', amount: '30.00', inr: '30.00' },
    ]);
    const divided = decideTransfer(
      { transfer: transfer({ operation: '/', rate: '3.3333' }), from: pkr, to: inr },
      initialOnce(),
    );
    // 9,900 / 3.3333 = 2,970.0297 -> 2,970.03: 0.03 INR more arrives than left, to FX difference.
    expect(postingsOf(divided).at(-1)).toEqual({
      account: 'nominal:FxDifference',
      currency: 'INR',
      amount: '-0.03',
      inr: '-0.03',
    });
  });

  it('refuses a transfer to the same collector and a charge above the amount', () => {
    expect(() =>
      decideTransfer({ transfer: transfer({ to_collector_id: K! }), from: pkr, to: pkr }, initialOnce()),
    ).toThrow('Choose two different collectors.');
    expect(() =>
      decideTransfer(
        { transfer: transfer({ transfer_charge: '10000.01' }), from: pkr, to: inr },
        initialOnce(),
      ),
    ).toThrow(/between 0 and the amount sent/);
  });
});

describe('salary for a collector’s month', () => {
  const gwt = givenWhenThen(salaryMonthDecider);
  const pay = (n: string, type: 'Full' | 'Advance', amount?: string, extra = {}) => ({
    payment: {
      id: u(n),
      collector_id: K!,
      city_id: C!,
      month: 11,
      year: 2026,
      payment_type: type,
      payment_mode: 'Currency' as const,
      amount,
      category: 'Salary - Imran',
      paid_from_entity_type: 'Collector' as const,
      paid_from_entity_id: K!,
      handler_entity_id: null,
      payment_date: '2026-11-30',
      remarks: null,
      ...extra,
    },
    salaryPerMonth: '15000.00',
    city: pkr,
    collectorName: 'Imran',
  });
  const advance = decideSalaryPayment(pay('s1', 'Advance', '5000.00'), initialSalaryMonth());

  it('pays an advance from the collector himself: Salary (INR) debited, the collector credited', () => {
    expect(postingsOf(advance)).toEqual([
      { account: 'nominal:Salary', currency: 'INR', amount: '1500.00', inr: '1500.00' },
      { account: `collector:${K}`, currency: 'PKR', amount: '-5000.00', inr: '-1500.00' },
    ]);
  });

  it('pays Full as exactly what is left, then refuses any more', () => {
    const full = decideSalaryPayment(
      pay('s2', 'Full'),
      advance.reduce(evolveSalaryMonth, initialSalaryMonth()),
    );
    expect((full[0]!.data as EventData<'SalaryPaid'>).salary_payment.amount).toBe('10000.00');
    gwt([...advance, ...full])
      .when(pay('s3', 'Full'))
      .thenRefused('conflict', 'The salary of Imran for 11/2026 is already paid in full.');
    gwt([...advance, ...full])
      .when(pay('s4', 'Advance', '0.01'))
      .thenRefused('conflict', /Only 0.00 of the salary/);
  });

  it('refuses an advance above what is left, and pays in INR from a godown', () => {
    gwt(advance)
      .when(pay('s5', 'Advance', '10000.01'))
      .thenRefused(
        'conflict',
        'Only 10000.00 of the salary of Imran for 11/2026 is left to pay; this payment is 10000.01.',
      );
    const fromGodown = decideSalaryPayment(
      pay('s6', 'Advance', '1000.00', {
        payment_mode: 'INR',
        paid_from_entity_type: 'Godown',
        paid_from_entity_id: G,
      }),
      advance.reduce(evolveSalaryMonth, initialSalaryMonth()),
    );
    expect(postingsOf(fromGodown)).toEqual([
      { account: 'nominal:Salary', currency: 'INR', amount: '300.00', inr: '300.00' },
      { account: `godown:${G}`, currency: 'INR', amount: '-300.00', inr: '-300.00' },
    ]);
  });
});

describe('expenses and incomes', () => {
  const gwt = givenWhenThen(cashEntryDecider('Expense'));
  const entry = (amount: string) => ({
    id: u('e1'),
    city_id: C!,
    category: 'Fuel',
    amount,
    remarks: null,
    expense_date: '2026-11-05',
    paid_from_entity_type: 'Collector' as const,
    paid_from_entity_id: K!,
  });
  const recorded = decideCashEntry(
    'Expense',
    { type: 'Record', entry: entry('1000.00'), payer: pkr },
    initialCashEntry(),
  );

  it('records an expense: the category (INR) debited, the paying collector credited', () => {
    expect(postingsOf(recorded)).toEqual([
      { account: `collector:${K}`, currency: 'PKR', amount: '-1000.00', inr: '-300.00' },
      { account: 'nominal:Expense:Fuel', currency: 'INR', amount: '300.00', inr: '300.00' },
    ]);
  });

  it('updates by reversing the old postings and posting the new in one event, and deletes by reversing what stands', () => {
    const updated = decideCashEntry(
      'Expense',
      { type: 'Update', entry: entry('1200.00'), payer: pkr },
      recorded.reduce((s, e) => evolveCashEntry('Expense', s, e), initialCashEntry()),
    );
    expect(postingsOf(updated)).toEqual([
      { account: `collector:${K}`, currency: 'PKR', amount: '1000.00', inr: '300.00' },
      { account: 'nominal:Expense:Fuel', currency: 'INR', amount: '-300.00', inr: '-300.00' },
      { account: `collector:${K}`, currency: 'PKR', amount: '-1200.00', inr: '-360.00' },
      { account: 'nominal:Expense:Fuel', currency: 'INR', amount: '360.00', inr: '360.00' },
    ]);
    gwt([...recorded, ...updated])
      .when({ type: 'Delete', id: u('e1') })
      .thenEvents([
        {
          type: 'ExpenseDeleted',
          data: {
            id: u('e1'),
            postings: [
              { account: `collector:${K}`, currency: 'PKR', amount: '1200.00', inr: '360.00' },
              { account: 'nominal:Expense:Fuel', currency: 'INR', amount: '-360.00', inr: '-360.00' },
            ],
          },
        },
      ]);
    gwt([...recorded, { type: 'ExpenseDeleted', data: { id: u('e1'), postings: [] } }])
      .when({ type: 'Update', entry: entry('1.00'), payer: pkr })
      .thenRefused('not_found', 'Expense not found.');
  });

  it('records an income received by a godown in INR', () => {
    const income = decideCashEntry(
      'Income',
      {
        type: 'Record',
        entry: {
          id: u('i1'),
          city_id: C!,
          category: 'Rent',
          amount: '500.00',
          remarks: null,
          income_date: '2026-11-05',
          received_by_entity_type: 'Godown',
          received_by_entity_id: G!,
        } as never,
        payer: pkr,
      },
      initialCashEntry(),
    );
    expect(postingsOf(income)).toEqual([
      { account: `godown:${G}`, currency: 'INR', amount: '500.00', inr: '500.00' },
      { account: 'nominal:Income:Rent', currency: 'INR', amount: '-500.00', inr: '-500.00' },
    ]);
  });
});

describe('clearing payouts', () => {
  it('pays out at most the clearing balance that the godown’s sales built up', () => {
    const P = u('p9');
    const bought = decideInventory(
      {
        type: 'RecordPurchase',
        city: { rate: '1.0000', currency: 'INR' },
        purchase: {
          id: u('b1'),
          type: 'Godown',
          purchase_date: '2026-11-01',
          city_id: C!,
          funder_id: F!,
          product_id: P,
          godown_id: G!,
          collector_id: null,
          agent_id: null,
          rate: '1.0000',
          quantity: '10.0000',
          paid_amount: '0.00',
          commission: '0.00',
          custom_fields: {},
        },
      },
      initialInventory(),
    );
    const sold = decideInventory(
      {
        type: 'RecordSales',
        labels: { product: 'P', godown: 'Bhiwandi' },
        sales: [
          {
            agentCity: { id: C!, rate: '1.0000', currency: 'INR' },
            sale: {
              id: u('s9'),
              sale_date: '2026-11-02',
              agent_id: A!,
              product_id: P,
              godown_id: G!,
              rate: '2.0000',
              quantity: '1.0000',
              clearing_charge: '50.00',
              custom_fields: {},
            },
          },
        ],
      },
      bought.reduce(evolveInventory, initialInventory()),
    );
    const state = () => [...bought, ...sold].reduce(evolveInventory, initialInventory());
    const payout = (id: string, amount: string) => ({
      type: 'PayOutClearing' as const,
      godownName: 'Bhiwandi',
      payout: {
        id: u(id),
        payout_date: '2026-11-06',
        godown_id: G!,
        payer_entity_type: 'Godown' as const,
        payer_entity_id: H!,
        amount,
        remarks: null,
      },
    });
    const paid = decideInventory(payout('o1', '30.00'), state());
    expect(postingsOf(paid)).toEqual([
      { account: `clearing:${G}`, currency: 'INR', amount: '30.00', inr: '30.00' },
      { account: `godown:${H}`, currency: 'INR', amount: '-30.00', inr: '-30.00' },
    ]);
    expect(() =>
      decideInventory(
        payout('o2', '20.01'),
        [...bought, ...sold, ...paid].reduce(evolveInventory, initialInventory()),
      ),
    ).toThrow('The clearing balance of Bhiwandi is 20.00; a payout of 20.01 is more than that.');
  });
});
