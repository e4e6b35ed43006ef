const amount = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const fine = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 4, maximumFractionDigits: 4 });

const toNumber = (v: number | string | null | undefined): number => {
  if (v === null || v === undefined || v === '') return 0;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : 0;
};

/** Indian digit grouping of a run of digits: 12,34,567. */
function groupIndian(digits: string): string {
  if (digits.length <= 3) return digits;
  const head = digits.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `${head},${digits.slice(-3)}`;
}

/**
 * Decimal text at `scale` places, exactly (half away from zero), grouped the Indian way; no
 * floating point, so an amount of any size prints as the books hold it. Null for what is not
 * decimal text.
 */
export function formatDecimalText(text: string, scale: number): string | null {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!m) return null;
  const [, sign, int, frac = ''] = m;
  const kept = (frac + '0'.repeat(scale)).slice(0, scale);
  let units = BigInt(int! + kept);
  if ((frac[scale] ?? '0') >= '5') units += 1n;
  const digits = units.toString().padStart(scale + 1, '0');
  const whole = groupIndian(digits.slice(0, digits.length - scale));
  const negative = sign === '-' && units !== 0n;
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${digits.slice(-scale)}` : ''}`;
}

/** Amounts: 2 decimals (spec section 9); decimal text exactly. */
export const formatAmount = (v: number | string | null | undefined): string =>
  (typeof v === 'string' ? formatDecimalText(v, 2) : null) ?? amount.format(toNumber(v));
/** Quantities: 4 decimals; decimal text exactly. */
export const formatQuantity = (v: number | string | null | undefined): string =>
  (typeof v === 'string' ? formatDecimalText(v, 4) : null) ?? fine.format(toNumber(v));
/** Rates: 4 decimals. */
export const formatRate = formatQuantity;
/** Counts and log positions (integer text of any size, or a number): grouped, exactly. */
export const formatCount = (v: number | string): string => formatDecimalText(String(v), 0) ?? String(v);
/** Decimal text at the places it has (a compared amount must not be rounded): grouped, exactly. */
export const formatExact = (text: string): string =>
  formatDecimalText(text, /\.(\d*)$/.exec(text.trim())?.[1]?.length ?? 0) ?? text;

export const formatDateTime = (iso: string): string =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
export const formatDate = (iso: string | number | Date): string =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

const UNITS: [string, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

/** 'x minutes ago' and so on: seconds, minutes, hours, days, 30-day months, 365-day years. */
export function relativeTime(iso: string, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - new Date(iso).getTime()) / 1000));
  for (const [unit, size] of UNITS) {
    const n = Math.floor(seconds / size);
    if (n >= 1) return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}
