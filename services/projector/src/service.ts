import { startProjector } from '@bahi/projections';
import { loadConfig, type Running, startDistributedService } from '@bahi/server-kit';
import { z } from 'zod';

const projectorEnvSchema = z.object({
  /** Most events one projection applies in one transaction. */
  BAHI_PROJECTION_BATCH_SIZE: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1, 'must be between 1 and 10000')
    .max(10_000, 'must be between 1 and 10000')
    .default(500),
});

/** The projector as its own process: every projection, plus /api/health and /api/ready. */
export function startProjectorService(env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  const { BAHI_PROJECTION_BATCH_SIZE } = loadConfig(projectorEnvSchema, env);
  return startDistributedService({
    service: 'projector',
    defaultPort: 3003,
    env,
    async setup({ storage, app }) {
      const projector = startProjector({
        ...storage,
        batchSize: BAHI_PROJECTION_BATCH_SIZE,
        log: (msg, fields) => app.log.error(fields, msg),
      });
      return { stop: () => projector.stop() };
    },
  });
}
