import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { JobQueue, ReportJob } from './jobs.ts';
import { bullJobQueue, DEFAULT_PREFIX, inProcessJobQueue, type QueueNames } from './queues.ts';
import { DAY_SECONDS, type FileStore, memoryFileStore, redisFileStore, type StoredFile } from './store.ts';

/** The queue and the file store, as the query side (and the standalone worker) see them. */
export interface Reports {
  queue: JobQueue;
  files: FileStore;
  close(): Promise<void>;
}

export type InProcessReports = Reports & { queue: ReturnType<typeof inProcessJobQueue> };

/** Distributed: jobs on BullMQ and files in Redis. */
export function connectReports(
  redisUrl: string,
  names: QueueNames & {
    /** The requesting side: a command fails after a short retry instead of waiting for Redis. */
    failFast?: boolean;
  } = {},
): Reports & { redis: Redis; queue: ReturnType<typeof bullJobQueue> } {
  // A BullMQ worker wants maxRetriesPerRequest null (a command waits for Redis to come back).
  // A request being answered must not hang on it: while Redis is out of reach a command fails at
  // once (no offline queue), and one Redis does not answer fails after a second and a half.
  const redis = new Redis(
    redisUrl,
    names.failFast
      ? { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 1500, connectTimeout: 1500 }
      : { maxRetriesPerRequest: null },
  );
  redis.on('error', () => {}); // surfaced through readiness and the request that needed it
  const queue = bullJobQueue(redis, names);
  return {
    redis,
    queue,
    files: redisFileStore(redis, `${names.prefix ?? DEFAULT_PREFIX}:${names.queueName ?? 'bahi-reports'}`),
    async close() {
      await queue.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** Standalone: the same jobs on an in-process queue, files in memory. */
export function inProcessReports(): InProcessReports {
  const queue = inProcessJobQueue();
  return { queue, files: memoryFileStore(), close: () => queue.close() };
}

export type Outcome =
  | { kind: 'file'; file: StoredFile }
  | { kind: 'no-worker' }
  | { kind: 'done' }
  | { kind: 'failed'; reason: string }
  | { kind: 'pending' };

/**
 * Adds the job (once per id) and waits, bounded, for it. A render job is done when its file is
 * in the store; a job still running after `waitMs` is marked detached, so the worker tells the
 * requester when it finishes (the worker checks the mark after storing the file, and this side
 * looks for the file after setting the mark: one of the two always sees the other).
 */
export async function runJob(
  reports: Reports,
  jobId: string,
  job: ReportJob,
  waitMs: number,
): Promise<Outcome> {
  // The file store answers first (and fails fast when Redis is out of reach).
  const existing = await reports.files.get(jobId);
  if (job.kind === 'render') {
    if (existing) return { kind: 'file', file: existing };
    // A finished job whose file has expired (or was evicted) runs again.
    if ((await reports.queue.state(jobId)).state === 'completed') await reports.queue.forget(jobId);
  }
  // A job no worker would take is not queued: the requester hears so now, not in 20 s.
  if ((await reports.queue.workers()) === 0) return { kind: 'no-worker' };
  // BullMQ waits for its connection without limit; a request does not.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    reports.queue.add(jobId, job),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('the job queue did not answer in 1.5 s')), 1500);
    }),
  ]).finally(() => clearTimeout(timer));
  const until = Date.now() + waitMs;
  let delay = 25;
  for (;;) {
    if (job.kind === 'render') {
      const file = await reports.files.get(jobId);
      if (file) return { kind: 'file', file };
    }
    const { state, failedReason } = await reports.queue.state(jobId);
    if (state === 'failed') return { kind: 'failed', reason: failedReason ?? 'The job failed.' };
    if (state === 'completed' && job.kind !== 'render') return { kind: 'done' };
    if (Date.now() >= until) break;
    await sleep(Math.min(delay, Math.max(1, until - Date.now())));
    delay = Math.min(delay * 2, 250);
  }
  await reports.files.markDetached(jobId, DAY_SECONDS);
  if (job.kind === 'render') {
    const file = await reports.files.get(jobId);
    if (file) return { kind: 'file', file };
  }
  return { kind: 'pending' };
}
