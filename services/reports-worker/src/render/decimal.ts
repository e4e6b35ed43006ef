import { add, parseDecimal, round, sub, toFixedString, zero } from '@bahi/domain';

/**
 * Report totals and printed figures over the domain's exact decimals (`@bahi/domain`, bigint
 * fixed point): amounts arrive from the query side as decimal text ("1234.50") and are summed
 * exactly, never as floating point. What is the report's own is only the printing: a fixed number
 * of places and Indian grouping. The one place a Number is made from an amount is the XLSX
 * numeric cell (see xlsx.ts).
 */

/** Decimal text as the API writes it ("-1234.50"): what a report cell holds when it is a figure. */
const API_DECIMAL = /^-?\d+(?:\.\d+)?$/;
export const isDecimal = (text: unknown): text is string =>
  typeof text === 'string' && API_DECIMAL.test(text.trim());

/** The sum of decimal texts, at the largest scale among them (at least `minScale`). */
export function sumDecimals(values: Iterable<string>, minScale = 2): string {
  let total = zero(minScale);
  for (const value of values) total = add(total, parseDecimal(value));
  return toFixedString(total);
}

export function subtractDecimals(a: string, b: string, minScale = 2): string {
  return toFixedString(sub(add(zero(minScale), parseDecimal(a)), parseDecimal(b)));
}

/**
 * A decimal at exactly `scale` places, rounded half away from zero, with thousands grouped
 * the Indian way when `group` (12,34,567.50) - what a printed statement shows.
 */
export function formatDecimal(text: string, scale: number, group = true): string {
  const plain = toFixedString(round(parseDecimal(text), scale));
  if (!group) return plain;
  const negative = plain.startsWith('-');
  const [whole = '0', fraction] = (negative ? plain.slice(1) : plain).split('.');
  const last3 = whole.slice(-3);
  const rest = whole.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  const grouped = rest ? `${rest},${last3}` : last3;
  return `${negative ? '-' : ''}${grouped}${fraction !== undefined ? `.${fraction}` : ''}`;
}
