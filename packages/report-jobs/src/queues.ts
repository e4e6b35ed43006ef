import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  BACKOFF_MS,
  JOB_ATTEMPTS,
  type JobQueue,
  type JobState,
  PermanentJobError,
  type Processor,
  type ReportJob,
} from './jobs.ts';

export const DEFAULT_QUEUE = 'bahi-reports';
export const DEFAULT_PREFIX = 'bahi';

export interface QueueNames {
  queueName?: string;
  /** Redis key prefix (tests use their own so parallel runs do not meet). */
  prefix?: string;
}

/** How long a worker counts as present after its last beat, and how often it beats. */
export const WORKER_PRESENCE_TTL_MS = 6_000;
export const WORKER_BEAT_MS = 2_000;

/**
 * Which workers are running, on Redis: each beats (`SET <base>:worker:<id> PX 6000`, its id in
 * the set `<base>:workers`) every 2 s and removes itself when it stops. A worker killed without
 * stopping counts for at most 6 s more. Portable: no CLIENT LIST (some hosted Redis lack it).
 */
export function workerPresence(redis: Redis, names: QueueNames = {}) {
  const base = `${names.prefix ?? DEFAULT_PREFIX}:${names.queueName ?? DEFAULT_QUEUE}`;
  const set = `${base}:workers`;
  const key = (id: string) => `${base}:worker:${id}`;
  return {
    async beat(id: string) {
      await redis.multi().sadd(set, id).set(key(id), '1', 'PX', WORKER_PRESENCE_TTL_MS).exec();
    },
    async leave(id: string) {
      await redis.multi().srem(set, id).del(key(id)).exec();
    },
    async count(): Promise<number> {
      const ids = await redis.smembers(set);
      if (ids.length === 0) return 0;
      const alive = await redis.mget(ids.map(key));
      const gone = ids.filter((_, i) => alive[i] === null);
      if (gone.length > 0) await redis.srem(set, ...gone);
      return ids.length - gone.length;
    },
  };
}

/** Distributed: the queue on Redis (BullMQ). Adding a job id that exists changes nothing. */
export function bullJobQueue(connection: Redis, names: QueueNames = {}): JobQueue & { queue: Queue } {
  const presence = workerPresence(connection, names);
  const queue = new Queue<ReportJob>(names.queueName ?? DEFAULT_QUEUE, {
    connection,
    prefix: names.prefix ?? DEFAULT_PREFIX,
  });
  queue.on('error', () => {}); // Redis trouble reaches the caller of add/state, and readiness
  return {
    queue,
    async add(jobId, job) {
      await queue.add(job.kind, job, {
        jobId,
        attempts: JOB_ATTEMPTS,
        backoff: { type: 'exponential', delay: BACKOFF_MS },
        removeOnComplete: { age: 86_400 },
        removeOnFail: { age: 7 * 86_400 },
      });
    },
    async state(jobId) {
      const state = await queue.getJobState(jobId);
      if (state === 'failed') {
        const job = await queue.getJob(jobId);
        return { state: 'failed', failedReason: job?.failedReason };
      }
      const known: Record<string, JobState> = {
        completed: 'completed',
        active: 'active',
        unknown: 'unknown',
      };
      return { state: known[state] ?? 'waiting' };
    },
    async forget(jobId) {
      await queue.remove(jobId);
    },
    workers: () => presence.count(),
    async close() {
      await queue.close();
    },
  };
}

interface Entry {
  data: ReportJob;
  state: JobState;
  attemptsMade: number;
  failedReason?: string;
}

/**
 * Standalone: the same jobs on an in-process queue - one at a time, retried with the same
 * exponential backoff. It lives as long as the process (standalone is one process: a crash
 * loses the requests in flight along with the server that took them).
 */
export function inProcessJobQueue(): JobQueue & { start(processor: Processor): void; idle(): Promise<void> } {
  const jobs = new Map<string, Entry>();
  const ready: string[] = [];
  let processor: Processor | undefined;
  let running: Promise<void> | undefined;
  let closed = false;
  const timers = new Set<NodeJS.Timeout>();

  const pump = () => {
    if (running || !processor || closed) return;
    running = (async () => {
      while (ready.length > 0 && !closed) {
        const id = ready.shift()!;
        const entry = jobs.get(id);
        if (!entry) continue;
        entry.state = 'active';
        try {
          await processor({ id, data: entry.data, attemptsMade: entry.attemptsMade, attempts: JOB_ATTEMPTS });
          entry.state = 'completed';
        } catch (error) {
          entry.attemptsMade += 1;
          entry.failedReason = (error as Error).message;
          if (error instanceof PermanentJobError || entry.attemptsMade >= JOB_ATTEMPTS)
            entry.state = 'failed';
          else {
            entry.state = 'waiting';
            const timer = setTimeout(
              () => {
                timers.delete(timer);
                ready.push(id);
                pump();
              },
              BACKOFF_MS * 2 ** (entry.attemptsMade - 1),
            );
            timer.unref();
            timers.add(timer);
          }
        }
      }
    })().finally(() => {
      running = undefined;
      if (ready.length > 0) pump();
    });
  };
  // Finished jobs are forgotten after a day, like BullMQ's removeOnComplete.
  const sweep = setInterval(() => {
    if (jobs.size < 1000) return;
    for (const [id, e] of jobs) if (e.state === 'completed' || e.state === 'failed') jobs.delete(id);
  }, 3_600_000);
  sweep.unref();

  return {
    async add(jobId, job) {
      if (jobs.has(jobId)) return;
      jobs.set(jobId, { data: job, state: 'waiting', attemptsMade: 0 });
      ready.push(jobId);
      pump();
    },
    async state(jobId) {
      const entry = jobs.get(jobId);
      return entry ? { state: entry.state, failedReason: entry.failedReason } : { state: 'unknown' };
    },
    async forget(jobId) {
      const entry = jobs.get(jobId);
      if (entry && (entry.state === 'completed' || entry.state === 'failed')) jobs.delete(jobId);
    },
    async workers() {
      return processor && !closed ? 1 : 0;
    },
    start(p) {
      processor = p;
      pump();
    },
    async idle() {
      while (running) await running;
    },
    async close() {
      closed = true;
      clearInterval(sweep);
      for (const t of timers) clearTimeout(t);
      await running;
    },
  };
}
