/**
 * Exact multiplication and division of decimal text (spec section 9: money is exact), for what a
 * dialog estimates before the server records it: a transfer's rate and amount received, a total.
 * The value never goes through a JS number; results are rounded half away from zero, as the
 * server's domain rounds (packages/domain/src/decimal.ts), so the estimate is what is recorded.
 */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

interface Units {
  units: bigint;
  scale: number;
}

/** '12.50' as 1250 units of 10^-2; null when the text is no decimal. */
function parse(text: string): Units | null {
  const t = text.trim();
  if (!DECIMAL.test(t)) return null;
  const negative = t.startsWith('-');
  const [int = '', frac = ''] = t.replace(/^[+-]/, '').split('.');
  const units = BigInt(`${int || '0'}${frac}`);
  return { units: negative ? -units : units, scale: frac.length };
}

const pow10 = (n: number) => 10n ** BigInt(n);

/** num / den to an integer, rounded half away from zero. */
function roundedQuotient(num: bigint, den: bigint): bigint {
  const negative = num < 0n !== den < 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  let q = n / d;
  if ((n % d) * 2n >= d) q += 1n;
  return negative ? -q : q;
}

/** Units at `scale` as text: 75514 at 3 is '75.514'. */
function format(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const body = scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative ? `-${body}` : body;
}

/** a x b at `scale` decimals, exactly; null when either is no decimal. */
export function multiplyDecimal(a: string, b: string, scale: number): string | null {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return null;
  return format(roundedQuotient(x.units * y.units * pow10(scale), pow10(x.scale + y.scale)), scale);
}

/** a / b at `scale` decimals, exactly; null when either is no decimal or b is zero. */
export function divideDecimal(a: string, b: string, scale: number): string | null {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y || y.units === 0n) return null;
  // (x.units / 10^x.scale) / (y.units / 10^y.scale), in units of 10^-scale.
  return format(roundedQuotient(x.units * pow10(y.scale + scale), y.units * pow10(x.scale)), scale);
}
