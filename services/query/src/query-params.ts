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
