import { compareDecimal, isPositiveDecimal, multiplyDecimal, subtractDecimal } from '@bahi/ui/screen';

/**
 * The sale form's profit preview (spec section 5): (sale rate - average purchase rate) x
 * quantity, only when all three are above 0. The average is INR per unit (ACCOUNTING.md: stock is
 * valued in INR), so the sale rate is taken to INR at the agent's city rate first; in an INR city
 * (rate 1) this is the spec's formula exactly. Null when not shown.
 */
export function profitPreview(
  saleRate: string,
  quantity: string,
  averageInr: string,
  cityRate: string,
): string | null {
  if (!isPositiveDecimal(saleRate) || !isPositiveDecimal(quantity) || !isPositiveDecimal(averageInr))
    return null;
  if (compareDecimal(cityRate || '0', '0') <= 0) return null;
  const saleInr = multiplyDecimal(saleRate, cityRate, 8);
  return saleInr === null ? null : multiplyDecimal(subtractDecimal(saleInr, averageInr, 8), quantity, 2);
}
