import type { DomainEvent } from '@bahi/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inrTotal } from '../accounting/postings.ts';
import { compare, isNegative, isZero, parseDecimal, toFixedString } from '../decimal.ts';
import { DomainError } from '../errors.ts';
import { decideInventory, evolveInventory, initialInventory } from '../inventory/inventory.ts';
import { decideSalaryPayment, evolveSalaryMonth, initialSalaryMonth } from './cash.ts';

const u = (n: number) => `00000000-0000-4000-9000-${n.toString().padStart(12, '0')}`;
const amount = (max: number) =>
  fc.integer({ min: 0, max }).map((n) => toFixedString({ units: BigInt(n), scale: 2 }));
const rate = fc.constantFrom('1.0000', '0.3000', '22.6543', '0.0123');
const balanced = (events: DomainEvent[]) =>
  events.every((e) => isZero(inrTotal((e.data as unknown as { postings: [] }).postings)));

const tryDecide = (fn: () => DomainEvent[]): DomainEvent[] => {
  try {
    return fn();
  } catch (error) {
    if (error instanceof DomainError) return []; // a refusal changes nothing
    throw error;
  }
};

describe('cash invariants over random command sequences', () => {
  it('salary paid for a month never exceeds the salary, and every payment balances', () => {
    fc.assert(
      fc.property(
        amount(5_000_000),
        rate,
        fc.array(fc.record({ full: fc.boolean(), amount: amount(3_000_000), godown: fc.boolean() }), {
          maxLength: 30,
        }),
        (salary, cityRate, steps) => {
          let state = initialSalaryMonth();
          steps.forEach((s, i) => {
            const events = tryDecide(() =>
              decideSalaryPayment(
                {
                  salaryPerMonth: salary,
                  city: { rate: cityRate, currency: 'XXX' },
                  collectorName: 'K',
                  payment: {
                    id: u(i),
                    collector_id: u(1000),
                    city_id: u(1001),
                    month: 3,
                    year: 2026,
                    payment_type: s.full ? 'Full' : 'Advance',
                    payment_mode: s.godown ? 'INR' : 'Currency',
                    amount: s.amount,
                    category: 'Salary',
                    paid_from_entity_type: s.godown ? 'Godown' : 'Collector',
                    paid_from_entity_id: u(1002),
                    handler_entity_id: null,
                    payment_date: '2026-03-31',
                    remarks: null,
                  },
                },
                state,
              ),
            );
            expect(balanced(events)).toBe(true);
            state = events.reduce(evolveSalaryMonth, state);
            expect(compare(state.paid, parseDecimal(salary)) <= 0, 'paid <= salary').toBe(true);
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('clearing paid out never exceeds the clearing balance its sales built up', () => {
    const G = u(2000);
    const P = u(2001);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.record({ sale: amount(10_000) }), fc.record({ payout: amount(20_000) })), {
          maxLength: 40,
        }),
        (steps) => {
          let state = decideInventory(
            {
              type: 'RecordPurchase',
              city: { rate: '1.0000', currency: 'INR' },
              purchase: {
                id: u(1),
                type: 'Godown',
                purchase_date: '2026-03-01',
                city_id: u(3),
                funder_id: u(4),
                product_id: P,
                godown_id: G,
                collector_id: null,
                agent_id: null,
                rate: '1.0000',
                quantity: '100000.0000',
                paid_amount: '0.00',
                commission: '0.00',
                custom_fields: {},
              },
            },
            initialInventory(),
          ).reduce(evolveInventory, initialInventory());
          steps.forEach((s, i) => {
            const events = tryDecide(() =>
              'sale' in s
                ? decideInventory(
                    {
                      type: 'RecordSales',
                      labels: { product: 'P', godown: 'G' },
                      sales: [
                        {
                          agentCity: { id: u(3), rate: '1.0000', currency: 'INR' },
                          sale: {
                            id: u(100 + i),
                            sale_date: '2026-03-02',
                            agent_id: u(5),
                            product_id: P,
                            godown_id: G,
                            rate: '1.0000',
                            quantity: '1.0000',
                            clearing_charge: s.sale,
                            custom_fields: {},
                          },
                        },
                      ],
                    },
                    state,
                  )
                : decideInventory(
                    {
                      type: 'PayOutClearing',
                      godownName: 'G',
                      payout: {
                        id: u(500 + i),
                        payout_date: '2026-03-03',
                        godown_id: G,
                        payer_entity_type: 'Godown',
                        payer_entity_id: u(6),
                        amount: s.payout,
                        remarks: null,
                      },
                    },
                    state,
                  ),
            );
            expect(balanced(events)).toBe(true);
            state = events.reduce(evolveInventory, state);
            expect(isNegative(state.clearing), 'clearing balance never negative').toBe(false);
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
