/**
 * Exact decimal text arithmetic for report totals. Amounts arrive from the query side as
 * decimal text ("1234.50"); they are summed as scaled bigints, never as floating point.
 * The one place a Number is made from an amount is the XLSX numeric cell (see xlsx.ts).
 */
export interface Decimal {
  units: bigint;
  scale: number;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

export function parseDecimal(text: string): Decimal {
  const m = DECIMAL.exec(text.trim());
  if (!m) throw new Error(`not a decimal: ${JSON.stringify(text)}`);
  const fraction = m[3] ?? '';
  const units = BigInt(`${m[2]}${fraction}`);
  return { units: m[1] === '-' ? -units : units, scale: fraction.length };
}

export const isDecimal = (text: unknown): text is string =>
  typeof text === 'string' && DECIMAL.test(text.trim());

function rescale(d: Decimal, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale);
}

/** The sum of decimal texts, at the largest scale among them (at least `minScale`). */
export function sumDecimals(values: Iterable<string>, minScale = 2): string {
  const parsed = [...values].map(parseDecimal);
  const scale = Math.max(minScale, ...parsed.map((d) => d.scale));
  let total = 0n;
  for (const d of parsed) total += rescale(d, scale);
  return formatUnits(total, scale);
}

export function subtractDecimals(a: string, b: string, minScale = 2): string {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  const scale = Math.max(minScale, x.scale, y.scale);
  return formatUnits(rescale(x, scale) - rescale(y, scale), scale);
}

function formatUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = scale ? digits.slice(0, -scale) : digits;
  const fraction = scale ? `.${digits.slice(-scale)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/**
 * A decimal at exactly `scale` places, rounded half away from zero, with thousands grouped
 * the Indian way when `group` (12,34,567.50) - what a printed statement shows.
 */
export function formatDecimal(text: string, scale: number, group = true): string {
  const d = parseDecimal(text);
  let units: bigint;
  if (d.scale <= scale) units = rescale(d, scale);
  else {
    const div = 10n ** BigInt(d.scale - scale);
    const abs = d.units < 0n ? -d.units : d.units;
    let q = abs / div;
    if ((abs % div) * 2n >= div) q += 1n;
    units = d.units < 0n ? -q : q;
  }
  const plain = formatUnits(units, scale);
  if (!group) return plain;
  const negative = plain.startsWith('-');
  const [whole = '0', fraction] = (negative ? plain.slice(1) : plain).split('.');
  const last3 = whole.slice(-3);
  const rest = whole.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  const grouped = rest ? `${rest},${last3}` : last3;
  return `${negative ? '-' : ''}${grouped}${fraction !== undefined ? `.${fraction}` : ''}`;
}
