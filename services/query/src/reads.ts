import { waitForProjections } from '@bahi/read-db';
import { clientPosition } from '@bahi/server-kit';
import type { FastifyRequest } from 'fastify';
import type { QueryDeps } from './deps.ts';

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
