import { z } from 'zod';

/** A date query parameter as the UI sends it (a full ISO timestamp or YYYY-MM-DD), kept as the calendar date. */
export const day = (label: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}/, `${label} must be a date`)
    .transform((v) => v.slice(0, 10))
    .optional();

/** A search text used in LIKE, with its wildcards taken literally. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
