import { z } from 'zod';
import { isStorableText } from './primitives.ts';

/**
 * POST /api/admin/projections/:name/quarantine: the failing event's position and why it is set
 * aside (the command route validates with it; the System screen's dialog is a form over it).
 */
export const quarantineInput = z
  .object({
    position: z
      .union([z.string().regex(/^\d{1,19}$/), z.number().int().nonnegative()], {
        error: 'position must be the position of the failing event',
      })
      .transform((v) => BigInt(v)),
    reason: z
      .string({ error: 'reason is required: say why the event is set aside' })
      .trim()
      .min(3, 'reason is required: say why the event is set aside')
      .max(1000, 'reason can be at most 1000 characters')
      .refine(isStorableText, 'reason contains characters that cannot be stored'),
  })
  .strict();
