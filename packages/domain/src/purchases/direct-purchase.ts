import type { DomainEvent, EventData } from '@bahi/contracts';
import { account, Posted, PostingBook } from '../accounting/postings.ts';
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
  mulExact,
  neg,
  parseDecimal,
  QUANTITY_SCALE,
  round,
  sub,
  zero,
} from '../decimal.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { lineTotal, remainingQuantity } from '../rules/lines.ts';

/**
 * A Direct purchase (`purchase-<id>`): the goods go straight to the agent, so no stock
 * moves; the funder is credited, the agent debited with the goods and the commission, and
 * the commission is income. Its own stream guards "returned never above quantity".
 */
export const directPurchaseStreamId = (id: string) => `purchase-${id}`;

export type DirectPurchaseState =
  | { status: 'none' }
  | {
      status: 'active';
      data: EventData<'PurchaseRecorded'>['purchase'];
      cityRate: Dec;
      currency: string;
      returned: Dec;
      commissionReturned: Dec;
      posted: Posted;
      allPosted: Posted;
    }
  | { status: 'deleted' };

export const initialDirectPurchase = (): DirectPurchaseState => ({ status: 'none' });

export function evolveDirectPurchase(state: DirectPurchaseState, event: DomainEvent): DirectPurchaseState {
  switch (event.type) {
    case 'PurchaseRecorded':
      return {
        status: 'active',
        data: event.data.purchase,
        cityRate: parseDecimal(event.data.city_rate),
        currency: event.data.currency,
        returned: zero(QUANTITY_SCALE),
        commissionReturned: zero(AMOUNT_SCALE),
        posted: new Posted().addAll(event.data.postings),
        allPosted: new Posted().addAll(event.data.postings),
      };
    case 'PurchaseUpdated':
      if (state.status !== 'active') return state;
      state.posted.addAll(event.data.postings);
      state.allPosted.addAll(event.data.postings);
      return {
        ...state,
        data: event.data.purchase,
        cityRate: parseDecimal(event.data.city_rate),
        currency: event.data.currency,
      };
    case 'PurchaseDeleted':
      return { status: 'deleted' };
    case 'PurchaseReturned': {
      if (state.status !== 'active') return state;
      // The same arithmetic as decide: pro rata, and the last units take what is left.
      const quantity = parseDecimal(event.data.purchase_return.quantity);
      const ordered = parseDecimal(state.data.quantity);
      const commission = parseDecimal(state.data.commission);
      const returned = round(add(state.returned, quantity), QUANTITY_SCALE);
      const commissionReturned =
        compare(returned, ordered) === 0
          ? commission
          : round(
              add(state.commissionReturned, div(mulExact(commission, quantity), ordered, AMOUNT_SCALE)),
              AMOUNT_SCALE,
            );
      state.allPosted.addAll(event.data.postings);
      return { ...state, returned, commissionReturned };
    }
    default:
      return state;
  }
}

export type DirectPurchaseCommand =
  | {
      type: 'RecordPurchase' | 'UpdatePurchase';
      purchase: EventData<'PurchaseRecorded'>['purchase'];
      city: { rate: string; currency: string };
    }
  | { type: 'DeletePurchase'; id: string }
  | { type: 'ReturnPurchase'; purchaseReturn: EventData<'PurchaseReturned'>['purchase_return'] };

const positive = (value: string, label: string): Dec => {
  const parsed = parseDecimal(value);
  if (parsed.units <= 0n) throw invalid(`${label} must be more than 0.`);
  return parsed;
};

/** A direct purchase's own lines: funder credited, agent debited with goods and commission, commission income. */
function directLines(
  p: EventData<'PurchaseRecorded'>['purchase'],
  city: { rate: string; currency: string },
): PostingBook {
  const rate = positive(city.rate, 'City rate');
  const quantity = positive(p.quantity, 'Quantity');
  positive(p.rate, 'Rate');
  const total = lineTotal(quantity, parseDecimal(p.rate));
  const commission = parseDecimal(p.commission);
  const cur = city.currency;
  const book = new PostingBook()
    .from('quantity', 'Rate × quantity')
    .post(account.funder(p.funder_id), cur, neg(total), rate)
    .post(account.agent(p.agent_id!), cur, add(total, commission), rate)
    .from('commission', 'Commission')
    .postInr(account.commissionIncome, neg(mul(commission, rate, AMOUNT_SCALE))); // nominal accounts are INR
  const paid = parseDecimal(p.paid_amount);
  if (!isZero(paid) && p.collector_id) {
    book
      .from('paid_amount', 'Paid amount')
      .post(account.funder(p.funder_id), cur, paid, rate)
      .post(account.collector(p.collector_id), cur, neg(paid), rate);
  }
  return book;
}

export function decideDirectPurchase(
  command: DirectPurchaseCommand,
  state: DirectPurchaseState,
): DomainEvent[] {
  switch (command.type) {
    case 'RecordPurchase': {
      const p = command.purchase;
      if (p.type !== 'Direct' || !p.agent_id) throw invalid('A direct purchase needs an agent.');
      if (state.status !== 'none') throw conflict('This purchase is already recorded.');
      const book = directLines(p, command.city);
      return [
        {
          type: 'PurchaseRecorded',
          data: {
            purchase: p,
            city_rate: command.city.rate,
            currency: command.city.currency,
            stock: null,
            postings: book.balanced(),
          },
        },
      ];
    }
    case 'UpdatePurchase': {
      const p = command.purchase;
      if (state.status !== 'active') throw notFound('Purchase not found.');
      if (p.type !== 'Direct' || !p.agent_id)
        throw invalid('The type of a purchase cannot be changed; delete it and record it again.');
      if (JSON.stringify(p) === JSON.stringify(state.data)) return [];
      if (compare(parseDecimal(p.quantity), state.returned) < 0) {
        throw conflict(`The quantity cannot be less than the ${format(state.returned, 4)} already returned.`);
      }
      const book = new PostingBook();
      for (const line of [...state.posted.reversal(), ...directLines(p, command.city).lines()])
        book.add(line);
      return [
        {
          type: 'PurchaseUpdated',
          data: {
            purchase: p,
            city_rate: command.city.rate,
            currency: command.city.currency,
            stock_moves: [],
            postings: book.balanced(),
          },
        },
      ];
    }
    case 'DeletePurchase': {
      if (state.status !== 'active') throw notFound('Purchase not found.');
      const book = new PostingBook();
      for (const line of state.allPosted.reversal()) book.add(line);
      return [
        { type: 'PurchaseDeleted', data: { id: command.id, stock_moves: [], postings: book.balanced() } },
      ];
    }
    case 'ReturnPurchase': {
      if (state.status !== 'active') throw notFound('Purchase not found.');
      const r = command.purchaseReturn;
      const quantity = positive(r.quantity, 'Return quantity');
      const ordered = parseDecimal(state.data.quantity);
      const remaining = remainingQuantity(ordered, state.returned);
      if (compare(quantity, remaining) > 0) {
        throw conflict(`Only ${format(remaining, 4)} of this purchase remain to be returned.`);
      }
      // Pro rata, and the last units take back exactly what is left of the commission.
      const commission = parseDecimal(state.data.commission);
      const commissionBack =
        compare(quantity, remaining) === 0
          ? round(sub(commission, state.commissionReturned), AMOUNT_SCALE)
          : div(mulExact(commission, quantity), ordered, AMOUNT_SCALE);
      const goods = lineTotal(quantity, parseDecimal(state.data.rate));
      const cur = state.currency;
      const book = new PostingBook()
        .from('quantity', 'Return quantity')
        .post(account.funder(state.data.funder_id), cur, goods, state.cityRate)
        .post(account.agent(state.data.agent_id!), cur, neg(add(goods, commissionBack)), state.cityRate)
        .postInr(account.commissionIncome, mul(commissionBack, state.cityRate, AMOUNT_SCALE));
      return [
        { type: 'PurchaseReturned', data: { purchase_return: r, stock: null, postings: book.balanced() } },
      ];
    }
    default: {
      const unhandled: never = command;
      throw new Error(`Unhandled command ${JSON.stringify(unhandled)}`);
    }
  }
}

/** A Direct purchase's own stream (`purchase-<id>`): it moves no godown's stock. */
export const directPurchaseDecider: Decider<DirectPurchaseCommand, DirectPurchaseState> = {
  initialState: initialDirectPurchase,
  evolve: evolveDirectPurchase,
  decide: decideDirectPurchase,
};
