import type { FastifyRequest } from 'fastify';

/** The header a client sends with the last event-store position it wrote (every write answers it). */
export const POSITION_HEADER = 'x-bahi-position';

/**
 * The last event-store position the client wrote or read (header X-Bahi-Position): reads
 * made for this request wait, bounded, until the read models have reached it, so a user
 * always sees their own writes. Anything that is not a position is ignored. One parser for
 * the command and the query side.
 */
export function clientPosition(request: FastifyRequest): bigint | undefined {
  const header = request.headers[POSITION_HEADER];
  if (typeof header !== 'string' || !/^\d{1,19}$/.test(header)) return undefined;
  return BigInt(header);
}
