import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { RenderJob } from '@bahi/report-jobs';
import { connectReports } from '@bahi/report-jobs';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const script = fileURLToPath(new URL('./testing/crash-worker.ts', import.meta.url));
const prefix = `bahi-crash-${randomUUID()}`;
const queueName = 'reports';
const children: ChildProcess[] = [];

function startWorker(pauseMs: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: {
      ...process.env,
      REDIS_URL,
      TEST_QUEUE: queueName,
      TEST_PREFIX: prefix,
      TEST_PAUSE_MS: String(pauseMs),
      TEST_LOCK_MS: '2000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return child;
}

async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const redis = new Redis(REDIS_URL);
const reports = connectReports(REDIS_URL, { queueName, prefix });

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await reports.close();
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

describe('a worker killed mid-job (real Redis, BullMQ)', () => {
  it('leaves the job to a restarted worker, which completes it once, with one file', async () => {
    const job: RenderJob = {
      kind: 'render',
      format: 'pdf',
      requester: { id: randomUUID(), name: 'Asha', role: 'Viewer' },
      position: '12',
      readAt: '2026-11-21T10:00:00.000Z',
      source: {
        report: 'stock',
        params: {},
        data: { 'Main Godown': [{ product_name: 'Rice', quantity: '120.000' }] },
      },
    };
    const jobId = 'crash-job-1';
    const first = startWorker(60_000);
    await reports.queue.add(jobId, job);
    // The first worker has taken the job and is in the middle of it.
    await until('the first worker to start the job', async () =>
      (await redis.get(`${prefix}:progress:${jobId}`)) === 'rendering' ? true : undefined,
    );
    expect((await reports.queue.state(jobId)).state).toBe('active');
    first.kill('SIGKILL');
    await once(first, 'exit');
    expect(first.signalCode).toBe('SIGKILL');
    expect(await reports.files.get(jobId)).toBeUndefined();

    startWorker(0);
    const file = await until('the file', () => reports.files.get(jobId), 60_000);
    await until('completed', async () =>
      (await reports.queue.state(jobId)).state === 'completed' ? true : undefined,
    );
    expect(file.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(file.fileName).toBe('stock_report.pdf');

    // Completed once: one "completed" entry in BullMQ's event stream for the job, and one file.
    const events = await redis.xrange(`${prefix}:${queueName}:events`, '-', '+');
    const fields = events.map(([, f]) =>
      Object.fromEntries(f.flatMap((v, i) => (i % 2 ? [] : [[v, f[i + 1]]]))),
    );
    expect(fields.filter((e) => e.event === 'completed' && e.jobId === jobId)).toHaveLength(1);
    expect(fields.some((e) => e.event === 'stalled' && e.jobId === jobId)).toBe(true);
    expect(await redis.keys(`${prefix}:${queueName}:file:*:body`)).toHaveLength(1);
    const bull = await reports.queue.queue.getJob(jobId);
    expect(bull?.returnvalue).toEqual({ sha256: file.sha256 });
  }, 90_000);
});
