import { AMOUNT_SCALE, type Dec, div, mul, sub } from '../decimal.ts';

/**
 * What a transfer's receiver gets (spec section 5): the amount sent less the charge, times the
 * rate or divided by it, rounded half away from zero to 2 decimals. The decider records it; the
 * transfer dialog shows it before Save (through @bahi/ui/screen), so the estimate is what is recorded.
 */
export function transferReceived(sent: Dec, charge: Dec, rate: Dec, operation: '*' | '/'): Dec {
  const net = sub(sent, charge);
  return operation === '*' ? mul(net, rate, AMOUNT_SCALE) : div(net, rate, AMOUNT_SCALE);
}
