import {
  type EventData,
  failingEvent,
  projectionsStatus,
  QUARANTINE_STREAM,
  type RebuildReport,
} from '@bahi/contracts';
import type { RecordedEvent } from '@bahi/event-store';
import { projectionStatus } from '@bahi/read-db';
import { HttpError, signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { QueryDeps } from './deps.ts';

/**
 * Admin: each read model's position, lag behind the head of the log, status and error, and the
 * recent rebuilds with their progress and comparison reports.
 */
/** The operators' quarantine decisions (the projector's quarantine.ts writes them). */
async function quarantined(deps: QueryDeps) {
  return (await deps.eventStore.readStream(QUARANTINE_STREAM)).map((e) => ({
    projection: (e.data as { projection: string }).projection,
    position: BigInt((e.data as { position: string }).position),
    entry: {
      ...(e.data as EventData<'EventQuarantined'>),
      quarantinedAt: e.metadata.recordedAt,
      quarantinedBy: e.metadata.userId ?? null,
    },
  }));
}

/** The event a stopped projection cannot apply: the first after its checkpoint not set aside. */
async function failing(
  deps: QueryDeps,
  name: string,
  checkpoint: bigint,
  quarantine: Array<{ projection: string; position: bigint }>,
): Promise<RecordedEvent | undefined> {
  const aside = new Set(quarantine.filter((q) => q.projection === name).map((q) => q.position));
  let after = checkpoint;
  for (;;) {
    const [event] = await deps.eventStore.readAll(after, 1);
    if (!event || !aside.has(event.position)) return event;
    after = event.position;
  }
}

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
      const rebuilds = await deps.readDb
        .selectFrom('projection_rebuilds')
        .selectAll()
        .orderBy('requested_at', 'desc')
        .limit(10)
        .execute();
      return {
        head: head.toString(),
        projections,
        quarantined: quarantine.map((q) => q.entry),
        rebuilds: rebuilds.map((r) => ({
          id: r.id,
          projections: r.projections,
          swap: r.swap,
          status: r.status,
          requestedBy: r.requested_by,
          // Decimal text from either storage (PGlite reads an int8 as a number).
          position: String(r.position),
          target: String(r.target),
          // The projector writes it as a RebuildReport (rebuild.ts); the column is typed as JSON.
          report: r.report as RebuildReport | null,
          error: r.error,
          requestedAt: new Date(r.requested_at).toISOString(),
          updatedAt: new Date(r.updated_at).toISOString(),
        })),
      };
    },
  );
}
