import { isPositiveDecimal } from '@bahi/ui/screen';

export interface BulkRow {
  agent_id: string;
  quantity: string;
  rate: string;
  clearing_charge: string;
}

export const EMPTY_ROW: BulkRow = { agent_id: '', quantity: '', rate: '', clearing_charge: '' };
export const NO_GODOWN_OR_PRODUCT = 'Please select a Godown and a Product.';
export const NO_VALID_ROW = 'Please add at least one valid sale row.';

/** Spec section 5: only rows with an agent, a quantity above 0 and a rate above 0 are sent. */
export const isValidRow = (r: BulkRow) =>
  !!r.agent_id && isPositiveDecimal(r.quantity) && isPositiveDecimal(r.rate);

/**
 * What a bulk sale sends, or the spec's message why nothing can be sent; `index` maps each sent
 * row back to its place in the grid (a server error on `sales.1.quantity` belongs to that row).
 */
export function bulkPayload(
  common: { sale_date: string; godown_id: string; product_id: string },
  rows: BulkRow[],
): { error: string } | { body: { common: typeof common; sales: BulkRow[] }; index: number[] } {
  if (!common.godown_id || !common.product_id) return { error: NO_GODOWN_OR_PRODUCT };
  const index = rows.flatMap((r, i) => (isValidRow(r) ? [i] : []));
  if (index.length === 0) return { error: NO_VALID_ROW };
  const sales = index.map((i) => {
    const r = rows[i]!;
    return { ...r, clearing_charge: r.clearing_charge || '0' };
  });
  return { body: { common, sales }, index };
}
