import { z } from 'zod';

/**
 * Field-level schemas of the HTTP payloads, with the messages a staff member reads.
 * Decimals stay text, checked here for shape and scale and spelled canonically; the domain
 * computes with them exactly.
 */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

export const decimalInput = (label: string, maxScale: number) =>
  z.union([z.string(), z.number()], { error: `${label} must be a number` }).transform((value, ctx) => {
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

export const id = (label: string) => z.uuid({ error: `${label} must be the id of an existing record` });

export const optionalId = (label: string) =>
  z
    .union([z.uuid({ error: `${label} must be the id of an existing record` }), z.literal(''), z.null()])
    .optional()
    .transform((v) => (v ? v : null));

/** A date as the UI sends it: a full ISO timestamp or YYYY-MM-DD; kept as the calendar date. */
export const businessDate = (label: string) =>
  z.string({ error: `${label} is required` }).transform((value, ctx) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(value.trim());
    const date = match ? new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00Z`) : undefined;
    if (
      !match ||
      !date ||
      Number.isNaN(date.getTime()) ||
      date.toISOString().slice(0, 10) !== value.trim().slice(0, 10)
    ) {
      ctx.addIssue({ code: 'custom', message: `${label} must be a date` });
      return z.NEVER;
    }
    return value.trim().slice(0, 10);
  });

export const optionalBusinessDate = (label: string) =>
  z
    .union([businessDate(label), z.literal(''), z.null()])
    .optional()
    .transform((v) => (v ? v : null));
