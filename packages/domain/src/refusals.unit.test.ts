import type { DomainEvent } from '@bahi/contracts';
import { describe, expect, it } from 'vitest';
import {
  decideCashEntry,
  decidePayment,
  decideSalaryPayment,
  decideTransfer,
  evolveCashEntry,
  evolveOnce,
  evolveSalaryMonth,
  initialCashEntry,
  initialOnce,
  initialSalaryMonth,
} from './cash/cash.ts';
import { DomainError } from './errors.ts';
import { decideInventory, evolveInventory, initialInventory } from './inventory/inventory.ts';

/** The refusals not already shown next to each decider's worked examples. */
const u = (c: string) => `00000000-0000-4000-8000-0000000000${c}`;
const refused = (fn: () => unknown, kind: DomainError['kind'], message: string | RegExp) => {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).kind).toBe(kind);
  expect((error as DomainError).message).toMatch(message);
};
const fold = <S>(events: DomainEvent[], evolve: (s: S, e: DomainEvent) => S, initial: S) =>
  events.reduce(evolve, initial);
const inr = { rate: '1.0000', currency: 'INR' };

describe('refusals', () => {
  it('a bulk sale mixing products or godowns', () => {
    const row = (n: string, product: string) => ({
      agentCity: { id: u('c0'), ...inr },
      sale: {
        id: u(n),
        sale_date: '2026-11-01',
        agent_id: u('a0'),
        product_id: product,
        godown_id: u('g0'),
        rate: '1.0000',
        quantity: '1.0000',
        clearing_charge: '0.00',
        custom_fields: {},
      },
    });
    refused(
      () =>
        decideInventory(
          {
            type: 'RecordSales',
            sales: [row('01', u('p1')), row('02', u('p2'))],
            labels: { product: 'P', godown: 'G' },
          },
          initialInventory(),
        ),
      'invalid',
      'Every row of a bulk sale is of the same product from the same godown.',
    );
  });

  it('editing a sale into another godown', () => {
    const bought = decideInventory(
      {
        type: 'RecordPurchase',
        city: inr,
        purchase: {
          id: u('b1'),
          type: 'Godown',
          purchase_date: '2026-11-01',
          city_id: u('c0'),
          funder_id: u('f0'),
          product_id: u('p1'),
          godown_id: u('g0'),
          collector_id: null,
          agent_id: null,
          rate: '1.0000',
          quantity: '5.0000',
          paid_amount: '0.00',
          commission: '0.00',
          custom_fields: {},
        },
      },
      initialInventory(),
    );
    const sale = {
      id: u('s1'),
      sale_date: '2026-11-01',
      agent_id: u('a0'),
      product_id: u('p1'),
      godown_id: u('g0'),
      rate: '2.0000',
      quantity: '1.0000',
      clearing_charge: '0.00',
      custom_fields: {},
    };
    const sold = decideInventory(
      {
        type: 'RecordSales',
        sales: [{ sale, agentCity: { id: u('c0'), ...inr } }],
        labels: { product: 'P', godown: 'G' },
      },
      fold(bought, evolveInventory, initialInventory()),
    );
    refused(
      () =>
        decideInventory(
          {
            type: 'UpdateSale',
            sale: { ...sale, godown_id: u('g9') },
            agentCity: { id: u('c0'), ...inr },
            labels: { product: 'P', godown: 'G' },
          },
          fold([...bought, ...sold], evolveInventory, initialInventory()),
        ),
      'invalid',
      /godown of a sale cannot be changed/,
    );
  });

  it('recording the same payment, transfer, expense or salary payment twice', () => {
    const payment = {
      id: u('01'),
      related_entity_type: 'Funder' as const,
      related_entity_id: u('f0'),
      city_id: u('c0'),
      payment_date: '2026-11-01',
      amount: '1.00',
      payment_mode: 'Currency' as const,
      collector_id: u('k0'),
      godown_id: null,
      reference: null,
    };
    const paid = decidePayment({ payment, city: inr }, initialOnce());
    refused(
      () => decidePayment({ payment, city: inr }, fold(paid, evolveOnce, initialOnce())),
      'conflict',
      'This payment is already recorded.',
    );

    const transfer = {
      id: u('02'),
      transfer_date: '2026-11-01',
      from_collector_id: u('k0'),
      to_collector_id: u('k1'),
      sent_amount: '1.00',
      transfer_charge: '0.00',
      operation: '*' as const,
      rate: '1.0000',
      remarks: null,
    };
    const sent = decideTransfer({ transfer, from: inr, to: inr }, initialOnce());
    refused(
      () => decideTransfer({ transfer, from: inr, to: inr }, fold(sent, evolveOnce, initialOnce())),
      'conflict',
      'This transfer is already recorded.',
    );

    const entry = {
      id: u('03'),
      city_id: u('c0'),
      category: 'Fuel',
      amount: '1.00',
      remarks: null,
      expense_date: '2026-11-01',
      paid_from_entity_type: 'Godown',
      paid_from_entity_id: u('g0'),
    } as never;
    const spent = decideCashEntry('Expense', { type: 'Record', entry, payer: inr }, initialCashEntry());
    refused(
      () =>
        decideCashEntry(
          'Expense',
          { type: 'Record', entry, payer: inr },
          fold(spent, (s, e) => evolveCashEntry('Expense', s, e), initialCashEntry()),
        ),
      'conflict',
      'This expense is already recorded.',
    );

    const salary = {
      payment: {
        id: u('04'),
        collector_id: u('k0'),
        city_id: u('c0'),
        month: 1,
        year: 2026,
        payment_type: 'Advance' as const,
        payment_mode: 'Currency' as const,
        amount: '1.00',
        category: 'Salary',
        paid_from_entity_type: 'Collector' as const,
        paid_from_entity_id: u('k0'),
        handler_entity_id: null,
        payment_date: '2026-01-31',
        remarks: null,
      },
      salaryPerMonth: '100.00',
      city: inr,
      collectorName: 'K',
    };
    const once = decideSalaryPayment(salary, initialSalaryMonth());
    refused(
      () => decideSalaryPayment(salary, fold(once, evolveSalaryMonth, initialSalaryMonth())),
      'conflict',
      'This salary payment is already recorded.',
    );
    refused(
      () =>
        decideSalaryPayment(
          { ...salary, payment: { ...salary.payment, id: u('05'), amount: '0.00' } },
          initialSalaryMonth(),
        ),
      'invalid',
      'Amount must be more than 0.',
    );
  });
});
