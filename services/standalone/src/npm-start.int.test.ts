import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, getJson, type Proc, run, waitFor } from '../../../test/processes.ts';

const root = resolve(import.meta.dirname, '../../..');

/** The README's first command, as a person runs it: `npm start`, then Ctrl+C, then again. */
describe('npm start (standalone)', () => {
  let dataDir: string;
  const procs: Proc[] = [];
  afterAll(async () => {
    for (const p of procs) p.signal('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const start = async (port: number) => {
    const proc = run('npm', ['start'], { BAHI_DATA_DIR: dataDir, PORT: String(port), CI: '' }, root);
    procs.push(proc);
    return proc;
  };
  const ready = (port: number) =>
    waitFor(
      'ready',
      async () => {
        const r = await getJson(`http://127.0.0.1:${port}/api/ready`);
        const body = r.body as {
          status: string;
          eventStore: { headPosition: string };
          projections: unknown[];
        };
        return r.status === 200 && body.projections.length > 0 ? body : undefined;
      },
      60_000,
    );

  it('answers /api/health and serves / within 60 s, prints the URL and sign-in, and reuses ./data after a restart', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'bahi-start-'));
    const port = await freePort();
    const first = await start(port);
    const health = await waitFor(
      '/api/health',
      async () => {
        const r = await getJson(`http://127.0.0.1:${port}/api/health`);
        return r.status === 200 ? r.body : undefined;
      },
      60_000,
    );
    expect(health).toEqual({ status: 'ok', service: 'standalone' });
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/Bahi/);
    await waitFor('banner', async () => (first.output().includes('Sign in as') ? true : undefined), 10_000);
    expect(first.output()).toContain(`http://localhost:${port}`);
    expect(first.output()).toMatch(/Sign in as admin@bahi\.local with the first Admin's password/);
    expect(first.output()).not.toContain('bahi-admin-2026'); // the password is never printed
    expect(first.output()).toMatch(/Created a development license valid until \d{4}-\d{2}-\d{2}/);
    const before = await ready(port);
    // First start: the first Admin (email reservation, user, bootstrap marker) and StandaloneStarted.
    const firstHead = BigInt(before.eventStore.headPosition);
    expect(firstHead).toBe(4n);

    // A second process on the same data directory is refused, and the first keeps running.
    const intruder = run('npm', ['start'], { BAHI_DATA_DIR: dataDir, PORT: String(await freePort()) }, root);
    procs.push(intruder);
    expect(await intruder.exited).toBe(1);
    expect(intruder.output()).toMatch(/Another Bahi process \(pid \d+\) is using the data directory/);
    expect((await getJson(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);

    first.signal('SIGINT');
    await first.groupGone();
    expect(first.output()).toContain('bahi: SIGINT received, stopping');
    expect(first.output()).not.toMatch(/error while stopping/);
    expect(existsSync(join(dataDir, 'bahi.lock'))).toBe(false);

    const second = await start(port);
    const after = await ready(port);
    // The first run's events are still there and only StandaloneStarted was added: the data
    // directory was reused, and the first Admin was not created again.
    expect(after.eventStore.headPosition).toBe((firstHead + 1n).toString());
    await waitFor(
      'projection caught up',
      async () => {
        const body = (await getJson(`http://127.0.0.1:${port}/api/ready`)).body as {
          projections: Array<{ position: string; lag: string }>;
        };
        return body.projections.every((p) => p.position === (firstHead + 1n).toString() && p.lag === '0')
          ? true
          : undefined;
      },
      10_000,
    );
    expect(second.output()).not.toMatch(/Created a development license/); // the first one is kept
    second.signal('SIGTERM');
    await second.groupGone();
    expect(second.output()).toContain('bahi: SIGTERM received, stopping');
    expect(existsSync(join(dataDir, 'bahi.lock'))).toBe(false);
  }, 180_000);

  it('refuses to start on a bad setting and names the variable', async () => {
    const proc = run('npm', ['start'], { PORT: 'eighty', BAHI_DATA_DIR: join(tmpdir(), 'never-used') }, root);
    procs.push(proc);
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toMatch(/PORT: must be a port number/);
  }, 60_000);
});
