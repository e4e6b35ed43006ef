import { Redis } from 'ioredis';

export interface ReportsWorker {
  stop(): Promise<void>;
}

/**
 * The reports worker. Distributed: jobs on BullMQ over Redis; standalone: the same job code
 * on an in-process queue. Render and WhatsApp jobs arrive with the reports issue; until
 * then the worker holds its Redis connection (distributed) so readiness is real.
 */
export function startReportsWorker(options: { redisUrl?: string | undefined }): ReportsWorker & {
  ping(): Promise<void>;
} {
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  redis?.on('error', () => {}); // surfaced through readiness, not as a crash
  return {
    async ping() {
      if (!redis) return;
      const answer = await redis.ping();
      if (answer !== 'PONG') throw new Error(`Redis answered ${answer}`);
    },
    async stop() {
      await redis?.quit().catch(() => redis.disconnect());
    },
  };
}
