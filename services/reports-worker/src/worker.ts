import { randomUUID } from 'node:crypto';
import type { EventStore } from '@bahi/event-store';
import {
  connectReports,
  type InProcessReports,
  type QueueNames,
  WORKER_BEAT_MS,
  workerPresence,
} from '@bahi/report-jobs';
import { reportJobDuration } from '@bahi/server-kit';
import type { Worker } from 'bullmq';
import { bullWorker } from './bull-worker.ts';
import { type Effects, eventStoreEffects, memoryEffects } from './effects.ts';
import { type ProcessorDeps, processReportJob } from './process.ts';
import { transportFromEnv, type WhatsAppTransport } from './whatsapp.ts';

export interface ReportsWorker {
  stop(): Promise<void>;
}

export interface ReportsWorkerOptions extends QueueNames {
  /** Distributed: BullMQ on this Redis. */
  redisUrl?: string | undefined;
  /** Standalone: the in-process queue the query side adds to. */
  inProcess?: InProcessReports;
  /** Where notifications and send records go; without it they are only kept in memory. */
  eventStore?: EventStore;
  effects?: Effects;
  transport?: WhatsAppTransport;
  env?: NodeJS.ProcessEnv;
  lockDurationMs?: number;
  pauseMs?: number;
  /** Where jobs' warnings go (the service's logger). */
  warn?: ProcessorDeps['warn'];
}

/**
 * The reports worker. Distributed: jobs on BullMQ over Redis; standalone: the same job code
 * (processReportJob) on an in-process queue. It renders PDF and XLSX files into the file
 * store and sends WhatsApp messages through the configured transport.
 */
/** A job's time from start to end, by kind and outcome (bahi_report_job_duration_seconds). */
async function timed<T>(job: { data: { kind: string } }, run: () => Promise<T>): Promise<T> {
  const end = reportJobDuration.startTimer({ kind: job.data.kind });
  try {
    const result = await run();
    end({ outcome: 'done' });
    return result;
  } catch (error) {
    end({ outcome: 'failed' });
    throw error;
  }
}

export function startReportsWorker(options: ReportsWorkerOptions): ReportsWorker & {
  ping(): Promise<void>;
} {
  const env = options.env ?? process.env;
  const effects =
    options.effects ?? (options.eventStore ? eventStoreEffects(options.eventStore) : memoryEffects());
  const transport = options.transport ?? transportFromEnv(env);
  const base: Omit<ProcessorDeps, 'files'> = {
    effects,
    transport,
    businessName: env.BAHI_BUSINESS_NAME?.trim() || 'Bahi',
    ...(options.warn ? { warn: options.warn } : {}),
    ...(options.pauseMs ? { pauseMs: options.pauseMs } : {}),
  };

  if (options.inProcess) {
    const reports = options.inProcess;
    reports.queue.start((job) => timed(job, () => processReportJob(job, { ...base, files: reports.files })));
    return { async ping() {}, stop: () => reports.queue.close() };
  }
  if (!options.redisUrl) throw new Error('The reports worker needs REDIS_URL (or an in-process queue).');

  const reports = connectReports(options.redisUrl, options);
  let worker: Worker | undefined;
  worker = bullWorker(
    reports.redis,
    (job) =>
      timed(job, () =>
        processReportJob(job, {
          ...base,
          files: reports.files,
          onProgress: async (stage) => {
            // Seen by operators and by the crash test (which kills the worker mid-job).
            await reports.redis.set(`${options.prefix ?? 'bahi'}:progress:${job.id}`, stage, 'EX', 3600);
          },
        }),
      ),
    { ...options, ...(options.lockDurationMs ? { lockDurationMs: options.lockDurationMs } : {}) },
  );
  worker.on('error', () => {}); // connection trouble: BullMQ reconnects; readiness reports it
  // Present while running: the query side tells a user at once when no worker would take a job.
  const presence = workerPresence(reports.redis, options);
  const id = randomUUID();
  const beat = () => presence.beat(id).catch(() => {}); // Redis away: readiness says so
  void beat();
  const beating = setInterval(beat, WORKER_BEAT_MS);
  beating.unref();
  return {
    async ping() {
      const answer = await reports.redis.ping();
      if (answer !== 'PONG') throw new Error(`Redis answered ${answer}`);
    },
    async stop() {
      clearInterval(beating);
      await worker?.close();
      worker = undefined;
      await presence.leave(id).catch(() => {});
      await reports.close();
    },
  };
}
