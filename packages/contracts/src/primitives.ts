import { z } from 'zod';

/**
 * Field-level schemas of the HTTP payloads, with the messages a staff member reads.
 * Decimals stay text, checked here for shape and scale and spelled canonically; the domain
 * computes with them exactly.
 */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

export const decimalInput = (label: string, maxScale: number) =>
  z
    .union([z.string(), z.number()], {
      // Left out (or null) is said as an empty form field is: 'Rate is required' (issue #25).
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? `${label} is required`
          : `${label} must be a number`,
    })
    .transform((value, ctx) => {
      const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
      if (typeof value === 'string' && text === '') {
        ctx.addIssue({ code: 'custom', message: `${label} is required` });
        return z.NEVER;
      }
      if (!DECIMAL.test(text)) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a number` });
        return z.NEVER;
      }
      const [int = '', frac = ''] = text.replace(/^[+-]/, '').split('.');
      if (frac.replace(/0+$/, '').length > maxScale) {
        ctx.addIssue({ code: 'custom', message: `${label} can have at most ${maxScale} decimal places` });
        return z.NEVER;
      }
      if (int.replace(/^0+/, '').length > 15) {
        ctx.addIssue({ code: 'custom', message: `${label} is too large` });
        return z.NEVER;
      }
      return canonicalDecimal(text, maxScale);
    });

/**
 * One exact spelling per value at its scale ('0.3' and '0.30' are both '0.3000' as a rate),
 * so equal values compare equal and events read the way they will be shown.
 */
export function canonicalDecimal(text: string, scale: number): string {
  const negative = text.startsWith('-');
  const [rawInt = '', rawFrac = ''] = text.replace(/^[+-]/, '').split('.');
  const int = rawInt.replace(/^0+(?=\d)/, '') || '0';
  const frac = rawFrac.replace(/0+$/, '').padEnd(scale, '0');
  const body = scale > 0 ? `${int}.${frac}` : int;
  return negative && /[1-9]/.test(body) ? `-${body}` : body;
}

export const amountInput = (label: string) => decimalInput(label, 2);
export const quantityInput = (label: string) => decimalInput(label, 4);
export const rateInput = (label: string) => decimalInput(label, 4);

/**
 * Text Postgres can store: no NUL character and no half of a surrogate pair (jsonb refuses
 * both, and they are never what a person typed).
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const isStorableText = (value: string): boolean =>
  !value.includes('\u0000') && !LONE_SURROGATE.test(value);

export const requiredText = (label: string, max = 200) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} can be at most ${max} characters`)
    .refine(isStorableText, `${label} contains characters that cannot be stored`);

export const optionalText = (label: string, max = 500) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} can be at most ${max} characters`)
    .refine(isStorableText, `${label} contains characters that cannot be stored`)
    .nullish()
    .transform((v) => (v ? v : null));

/**
 * Ids are made, stored and compared in lower case: stream ids (`funder-<id>`), journal accounts
 * (`funder:<id>`) and ids inside the read models' JSON are text. So every id the API takes - in
 * a body, a path or a query string - is a UUID in either case, lower-cased here, before anything
 * looks it up (an upper-case id in a body named no record while the same id in a path did).
 */
const UUID = z.regexes.uuid();
export const isUuid = (value: string): boolean => UUID.test(value);
export const uuidText = (error: string) => z.uuid({ error }).transform((value) => value.toLowerCase());

/**
 * What a clerk is asked to choose, in their words (issue #25): "Choose a funder" when nothing is
 * chosen, "Choose a funder that exists" for what is no record's id. `what` names it where the
 * label alone reads badly ('a godown to sell from' for 'From godown').
 */
const choose = (label: string, what?: string) => {
  const thing = what ?? `${/^[aeiou]/i.test(label) ? 'an' : 'a'} ${label.toLowerCase()}`;
  return (issue: { input?: unknown }) =>
    issue.input === undefined || issue.input === null || issue.input === ''
      ? `Choose ${thing}`
      : `Choose ${thing} that exists`;
};

export const id = (label: string, what?: string) =>
  z.uuid({ error: choose(label, what) }).transform((value) => value.toLowerCase());

export const optionalId = (label: string, what?: string) => {
  const message = choose(label, what);
  return z
    .string({ error: message })
    .nullish()
    .transform((v, ctx) => {
      if (!v) return null;
      if (isUuid(v)) return v.toLowerCase();
      ctx.addIssue({ code: 'custom', message: message({ input: v }) });
      return z.NEVER;
    });
};

/**
 * The business dates Bahi records: a record dated outside this range is refused with a 400
 * (docs/decisions.md, "Business dates"). Postgres cannot store year 0, and a date far from
 * today is a typing slip, never a business day; the range is checked where input enters, so
 * no event carries a date a read model cannot hold.
 */
export const BUSINESS_DATE_MIN = '2000-01-01';
export const BUSINESS_DATE_MAX = '2099-12-31';

/**
 * A full ISO timestamp (`2026-02-28T10:30`, with optional seconds, fraction and zone) or
 * `YYYY-MM-DD`, nothing before or after it; `undefined` when it is neither or names a day
 * that does not exist. The calendar date is the one written (a zone does not move it).
 */
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/;
export function parseCalendarDate(value: string): string | undefined {
  const match = ISO_DATE.exec(value);
  if (!match) return undefined;
  const text = `${match[1]}-${match[2]}-${match[3]}`;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text ? text : undefined;
}

/** Adds the issue and answers undefined when `value` is not a date within min .. max. */
function checkDate(
  value: string,
  ctx: z.RefinementCtx,
  label: string,
  min: string,
  max: string,
  rangeMessage: string,
): string | undefined {
  const date = parseCalendarDate(value.trim());
  if (!date) {
    ctx.addIssue({ code: 'custom', message: `${label} must be a date` });
    return undefined;
  }
  if (date < min || date > max) {
    ctx.addIssue({ code: 'custom', message: rangeMessage });
    return undefined;
  }
  return date;
}

const calendarDate = (label: string, min: string, max: string, rangeMessage: string) =>
  z
    .string({ error: `${label} is required` })
    .transform((value, ctx) => checkDate(value, ctx, label, min, max, rangeMessage) ?? z.NEVER);

/** A date a record is made on: a real day from 2000-01-01 to 2099-12-31, kept as the calendar date. */
export const businessDate = (label: string) =>
  calendarDate(
    label,
    BUSINESS_DATE_MIN,
    BUSINESS_DATE_MAX,
    `${label} must be between ${BUSINESS_DATE_MIN} and ${BUSINESS_DATE_MAX}`,
  );

/**
 * A date a read is asked for (a report's range, asOf): parsed as strictly, but any day from
 * year 1 to 9999, as a range may well start before the first record.
 */
export const queryDate = (label: string) =>
  calendarDate(label, '0001-01-01', '9999-12-31', `${label} must be between 0001-01-01 and 9999-12-31`);

/** A business date that may be left out: empty, null or absent is none. */
export const optionalBusinessDate = (label: string) =>
  z
    .string({ error: `${label} must be a date` })
    .nullish()
    .transform((value, ctx) =>
      value
        ? (checkDate(
            value,
            ctx,
            label,
            BUSINESS_DATE_MIN,
            BUSINESS_DATE_MAX,
            `${label} must be between ${BUSINESS_DATE_MIN} and ${BUSINESS_DATE_MAX}`,
          ) ?? z.NEVER)
        : null,
    );

/** A cross-field rule that runs with the fields' own checks, not only after they all pass. */
export const everyRound = { when: (payload: { value: unknown }) => isRecord(payload.value) };
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
