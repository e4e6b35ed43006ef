import { startProjector } from '@bahi/projections';
import { loadConfig, type Running, rebuildEnv, startDistributedService } from '@bahi/server-kit';
import { z } from 'zod';

const projectorEnvSchema = z.object({
  /** Most events one projection applies in one transaction. */
  BAHI_PROJECTION_BATCH_SIZE: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1, 'must be between 1 and 10000')
    .max(10_000, 'must be between 1 and 10000')
    .default(500),
  ...rebuildEnv,
});

/** The projector as its own process: every projection, plus /api/health and /api/ready. */
export function startProjectorService(env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  const { BAHI_PROJECTION_BATCH_SIZE, BAHI_REBUILD_BATCH_SIZE } = loadConfig(projectorEnvSchema, env);
  return startDistributedService({
    service: 'projector',
    defaultPort: 3003,
    env,
    async setup({ storage, app }) {
      const projector = startProjector({
        ...storage,
        batchSize: BAHI_PROJECTION_BATCH_SIZE,
        rebuildBatchSize: BAHI_REBUILD_BATCH_SIZE,
        log: app.log,
      });
      return { stop: () => projector.stop() };
    },
  });
}
