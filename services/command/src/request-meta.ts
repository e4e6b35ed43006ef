import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { RequestMeta } from './execute.ts';

/** Metadata for the events a request causes: who, and the request id the gateway assigned. */
export function requestMeta(request: FastifyRequest): RequestMeta {
  const header = request.headers['x-request-id'];
  const correlationId =
    typeof header === 'string' && header.length > 0 && header.length <= 200 ? header : randomUUID();
  return { userId: request.user?.id ?? null, correlationId, causationId: null };
}

/**
 * The last event-store position the client wrote or read (header X-Bahi-Position): reads
 * made for this request wait, bounded, until the read models have reached it, so a user
 * always sees their own writes. Anything that is not a position is ignored.
 */
export function clientPosition(request: FastifyRequest): bigint | undefined {
  const header = request.headers['x-bahi-position'];
  if (typeof header !== 'string' || !/^\d{1,19}$/.test(header)) return undefined;
  return BigInt(header);
}
