import { AMOUNT_SCALE, type Dec, format, mul, parseDecimal, QUANTITY_SCALE, round, sub } from '../decimal.ts';

/**
 * A purchase's or sale's value in its own currency: quantity times rate, rounded once to the
 * amount's two decimals (half away from zero). The postings credit a funder or debit an agent
 * with it, and the lists show it as the record's Total.
 */
export const lineTotal = (quantity: Dec, rate: Dec): Dec => mul(quantity, rate, AMOUNT_SCALE);

/** A purchase's or sale's Total as text, from its quantity and rate as the read model keeps them. */
export const lineTotalText = (quantity: string, rate: string): string =>
  format(lineTotal(parseDecimal(quantity), parseDecimal(rate)), AMOUNT_SCALE);

/** What is left of a purchase or sale once its returns are taken off, at the quantity's four decimals. */
export const remainingQuantity = (quantity: Dec, returned: Dec): Dec =>
  round(sub(quantity, returned), QUANTITY_SCALE);

/** What is left as text, from the quantities as the read model keeps them. */
export const remainingQuantityText = (quantity: string, returned: string): string =>
  format(remainingQuantity(parseDecimal(quantity), parseDecimal(returned)), QUANTITY_SCALE);
