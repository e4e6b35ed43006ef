import { quarantineInput } from '@bahi/contracts';
import {
  allProjections,
  QuarantineRefused,
  quarantineEvent,
  RebuildRefused,
  requestRebuild,
  resumeProjection,
} from '@bahi/projections';
import { HttpError, requireWriter } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { CommandDeps } from '../deps.ts';
import { requestMeta } from '../request-meta.ts';

const NAMES = allProjections.map((p) => p.name);

const rebuildInput = z
  .object({
    projections: z
      .array(z.enum(NAMES, { error: `Each projection must be one of: ${NAMES.join(', ')}` }))
      .max(NAMES.length)
      .optional(),
    swap: z.boolean({ error: 'swap must be true or false' }).optional(),
  })
  .strict();

/**
 * Admin operations on the read models (the projector runs them): rebuild from the log into a
 * shadow schema, compare and swap; resume a projection stopped by an event it could not apply.
 */
export async function registerProjectionRoutes(app: FastifyInstance, deps: CommandDeps): Promise<void> {
  app.post('/api/admin/projections/rebuild', async (request, reply) => {
    const admin = requireWriter(request, 'read-models');
    const input = rebuildInput.parse(request.body ?? {});
    try {
      const id = await requestRebuild(deps.readDb, {
        names: input.projections,
        swap: input.swap ?? true,
        requestedBy: admin.id,
      });
      return reply.status(202).send({
        id,
        message: 'The rebuild is asked for; the projector starts it within a few seconds.',
      });
    } catch (error) {
      if (error instanceof RebuildRefused) throw new HttpError(409, error.message);
      throw error;
    }
  });

  app.post<{ Params: { name: string } }>('/api/admin/projections/:name/resume', async (request) => {
    requireWriter(request, 'read-models');
    const { name } = request.params;
    if (!NAMES.includes(name)) throw new HttpError(404, 'No such projection.');
    const outcome = await resumeProjection(deps.readDb, name);
    if (outcome === 'not-failed') throw new HttpError(409, `The ${name} projection is not stopped.`);
    if (outcome === 'unknown') throw new HttpError(404, `The ${name} projection has not started yet.`);
    return { name, message: `The ${name} projection resumes from its checkpoint.` };
  });

  /** Sets the event a stopped projection cannot apply aside, with a reason, and resumes it. */
  app.post<{ Params: { name: string } }>('/api/admin/projections/:name/quarantine', async (request) => {
    requireWriter(request, 'read-models');
    const { name } = request.params;
    if (!NAMES.includes(name)) throw new HttpError(404, 'No such projection.');
    const input = quarantineInput.parse(request.body ?? {});
    try {
      const meta = requestMeta(request);
      const done = await quarantineEvent(deps.eventStore, deps.readDb, {
        projection: name,
        position: input.position,
        reason: input.reason,
        metadata: { userId: meta.userId, correlationId: meta.correlationId, causationId: meta.causationId },
      });
      return {
        name,
        quarantined: {
          position: done.event.position.toString(),
          type: done.event.type,
          streamId: done.event.streamId,
        },
        position: done.position.toString(),
        message: `The ${done.event.type} event at position ${done.event.position} is set aside for ${name}; the projection goes on.`,
      };
    } catch (error) {
      if (!(error instanceof QuarantineRefused)) throw error;
      if (error.kind === 'not-failing')
        throw new HttpError(409, error.message, [{ msg: error.message, path: 'position' }]);
      throw new HttpError(error.kind === 'unknown' ? 404 : 409, error.message);
    }
  });
}
