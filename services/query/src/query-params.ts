import { queryDate } from '@bahi/contracts';
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
