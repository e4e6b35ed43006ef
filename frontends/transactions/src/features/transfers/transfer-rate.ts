import {
  type City,
  compareDecimal,
  divideDecimal,
  isPositiveDecimal,
  subtractDecimal,
  transferReceivedText,
} from '@bahi/ui/screen';

/**
 * The rate a transfer starts with once both collectors are chosen (spec section 5): 1.0000
 * within a city, otherwise the sender city's rate divided by the receiver city's, to 4
 * decimals; null when a city (or its rate) is unknown.
 */
export function autoRate(from: City | undefined, to: City | undefined): string | null {
  if (!from || !to) return null;
  if (from.id === to.id) return '1.0000';
  return divideDecimal(from.rate, to.rate, 4);
}

const NUMBER = /^\d*\.?\d*$/;

/**
 * What the receiver should get (spec section 5): (sent - charge) x rate, or / rate; shown only
 * when sent minus charge is 0 or more and the rate is above 0. Null when it is not to be shown.
 */
export function estimatedReceived(
  sent: string,
  charge: string,
  rate: string,
  operation: '*' | '/',
): string | null {
  const s = sent.trim();
  const c = charge.trim() || '0';
  if (!/\d/.test(s) || !NUMBER.test(s) || !NUMBER.test(c) || !isPositiveDecimal(rate)) return null;
  if (compareDecimal(subtractDecimal(s, c, 2), '0') < 0) return null;
  return transferReceivedText(s, c, rate, operation);
}
