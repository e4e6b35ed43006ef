import { randomUUID } from 'node:crypto';
import type { ExpenseInput, IncomeInput, PaymentInput } from '@bahi/contracts';
import {
  type CashEntryKind,
  cashEntryDecider,
  cashEntryStreamId,
  GODOWN_CASH,
  INR,
  invalid,
  parseDecimal,
  paymentDecider,
  paymentStreamId,
  requireOfCity,
} from '@bahi/domain';
import type { CityLookup } from './refs.ts';
import { cityOf, type DecidedRecord, requireRecordable, type TransactionRow } from './transaction-row.ts';

/**
 * Cash rows decided as the API decides them (handlers/cash.ts): a payment to a funder or from an
 * agent at its party's city rate (POST /api/transactions/payments), an expense or an income paid
 * or received by a collector of the row's city or a godown (POST /api/transactions/expenses,
 * /incomes). Each is a new stream of its own.
 */

export function decidePayment({
  input,
  city,
  parties,
  cities,
  facts,
}: TransactionRow<PaymentInput>): DecidedRecord {
  const party = parties('related_entity_id');
  const label = input.related_entity_type;
  // The City column only narrows the look-up: a party named by id must be of it too.
  if (city) requireOfCity(party, city.id, label, 'related_entity_id');
  const partyCity = cityOf(party, cities, 'related_entity_id');
  if (input.collector_id)
    requireOfCity(parties('collector_id'), partyCity.id, 'Collector', 'collector_id', 'same');
  const id = randomUUID();
  // As recordPayment builds it: the party's city, and no adjustment.
  const payment = { id, city_id: partyCity.id, ...input, adjusts: undefined };
  const events = paymentDecider.decide(
    { payment, city: { rate: partyCity.rate ?? '0', currency: partyCity.currency_name } },
    paymentDecider.initialState(),
  );
  requireRecordable(events, facts.closedUpTo);
  return {
    id,
    streamId: paymentStreamId(id),
    expected: 'no_stream',
    events,
    data: payment,
    amount: parseDecimal(input.amount),
    currency: input.payment_mode === 'INR' ? INR : partyCity.currency_name,
    rateCity: partyCity,
  };
}

type CashEntryInput = ExpenseInput | IncomeInput;

function decideCashEntry(kind: CashEntryKind, row: TransactionRow<CashEntryInput>): DecidedRecord {
  const { input, parties, cities, facts } = row;
  const e = input as Record<string, unknown>;
  const [type, path] =
    kind === 'Expense'
      ? [e.paid_from_entity_type, 'paid_from_entity_id']
      : [e.received_by_entity_type, 'received_by_entity_id'];
  // payerFacts: the entry's city exists; a collector is of it and pays at its rate, a godown in INR.
  const entryCity = cities.get(input.city_id);
  if (!entryCity) throw invalid('City not found.', [{ msg: 'City not found', path: 'city_id' }]);
  let payer: { rate: string; currency: string } = GODOWN_CASH;
  let rateCity: CityLookup | undefined;
  if (type === 'Collector') {
    const collector = parties(path);
    rateCity = cityOf(collector, cities, path);
    requireOfCity(collector, input.city_id, 'The collector', path, 'same');
    payer = { rate: rateCity.rate ?? '0', currency: rateCity.currency_name };
  }
  const id = randomUUID();
  const entry = { id, ...input, adjusts: undefined } as never;
  const decider = cashEntryDecider(kind);
  const events = decider.decide({ type: 'Record', entry, payer }, decider.initialState());
  requireRecordable(events, facts.closedUpTo);
  return {
    id,
    streamId: cashEntryStreamId(kind, id),
    expected: 'no_stream',
    events,
    data: entry,
    amount: parseDecimal(input.amount),
    currency: payer.currency,
    ...(rateCity ? { rateCity } : {}),
  };
}

export const decideExpense = (row: TransactionRow<ExpenseInput>) => decideCashEntry('Expense', row);
export const decideIncome = (row: TransactionRow<IncomeInput>) => decideCashEntry('Income', row);
