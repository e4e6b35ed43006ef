import type { DomainEvent, EventData } from '@bahi/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inrTotal } from '../accounting/postings.ts';
import {
  add,
  compare,
  type Dec,
  isNegative,
  isZero,
  parseDecimal,
  sub,
  toFixedString,
  zero,
} from '../decimal.ts';
import { DomainError } from '../errors.ts';
import { decideInventory, evolveInventory, type InventoryCommand, initialInventory } from './inventory.ts';

const G = '00000000-0000-4000-8000-00000000000a';
const PRODUCTS = ['00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000b2'];
const F = '00000000-0000-4000-8000-00000000000c';
const C = '00000000-0000-4000-8000-00000000000d';
const A = '00000000-0000-4000-8000-00000000000e';
const uuid = (n: number) => `00000000-0000-4000-9000-${n.toString().padStart(12, '0')}`;

/** Quantities and rates at their scales, small enough to collide often with the stock. */
const qty = fc.integer({ min: 1, max: 400_000 }).map((n) => toFixedString({ units: BigInt(n), scale: 4 }));
const price = fc
  .integer({ min: 1, max: 5_000_000 })
  .map((n) => toFixedString({ units: BigInt(n), scale: 4 }));
const cityRate = fc.constantFrom('1.0000', '0.3000', '22.6543', '0.0123', '3.0000');
const money = fc.integer({ min: 0, max: 100_000 }).map((n) => toFixedString({ units: BigInt(n), scale: 2 }));

type Step =
  | { kind: 'buy'; product: number; quantity: string; rate: string; cityRate: string }
  | {
      kind: 'sell';
      product: number;
      rows: Array<{ quantity: string; rate: string; clearing: string }>;
      cityRate: string;
    }
  | { kind: 'returnPurchase'; pick: number; quantity: string; all: boolean }
  | { kind: 'returnSale'; pick: number; quantity: string; all: boolean }
  | { kind: 'sellAll'; product: number; rate: string; cityRate: string }
  | { kind: 'editPurchase'; pick: number; quantity: string; rate: string }
  | { kind: 'deletePurchase'; pick: number }
  | { kind: 'editSale'; pick: number; quantity: string; clearing: string }
  | { kind: 'deleteSale'; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('buy' as const),
    product: fc.integer({ min: 0, max: 1 }),
    quantity: qty,
    rate: price,
    cityRate,
  }),
  fc.record({
    kind: fc.constant('sell' as const),
    product: fc.integer({ min: 0, max: 1 }),
    rows: fc.array(fc.record({ quantity: qty, rate: price, clearing: money }), {
      minLength: 1,
      maxLength: 3,
    }),
    cityRate,
  }),
  // Exactly what remains, or exactly the stock on hand: the edges where rounding residue would hide.
  fc.record({
    kind: fc.constant('returnPurchase' as const),
    pick: fc.nat(),
    quantity: qty,
    all: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('returnSale' as const), pick: fc.nat(), quantity: qty, all: fc.boolean() }),
  fc.record({
    kind: fc.constant('sellAll' as const),
    product: fc.integer({ min: 0, max: 1 }),
    rate: price,
    cityRate,
  }),
);

/** Edits and deletes of records picked from those recorded so far (some already deleted: refused). */
function editCommand(
  s: Step,
  state: ReturnType<typeof initialInventory>,
  purchases: string[],
  sales: string[],
): InventoryCommand | undefined {
  if ((s.kind === 'editPurchase' || s.kind === 'deletePurchase') && purchases.length > 0) {
    const id = purchases[s.pick % purchases.length]!;
    if (s.kind === 'deletePurchase') return { type: 'DeletePurchase', id };
    const entry = state.purchases.get(id);
    if (!entry) return { type: 'DeletePurchase', id };
    return {
      type: 'UpdatePurchase',
      purchase: { ...entry.data, quantity: s.quantity, rate: s.rate },
      city: { rate: toFixedString(entry.cityRate), currency: entry.currency },
    };
  }
  if ((s.kind === 'editSale' || s.kind === 'deleteSale') && sales.length > 0) {
    const id = sales[s.pick % sales.length]!;
    if (s.kind === 'deleteSale') return { type: 'DeleteSale', id };
    const entry = state.sales.get(id);
    if (!entry) return { type: 'DeleteSale', id };
    return {
      type: 'UpdateSale',
      sale: { ...entry.data, quantity: s.quantity, clearing_charge: s.clearing },
      agentCity: { id: C, rate: toFixedString(entry.agentCityRate), currency: entry.currency },
      labels: { product: 'P', godown: 'G' },
    };
  }
  return undefined;
}

const remainingOf = (entry: { data: { quantity: string }; returned: Dec } | undefined) =>
  entry ? toFixedString(sub(parseDecimal(entry.data.quantity), entry.returned)) : '0.0001';

describe('inventory invariants over random command sequences', () => {
  it('postings sum to zero in INR; stock is never negative; returns never exceed quantities; the stock account equals the stock', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        let state = initialInventory();
        let n = 0;
        const purchases: string[] = [];
        const sales: string[] = [];
        const stockPostings = new Map<string, { quantity: Dec; value: Dec }>();
        for (const s of steps) {
          const command: InventoryCommand | undefined =
            s.kind === 'buy'
              ? {
                  type: 'RecordPurchase',
                  city: { rate: s.cityRate, currency: 'XXX' },
                  purchase: {
                    id: uuid(++n),
                    type: 'Godown',
                    purchase_date: '2026-11-01',
                    city_id: C,
                    funder_id: F,
                    product_id: PRODUCTS[s.product]!,
                    godown_id: G,
                    collector_id: null,
                    agent_id: null,
                    rate: s.rate,
                    quantity: s.quantity,
                    paid_amount: '0.00',
                    commission: '0.00',
                    custom_fields: {},
                  },
                }
              : s.kind === 'sellAll'
                ? {
                    type: 'RecordSales',
                    labels: { product: 'P', godown: 'G' },
                    sales: [
                      {
                        agentCity: { id: C, rate: s.cityRate, currency: 'YYY' },
                        sale: {
                          id: uuid(++n),
                          sale_date: '2026-11-02',
                          agent_id: A,
                          product_id: PRODUCTS[s.product]!,
                          godown_id: G,
                          rate: s.rate,
                          quantity: toFixedString(state.stock.get(PRODUCTS[s.product]!)?.quantity ?? zero(4)),
                          clearing_charge: '0.00',
                          custom_fields: {},
                        },
                      },
                    ],
                  }
                : s.kind === 'sell'
                  ? {
                      type: 'RecordSales',
                      labels: { product: 'P', godown: 'G' },
                      sales: s.rows.map((row) => ({
                        agentCity: { id: C, rate: s.cityRate, currency: 'YYY' },
                        sale: {
                          id: uuid(++n),
                          sale_date: '2026-11-02',
                          agent_id: A,
                          product_id: PRODUCTS[s.product]!,
                          godown_id: G,
                          rate: row.rate,
                          quantity: row.quantity,
                          clearing_charge: row.clearing,
                          custom_fields: {},
                        },
                      })),
                    }
                  : s.kind === 'returnPurchase' && purchases.length > 0
                    ? {
                        type: 'ReturnPurchase',
                        purchaseReturn: {
                          id: uuid(++n),
                          purchase_id: purchases[s.pick % purchases.length]!,
                          quantity: s.all
                            ? remainingOf(state.purchases.get(purchases[s.pick % purchases.length]!))
                            : s.quantity,
                          return_date: '2026-11-03',
                          remarks: null,
                        },
                      }
                    : s.kind === 'returnSale' && sales.length > 0
                      ? {
                          type: 'ReturnSale',
                          saleReturn: {
                            id: uuid(++n),
                            sale_id: sales[s.pick % sales.length]!,
                            quantity: s.all
                              ? remainingOf(state.sales.get(sales[s.pick % sales.length]!))
                              : s.quantity,
                            return_date: '2026-11-03',
                            remarks: null,
                          },
                        }
                      : undefined;
          const edit = editCommand(s, state, purchases, sales);
          const chosen = command ?? edit;
          if (!chosen) continue;
          let events: DomainEvent[];
          try {
            events = decideInventory(chosen, state);
          } catch (error) {
            if (error instanceof DomainError) continue; // a refusal changes nothing
            throw error;
          }
          for (const event of events) {
            const data = event.data as { postings: EventData<'PurchaseRecorded'>['postings'] };
            expect(isZero(inrTotal(data.postings)), `${event.type} postings balance`).toBe(true);
            for (const p of data.postings) {
              if (!p.account.startsWith('stock:')) continue;
              const cur = stockPostings.get(p.account) ?? { quantity: zero(4), value: zero(2) };
              stockPostings.set(p.account, {
                quantity: add(cur.quantity, parseDecimal(p.quantity ?? '0')),
                value: add(cur.value, parseDecimal(p.inr)),
              });
            }
            if (event.type === 'PurchaseRecorded') purchases.push(event.data.purchase.id);
            if (event.type === 'SaleRecorded') sales.push(event.data.sale.id);
            state = evolveInventory(state, event);
          }
          for (const [product, stock] of state.stock) {
            expect(isNegative(stock.quantity), 'stock never negative').toBe(false);
            expect(isNegative(stock.value), 'stock value never negative').toBe(false);
            if (isZero(stock.quantity)) expect(isZero(stock.value), 'no value without units').toBe(true);
            const posted = stockPostings.get(`stock:${G}:${product}`)!;
            expect(compare(posted.quantity, stock.quantity), 'stock account units').toBe(0);
            expect(compare(posted.value, stock.value), 'stock account value').toBe(0);
          }
          for (const p of state.purchases.values()) {
            expect(
              compare(p.returned, parseDecimal(p.data.quantity)) <= 0,
              'purchase returned <= quantity',
            ).toBe(true);
          }
          for (const s of state.sales.values()) {
            expect(compare(s.returned, parseDecimal(s.data.quantity)) <= 0, 'sale returned <= quantity').toBe(
              true,
            );
            expect(isNegative(sub(s.cost, s.costReturned)), 'cost returned <= cost').toBe(false);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });
});
