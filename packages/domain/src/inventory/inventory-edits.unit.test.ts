import type { DomainEvent, EventData } from '@bahi/contracts';
import { describe, expect, it } from 'vitest';
import { inrTotal } from '../accounting/postings.ts';
import { isZero } from '../decimal.ts';
import { givenWhenThen } from '../testing.ts';
import {
  decideInventory,
  evolveInventory,
  type InventoryCommand,
  initialInventory,
  inventoryDecider,
} from './inventory.ts';

const u = (c: string) => `00000000-0000-4000-8000-0000000000${c}`;
const [G, P, F, C, A] = ['0a', '0b', '0c', '0d', '0e'].map(u) as string[];
const id = (n: number) => `00000000-0000-4000-9000-${n.toString().padStart(12, '0')}`;
const pkr = { rate: '0.3000', currency: 'PKR' };
const agentCity = { id: C!, ...pkr };
const labels = { product: 'Cumin', godown: 'Bhiwandi' };
const purchase = (quantity: string, rate: string) => ({
  id: id(1),
  type: 'Godown' as const,
  purchase_date: '2026-11-01',
  city_id: C!,
  funder_id: F!,
  product_id: P!,
  godown_id: G!,
  collector_id: null,
  agent_id: null,
  rate,
  quantity,
  paid_amount: '0.00',
  commission: '0.00',
  custom_fields: {},
});
const sale = (quantity: string, clearing = '0.00') => ({
  id: id(10),
  sale_date: '2026-11-02',
  agent_id: A!,
  product_id: P!,
  godown_id: G!,
  rate: '300.0000',
  quantity,
  clearing_charge: clearing,
  custom_fields: {},
});

const gwt = givenWhenThen(inventoryDecider);
const run = (given: DomainEvent[], command: InventoryCommand) => {
  const events = decideInventory(command, given.reduce(evolveInventory, initialInventory()));
  for (const e of events)
    expect(isZero(inrTotal((e.data as unknown as { postings: [] }).postings))).toBe(true);
  return [...given, ...events];
};
const stockOf = (events: DomainEvent[]) => events.reduce(evolveInventory, initialInventory()).stock.get(P!);
const last = <T>(events: DomainEvent[]) => events.at(-1)!.data as T;

const bought = run([], { type: 'RecordPurchase', purchase: purchase('100.0000', '250.0000'), city: pkr });

describe('editing and deleting purchases', () => {
  it('reverses the old lines and posts the new ones in one event; the stock takes the difference', () => {
    const edited = run(bought, {
      type: 'UpdatePurchase',
      purchase: purchase('100.0000', '260.0000'),
      city: pkr,
    });
    const data = last<EventData<'PurchaseUpdated'>>(edited);
    expect(data.postings).toEqual([
      { account: `funder:${F}`, currency: 'PKR', amount: '25000.00', inr: '7500.00' },
      { account: `funder:${F}`, currency: 'PKR', amount: '-26000.00', inr: '-7800.00' },
      { account: `stock:${G}:${P}`, currency: 'INR', amount: '300.00', inr: '300.00', quantity: '0.0000' },
    ]);
    expect(data.stock_moves).toEqual([{ product_id: P, quantity: '0.0000', value: '300.00' }]);
    expect(stockOf(edited)).toEqual({
      quantity: { units: 1_000_000n, scale: 4 },
      value: { units: 780_000n, scale: 2 },
    });
    // Editing again reverses what now stands, not the original.
    const again = run(edited, {
      type: 'UpdatePurchase',
      purchase: purchase('100.0000', '250.0000'),
      city: pkr,
    });
    expect(stockOf(again)?.value).toEqual({ units: 750_000n, scale: 2 });
  });

  it('moves value it can no longer put on stock (the goods are sold) to cost of sales', () => {
    const sold = run(bought, { type: 'RecordSales', sales: [{ sale: sale('100.0000'), agentCity }], labels });
    const edited = run(sold, {
      type: 'UpdatePurchase',
      purchase: purchase('100.0000', '260.0000'),
      city: pkr,
    });
    expect(last<EventData<'PurchaseUpdated'>>(edited).postings.slice(2)).toEqual([
      { account: 'nominal:CostOfSales', currency: 'INR', amount: '300.00', inr: '300.00' },
    ]);
    expect(stockOf(edited)).toEqual({ quantity: { units: 0n, scale: 4 }, value: { units: 0n, scale: 2 } });
  });

  it('refuses a quantity below what was returned, or one that would take more than the godown holds', () => {
    const returned = run(bought, {
      type: 'ReturnPurchase',
      purchaseReturn: {
        id: id(30),
        purchase_id: id(1),
        quantity: '20.0000',
        return_date: '2026-11-03',
        remarks: null,
      },
    });
    gwt(returned)
      .when({ type: 'UpdatePurchase', purchase: purchase('10.0000', '250.0000'), city: pkr })
      .thenRefused('conflict', 'The quantity cannot be less than the 20.0000 already returned.');
    const sold = run(bought, { type: 'RecordSales', sales: [{ sale: sale('90.0000'), agentCity }], labels });
    gwt(sold)
      .when({ type: 'UpdatePurchase', purchase: purchase('50.0000', '250.0000'), city: pkr })
      .thenRefused(
        'conflict',
        'Not enough stock to change this purchase: the godown holds 10.0000 of the product and 50.0000 would have to leave.',
      );
    gwt(bought)
      .when({
        type: 'UpdatePurchase',
        purchase: { ...purchase('1.0000', '1.0000'), godown_id: u('ff') },
        city: pkr,
      })
      .thenRefused('invalid', /cannot be changed; delete it and record it again/);
    gwt(bought)
      .when({ type: 'UpdatePurchase', purchase: purchase('100.0000', '250.0000'), city: pkr })
      .thenEvents([]);
  });

  it('deletes a purchase with its returns in one event, leaving the stock as before it', () => {
    const returned = run(bought, {
      type: 'ReturnPurchase',
      purchaseReturn: {
        id: id(30),
        purchase_id: id(1),
        quantity: '20.0000',
        return_date: '2026-11-03',
        remarks: null,
      },
    });
    const deleted = run(returned, { type: 'DeletePurchase', id: id(1) });
    expect(last<EventData<'PurchaseDeleted'>>(deleted).postings).toEqual([
      { account: `funder:${F}`, currency: 'PKR', amount: '20000.00', inr: '6000.00' },
      {
        account: `stock:${G}:${P}`,
        currency: 'INR',
        amount: '-6000.00',
        inr: '-6000.00',
        quantity: '-80.0000',
      },
    ]);
    expect(stockOf(deleted)).toEqual({ quantity: { units: 0n, scale: 4 }, value: { units: 0n, scale: 2 } });
    gwt(deleted)
      .when({ type: 'DeletePurchase', id: id(1) })
      .thenRefused('not_found', 'Purchase not found.');
    const sold = run(bought, { type: 'RecordSales', sales: [{ sale: sale('1.0000'), agentCity }], labels });
    gwt(sold)
      .when({ type: 'DeletePurchase', id: id(1) })
      .thenRefused(
        'conflict',
        /cannot be deleted: 100.0000 of its units would have to leave the godown, which holds 99.0000/,
      );
  });
});

describe('editing and deleting sales', () => {
  const sold = run(bought, {
    type: 'RecordSales',
    sales: [{ sale: sale('40.0000', '50.00'), agentCity }],
    labels,
  });

  it('re-costs an edited sale at the average the stock would have without it', () => {
    const edited = run(sold, { type: 'UpdateSale', sale: sale('30.0000', '50.00'), agentCity, labels });
    const data = last<EventData<'SaleUpdated'>>(edited);
    expect(data.cost).toBe('2250.00');
    expect(data.stock_moves).toEqual([{ product_id: P, quantity: '10.0000', value: '750.00' }]);
    expect(stockOf(edited)).toEqual({
      quantity: { units: 700_000n, scale: 4 },
      value: { units: 525_000n, scale: 2 },
    });
    gwt(sold)
      .when({ type: 'UpdateSale', sale: sale('100.0001'), agentCity, labels })
      .thenRefused(
        'conflict',
        'Not enough stock: Bhiwandi holds 100.0000 of Cumin for this sale; it needs 100.0001.',
      );
  });

  it('deletes a sale with its returns, and refuses once its clearing charge is paid out', () => {
    const deleted = run(sold, { type: 'DeleteSale', id: id(10) });
    expect(stockOf(deleted)).toEqual({
      quantity: { units: 1_000_000n, scale: 4 },
      value: { units: 750_000n, scale: 2 },
    });
    expect(deleted.reduce(evolveInventory, initialInventory()).clearing).toEqual({ units: 0n, scale: 2 });
    const paidOut = run(sold, {
      type: 'PayOutClearing',
      godownName: 'Bhiwandi',
      payout: {
        id: id(50),
        payout_date: '2026-11-04',
        godown_id: G!,
        payer_entity_type: 'Godown',
        payer_entity_id: u('99'),
        amount: '50.00',
        remarks: null,
      },
    });
    gwt(paidOut)
      .when({ type: 'DeleteSale', id: id(10) })
      .thenRefused('conflict', 'This sale cannot be deleted: its clearing charge has already been paid out.');
    gwt(paidOut)
      .when({ type: 'UpdateSale', sale: sale('40.0000', '10.00'), agentCity, labels })
      .thenRefused('conflict', /cannot be lowered below what has already been paid out/);
  });
});
