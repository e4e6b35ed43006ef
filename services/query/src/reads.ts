import { uuidText } from '@bahi/contracts';
import { waitForProjections } from '@bahi/read-db';
import { clientPosition } from '@bahi/server-kit';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { QueryDeps } from './deps.ts';
import { queryText } from './query-params.ts';

/** Paging (spec section 7): page 1-based, limit 1 to 500 or -1 for all. */
export const paging = (defaultLimit: number) => ({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, 'page starts at 1').default(1),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int()
    .refine((n) => n === -1 || (n >= 1 && n <= 500), 'limit is -1 (all) or 1 to 500')
    .default(defaultLimit),
});

/** Paging and filters of every list (spec section 7): limit 15 by default. */
export const listQuery = z.object({
  ...paging(15),
  search: queryText('search', 200),
  city_id: z.union([uuidText('city_id must be the id of a city'), z.literal('')]).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

/**
 * Reading one's own writes: a request that carries X-Bahi-Position waits (bounded) until the
 * read models it reads have reached that position.
 */
export async function readAfterClientPosition(
  deps: QueryDeps,
  request: FastifyRequest,
  projections: string[],
) {
  const asked = clientPosition(request);
  if (asked === undefined) return;
  const head = await deps.eventStore.headPosition();
  await readAtPosition(deps, projections, asked < head ? asked : head);
}

/**
 * Waits (bounded) until the read models have reached a position of the log. Not there in
 * time: a ProjectionBehindError, which the error handler answers with a 503.
 */
export async function readAtPosition(deps: QueryDeps, projections: string[], position: bigint) {
  await waitForProjections(deps.readDb, projections, position, 2000);
}
