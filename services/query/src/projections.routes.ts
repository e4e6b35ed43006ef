import { failingEvent, projectionsStatus } from '@bahi/contracts';
import { projectionStatus } from '@bahi/read-db';
import { HttpError, signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { QueryDeps } from './deps.ts';
import { failing, quarantined, readRecentRebuilds } from './projections.repository.ts';

/**
 * Admin: each read model's position, lag behind the head of the log, status and error, and the
 * recent rebuilds with their progress and comparison reports.
 */
export async function registerProjectionStatusRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  /** Admin: the event a stopped projection cannot apply, whole, to decide whether to quarantine it. */
  api.get(
    '/api/admin/projections/:name/failing-event',
    {
      schema: {
        summary: 'The event a stopped projection cannot apply (Admin)',
        tags: ['admin'],
        params: z.object({ name: z.string() }),
        response: { 200: failingEvent },
      },
    },
    async (request) => {
      const me = signedIn(request);
      if (me.role !== 'Admin') throw new HttpError(403, `Your role (${me.role}) cannot see the read models.`);
      const { name } = request.params;
      const status = (await projectionStatus(deps.readDb, await deps.eventStore.headPosition())).find(
        (p) => p.name === name,
      );
      if (!status) throw new HttpError(404, 'No such projection.');
      const event =
        status.status === 'failed'
          ? await failing(deps, name, BigInt(status.position), await quarantined(deps))
          : undefined;
      if (!event) throw new HttpError(404, `The ${name} projection is not stopped at an event.`);
      return {
        projection: name,
        error: status.error,
        event: {
          position: event.position.toString(),
          type: event.type,
          streamId: event.streamId,
          streamVersion: event.streamVersion.toString(),
          data: event.data,
          metadata: event.metadata,
        },
      };
    },
  );

  api.get(
    '/api/admin/projections',
    {
      schema: {
        summary: 'Where each read model stands, what is set aside, the last rebuilds (Admin)',
        tags: ['admin'],
        response: { 200: projectionsStatus },
      },
    },
    async (request) => {
      const me = signedIn(request);
      if (me.role !== 'Admin') throw new HttpError(403, `Your role (${me.role}) cannot see the read models.`);
      const head = await deps.eventStore.headPosition();
      const quarantine = await quarantined(deps);
      const projections = await Promise.all(
        (await projectionStatus(deps.readDb, head)).map(async (p) => {
          if (p.status !== 'failed') return p;
          const event = await failing(deps, p.name, BigInt(p.position), quarantine);
          return {
            ...p,
            failingEvent: event && {
              position: event.position.toString(),
              type: event.type,
              streamId: event.streamId,
            },
          };
        }),
      );
      return {
        head: head.toString(),
        projections,
        quarantined: quarantine.map((q) => q.entry),
        rebuilds: await readRecentRebuilds(deps),
      };
    },
  );
}
