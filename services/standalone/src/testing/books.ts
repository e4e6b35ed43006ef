import { expect } from 'vitest';
import type { Body, TestApp } from './test-app.ts';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The head of the event log, as /api/ready reports it. */
export async function headPosition(t: TestApp): Promise<string> {
  const ready = (await (await fetch(`${t.bahi.url}/api/ready`)).json()) as Body;
  return ready.eventStore.headPosition as string;
}

/** A write as the forms' preview sends it (the dry run header): the answer, nothing appended. */
export async function dryRun(t: TestApp, method: string, path: string, body: unknown) {
  const res = await fetch(`${t.bahi.url}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${t.token}`,
      'content-type': 'application/json',
      'x-bahi-dry-run': 'true',
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

/**
 * Waits until every projection has applied the whole log and fails the test as soon as one
 * has stopped on an event it could not apply (status failed), naming the error.
 */
export async function expectBooksCaughtUp(t: TestApp, timeoutMs = 30_000): Promise<Body[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await t.call('GET', '/admin/projections');
    expect(r.status).toBe(200);
    const projections = r.body.projections as Body[];
    const failed = projections.filter((p) => p.status === 'failed');
    expect(failed, JSON.stringify(failed)).toEqual([]);
    if (projections.every((p) => p.lag === '0')) return projections;
    if (Date.now() > deadline) throw new Error(`projections still behind: ${JSON.stringify(projections)}`);
    await pause(50);
  }
}

/** Asks for a rebuild of every projection that only compares; expects it identical to the live read models. */
export async function expectRebuildIdentical(t: TestApp, timeoutMs = 120_000): Promise<Body> {
  const asked = await t.call('POST', '/admin/projections/rebuild', { swap: false });
  expect(asked.status, JSON.stringify(asked.body)).toBe(202);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = (await t.call('GET', '/admin/projections')).body;
    const rebuild = status.rebuilds.find((b: Body) => b.id === asked.body.id);
    expect(rebuild?.status).not.toBe('failed');
    if (rebuild?.status === 'done') {
      const differing = rebuild.report.comparisons.filter((c: Body) => !c.identical);
      expect(differing, JSON.stringify(differing)).toEqual([]);
      expect(rebuild.report.identical).toBe(true);
      return rebuild;
    }
    if (Date.now() > deadline) throw new Error(`rebuild not done: ${JSON.stringify(rebuild)}`);
    await pause(100);
  }
}
