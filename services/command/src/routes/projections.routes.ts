import { allProjections, RebuildRefused, requestRebuild, resumeProjection } from '@bahi/projector';
import { HttpError, requireWriter } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { CommandDeps } from '../deps.ts';

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
}
