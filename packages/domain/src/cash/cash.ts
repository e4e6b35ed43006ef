import type { DomainEvent, EventData } from '@bahi/contracts';
import { account, INR, PostingBook, reversed } from '../accounting/postings.ts';
import type { Decider } from '../decider.ts';
import {
  AMOUNT_SCALE,
  add,
  compare,
  type Dec,
  div,
  format,
  isZero,
  mul,
  neg,
  parseDecimal,
  RATE_SCALE,
  round,
  sub,
  toFixedString,
  zero,
} from '../decimal.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { transferReceived } from './transfer-amount.ts';

const d = parseDecimal;
const positive = (value: string, label: string): Dec => {
  const parsed = d(value);
  if (parsed.units <= 0n) throw invalid(`${label} must be more than 0.`);
  return parsed;
};

/** A record written once, in its own stream (payments, transfers). */
export type OnceState = { recorded: boolean };
export const initialOnce = (): OnceState => ({ recorded: false });
export const evolveOnce = (_state: OnceState, _event: DomainEvent): OnceState => ({ recorded: true });

// ---------------------------------------------------------------------------------------
// Payments to funders and receipts from agents (ACCOUNTING.md section 4).

export const paymentStreamId = (id: string) => `payment-${id}`;

export function decidePayment(
  command: { payment: EventData<'PaymentRecorded'>['payment']; city: { rate: string; currency: string } },
  state: OnceState,
): DomainEvent[] {
  if (state.recorded) throw conflict('This payment is already recorded.');
  const p = command.payment;
  const amount = positive(p.amount, 'Amount');
  const rate = positive(command.city.rate, 'City rate');
  const cur = command.city.currency;
  const party =
    p.related_entity_type === 'Funder'
      ? account.funder(p.related_entity_id)
      : account.agent(p.related_entity_id);
  const towardsParty = p.related_entity_type === 'Funder' ? 1 : -1; // paying a funder debits it; a receipt credits the agent
  const signed = (v: Dec, sign: number) => (sign > 0 ? v : neg(v));
  const book = new PostingBook().from('amount', 'Amount');
  if (p.payment_mode === 'Currency') {
    book
      .post(party, cur, signed(amount, towardsParty), rate)
      .post(account.collector(p.collector_id!), cur, signed(amount, -towardsParty), rate);
  } else {
    // The godown pays (or receives) INR; the party's account moves by its value in the city currency.
    const inCity = div(amount, rate, AMOUNT_SCALE);
    book
      .post(party, cur, signed(inCity, towardsParty), rate)
      .postInr(account.godownCash(p.godown_id!), signed(amount, -towardsParty));
  }
  return [
    {
      type: 'PaymentRecorded',
      data: { payment: p, city_rate: command.city.rate, currency: cur, postings: book.balanced() },
    },
  ];
}

// ---------------------------------------------------------------------------------------
// Collector transfers.

export const transferStreamId = (id: string) => `transfer-${id}`;

export function decideTransfer(
  command: {
    transfer: Omit<EventData<'TransferRecorded'>['transfer'], 'amount'>;
    from: { rate: string; currency: string };
    to: { rate: string; currency: string };
  },
  state: OnceState,
): DomainEvent[] {
  if (state.recorded) throw conflict('This transfer is already recorded.');
  const t = command.transfer;
  if (t.from_collector_id === t.to_collector_id) throw invalid('Choose two different collectors.');
  const sent = positive(t.sent_amount, 'Amount to send');
  const charge = d(t.transfer_charge);
  if (charge.units < 0n || compare(charge, sent) > 0)
    throw invalid('The charge must be between 0 and the amount sent.');
  const rate = positive(t.rate, 'Rate');
  const received = transferReceived(sent, charge, rate, t.operation);
  const fromRate = positive(command.from.rate, 'City rate');
  const toRate = positive(command.to.rate, 'City rate');
  const book = new PostingBook()
    .from('sent_amount', 'Amount to send')
    .post(account.collector(t.from_collector_id), command.from.currency, neg(sent), fromRate)
    .from('rate', 'Rate')
    .post(account.collector(t.to_collector_id), command.to.currency, received, toRate)
    .from('transfer_charge', 'Charge')
    .postInr(account.transferCharges, mul(charge, fromRate, AMOUNT_SCALE)) // nominal accounts are INR
    .from('rate', 'Rate');
  return [
    {
      type: 'TransferRecorded',
      data: {
        transfer: { ...t, amount: toFixedString(received), rate: toFixedString(round(rate, RATE_SCALE)) },
        from_city_rate: command.from.rate,
        from_currency: command.from.currency,
        to_city_rate: command.to.rate,
        to_currency: command.to.currency,
        postings: book.balanced(),
      },
    },
  ];
}

// ---------------------------------------------------------------------------------------
// Salary: one stream per collector and month guards "paid never above the salary".

export const salaryStreamId = (collectorId: string, year: number, month: number) =>
  `salary-${collectorId}-${year}-${String(month).padStart(2, '0')}`;

export type SalaryMonthState = { paid: Dec; payments: Set<string> };
export const initialSalaryMonth = (): SalaryMonthState => ({ paid: zero(AMOUNT_SCALE), payments: new Set() });
export function evolveSalaryMonth(state: SalaryMonthState, event: DomainEvent): SalaryMonthState {
  if (event.type !== 'SalaryPaid') return state;
  return {
    paid: round(add(state.paid, d(event.data.salary_payment.amount)), AMOUNT_SCALE),
    payments: new Set([...state.payments, event.data.salary_payment.id]),
  };
}

/** What is left to pay of a month's salary (never below zero). */
export const salaryLeft = (salaryPerMonth: string, state: SalaryMonthState): Dec => {
  const left = sub(d(salaryPerMonth), state.paid);
  return left.units < 0n ? zero(AMOUNT_SCALE) : round(left, AMOUNT_SCALE);
};

export function decideSalaryPayment(
  command: {
    payment: Omit<EventData<'SalaryPaid'>['salary_payment'], 'amount'> & { amount: string | undefined };
    salaryPerMonth: string;
    city: { rate: string; currency: string };
    collectorName: string;
  },
  state: SalaryMonthState,
): DomainEvent[] {
  const p = command.payment;
  if (state.payments.has(p.id)) throw conflict('This salary payment is already recorded.');
  const left = salaryLeft(command.salaryPerMonth, state);
  const period = `${String(p.month).padStart(2, '0')}/${p.year}`;
  let amount: Dec;
  if (p.payment_type === 'Full') {
    if (isZero(left))
      throw conflict(
        `The salary of ${command.collectorName} for ${period} is already paid in full.`,
        'amount',
      );
    amount = left; // Full pays exactly what is left
  } else {
    amount = positive(p.amount ?? '0', 'Amount');
    if (compare(amount, left) > 0) {
      throw conflict(
        `Only ${format(left, 2)} of the salary of ${command.collectorName} for ${period} is left to pay; this payment is ${format(amount, 2)}.`,
        'amount',
      );
    }
  }
  const rate = positive(command.city.rate, 'City rate');
  const cur = command.city.currency;
  const book = new PostingBook()
    .from('amount', 'Amount')
    .postInr(account.salary, mul(amount, rate, AMOUNT_SCALE)); // nominal accounts are INR
  if (p.paid_from_entity_type === 'Collector')
    book.post(account.collector(p.paid_from_entity_id), cur, neg(amount), rate);
  else book.postInr(account.godownCash(p.paid_from_entity_id), neg(mul(amount, rate, AMOUNT_SCALE)));
  return [
    {
      type: 'SalaryPaid',
      data: {
        salary_payment: { ...p, amount: toFixedString(amount) },
        salary_per_month: command.salaryPerMonth,
        city_rate: command.city.rate,
        currency: cur,
        postings: book.balanced(),
      },
    },
  ];
}

// ---------------------------------------------------------------------------------------
// Expenses and incomes: recorded, updated, deleted, each posting what undoes the last.

export type CashEntryKind = 'Expense' | 'Income';
export const cashEntryStreamId = (kind: CashEntryKind, id: string) => `${kind.toLowerCase()}-${id}`;

type Entry = EventData<'ExpenseRecorded'>['entry'];
export type CashEntryState =
  | { status: 'none' }
  | { status: 'active'; entry: Entry; postings: EventData<'ExpenseRecorded'>['postings'] }
  | { status: 'deleted' };
export const initialCashEntry = (): CashEntryState => ({ status: 'none' });

export function evolveCashEntry(
  kind: CashEntryKind,
  state: CashEntryState,
  event: DomainEvent,
): CashEntryState {
  switch (event.type) {
    case `${kind}Recorded`:
    case `${kind}Updated`: {
      const data = event.data as EventData<'ExpenseRecorded'>;
      // What stands now: for an update, the new lines only (the reversal undid the old ones).
      const postings =
        event.type.endsWith('Updated') && state.status === 'active'
          ? data.postings.slice(state.postings.length)
          : data.postings;
      return { status: 'active', entry: data.entry, postings };
    }
    case `${kind}Deleted`:
      return { status: 'deleted' };
    default:
      return state;
  }
}

export type CashEntryCommand =
  | { type: 'Record' | 'Update'; entry: Entry; payer: { rate: string; currency: string } }
  | { type: 'Delete'; id: string };

export function decideCashEntry(
  kind: CashEntryKind,
  command: CashEntryCommand,
  state: CashEntryState,
): DomainEvent[] {
  const label = kind === 'Expense' ? 'Expense' : 'Income';
  if (command.type === 'Delete') {
    if (state.status !== 'active') throw notFound(`${label} not found.`);
    return [
      { type: `${kind}Deleted`, data: { id: command.id, postings: reversed(state.postings) } } as DomainEvent,
    ];
  }
  if (command.type === 'Record' && state.status !== 'none')
    throw conflict(`This ${label.toLowerCase()} is already recorded.`);
  if (command.type === 'Update' && state.status !== 'active') throw notFound(`${label} not found.`);
  const e = command.entry as Entry & Record<string, string>;
  const amount = positive(e.amount as string, 'Amount');
  const rate = positive(command.payer.rate, 'City rate');
  const cashType = kind === 'Expense' ? e.paid_from_entity_type : e.received_by_entity_type;
  const cashId = kind === 'Expense' ? e.paid_from_entity_id : e.received_by_entity_id;
  const cash = cashType === 'Collector' ? account.collector(cashId!) : account.godownCash(cashId!);
  const category = e.category as string;
  const nominal = kind === 'Expense' ? account.expense(category) : account.income(category);
  const sign = kind === 'Expense' ? 1 : -1; // an expense debits the nominal and credits the cash
  const book = new PostingBook().from('amount', 'Amount');
  if (cashType === 'Collector')
    book.post(cash, command.payer.currency, sign > 0 ? neg(amount) : amount, rate);
  else book.postInr(cash, sign > 0 ? neg(amount) : amount);
  const inr = cashType === 'Collector' ? mul(amount, rate, AMOUNT_SCALE) : amount;
  book.postInr(nominal, sign > 0 ? inr : neg(inr));
  const fresh = book.balanced();
  if (
    command.type === 'Update' &&
    state.status === 'active' &&
    JSON.stringify(state.entry) === JSON.stringify(e)
  )
    return [];
  const postings =
    command.type === 'Update' && state.status === 'active' ? [...reversed(state.postings), ...fresh] : fresh;
  return [
    {
      type: `${kind}${command.type === 'Record' ? 'Recorded' : 'Updated'}`,
      data: {
        entry: e,
        rate: command.payer.rate,
        currency: cashType === 'Collector' ? command.payer.currency : INR,
        postings,
      },
    } as DomainEvent,
  ];
}

/** A payment's own stream (`payment-<id>`): recorded once. */
export const paymentDecider: Decider<Parameters<typeof decidePayment>[0], OnceState> = {
  initialState: initialOnce,
  evolve: evolveOnce,
  decide: decidePayment,
};

/** A payment's stream as it stands, for its reversal: none yet, standing (with its postings), or deleted. */
export type PaymentState =
  | { status: 'none' }
  | { status: 'active'; postings: EventData<'PaymentRecorded'>['postings'] }
  | { status: 'deleted' };

/**
 * A payment's reversal (`PaymentDeleted`, its postings undone). The API records payments only;
 * the undo of an import (issue #31) is the one command that deletes one.
 */
export const paymentDeletionDecider: Decider<{ type: 'Delete'; id: string }, PaymentState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    if (event.type === 'PaymentRecorded') return { status: 'active', postings: event.data.postings };
    if (event.type === 'PaymentDeleted') return { status: 'deleted' };
    return state;
  },
  decide(command, state) {
    if (state.status !== 'active') throw notFound('Payment not found.');
    return [{ type: 'PaymentDeleted', data: { id: command.id, postings: reversed(state.postings) } }];
  },
};

/** A transfer's own stream (`transfer-<id>`): recorded once. */
export const transferDecider: Decider<Parameters<typeof decideTransfer>[0], OnceState> = {
  initialState: initialOnce,
  evolve: evolveOnce,
  decide: decideTransfer,
};

/** A collector's salary month (`salary-<collector>-<year>-<month>`): paid at most the month's salary. */
export const salaryMonthDecider: Decider<Parameters<typeof decideSalaryPayment>[0], SalaryMonthState> = {
  initialState: initialSalaryMonth,
  evolve: evolveSalaryMonth,
  decide: decideSalaryPayment,
};

/** An expense's or an income's own stream: recorded, edited, deleted. */
export const cashEntryDecider = (kind: CashEntryKind): Decider<CashEntryCommand, CashEntryState> => ({
  initialState: initialCashEntry,
  evolve: (state, event) => evolveCashEntry(kind, state, event),
  decide: (command, state) => decideCashEntry(kind, command, state),
});
