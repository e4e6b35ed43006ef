import type { EventData } from '@bahi/contracts';
import { describe, expect, it } from 'vitest';
import { givenWhenThen } from '../testing.ts';
import {
  decideDirectPurchase,
  directPurchaseDecider,
  evolveDirectPurchase,
  initialDirectPurchase,
} from './direct-purchase.ts';

const [F, A, C, , P, G] = ['c', 'e', 'd', 'f', 'b', 'a'].map(
  (x) => `00000000-0000-4000-8000-00000000000${x}`,
);
const id = (n: number) => `00000000-0000-4000-9000-${n.toString().padStart(12, '0')}`;
const direct = {
  id: id(1),
  type: 'Direct' as const,
  purchase_date: '2026-11-01',
  city_id: C!,
  funder_id: F!,
  product_id: P!,
  godown_id: G!,
  collector_id: null,
  agent_id: A!,
  rate: '120.0000',
  quantity: '3.0000',
  paid_amount: '0.00',
  commission: '10.00',
  custom_fields: {},
};
const gwt = givenWhenThen(directPurchaseDecider);
const city = { rate: '1.0000', currency: 'INR' };
const recorded = decideDirectPurchase(
  { type: 'RecordPurchase', purchase: direct, city },
  initialDirectPurchase(),
);
const ret = (n: number, quantity: string) => ({
  type: 'ReturnPurchase' as const,
  purchaseReturn: { id: id(n), purchase_id: id(1), quantity, return_date: '2026-11-02', remarks: null },
});

describe('a direct purchase', () => {
  it('credits the funder, debits the agent with goods and commission, and books the commission as income', () => {
    expect((recorded[0]!.data as EventData<'PurchaseRecorded'>).postings).toEqual([
      { account: `funder:${F}`, currency: 'INR', amount: '-360.00', inr: '-360.00' },
      { account: `agent:${A}`, currency: 'INR', amount: '370.00', inr: '370.00' },
      { account: 'nominal:CommissionIncome', currency: 'INR', amount: '-10.00', inr: '-10.00' },
    ]);
    expect((recorded[0]!.data as EventData<'PurchaseRecorded'>).stock).toBeNull();
  });

  it('returns pro rata, the last units taking exactly the rest of the commission', () => {
    const first = decideDirectPurchase(
      ret(2, '1.0000'),
      recorded.reduce(evolveDirectPurchase, initialDirectPurchase()),
    );
    expect((first[0]!.data as EventData<'PurchaseReturned'>).postings).toEqual([
      { account: `funder:${F}`, currency: 'INR', amount: '120.00', inr: '120.00' },
      { account: `agent:${A}`, currency: 'INR', amount: '-123.33', inr: '-123.33' },
      { account: 'nominal:CommissionIncome', currency: 'INR', amount: '3.33', inr: '3.33' },
    ]);
    const rest = decideDirectPurchase(
      ret(3, '2.0000'),
      [...recorded, ...first].reduce(evolveDirectPurchase, initialDirectPurchase()),
    );
    expect((rest[0]!.data as EventData<'PurchaseReturned'>).postings[2]).toEqual({
      account: 'nominal:CommissionIncome',
      currency: 'INR',
      amount: '6.67',
      inr: '6.67',
    });
    gwt([...recorded, ...first, ...rest])
      .when(ret(4, '0.0001'))
      .thenRefused('conflict', 'Only 0.0000 of this purchase remain to be returned.');
  });

  it('refuses a purchase without an agent, a second recording, and a return of nothing', () => {
    gwt([])
      .when({ type: 'RecordPurchase', purchase: { ...direct, agent_id: null }, city })
      .thenRefused('invalid', /needs an agent/);
    gwt(recorded)
      .when({ type: 'RecordPurchase', purchase: direct, city })
      .thenRefused('conflict', /already recorded/);
    gwt(recorded).when(ret(5, '0.0000')).thenRefused('invalid', 'Return quantity must be more than 0.');
    gwt([]).when(ret(6, '1.0000')).thenRefused('not_found', 'Purchase not found.');
  });
});

describe('editing and deleting a direct purchase', () => {
  it('reverses what stands and posts the new lines; the type cannot change', () => {
    const edited = decideDirectPurchase(
      { type: 'UpdatePurchase', purchase: { ...direct, commission: '20.00' }, city },
      recorded.reduce(evolveDirectPurchase, initialDirectPurchase()),
    );
    expect((edited[0]!.data as EventData<'PurchaseUpdated'>).postings).toEqual([
      { account: `funder:${F}`, currency: 'INR', amount: '360.00', inr: '360.00' },
      { account: `agent:${A}`, currency: 'INR', amount: '-370.00', inr: '-370.00' },
      { account: 'nominal:CommissionIncome', currency: 'INR', amount: '10.00', inr: '10.00' },
      { account: `funder:${F}`, currency: 'INR', amount: '-360.00', inr: '-360.00' },
      { account: `agent:${A}`, currency: 'INR', amount: '380.00', inr: '380.00' },
      { account: 'nominal:CommissionIncome', currency: 'INR', amount: '-20.00', inr: '-20.00' },
    ]);
    gwt(recorded)
      .when({ type: 'UpdatePurchase', purchase: { ...direct, type: 'Godown' }, city })
      .thenRefused('invalid', /type of a purchase cannot be changed/);
  });

  it('deletes with its returns in one event, after which nothing can be returned', () => {
    const first = decideDirectPurchase(
      ret(2, '1.0000'),
      recorded.reduce(evolveDirectPurchase, initialDirectPurchase()),
    );
    const deleted = decideDirectPurchase(
      { type: 'DeletePurchase', id: id(1) },
      [...recorded, ...first].reduce(evolveDirectPurchase, initialDirectPurchase()),
    );
    expect((deleted[0]!.data as EventData<'PurchaseDeleted'>).postings).toEqual([
      { account: `funder:${F}`, currency: 'INR', amount: '240.00', inr: '240.00' },
      { account: `agent:${A}`, currency: 'INR', amount: '-246.67', inr: '-246.67' },
      { account: 'nominal:CommissionIncome', currency: 'INR', amount: '6.67', inr: '6.67' },
    ]);
    gwt([...recorded, ...first, ...deleted])
      .when(ret(3, '1.0000'))
      .thenRefused('not_found', 'Purchase not found.');
  });
});
