import { projectionStatus } from '@bahi/read-db';
import { HttpError, signedIn } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import type { QueryDeps } from './routes.ts';

/**
 * Admin: each read model's position, lag behind the head of the log, status and error, and the
 * recent rebuilds with their progress and comparison reports.
 */
export async function registerProjectionStatusRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  app.get('/api/admin/projections', async (request) => {
    const me = signedIn(request);
    if (me.role !== 'Admin') throw new HttpError(403, `Your role (${me.role}) cannot see the read models.`);
    const head = await deps.eventStore.headPosition();
    const projections = await projectionStatus(deps.readDb, head);
    const rebuilds = await deps.readDb
      .selectFrom('projection_rebuilds')
      .selectAll()
      .orderBy('requested_at', 'desc')
      .limit(10)
      .execute();
    return {
      head: head.toString(),
      projections,
      rebuilds: rebuilds.map((r) => ({
        id: r.id,
        projections: r.projections,
        swap: r.swap,
        status: r.status,
        requestedBy: r.requested_by,
        position: r.position,
        target: r.target,
        report: r.report,
        error: r.error,
        requestedAt: new Date(r.requested_at).toISOString(),
        updatedAt: new Date(r.updated_at).toISOString(),
      })),
    };
  });
}
