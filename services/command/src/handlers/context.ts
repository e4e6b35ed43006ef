import { clientPosition } from '@bahi/server-kit';
import type { FastifyRequest } from 'fastify';
import type { CommandDeps } from '../deps.ts';
import type { RequestMeta } from '../execute.ts';
import { requestMeta } from '../request-meta.ts';

/** What a command handler needs of the request that asked: the services, who asked, what they last saw. */
export interface HandlerContext {
  deps: CommandDeps;
  /** Who asked, for every event's metadata. */
  meta: RequestMeta;
  /** The log position the client last wrote (X-Bahi-Position), if it sent one. */
  seen: bigint | undefined;
}

/** A route's request as a handler's context. */
export const contextOf = (deps: CommandDeps, request: FastifyRequest): HandlerContext => ({
  deps,
  meta: requestMeta(request),
  seen: clientPosition(request),
});

/** A write's answer: the record's id and the log position to read it back at. */
export const written = (id: string, position: bigint) => ({ id, position: position.toString() });
