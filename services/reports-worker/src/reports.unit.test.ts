import type { JobContext, RenderJob } from '@bahi/report-jobs';
import { inProcessReports, runJob } from '@bahi/report-jobs';
import { describe, expect, it } from 'vitest';
import { memoryEffects } from './effects.ts';
import { processReportJob } from './process.ts';
import { outboxTransport } from './whatsapp.ts';

const job: RenderJob = {
  kind: 'render',
  format: 'xlsx',
  requester: { id: '00000000-0000-4000-8000-000000000002', name: 'Imran', role: 'Collector' },
  position: '5',
  readAt: '2026-11-21T10:00:00.000Z',
  source: { report: 'stock', params: {}, data: { G1: [{ product_name: 'Wheat', quantity: '5.000' }] } },
};

function setup(pauseMs: number) {
  const reports = inProcessReports();
  const effects = memoryEffects();
  const runs: string[] = [];
  reports.queue.start((j: JobContext) => {
    runs.push(j.id);
    return processReportJob(j, {
      files: reports.files,
      effects,
      transport: outboxTransport,
      businessName: 'B',
      pauseMs,
    });
  });
  return { reports, effects, runs };
}

describe('waiting for a file, bounded', () => {
  it('streams a quick job at once, and one job id is one job', async () => {
    const { reports, effects, runs } = setup(0);
    const [a, b] = await Promise.all([
      runJob(reports, 'quick', job, 10_000),
      runJob(reports, 'quick', job, 10_000),
    ]);
    expect(a.kind).toBe('file');
    expect(b.kind).toBe('file');
    expect(runs).toEqual(['quick']);
    expect(effects.notices).toEqual([]);
    // Its file gone (expired or evicted), the same request renders it again instead of waiting for nothing.
    await reports.files.put('quick', { ...(await reports.files.get('quick'))! }, -1);
    expect((await runJob(reports, 'quick', job, 10_000)).kind).toBe('file');
    expect(runs).toEqual(['quick', 'quick']);
    await reports.close();
  });

  it('a job that outlasts the wait keeps going and tells the requester, with a link, when done', async () => {
    const { reports, effects } = setup(300);
    const outcome = await runJob(reports, 'slow', job, 20);
    expect(outcome).toEqual({ kind: 'pending' });
    expect(await reports.files.get('slow')).toBeUndefined();
    await reports.queue.idle();
    const file = await reports.files.get('slow');
    expect(file?.fileName).toBe('stock_report.xlsx');
    expect(effects.notices).toEqual([
      {
        key: 'ready:slow',
        audience: 'Collector',
        type: 'success',
        title: 'Report ready',
        message: 'stock_report.xlsx for Imran is ready to download.',
        link: '/api/reports/files/slow',
      },
    ]);
    await reports.close();
  });
});
