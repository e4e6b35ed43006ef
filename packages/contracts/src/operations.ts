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
export interface TableComparison {
  projection: string;
  table: string;
  liveRows: number;
  shadowRows: number;
  liveChecksum: string;
  shadowChecksum: string;
  identical: boolean;
}

/** An account whose balance differs between the live journal and the rebuilt one. */
export interface BalanceDifference {
  account: string;
  currency: string;
  liveAmount: string;
  shadowAmount: string;
  liveQuantity: string;
  shadowQuantity: string;
}

export interface ProjectionComparison {
  projection: string;
  /** Position of the log both sides had applied when compared (live, shadow). */
  livePosition: string;
  shadowPosition: string;
  identical: boolean;
  swapped: boolean;
  tables: TableComparison[];
  balanceDifferences: BalanceDifference[];
}

export interface RebuildReport {
  id: string;
  projections: string[];
  swap: boolean;
  events: number;
  identical: boolean;
  comparisons: ProjectionComparison[];
  startedAt: string;
  finishedAt: string;
}
