import { type Running, startDistributedService } from '@bahi/server-kit';
import { startReportsWorker } from './worker.ts';

/** The reports worker as its own process; it needs Redis for its queue. */
export function startReportsWorkerService(env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  return startDistributedService({
    service: 'reports-worker',
    defaultPort: 3004,
    env,
    require: ['REDIS_URL'],
    async setup({ config }) {
      const worker = startReportsWorker({ redisUrl: config.REDIS_URL });
      return { checks: [{ name: 'redis', check: () => worker.ping() }], stop: () => worker.stop() };
    },
  });
}
