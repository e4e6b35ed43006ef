import {
  DEFAULT_PREFIX,
  DEFAULT_QUEUE,
  PermanentJobError,
  type Processor,
  type QueueNames,
  type ReportJob,
} from '@bahi/report-jobs';
import { type Job as BullJob, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';

/**
 * Distributed: a BullMQ worker. A job whose worker dies keeps its lock only for
 * `lockDurationMs`; then BullMQ's stalled-job check puts it back in the queue and another (or
 * the restarted) worker runs it again from the start.
 */
export function bullWorker(
  connection: Redis,
  processor: Processor,
  options: QueueNames & { lockDurationMs?: number; concurrency?: number } = {},
): Worker {
  const lockDuration = options.lockDurationMs ?? 30_000;
  return new Worker<ReportJob>(
    options.queueName ?? DEFAULT_QUEUE,
    async (job: BullJob<ReportJob>) => {
      try {
        return await processor({
          id: job.id!,
          data: job.data,
          attemptsMade: job.attemptsMade,
          attempts: job.opts.attempts ?? 1,
        });
      } catch (error) {
        if (error instanceof PermanentJobError) throw new UnrecoverableError(error.message);
        throw error;
      }
    },
    {
      connection,
      prefix: options.prefix ?? DEFAULT_PREFIX,
      concurrency: options.concurrency ?? 1,
      lockDuration,
      stalledInterval: Math.max(1000, Math.floor(lockDuration / 2)),
      maxStalledCount: 2,
    },
  );
}
