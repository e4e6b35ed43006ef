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
