import type { EventStore } from '@bahi/event-store';
import type { ReadDb } from '@bahi/read-db';
import type { FastifyInstance } from 'fastify';

export interface CommandDeps {
  eventStore: EventStore;
  readDb: ReadDb;
}

/**
 * The command side's /api routes. The same function serves the command process and the
 * standalone process. Every non-GET call of spec section 7 arrives with the domain issue.
 */
export async function registerCommandRoutes(_app: FastifyInstance, _deps: CommandDeps): Promise<void> {}
