import { parseDecimal, round, toFixedString } from '@bahi/domain/decimal';

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
  const t = text.trim();
  if (!/^-?\d+(?:\.\d*)?$/.test(t)) return null;
  // The domain's rounding (half away from zero); only the grouping is the screen's.
  const plain = toFixedString(round(parseDecimal(t.endsWith('.') ? t.slice(0, -1) : t), scale));
  const negative = plain.startsWith('-');
  const [whole = '0', fraction] = (negative ? plain.slice(1) : plain).split('.');
  return `${negative ? '-' : ''}${groupIndian(whole)}${fraction !== undefined ? `.${fraction}` : ''}`;
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
