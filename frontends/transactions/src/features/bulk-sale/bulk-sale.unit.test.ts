import { describe, expect, it } from 'vitest';
import { bulkPayload, EMPTY_ROW, NO_GODOWN_OR_PRODUCT, NO_VALID_ROW } from './bulk-sale.ts';

const common = { sale_date: '2026-11-24', godown_id: 'g', product_id: 'p' };
const row = (over: Partial<typeof EMPTY_ROW>) => ({ ...EMPTY_ROW, ...over });

describe('a bulk sale’s payload (spec section 5)', () => {
  it('needs a godown and a product', () => {
    expect(
      bulkPayload({ ...common, godown_id: '' }, [row({ agent_id: 'a', quantity: '1', rate: '1' })]),
    ).toEqual({
      error: NO_GODOWN_OR_PRODUCT,
    });
  });

  it('sends only rows with an agent, a quantity above 0 and a rate above 0, remembering where they were', () => {
    const result = bulkPayload(common, [
      row({ agent_id: 'a', quantity: '2', rate: '10' }),
      row({ agent_id: '', quantity: '5', rate: '10' }),
      row({ agent_id: 'b', quantity: '0', rate: '10' }),
      row({ agent_id: 'c', quantity: '1.5', rate: '12.25', clearing_charge: '30' }),
    ]);
    expect(result).toEqual({
      body: {
        common,
        sales: [
          { agent_id: 'a', quantity: '2', rate: '10', clearing_charge: '0' },
          { agent_id: 'c', quantity: '1.5', rate: '12.25', clearing_charge: '30' },
        ],
      },
      index: [0, 3],
    });
  });

  it('says so when no row is valid', () => {
    expect(bulkPayload(common, [row({}), row({ agent_id: 'a', rate: '5' })])).toEqual({
      error: NO_VALID_ROW,
    });
  });
});
