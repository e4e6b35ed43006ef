/**
 * The frontends' one decimal module: exact decimal text as a person types it, and the arithmetic
 * a screen does before the server records (what is left to pay, a total, a transfer's amount
 * received, a profit preview). The arithmetic is the domain's (packages/domain/src/decimal.ts:
 * bigint fixed point, half away from zero), so an estimate is what the server will record; only
 * the reading of typed text ('', '.5', '2.') is this module's. Nothing here goes through a JS number.
 */

import { add, compare, type Dec, div, format, mul, parseDecimal, sub } from '@bahi/domain/decimal';
import { transferReceived } from '@bahi/domain/transfer-amount';

/** Typed decimal text: digits with at most one point, a sign in front; no exponent. */
const TYPED = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** Typed text as a decimal ('' and blanks are 0); null when it is no decimal. */
function typed(text: string | null | undefined): Dec | null {
  const t = (text ?? '').trim();
  if (t === '') return parseDecimal('0');
  if (!TYPED.test(t)) return null;
  return parseDecimal(t.endsWith('.') ? t.slice(0, -1) : t);
}

/** Whether text may stand in a field of `scale` decimals as it is typed (a sign only if allowed). */
export function acceptDecimal(text: string, scale: number, allowNegative = false): boolean {
  const sign = allowNegative ? '-?' : '';
  const frac = scale > 0 ? `(\\.\\d{0,${scale}})?` : '';
  return new RegExp(`^${sign}\\d{0,15}${frac}$`).test(text);
}

/** Typed text made acceptable where it can be: commas and spaces (pasted '1,23,456.50') dropped. */
export function cleanDecimal(text: string): string {
  return text.replace(/[\s,\u00a0]/g, '');
}

/** Compares two decimal texts exactly: -1, 0 or 1 (text that is no decimal counts as 0). */
export function compareDecimal(a: string, b: string): number {
  return compare(typed(a) ?? parseDecimal('0'), typed(b) ?? parseDecimal('0'));
}

/** True when the text is a number above zero. */
export const isPositiveDecimal = (text: string | null | undefined): boolean =>
  !!text && /^\d*\.?\d*$/.test(text.trim()) && compareDecimal(text, '0') > 0;

/** Both texts as decimals, or null when either is blank or no decimal. */
const both = (a: string, b: string): [Dec, Dec] | null => {
  const x = a.trim() === '' ? null : typed(a);
  const y = b.trim() === '' ? null : typed(b);
  return x && y ? [x, y] : null;
};

/** a - b at `scale` decimals, exactly, for what is left to pay. Text that is no decimal counts as 0. */
export const subtractDecimal = (a: string, b: string, scale: number): string =>
  format(sub(typed(a) ?? parseDecimal('0'), typed(b) ?? parseDecimal('0')), scale);

/** a + b at `scale` decimals, exactly. Text that is no decimal counts as 0. */
export const addDecimal = (a: string, b: string, scale: number): string =>
  format(add(typed(a) ?? parseDecimal('0'), typed(b) ?? parseDecimal('0')), scale);

/** a x b at `scale` decimals, exactly, half away from zero; null when either is no decimal. */
export function multiplyDecimal(a: string, b: string, scale: number): string | null {
  const xy = both(a, b);
  return xy ? format(mul(xy[0], xy[1], scale), scale) : null;
}

/** a / b at `scale` decimals, exactly, half away from zero; null when either is no decimal or b is zero. */
export function divideDecimal(a: string, b: string, scale: number): string | null {
  const xy = both(a, b);
  if (!xy || xy[1].units === 0n) return null;
  return format(div(xy[0], xy[1], scale), scale);
}

/**
 * What a transfer's receiver gets (the domain's rule, spec section 5): (sent - charge) x rate, or
 * / rate, to 2 decimals; null when a text is no decimal or the rate is 0 for a division.
 */
export function transferReceivedText(
  sent: string,
  charge: string,
  rate: string,
  operation: '*' | '/',
): string | null {
  const s = typed(sent);
  const c = typed(charge);
  const r = typed(rate);
  if (!s || !c || !r || (operation === '/' && r.units === 0n)) return null;
  return format(transferReceived(s, c, r, operation), 2);
}
