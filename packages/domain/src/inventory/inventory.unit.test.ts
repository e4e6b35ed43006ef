import type { DomainEvent, EventData } from '@bahi/contracts';
import { describe, expect, it } from 'vitest';
import { inrTotal } from '../accounting/postings.ts';
import { toFixedString } from '../decimal.ts';
import { givenWhenThen } from '../testing.ts';
import {
  decideInventory,
  evolveInventory,
  type InventoryCommand,
  initialInventory,
  inventoryDecider,
} from './inventory.ts';

const G = '00000000-0000-4000-8000-00000000000a'; // godown
const P = '00000000-0000-4000-8000-00000000000b'; // product
const F = '00000000-0000-4000-8000-00000000000c'; // funder
const C = '00000000-0000-4000-8000-00000000000d'; // city
const A = '00000000-0000-4000-8000-00000000000e'; // agent
const K = '00000000-0000-4000-8000-00000000000f'; // collector
const id = (n: number) => `00000000-0000-4000-9000-${n.toString().padStart(12, '0')}`;
const karachi = { rate: '0.3000', currency: 'PKR' };
const agentCity = { id: C, ...karachi };
const labels = { product: 'Cumin', godown: 'Bhiwandi' };

const purchase = (
  n: number,
  quantity: string,
  rate: string,
  extra: Partial<EventData<'PurchaseRecorded'>['purchase']> = {},
) => ({
  id: id(n),
  type: 'Godown' as const,
  purchase_date: '2026-11-01',
  city_id: C,
  funder_id: F,
  product_id: P,
  godown_id: G,
  collector_id: null,
  agent_id: null,
  rate,
  quantity,
  paid_amount: '0.00',
  commission: '0.00',
  custom_fields: {},
  ...extra,
});
const sale = (n: number, quantity: string, rate: string, clearing = '0.00') => ({
  id: id(n),
  sale_date: '2026-11-02',
  agent_id: A,
  product_id: P,
  godown_id: G,
  rate,
  quantity,
  clearing_charge: clearing,
  custom_fields: {},
});

const gwt = givenWhenThen(inventoryDecider);
/** The events a command produces, asserting first that their postings balance in INR. */
const decided = (given: DomainEvent[], command: InventoryCommand): DomainEvent[] => {
  const state = given.reduce(evolveInventory, initialInventory());
  const events = decideInventory(command, state);
  for (const e of events)
    expect(toFixedString(inrTotal((e.data as unknown as { postings: [] }).postings))).toBe('0.00');
  return events;
};

const bought = decided([], {
  type: 'RecordPurchase',
  purchase: purchase(1, '100.0000', '250.0000'),
  city: karachi,
});

describe('a godown’s inventory', () => {
  it('records a Godown purchase: the funder is credited, stock rises by units and INR value', () => {
    expect(bought).toEqual([
      {
        type: 'PurchaseRecorded',
        data: {
          purchase: purchase(1, '100.0000', '250.0000'),
          city_rate: '0.3000',
          currency: 'PKR',
          stock: { product_id: P, quantity: '100.0000', value: '7500.00' },
          postings: [
            { account: `funder:${F}`, currency: 'PKR', amount: '-25000.00', inr: '-7500.00' },
            {
              account: `stock:${G}:${P}`,
              currency: 'INR',
              amount: '7500.00',
              inr: '7500.00',
              quantity: '100.0000',
            },
          ],
        },
      },
    ]);
  });

  it('posts a paid amount from the collector to the funder', () => {
    const [event] = decided([], {
      type: 'RecordPurchase',
      purchase: purchase(2, '10.0000', '100.0000', { paid_amount: '400.00', collector_id: K }),
      city: karachi,
    });
    expect((event!.data as EventData<'PurchaseRecorded'>).postings.slice(2)).toEqual([
      { account: `funder:${F}`, currency: 'PKR', amount: '400.00', inr: '120.00' },
      { account: `collector:${K}`, currency: 'PKR', amount: '-400.00', inr: '-120.00' },
    ]);
  });

  it('puts what rounding leaves over on FX difference, never losing it', () => {
    // 1 unit at 0.005 in a city at 3 INR: the funder is owed 0.01 (0.03 INR), the stock is worth 0.015 -> 0.02 INR.
    const [event] = decided([], {
      type: 'RecordPurchase',
      purchase: purchase(3, '1.0000', '0.0050'),
      city: { rate: '3.0000', currency: 'AED' },
    });
    expect((event!.data as EventData<'PurchaseRecorded'>).postings).toEqual([
      { account: `funder:${F}`, currency: 'AED', amount: '-0.01', inr: '-0.03' },
      { account: `stock:${G}:${P}`, currency: 'INR', amount: '0.02', inr: '0.02', quantity: '1.0000' },
      { account: 'nominal:FxDifference', currency: 'INR', amount: '0.01', inr: '0.01' },
    ]);
  });

  it('sells at the moving-average cost and books the clearing charge', () => {
    // 100 @ 7,500 INR, then 50 @ 280 PKR = 4,200 INR: 150 units worth 11,700 (78 each). 30 sold cost 2,340.
    const more = decided(bought, {
      type: 'RecordPurchase',
      purchase: purchase(2, '50.0000', '280.0000'),
      city: karachi,
    });
    const events = decided([...bought, ...more], {
      type: 'RecordSales',
      sales: [{ sale: sale(10, '30.0000', '300.0000', '50.00'), agentCity }],
      labels,
    });
    expect(events).toEqual([
      {
        type: 'SaleRecorded',
        data: {
          sale: sale(10, '30.0000', '300.0000', '50.00'),
          agent_city_id: C,
          agent_city_rate: '0.3000',
          currency: 'PKR',
          cost: '2340.00',
          stock: { product_id: P, quantity: '-30.0000', value: '-2340.00' },
          postings: [
            { account: `agent:${A}`, currency: 'PKR', amount: '9000.00', inr: '2700.00' },
            { account: 'nominal:Sales', currency: 'INR', amount: '-2700.00', inr: '-2700.00' },
            {
              account: `stock:${G}:${P}`,
              currency: 'INR',
              amount: '-2340.00',
              inr: '-2340.00',
              quantity: '-30.0000',
            },
            { account: 'nominal:CostOfSales', currency: 'INR', amount: '2340.00', inr: '2340.00' },
            { account: 'nominal:Expense:Clearing', currency: 'INR', amount: '50.00', inr: '50.00' },
            { account: `clearing:${G}`, currency: 'INR', amount: '-50.00', inr: '-50.00' },
          ],
        },
      },
    ]);
  });

  it('refuses a sale above the stock, naming the godown, product and figures', () => {
    gwt(bought)
      .when({ type: 'RecordSales', sales: [{ sale: sale(10, '100.0001', '300.0000'), agentCity }], labels })
      .thenRefused(
        'conflict',
        'Not enough stock: Bhiwandi holds 100.0000 of Cumin; the sale needs 100.0001.',
      );
  });

  it('checks a bulk sale against its total and records every row or none', () => {
    const rows = [sale(11, '60.0000', '300.0000'), sale(12, '50.0000', '310.0000')].map((s) => ({
      sale: s,
      agentCity,
    }));
    gwt(bought)
      .when({ type: 'RecordSales', sales: rows, labels })
      .thenRefused('conflict', /holds 100.0000 of Cumin; the sale needs 110.0000/);
    const ok = decided(bought, {
      type: 'RecordSales',
      sales: [rows[0]!, { ...rows[1]!, sale: sale(12, '40.0000', '310.0000') }],
      labels,
    });
    expect(ok.map((e) => (e.data as EventData<'SaleRecorded'>).cost)).toEqual(['4500.00', '3000.00']);
  });

  it('takes all remaining value with the last units, so no value is left without stock', () => {
    const thirds = decided([], {
      type: 'RecordPurchase',
      purchase: purchase(1, '3.0000', '3.3333'),
      city: { rate: '1.0000', currency: 'INR' },
    });
    const first = decided(thirds, {
      type: 'RecordSales',
      sales: [{ sale: sale(10, '1.0000', '5.0000'), agentCity }],
      labels,
    });
    const rest = decided([...thirds, ...first], {
      type: 'RecordSales',
      sales: [{ sale: sale(11, '2.0000', '5.0000'), agentCity }],
      labels,
    });
    const state = [...thirds, ...first, ...rest].reduce(evolveInventory, initialInventory());
    expect(state.stock.get(P)).toEqual({ quantity: { units: 0n, scale: 4 }, value: { units: 0n, scale: 2 } });
  });

  it('returns part of a sale at its stored cost, then the rest with exactly what remains of the cost', () => {
    const sold = decided(bought, {
      type: 'RecordSales',
      sales: [{ sale: sale(10, '30.0000', '300.0000') }].map((s) => ({ ...s, agentCity })),
      labels,
    });
    const r1 = decided([...bought, ...sold], {
      type: 'ReturnSale',
      saleReturn: {
        id: id(20),
        sale_id: id(10),
        quantity: '10.0000',
        return_date: '2026-11-03',
        remarks: null,
      },
    });
    expect((r1[0]!.data as EventData<'SaleReturned'>).postings).toEqual([
      { account: `agent:${A}`, currency: 'PKR', amount: '-3000.00', inr: '-900.00' },
      { account: 'nominal:Sales', currency: 'INR', amount: '900.00', inr: '900.00' },
      { account: `stock:${G}:${P}`, currency: 'INR', amount: '750.00', inr: '750.00', quantity: '10.0000' },
      { account: 'nominal:CostOfSales', currency: 'INR', amount: '-750.00', inr: '-750.00' },
    ]);
    const r2 = decided([...bought, ...sold, ...r1], {
      type: 'ReturnSale',
      saleReturn: {
        id: id(21),
        sale_id: id(10),
        quantity: '20.0000',
        return_date: '2026-11-04',
        remarks: 'damaged',
      },
    });
    expect((r2[0]!.data as EventData<'SaleReturned'>).stock).toEqual({
      product_id: P,
      quantity: '20.0000',
      value: '1500.00',
    });
    gwt([...bought, ...sold, ...r1, ...r2])
      .when({
        type: 'ReturnSale',
        saleReturn: {
          id: id(22),
          sale_id: id(10),
          quantity: '0.0001',
          return_date: '2026-11-05',
          remarks: null,
        },
      })
      .thenRefused('conflict', 'Only 0.0000 of this sale remain to be returned.');
  });

  it('returns a purchase at its own cost, never more than remains of it or than the godown holds', () => {
    const r = decided(bought, {
      type: 'ReturnPurchase',
      purchaseReturn: {
        id: id(30),
        purchase_id: id(1),
        quantity: '20.0000',
        return_date: '2026-11-03',
        remarks: null,
      },
    });
    expect((r[0]!.data as EventData<'PurchaseReturned'>).postings).toEqual([
      { account: `funder:${F}`, currency: 'PKR', amount: '5000.00', inr: '1500.00' },
      {
        account: `stock:${G}:${P}`,
        currency: 'INR',
        amount: '-1500.00',
        inr: '-1500.00',
        quantity: '-20.0000',
      },
    ]);
    gwt([...bought, ...r])
      .when({
        type: 'ReturnPurchase',
        purchaseReturn: {
          id: id(31),
          purchase_id: id(1),
          quantity: '80.0001',
          return_date: '2026-11-03',
          remarks: null,
        },
      })
      .thenRefused('conflict', 'Only 80.0000 of this purchase remain to be returned.');
    const sold = decided([...bought, ...r], {
      type: 'RecordSales',
      sales: [{ sale: sale(10, '75.0000', '300.0000'), agentCity }],
      labels,
    });
    gwt([...bought, ...r, ...sold])
      .when({
        type: 'ReturnPurchase',
        purchaseReturn: {
          id: id(32),
          purchase_id: id(1),
          quantity: '10.0000',
          return_date: '2026-11-03',
          remarks: null,
        },
      })
      .thenRefused(
        'conflict',
        'Not enough stock to return: the godown holds 5.0000 of this product, the return needs 10.0000.',
      );
  });

  it('refuses a quantity of zero even when the stock is zero too', () => {
    gwt([])
      .when({ type: 'RecordSales', sales: [{ sale: sale(10, '0.0000', '300.0000'), agentCity }], labels })
      .thenRefused('invalid', 'Quantity must be more than 0.');
  });

  it('refuses returns of records it does not hold, and recording the same record twice', () => {
    gwt(bought)
      .when({
        type: 'ReturnSale',
        saleReturn: {
          id: id(40),
          sale_id: id(99),
          quantity: '1.0000',
          return_date: '2026-11-03',
          remarks: null,
        },
      })
      .thenRefused('not_found', 'Sale not found.');
    gwt([])
      .when({
        type: 'ReturnPurchase',
        purchaseReturn: {
          id: id(41),
          purchase_id: id(1),
          quantity: '1.0000',
          return_date: '2026-11-03',
          remarks: null,
        },
      })
      .thenRefused('not_found', 'Purchase not found.');
    gwt(bought)
      .when({ type: 'RecordPurchase', purchase: purchase(1, '1.0000', '1.0000'), city: karachi })
      .thenRefused('conflict', 'This purchase is already recorded.');
  });
});
