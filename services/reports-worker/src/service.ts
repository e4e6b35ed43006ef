import { type Running, startDistributedService } from '@bahi/server-kit';
import { startReportsWorker } from './worker.ts';

/**
 * The reports worker as its own process: jobs from Redis (BullMQ), notifications and WhatsApp
 * send records into the event store.
 */
export function startReportsWorkerService(env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  return startDistributedService({
    service: 'reports-worker',
    defaultPort: 3004,
    env,
    require: ['REDIS_URL'],
    async setup({ config, storage }) {
      const worker = startReportsWorker({ redisUrl: config.REDIS_URL, eventStore: storage.eventStore, env });
      return { checks: [{ name: 'redis', check: () => worker.ping() }], stop: () => worker.stop() };
    },
  });
}
