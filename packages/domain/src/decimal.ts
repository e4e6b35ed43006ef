/**
 * Exact decimals as bigint fixed point: a value is `units / 10^scale`. No binary floating
 * point touches money, quantities or rates. Scales (ACCOUNTING.md section 1): amounts 2,
 * quantities 4, rates 4. Rounding is half away from zero, once, where a value is produced.
 */
export interface Dec {
  readonly units: bigint;
  readonly scale: number;
}

export const AMOUNT_SCALE = 2;
export const QUANTITY_SCALE = 4;
export const RATE_SCALE = 4;

const pow10 = (n: number): bigint => 10n ** BigInt(n);

export class DecimalFormatError extends Error {
  override readonly name = 'DecimalFormatError';
}

const PLAIN = /^([+-]?)(\d+)(?:\.(\d+))?$/;
const LEADING_DOT = /^([+-]?)()\.(\d+)$/;
const EXPONENT = /^([+-]?)(\d+)(?:\.(\d*))?e([+-]?\d+)$/i;

/**
 * Reads a decimal from a numeric string or a JSON number, keeping every digit written.
 * A JSON number is read through its shortest decimal spelling (what the sender typed), never
 * through its binary value. Returns the exact value at the scale it was written in.
 */
export function parseDecimal(input: string | number | bigint): Dec {
  if (typeof input === 'bigint') return { units: input, scale: 0 };
  if (typeof input === 'number' && !Number.isFinite(input))
    throw new DecimalFormatError('not a finite number');
  const text = String(input).trim();
  let match = PLAIN.exec(text) ?? LEADING_DOT.exec(text);
  if (match) {
    const [, sign, int, frac = ''] = match;
    const units = BigInt(`${int || '0'}${frac}`) * (sign === '-' ? -1n : 1n);
    return { units, scale: frac.length };
  }
  match = EXPONENT.exec(text);
  if (match) {
    const [, sign, int, frac = '', exp] = match;
    const digits = BigInt(`${int}${frac}`) * (sign === '-' ? -1n : 1n);
    const scale = frac.length - Number(exp);
    return scale >= 0 ? { units: digits, scale } : { units: digits * pow10(-scale), scale: 0 };
  }
  throw new DecimalFormatError(`"${text}" is not a number`);
}

/** Rescales, rounding half away from zero when digits are dropped. */
export function round(value: Dec, scale: number): Dec {
  if (value.scale === scale) return value;
  if (value.scale < scale) return { units: value.units * pow10(scale - value.scale), scale };
  const divisor = pow10(value.scale - scale);
  const negative = value.units < 0n;
  const abs = negative ? -value.units : value.units;
  let q = abs / divisor;
  if ((abs % divisor) * 2n >= divisor) q += 1n;
  return { units: negative ? -q : q, scale };
}

/** Digits beyond `scale` that are not zero (a value the scale cannot hold exactly). */
export function hasMoreDigitsThan(value: Dec, scale: number): boolean {
  if (value.scale <= scale) return false;
  return value.units % pow10(value.scale - scale) !== 0n;
}

export const dec = (input: string | number | bigint, scale: number): Dec => round(parseDecimal(input), scale);
export const amount = (input: string | number | bigint): Dec => dec(input, AMOUNT_SCALE);
export const quantity = (input: string | number | bigint): Dec => dec(input, QUANTITY_SCALE);
export const rate = (input: string | number | bigint): Dec => dec(input, RATE_SCALE);
export const zero = (scale: number): Dec => ({ units: 0n, scale });

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [round(a, scale).units, round(b, scale).units, scale];
}

/** Sum at the larger scale: exact. */
export function add(a: Dec, b: Dec): Dec {
  const [x, y, scale] = align(a, b);
  return { units: x + y, scale };
}

export function sub(a: Dec, b: Dec): Dec {
  const [x, y, scale] = align(a, b);
  return { units: x - y, scale };
}

export const neg = (a: Dec): Dec => ({ units: -a.units, scale: a.scale });

/** Exact product (scale = sum of scales); round it once where the result is produced. */
export const mulExact = (a: Dec, b: Dec): Dec => ({ units: a.units * b.units, scale: a.scale + b.scale });

/** Product rounded to `scale`. */
export const mul = (a: Dec, b: Dec, scale: number): Dec => round(mulExact(a, b), scale);

/** Quotient rounded half away from zero to `scale`. Throws on division by zero. */
export function div(a: Dec, b: Dec, scale: number): Dec {
  if (b.units === 0n) throw new RangeError('division by zero');
  // a/b = (a.units / 10^a.scale) / (b.units / 10^b.scale), shifted to scale + 1 digits.
  const exponent = scale + b.scale - a.scale + 1;
  let num = a.units;
  let den = b.units;
  if (exponent >= 0) num *= pow10(exponent);
  else den *= pow10(-exponent);
  const negative = num < 0n !== den < 0n;
  // |a/b| with one guard digit, truncated; a guard digit of 5 or more is at least half a unit.
  const q = (num < 0n ? -num : num) / (den < 0n ? -den : den);
  const result = q / 10n + (q % 10n >= 5n ? 1n : 0n);
  return { units: negative ? -result : result, scale };
}

export function compare(a: Dec, b: Dec): -1 | 0 | 1 {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const isZero = (a: Dec): boolean => a.units === 0n;
export const isNegative = (a: Dec): boolean => a.units < 0n;
export const isPositive = (a: Dec): boolean => a.units > 0n;
export const min = (a: Dec, b: Dec): Dec => (compare(a, b) <= 0 ? a : b);
export const max = (a: Dec, b: Dec): Dec => (compare(a, b) >= 0 ? a : b);

/** Canonical text at the value's scale: "-12.50", "0.0000". What JSON output carries. */
export function toFixedString(value: Dec): string {
  const negative = value.units < 0n;
  const digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, '0');
  const int = digits.slice(0, digits.length - value.scale);
  const frac = value.scale > 0 ? `.${digits.slice(digits.length - value.scale)}` : '';
  return `${negative ? '-' : ''}${int}${frac}`;
}

/** Text at a given scale, rounding once if needed. */
export const format = (value: Dec, scale: number): string => toFixedString(round(value, scale));
