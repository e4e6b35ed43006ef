import { isStorableText, queryDate } from '@bahi/contracts';
import { z } from 'zod';

/**
 * A date query parameter as the UI sends it (a full ISO timestamp or YYYY-MM-DD), kept as the
 * calendar date; a day that does not exist (2026-02-30) is a clear 400, an empty one is unset.
 */
export const day = (label: string) =>
  z
    .union([z.literal('').transform(() => undefined), queryDate(label)])
    .optional()
    .transform((v) => v || undefined);

/** A yes/no query parameter: `true` or `false` (or empty, unset); anything else is a 400. */
export const flag = (label: string) =>
  z
    .enum(['true', 'false', ''], { error: `${label} must be true or false` })
    .optional()
    .transform((v) => (v === 'true' ? true : v === 'false' ? false : undefined));

/** A search text used in LIKE, with its wildcards taken literally. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A text query parameter (a search, a category, a model name): at most `max` characters, and
 * none that Postgres cannot take as text (NUL, half a surrogate pair), which would otherwise
 * fail the query with a 500.
 */
export const queryText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} can be at most ${max} characters`)
    .refine(isStorableText, `${label} contains characters that cannot be searched for`)
    .optional();

const FIRST_MOMENT = Date.parse('0001-01-01T00:00:00Z');
const LAST_MOMENT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * A moment of recording (`knownAt`): an ISO date-time with its offset (Z or +05:30), at the
 * millisecond, the precision the journal and the activity log record at. Answered in UTC, so
 * the database never parses an offset or a year it cannot hold (+20:00, year 0 or 10000 in
 * UTC): a moment outside the years 0001 to 9999 is a 400 like any other bad value.
 */
export const moment = (label: string) =>
  z.iso
    .datetime({ offset: true, error: `${label} must be a moment such as 2026-11-21T10:00:00Z` })
    .transform((v) => new Date(v).toISOString())
    .refine(
      (v) => Date.parse(v) >= FIRST_MOMENT && Date.parse(v) <= LAST_MOMENT,
      `${label} must be a moment between the years 0001 and 9999 (UTC)`,
    )
    .optional();
