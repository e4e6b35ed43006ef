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

// A projection rebuild's report (GET /api/admin/projections; the projector writes it).

/** One table of one projection, live against the rebuilt copy. */
export const tableComparison = z.object({
  projection: z.string(),
  table: z.string(),
  liveRows: z.number().int(),
  shadowRows: z.number().int(),
  liveChecksum: z.string(),
  shadowChecksum: z.string(),
  identical: z.boolean(),
});
export type TableComparison = z.output<typeof tableComparison>;

/** An account whose balance differs between the live journal and the rebuilt one. */
export const balanceDifference = z.object({
  account: z.string(),
  currency: z.string(),
  liveAmount: z.string(),
  shadowAmount: z.string(),
  liveQuantity: z.string(),
  shadowQuantity: z.string(),
});
export type BalanceDifference = z.output<typeof balanceDifference>;

export const projectionComparison = z.object({
  projection: z.string(),
  livePosition: z.string().describe('Position of the log the live side had applied when compared'),
  shadowPosition: z.string().describe('Position of the log the rebuilt side had applied when compared'),
  identical: z.boolean(),
  swapped: z.boolean(),
  tables: z.array(tableComparison),
  balanceDifferences: z.array(balanceDifference),
});
export type ProjectionComparison = z.output<typeof projectionComparison>;

export const rebuildReport = z.object({
  id: z.string(),
  projections: z.array(z.string()),
  swap: z.boolean(),
  events: z.number().int(),
  identical: z.boolean(),
  comparisons: z.array(projectionComparison),
  startedAt: z.string(),
  finishedAt: z.string(),
});
export type RebuildReport = z.output<typeof rebuildReport>;
