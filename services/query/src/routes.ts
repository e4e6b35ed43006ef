import type { EventStore } from '@bahi/event-store';
import type { ReadDb } from '@bahi/read-db';
import type { FastifyInstance } from 'fastify';

export interface QueryDeps {
  eventStore: EventStore;
  readDb: ReadDb;
}

/**
 * The query side's /api routes. The same function serves the query process and the
 * standalone process. Every GET of spec section 7 and the live event stream arrive with the read-side issue.
 */
export async function registerQueryRoutes(_app: FastifyInstance, _deps: QueryDeps): Promise<void> {}
