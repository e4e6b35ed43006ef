import type { CellType } from './columns.ts';
import type { RawCell } from './read-file.ts';

/**
 * One cell read for its column, the way a person means it: the text the request schema then
 * checks, or a message saying what is wrong with the cell itself. Amounts stay text (the schema
 * checks their scale and spells them exactly); a number cell is the number Excel shows, written
 * out by its shortest exact spelling.
 */
export type CellReading = { ok: true; text: string | undefined } | { ok: false; msg: string };

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Excel counts days from 1899-12-30 (its 1900 leap-year slip included). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

const pad = (n: number) => String(n).padStart(2, '0');

function isoDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return undefined;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** A date typed as text: 2026-04-01, 01/04/2026, 1-4-2026, 1.4.2026 (day first), 1 Apr 2026, 01-Apr-26. */
export function dateFromText(text: string): string | undefined {
  const t = text.trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(t);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t);
  if (m) return isoDate(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})[\s-]([A-Za-z]{3,9})[\s-,]*(\d{2}|\d{4})$/.exec(t);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.slice(0, 3).toLowerCase()) + 1;
    if (month === 0) return undefined;
    const year = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    return isoDate(year, month, Number(m[1]));
  }
  return undefined;
}

/** An Excel serial day number (a date cell saved as a plain number): 46113 -> 2026-04-01. */
export function dateFromSerial(serial: number): string | undefined {
  if (!Number.isInteger(serial) || serial < 1 || serial > 2_958_465) return undefined;
  return new Date(EXCEL_EPOCH_MS + serial * 86_400_000).toISOString().slice(0, 10);
}

// The longer marks first: "AFN 1,200" must not lose "AF" and leave "N 1,200".
const CURRENCY =
  /^(?:₹|rs\.?|inr|rupees?|\$|usd|€|£|afn|af|؋|pkr)\s*|\s*(?:₹|rs\.?|inr|rupees?|\$|usd|€|£|afn|af|؋|pkr)$/i;
const GROUPED_INDIAN = /^\d{1,2}(?:,\d{2})*,\d{3}(?:\.\d*)?$/;
const GROUPED_WESTERN = /^\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;

/**
 * A number typed as text, as people write money: "1,00,000" (Indian grouping), "100,000",
 * "₹ 5,000", "Rs. 250.50", "-1,200". Returns the plain decimal text, or the text unchanged when
 * it is none of these (the schema then says it is not a number).
 */
export function numberText(text: string): string {
  let t = text.trim().replace(/[\u00a0\u202f\u2009]/g, ' ');
  const negative = /^-/.test(t) || /^\(.*\)$/.test(t);
  t = t
    .replace(/^-\s*/, '')
    .replace(/^\((.*)\)$/, '$1')
    .trim();
  for (let i = 0; i < 2; i++) t = t.replace(CURRENCY, '').trim();
  t = t.replace(/^-\s*/, '');
  if (GROUPED_INDIAN.test(t) || GROUPED_WESTERN.test(t)) t = t.replace(/,/g, '');
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(t)) return text.trim();
  return negative ? `-${t}` : t;
}

/** A number cell's value as exact text: the shortest spelling that reads back as the same double. */
function numberCell(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  const text = String(value);
  const exponent = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/i.exec(text);
  if (!exponent) return text;
  // 1e-7 and the like: the same digits written out in full, by moving the point in the text (no
  // arithmetic on the double); 1e21 and up are not amounts Bahi keeps.
  const [, sign, lead, rest = '', power] = exponent;
  const shift = Number(power);
  if (shift > 0) return undefined;
  return `${sign}0.${'0'.repeat(-shift - 1)}${lead}${rest}`;
}

/** What a column of each type takes, in a message about a cell that holds something else. */
const EXPECTED: Partial<Record<CellType, string>> = {
  city: 'a city name',
  text: 'a text',
  boolean: 'Yes or No',
};
/** A yes-or-no cell typed as text, as the API's custom field check takes it ("true" or "false"). */
const YES_NO: Record<string, string> = { yes: 'true', no: 'false', true: 'true', false: 'false' };

export function readCell(cell: RawCell | undefined, type: CellType, letterAndRow: string): CellReading {
  if (!cell) return { ok: true, text: undefined };
  if (cell.merged)
    return {
      ok: false,
      msg: `Cell ${letterAndRow} is part of the merged cells ${cell.merged}: unmerge them and write the value in each row.`,
    };
  if (cell.error)
    return { ok: false, msg: `Cell ${letterAndRow} shows the error ${cell.error}: write the value itself.` };
  if (cell.formula !== undefined)
    return {
      ok: false,
      msg: `Cell ${letterAndRow} holds a formula (=${cell.formula.slice(0, 60)}): paste its value instead (Paste Special > Values).`,
    };
  const v = cell.value;
  if (v === null || v === undefined) return { ok: true, text: undefined };
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime()))
      return { ok: false, msg: `Cell ${letterAndRow} holds a date Excel cannot show.` };
    if (type === 'date') return { ok: true, text: v.toISOString().slice(0, 10) };
    return {
      ok: false,
      msg: `Cell ${letterAndRow} holds a date, where ${EXPECTED[type] ?? 'a number'} is expected.`,
    };
  }
  if (typeof v === 'boolean') {
    // A yes-or-no custom field: the TRUE or FALSE cell as the API takes it.
    if (type === 'boolean') return { ok: true, text: String(v) };
    return {
      ok: false,
      msg: `Cell ${letterAndRow} holds ${v ? 'TRUE' : 'FALSE'}, where a value is expected.`,
    };
  }
  if (typeof v === 'number') {
    if (type === 'date') {
      const date = dateFromSerial(v);
      return date
        ? { ok: true, text: date }
        : { ok: false, msg: `Cell ${letterAndRow} holds the number ${v}, which is not a date.` };
    }
    const text = numberCell(v);
    if (text === undefined)
      return { ok: false, msg: `Cell ${letterAndRow} holds a number too large to be a value here.` };
    return { ok: true, text };
  }
  // Text: Unicode names kept as written, in one normal form, so "é" typed two ways is one name.
  const text = v.normalize('NFC').trim();
  if (text === '') return { ok: true, text: undefined };
  if (type === 'amount' || type === 'rate' || type === 'number') return { ok: true, text: numberText(text) };
  if (type === 'boolean') return { ok: true, text: YES_NO[text.toLowerCase()] ?? text };
  if (type === 'date') {
    const date = dateFromText(text);
    return date
      ? { ok: true, text: date }
      : {
          ok: false,
          msg: `Cell ${letterAndRow}: "${text.slice(0, 40)}" is not a date. Write it as 2026-04-01 or 01/04/2026 (day first), or make it a date cell.`,
        };
  }
  return { ok: true, text };
}
