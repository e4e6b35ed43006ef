import type { DomainEvent, EventData } from '@bahi/contracts';
import { account, fitsReadModel, LARGEST_AMOUNT, Posted, PostingBook } from '../accounting/postings.ts';
import type { Decider } from '../decider.ts';
import {
  AMOUNT_SCALE,
  add,
  compare,
  type Dec,
  div,
  format,
  isZero,
  max,
  min,
  mulExact,
  neg,
  parseDecimal,
  QUANTITY_SCALE,
  round,
  sub,
  toFixedString,
  zero,
} from '../decimal.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { lineTotal, remainingQuantity } from '../rules/lines.ts';

/**
 * A godown's inventory stream (`inventory-<godownId>`): its stock of every product, the
 * Godown-type purchases that brought stock in and the sales that took it out, with their
 * returns. One stream guards "stock never negative" and "returned never above quantity"
 * for everything that moves this godown's stock, with one expected-version append.
 */
export const inventoryStreamId = (godownId: string) => `inventory-${godownId}`;

interface Stock {
  quantity: Dec;
  value: Dec; // INR
}

interface PurchaseEntry {
  data: EventData<'PurchaseRecorded'>['purchase'];
  cityRate: Dec;
  currency: string;
  returned: Dec;
  /** What its recording and edits posted (undone by an edit), and that plus its returns (undone by a delete). */
  posted: Posted;
  allPosted: Posted;
}

interface SaleEntry {
  data: EventData<'SaleRecorded'>['sale'];
  agentCityRate: Dec;
  currency: string;
  cost: Dec;
  returned: Dec;
  costReturned: Dec;
  posted: Posted;
  allPosted: Posted;
}

/**
 * Owned by the fold: evolve updates it in place, because a godown's stream can hold a very
 * long history and copying its maps per event would make loading quadratic. decide only reads.
 */
export interface InventoryState {
  /** Clearing charges of this godown's sales not yet paid out (INR). */
  clearing: Dec;
  payouts: Set<string>;
  stock: Map<string, Stock>;
  purchases: Map<string, PurchaseEntry>;
  sales: Map<string, SaleEntry>;
}

export const initialInventory = (): InventoryState => ({
  clearing: zero(AMOUNT_SCALE),
  payouts: new Set(),
  stock: new Map(),
  purchases: new Map(),
  sales: new Map(),
});

const d = parseDecimal;
const q4 = (v: Dec) => round(v, QUANTITY_SCALE);
const a2 = (v: Dec) => round(v, AMOUNT_SCALE);
const ZERO_Q = zero(QUANTITY_SCALE);
const ZERO_A = zero(AMOUNT_SCALE);

function moveStock(state: InventoryState, productId: string, quantity: string, value: string): void {
  const current = state.stock.get(productId) ?? { quantity: ZERO_Q, value: ZERO_A };
  state.stock.set(productId, {
    quantity: q4(add(current.quantity, d(quantity))),
    value: a2(add(current.value, d(value))),
  });
}

export function evolveInventory(state: InventoryState, event: DomainEvent): InventoryState {
  switch (event.type) {
    case 'PurchaseRecorded': {
      const { purchase, stock } = event.data;
      if (stock) moveStock(state, stock.product_id, stock.quantity, stock.value);
      state.purchases.set(purchase.id, {
        data: purchase,
        cityRate: d(event.data.city_rate),
        currency: event.data.currency,
        returned: ZERO_Q,
        posted: new Posted().addAll(event.data.postings),
        allPosted: new Posted().addAll(event.data.postings),
      });
      return state;
    }
    case 'PurchaseReturned': {
      const { purchase_return: r, stock } = event.data;
      if (stock) moveStock(state, stock.product_id, stock.quantity, stock.value);
      const entry = state.purchases.get(r.purchase_id);
      if (entry) {
        entry.returned = q4(add(entry.returned, d(r.quantity)));
        entry.allPosted.addAll(event.data.postings);
      }
      return state;
    }
    case 'SaleRecorded': {
      const { sale, stock } = event.data;
      moveStock(state, stock.product_id, stock.quantity, stock.value);
      state.clearing = a2(add(state.clearing, d(sale.clearing_charge)));
      state.sales.set(sale.id, {
        data: sale,
        agentCityRate: d(event.data.agent_city_rate),
        currency: event.data.currency,
        cost: d(event.data.cost),
        returned: ZERO_Q,
        costReturned: ZERO_A,
        posted: new Posted().addAll(event.data.postings),
        allPosted: new Posted().addAll(event.data.postings),
      });
      return state;
    }
    case 'SaleReturned': {
      const { sale_return: r, stock } = event.data;
      moveStock(state, stock.product_id, stock.quantity, stock.value);
      const entry = state.sales.get(r.sale_id);
      if (entry) {
        entry.returned = q4(add(entry.returned, d(r.quantity)));
        entry.costReturned = a2(add(entry.costReturned, d(stock.value)));
        entry.allPosted.addAll(event.data.postings);
      }
      return state;
    }
    case 'PurchaseUpdated': {
      for (const m of event.data.stock_moves) moveStock(state, m.product_id, m.quantity, m.value);
      const entry = state.purchases.get(event.data.purchase.id);
      if (entry) {
        entry.data = event.data.purchase;
        entry.cityRate = d(event.data.city_rate);
        entry.currency = event.data.currency;
        entry.posted.addAll(event.data.postings);
        entry.allPosted.addAll(event.data.postings);
      }
      return state;
    }
    case 'PurchaseDeleted':
      for (const m of event.data.stock_moves) moveStock(state, m.product_id, m.quantity, m.value);
      state.purchases.delete(event.data.id);
      return state;
    case 'SaleUpdated': {
      for (const m of event.data.stock_moves) moveStock(state, m.product_id, m.quantity, m.value);
      const entry = state.sales.get(event.data.sale.id);
      if (entry) {
        state.clearing = a2(
          add(sub(state.clearing, d(entry.data.clearing_charge)), d(event.data.sale.clearing_charge)),
        );
        entry.data = event.data.sale;
        entry.agentCityRate = d(event.data.agent_city_rate);
        entry.currency = event.data.currency;
        entry.cost = d(event.data.cost);
        entry.posted.addAll(event.data.postings);
        entry.allPosted.addAll(event.data.postings);
      }
      return state;
    }
    case 'SaleDeleted': {
      for (const m of event.data.stock_moves) moveStock(state, m.product_id, m.quantity, m.value);
      const entry = state.sales.get(event.data.id);
      if (entry) state.clearing = a2(sub(state.clearing, d(entry.data.clearing_charge)));
      state.sales.delete(event.data.id);
      return state;
    }
    case 'ClearingPaidOut':
      state.clearing = a2(sub(state.clearing, d(event.data.payout.amount)));
      state.payouts.add(event.data.payout.id);
      return state;
    default:
      return state;
  }
}

/** Names for messages, looked up by the caller. */
export interface Labels {
  product: string;
  godown: string;
}

export type InventoryCommand =
  | {
      type: 'RecordPurchase';
      purchase: EventData<'PurchaseRecorded'>['purchase'];
      city: { rate: string; currency: string };
    }
  | {
      type: 'ReturnPurchase';
      purchaseReturn: EventData<'PurchaseReturned'>['purchase_return'];
    }
  | {
      type: 'RecordSales';
      /** One row for a sale, several for a bulk sale: all or nothing. */
      sales: Array<{
        sale: EventData<'SaleRecorded'>['sale'];
        agentCity: { id: string; rate: string; currency: string };
      }>;
      labels: Labels;
    }
  | {
      type: 'ReturnSale';
      saleReturn: EventData<'SaleReturned'>['sale_return'];
    }
  | {
      type: 'UpdatePurchase';
      purchase: EventData<'PurchaseRecorded'>['purchase'];
      city: { rate: string; currency: string };
    }
  | { type: 'DeletePurchase'; id: string }
  | {
      type: 'UpdateSale';
      sale: EventData<'SaleRecorded'>['sale'];
      agentCity: { id: string; rate: string; currency: string };
      labels: Labels;
    }
  | { type: 'DeleteSale'; id: string }
  | {
      type: 'PayOutClearing';
      payout: EventData<'ClearingPaidOut'>['payout'];
      godownName: string;
    };

const stockOf = (state: InventoryState, productId: string): Stock =>
  state.stock.get(productId) ?? { quantity: ZERO_Q, value: ZERO_A };

/** What leaving `quantity` units costs at the moving average (all units: exactly all the value). */
function averageCost(stock: Stock, quantity: Dec): Dec {
  return div(mulExact(stock.value, quantity), stock.quantity, AMOUNT_SCALE);
}

/** A Godown purchase's own lines: the funder credited, the stock in, a paid amount. */
function purchaseLines(
  p: EventData<'PurchaseRecorded'>['purchase'],
  city: { rate: string; currency: string },
) {
  const rate = requirePositive(city.rate, 'City rate');
  const quantity = requirePositive(p.quantity, 'Quantity');
  requirePositive(p.rate, 'Rate');
  const total = lineTotal(quantity, d(p.rate));
  const value = a2(mulExact(mulExact(quantity, d(p.rate)), rate)); // q*p*rate, rounded once
  const book = new PostingBook()
    .from('quantity', 'Rate × quantity')
    .post(account.funder(p.funder_id), city.currency, neg(total), rate)
    .postInr(account.stock(p.godown_id!, p.product_id), value, quantity);
  const paid = d(p.paid_amount);
  if (!isZero(paid) && p.collector_id) {
    book
      .from('paid_amount', 'Paid amount')
      .post(account.funder(p.funder_id), city.currency, paid, rate)
      .post(account.collector(p.collector_id), city.currency, neg(paid), rate);
  }
  return { book, quantity, value };
}

/** A sale's own lines at a given cost: the agent debited, sales, stock out, cost of sales, clearing. */
function saleLines(
  sale: EventData<'SaleRecorded'>['sale'],
  agentCity: { rate: string; currency: string },
  cost: Dec,
  path = '',
) {
  const quantity = d(sale.quantity);
  const rate = d(agentCity.rate);
  const revenue = lineTotal(quantity, d(sale.rate));
  const revenueInr = a2(mulExact(mulExact(quantity, d(sale.rate)), rate));
  const clearing = d(sale.clearing_charge);
  const book = new PostingBook()
    .from(`${path}quantity`, 'Sale rate × quantity')
    .post(account.agent(sale.agent_id), agentCity.currency, revenue, rate)
    .postInr(account.sales, neg(revenueInr))
    .postInr(account.stock(sale.godown_id, sale.product_id), neg(cost), neg(quantity))
    .postInr(account.costOfSales, cost);
  if (!isZero(clearing)) {
    book
      .from(`${path}clearing_charge`, 'Clearing charge')
      .postInr(account.expense('Clearing'), clearing)
      .postInr(account.clearing(sale.godown_id), neg(clearing));
  }
  return book;
}

type StockMove = { product_id: string; quantity: string; value: string };

/**
 * Turns lines that move stock into a balanced event: the stock lines are netted per product
 * and applied so that units never go below zero (refused) and value never goes below zero nor
 * stays without units; what value could not move that way goes to cost of sales.
 */
function settle(
  state: InventoryState,
  godownId: string,
  lines: EventData<'PurchaseRecorded'>['postings'],
  refuse: (have: Dec, need: Dec) => never,
): { stock_moves: StockMove[]; postings: EventData<'PurchaseRecorded'>['postings'] } {
  const prefix = `stock:${godownId}:`;
  const deltas = new Map<string, { quantity: Dec; value: Dec }>();
  const book = new PostingBook();
  for (const line of lines) {
    if (!line.account.startsWith(prefix)) {
      book.add(line);
      continue;
    }
    const product = line.account.slice(prefix.length);
    const cur = deltas.get(product) ?? { quantity: ZERO_Q, value: ZERO_A };
    deltas.set(product, {
      quantity: add(cur.quantity, d(line.quantity ?? '0')),
      value: add(cur.value, d(line.inr)),
    });
  }
  const moves: StockMove[] = [];
  let residue = ZERO_A;
  for (const [product, delta] of deltas) {
    const stock = stockOf(state, product);
    const quantity = q4(add(stock.quantity, delta.quantity));
    if (quantity.units < 0n) refuse(stock.quantity, neg(delta.quantity));
    let value = a2(add(stock.value, delta.value));
    if (isZero(quantity) || value.units < 0n) value = ZERO_A;
    requireStockFits(quantity, value);
    const moved = a2(sub(value, stock.value));
    residue = a2(add(residue, sub(delta.value, moved)));
    if (isZero(delta.quantity) && isZero(moved)) continue;
    book.postInr(account.stock(godownId, product), moved, q4(delta.quantity));
    moves.push({
      product_id: product,
      quantity: toFixedString(q4(delta.quantity)),
      value: toFixedString(moved),
    });
  }
  if (!isZero(residue)) book.postInr(account.costOfSales, residue);
  return { stock_moves: moves, postings: book.balanced() };
}

/**
 * A godown's stock of a product is a read-model sum too (account_totals): it must fit like any
 * value a record carries (MAX_INTEGER_DIGITS).
 */
function requireStockFits(quantity: Dec, value: Dec): void {
  if (!fitsReadModel(quantity) || !fitsReadModel(value))
    throw invalid(`The godown would hold more of this product than Bahi can keep (over ${LARGEST_AMOUNT}).`, [
      {
        msg: `The godown's stock of this product would be over ${LARGEST_AMOUNT} in quantity or INR value`,
        path: 'quantity',
      },
    ]);
}

/** The domain does not rely on the HTTP layer: a quantity or rate must be above zero here too. */
function requirePositive(value: string, label: string): Dec {
  const parsed = d(value);
  if (parsed.units <= 0n) throw invalid(`${label} must be more than 0.`);
  return parsed;
}

type Of<T extends InventoryCommand['type']> = Extract<InventoryCommand, { type: T }>;

/** A Godown purchase: the funder credited, the stock in, what was paid. */
function decideRecordPurchase(command: Of<'RecordPurchase'>, state: InventoryState): DomainEvent[] {
  const p = command.purchase;
  if (p.type !== 'Godown' || !p.godown_id)
    throw invalid('Only a Godown-type purchase moves a godown’s stock.');
  if (state.purchases.has(p.id)) throw conflict('This purchase is already recorded.');
  const { book, quantity, value } = purchaseLines(p, command.city);
  const held = stockOf(state, p.product_id);
  requireStockFits(add(held.quantity, quantity), add(held.value, value));
  return [
    {
      type: 'PurchaseRecorded',
      data: {
        purchase: p,
        city_rate: command.city.rate,
        currency: command.city.currency,
        stock: {
          product_id: p.product_id,
          quantity: toFixedString(quantity),
          value: toFixedString(value),
        },
        postings: book.balanced(),
      },
    },
  ];
}

/** Units of a purchase going back: they must fit what remains of it and what the godown holds. */
function decideReturnPurchase(command: Of<'ReturnPurchase'>, state: InventoryState): DomainEvent[] {
  const r = command.purchaseReturn;
  const entry = state.purchases.get(r.purchase_id);
  if (!entry) throw notFound('Purchase not found.');
  const p = entry.data;
  const quantity = requirePositive(r.quantity, 'Return quantity');
  const remaining = remainingQuantity(d(p.quantity), entry.returned);
  if (compare(quantity, remaining) > 0) {
    throw conflict(`Only ${format(remaining, 4)} of this purchase remain to be returned.`);
  }
  const stock = stockOf(state, p.product_id);
  if (compare(quantity, stock.quantity) > 0) {
    throw conflict(
      `Not enough stock to return: the godown holds ${format(stock.quantity, 4)} of this product, the return needs ${format(quantity, 4)}.`,
    );
  }
  // Out at the purchase's own cost, but never more than the stock is worth (its average may
  // have drifted below); when the last units leave, all the value leaves with them. What
  // differs from the funder's credit note goes to FX difference.
  const ownCost = a2(mulExact(mulExact(quantity, d(p.rate)), entry.cityRate));
  const value = compare(quantity, stock.quantity) === 0 ? stock.value : min(ownCost, stock.value);
  const book = new PostingBook()
    .from('quantity', 'Return quantity')
    .post(account.funder(p.funder_id), entry.currency, lineTotal(quantity, d(p.rate)), entry.cityRate)
    .postInr(account.stock(p.godown_id!, p.product_id), neg(value), neg(quantity));
  return [
    {
      type: 'PurchaseReturned',
      data: {
        purchase_return: r,
        stock: {
          product_id: p.product_id,
          quantity: toFixedString(neg(quantity)),
          value: toFixedString(neg(value)),
        },
        postings: book.balanced(),
      },
    },
  ];
}

/** One sale or a bulk sale (all or nothing), at the moving-average cost of the stock. */
function decideRecordSales(command: Of<'RecordSales'>, state: InventoryState): DomainEvent[] {
  if (command.sales.length === 0) throw invalid('Please add at least one valid sale row.');
  const productId = command.sales[0]!.sale.product_id;
  const godownId = command.sales[0]!.sale.godown_id;
  if (command.sales.some((s) => s.sale.product_id !== productId || s.sale.godown_id !== godownId)) {
    throw invalid('Every row of a bulk sale is of the same product from the same godown.');
  }
  for (const { sale, agentCity } of command.sales) {
    requirePositive(sale.quantity, 'Quantity');
    requirePositive(sale.rate, 'Sale rate');
    requirePositive(agentCity.rate, 'City rate');
  }
  const needed = command.sales.reduce((sum, s) => add(sum, d(s.sale.quantity)), ZERO_Q);
  const working = { ...stockOf(state, productId) };
  if (compare(needed, working.quantity) > 0) {
    throw conflict(
      `Not enough stock: ${command.labels.godown} holds ${format(working.quantity, 4)} of ${command.labels.product}; the sale needs ${format(needed, 4)}.`,
    );
  }
  return command.sales.map(({ sale, agentCity }, index) => {
    if (state.sales.has(sale.id)) throw conflict('This sale is already recorded.');
    const quantity = d(sale.quantity);
    const cost = averageCost(working, quantity);
    working.quantity = q4(sub(working.quantity, quantity));
    working.value = a2(sub(working.value, cost));
    const book = saleLines(sale, agentCity, cost, command.sales.length === 1 ? '' : `sales.${index}.`);
    return {
      type: 'SaleRecorded',
      data: {
        sale,
        agent_city_id: agentCity.id,
        agent_city_rate: agentCity.rate,
        currency: agentCity.currency,
        cost: toFixedString(cost),
        stock: {
          product_id: productId,
          quantity: toFixedString(neg(quantity)),
          value: toFixedString(neg(cost)),
        },
        postings: book.balanced(),
      },
    } satisfies DomainEvent;
  });
}

/** Units of a sale coming back, at the cost they left with. */
function decideReturnSale(command: Of<'ReturnSale'>, state: InventoryState): DomainEvent[] {
  const r = command.saleReturn;
  const entry = state.sales.get(r.sale_id);
  if (!entry) throw notFound('Sale not found.');
  const s = entry.data;
  const quantity = requirePositive(r.quantity, 'Return quantity');
  const remaining = remainingQuantity(d(s.quantity), entry.returned);
  if (compare(quantity, remaining) > 0) {
    throw conflict(`Only ${format(remaining, 4)} of this sale remain to be returned.`);
  }
  // Back in at the sale's stored cost; the last units bring back exactly what is left of it.
  // (never below zero: an edit may have lowered the cost below what earlier returns took back)
  const cost = max(
    ZERO_A,
    compare(quantity, remaining) === 0
      ? a2(sub(entry.cost, entry.costReturned))
      : div(mulExact(entry.cost, quantity), d(s.quantity), AMOUNT_SCALE),
  );
  const revenue = lineTotal(quantity, d(s.rate));
  const revenueInr = a2(mulExact(mulExact(quantity, d(s.rate)), entry.agentCityRate));
  const book = new PostingBook()
    .from('quantity', 'Return quantity')
    .post(account.agent(s.agent_id), entry.currency, neg(revenue), entry.agentCityRate)
    .postInr(account.sales, revenueInr)
    .postInr(account.stock(s.godown_id, s.product_id), cost, quantity)
    .postInr(account.costOfSales, neg(cost));
  return [
    {
      type: 'SaleReturned',
      data: {
        sale_return: r,
        stock: {
          product_id: s.product_id,
          quantity: toFixedString(quantity),
          value: toFixedString(cost),
        },
        postings: book.balanced(),
      },
    },
  ];
}

/** A purchase changed: its lines reversed and the new ones posted, in one event. */
function decideUpdatePurchase(command: Of<'UpdatePurchase'>, state: InventoryState): DomainEvent[] {
  const p = command.purchase;
  const entry = state.purchases.get(p.id);
  if (!entry) throw notFound('Purchase not found.');
  if (p.type !== 'Godown' || p.godown_id !== entry.data.godown_id) {
    throw invalid('The type and the godown of a purchase cannot be changed; delete it and record it again.');
  }
  if (JSON.stringify(p) === JSON.stringify(entry.data) && command.city.rate === toFixedString(entry.cityRate))
    return [];
  const next = purchaseLines(p, command.city);
  if (compare(next.quantity, entry.returned) < 0) {
    throw conflict(`The quantity cannot be less than the ${format(entry.returned, 4)} already returned.`);
  }
  const settled = settle(
    state,
    p.godown_id!,
    [...entry.posted.reversal(), ...next.book.lines()],
    (have, need) => {
      throw conflict(
        `Not enough stock to change this purchase: the godown holds ${format(have, 4)} of the product and ${format(need, 4)} would have to leave.`,
      );
    },
  );
  return [
    {
      type: 'PurchaseUpdated',
      data: { purchase: p, city_rate: command.city.rate, currency: command.city.currency, ...settled },
    },
  ];
}

/** A purchase and its returns undone. */
function decideDeletePurchase(command: Of<'DeletePurchase'>, state: InventoryState): DomainEvent[] {
  const entry = state.purchases.get(command.id);
  if (!entry) throw notFound('Purchase not found.');
  const settled = settle(state, entry.data.godown_id!, entry.allPosted.reversal(), (have, need) => {
    throw conflict(
      `This purchase cannot be deleted: ${format(need, 4)} of its units would have to leave the godown, which holds ${format(have, 4)}.`,
    );
  });
  return [{ type: 'PurchaseDeleted', data: { id: command.id, ...settled } }];
}

/** A sale changed: its lines reversed and the new ones posted, in one event. */
function decideUpdateSale(command: Of<'UpdateSale'>, state: InventoryState): DomainEvent[] {
  const sale = command.sale;
  const entry = state.sales.get(sale.id);
  if (!entry) throw notFound('Sale not found.');
  if (sale.godown_id !== entry.data.godown_id) {
    throw invalid('The godown of a sale cannot be changed; delete it and record it again.');
  }
  if (
    JSON.stringify(sale) === JSON.stringify(entry.data) &&
    command.agentCity.rate === toFixedString(entry.agentCityRate)
  )
    return [];
  const quantity = requirePositive(sale.quantity, 'Quantity');
  requirePositive(sale.rate, 'Sale rate');
  requirePositive(command.agentCity.rate, 'City rate');
  if (compare(quantity, entry.returned) < 0) {
    throw conflict(`The quantity cannot be less than the ${format(entry.returned, 4)} already returned.`);
  }
  // The stock as it would be without this sale, then the sale again at that average cost.
  const reversal = entry.posted.reversal();
  const back = reversal.find((l) => l.account === account.stock(sale.godown_id, entry.data.product_id));
  const working = { ...stockOf(state, sale.product_id) };
  if (back && sale.product_id === entry.data.product_id) {
    working.quantity = q4(add(working.quantity, d(back.quantity ?? '0')));
    working.value = a2(add(working.value, d(back.inr)));
  }
  if (compare(quantity, working.quantity) > 0) {
    throw conflict(
      `Not enough stock: ${command.labels.godown} holds ${format(working.quantity, 4)} of ${command.labels.product} for this sale; it needs ${format(quantity, 4)}.`,
    );
  }
  const clearingAfter = a2(add(sub(state.clearing, d(entry.data.clearing_charge)), d(sale.clearing_charge)));
  if (clearingAfter.units < 0n) {
    throw conflict(
      'The clearing charge cannot be lowered below what has already been paid out of this godown’s clearing.',
    );
  }
  const cost = averageCost(working, quantity);
  const settled = settle(
    state,
    sale.godown_id,
    [...reversal, ...saleLines(sale, command.agentCity, cost).lines()],
    (have, need) => {
      throw conflict(
        `Not enough stock: the godown holds ${format(have, 4)} and ${format(need, 4)} would have to leave.`,
      );
    },
  );
  return [
    {
      type: 'SaleUpdated',
      data: {
        sale,
        agent_city_id: command.agentCity.id,
        agent_city_rate: command.agentCity.rate,
        currency: command.agentCity.currency,
        cost: toFixedString(cost),
        ...settled,
      },
    },
  ];
}

/** A sale and its returns undone. */
function decideDeleteSale(command: Of<'DeleteSale'>, state: InventoryState): DomainEvent[] {
  const entry = state.sales.get(command.id);
  if (!entry) throw notFound('Sale not found.');
  if (compare(d(entry.data.clearing_charge), state.clearing) > 0) {
    throw conflict('This sale cannot be deleted: its clearing charge has already been paid out.');
  }
  const settled = settle(state, entry.data.godown_id, entry.allPosted.reversal(), (have, need) => {
    throw conflict(
      `This sale cannot be deleted: its returned units have left the godown again (it holds ${format(have, 4)}, ${format(need, 4)} would have to leave).`,
    );
  });
  return [{ type: 'SaleDeleted', data: { id: command.id, ...settled } }];
}

/** Clearing charges paid out of the godown’s INR cash, at most its clearing balance. */
function decidePayOutClearing(command: Of<'PayOutClearing'>, state: InventoryState): DomainEvent[] {
  const p = command.payout;
  if (state.payouts.has(p.id)) throw conflict('This clearing payout is already recorded.');
  const amount = requirePositive(p.amount, 'Amount');
  if (compare(amount, state.clearing) > 0) {
    throw conflict(
      `The clearing balance of ${command.godownName} is ${format(state.clearing, 2)}; a payout of ${format(amount, 2)} is more than that.`,
      'amount',
    );
  }
  const book = new PostingBook()
    .from('amount', 'Amount')
    .postInr(account.clearing(p.godown_id), amount)
    .postInr(account.godownCash(p.payer_entity_id), neg(amount));
  return [{ type: 'ClearingPaidOut', data: { payout: p, postings: book.balanced() } }];
}

/** One function per command (each above), chosen by the command's type. */
const decideByType: {
  [T in InventoryCommand['type']]: (command: Of<T>, state: InventoryState) => DomainEvent[];
} = {
  RecordPurchase: decideRecordPurchase,
  ReturnPurchase: decideReturnPurchase,
  RecordSales: decideRecordSales,
  ReturnSale: decideReturnSale,
  UpdatePurchase: decideUpdatePurchase,
  DeletePurchase: decideDeletePurchase,
  UpdateSale: decideUpdateSale,
  DeleteSale: decideDeleteSale,
  PayOutClearing: decidePayOutClearing,
};

export function decideInventory(command: InventoryCommand, state: InventoryState): DomainEvent[] {
  const decide = decideByType[command.type] as (
    command: InventoryCommand,
    state: InventoryState,
  ) => DomainEvent[];
  return decide(command, state);
}

/** A godown's inventory stream (`inventory-<godownId>`): its stock, purchases, sales and clearing. */
export const inventoryDecider: Decider<InventoryCommand, InventoryState> = {
  initialState: initialInventory,
  evolve: evolveInventory,
  decide: decideInventory,
};
