import { ConfigError, type Running, resolveFileVariables, startDistributedService } from '@bahi/server-kit';
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
    async setup({ config, storage, app }) {
      // The WhatsApp token may come from a mounted secret too (WHATSAPP_TOKEN_FILE).
      const whatsapp = resolveFileVariables(env, ['WHATSAPP_TOKEN']);
      if (whatsapp.problems.length > 0) throw new ConfigError(whatsapp.problems);
      const worker = startReportsWorker({
        redisUrl: config.REDIS_URL,
        prefix: config.BAHI_QUEUE_PREFIX,
        eventStore: storage.eventStore,
        env: whatsapp.env,
        warn: (message, fields) => app.log.warn(fields, message),
      });
      return { checks: [{ name: 'redis', check: () => worker.ping() }], stop: () => worker.stop() };
    },
  });
}
