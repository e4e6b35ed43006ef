import { logPosition, quarantineInput } from '@bahi/contracts';
import {
  allProjections,
  QuarantineRefused,
  quarantineEvent,
  RebuildRefused,
  requestRebuild,
  resumeProjection,
} from '@bahi/projections';
import {
  type ErrorMapping,
  HttpError,
  registerErrorMapping,
  signedIn,
  writerOnly,
  type ZodTypeProvider,
} from '@bahi/server-kit';
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

/** The projector's refusals as client errors, for the one error handler. */
const projectorRefusalToHttp: ErrorMapping = (error) => {
  if (error instanceof RebuildRefused) return new HttpError(409, error.message);
  if (!(error instanceof QuarantineRefused)) return undefined;
  if (error.kind === 'not-failing')
    return new HttpError(409, error.message, [{ msg: error.message, path: 'position' }]);
  return new HttpError(error.kind === 'unknown' ? 404 : 409, error.message);
};

/** `:name` of a projection's URL: a name that is no projection is a 404. */
const projectionParams = z.object({
  name: z
    .string()
    .describe(`The projection: ${NAMES.join(', ')}`)
    .transform((name) => {
      if (!NAMES.includes(name)) throw new HttpError(404, 'No such projection.');
      return name;
    }),
});

const tags = ['admin'];

/**
 * Admin operations on the read models (the projector runs them): rebuild from the log into a
 * shadow schema, compare and swap; resume a projection stopped by an event it could not apply.
 */
export async function registerProjectionRoutes(app: FastifyInstance, deps: CommandDeps): Promise<void> {
  registerErrorMapping(app, projectorRefusalToHttp);
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/admin/projections/rebuild',
    {
      preValidation: writerOnly('read-models'),
      schema: {
        summary: 'Rebuild read models from the log, compare and swap them in (Admin)',
        tags,
        body: rebuildInput.prefault({}),
        response: { 202: z.object({ id: z.string(), message: z.string() }) },
      },
    },
    async (request, reply) => {
      const admin = signedIn(request);
      const input = request.body;
      const id = await requestRebuild(deps.readDb, {
        names: input.projections,
        swap: input.swap ?? true,
        requestedBy: admin.id,
      });
      return reply.status(202).send({
        id,
        message: 'The rebuild is asked for; the projector starts it within a few seconds.',
      });
    },
  );

  api.post(
    '/api/admin/projections/:name/resume',
    {
      preValidation: writerOnly('read-models'),
      schema: {
        summary: 'Resume a stopped projection from its checkpoint (Admin)',
        tags,
        params: projectionParams,
        response: { 200: z.object({ name: z.string(), message: z.string() }) },
      },
    },
    async (request) => {
      const { name } = request.params;
      const outcome = await resumeProjection(deps.readDb, name);
      if (outcome === 'not-failed') throw new HttpError(409, `The ${name} projection is not stopped.`);
      if (outcome === 'unknown') throw new HttpError(404, `The ${name} projection has not started yet.`);
      return { name, message: `The ${name} projection resumes from its checkpoint.` };
    },
  );

  /** Sets the event a stopped projection cannot apply aside, with a reason, and resumes it. */
  api.post(
    '/api/admin/projections/:name/quarantine',
    {
      preValidation: writerOnly('read-models'),
      schema: {
        summary: 'Set the event a stopped projection cannot apply aside, and resume it (Admin)',
        tags,
        params: projectionParams,
        body: quarantineInput.prefault({} as never),
        response: {
          200: z.object({
            name: z.string(),
            quarantined: z.object({ position: z.string(), type: z.string(), streamId: z.string() }),
            position: logPosition,
            message: z.string(),
          }),
        },
      },
    },
    async (request) => {
      const { name } = request.params;
      const input = request.body;
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
    },
  );
}
