import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { seedBusiness } from '@bahi/command';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Proc, run, waitFor } from '../../../test/processes.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const ADMIN = { email: 'admin@crash.local', password: 'admin-password-1' };
// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
type Body = any;

/** Its shadow schemas and rebuild rows, read from the data directory while no process has it. */
async function onDisk(dataDir: string) {
  const db = await PGlite.create(join(dataDir, 'pglite'));
  try {
    const schemas = await db.query<{ name: string }>(
      `SELECT nspname AS name FROM pg_namespace WHERE nspname ~ '^(rebuild|retired)_[0-9a-f]{12}$' ORDER BY 1`,
    );
    const rebuilds = await db.query<{ id: string; status: string; error: string | null }>(
      'SELECT id::text, status, error FROM projection_rebuilds ORDER BY requested_at',
    );
    return { schemas: schemas.rows.map((r) => r.name), rebuilds: rebuilds.rows };
  } finally {
    await db.close();
  }
}

/** The standalone app (PGlite) as its own process, killed with SIGKILL in the middle of a rebuild. */
describe('a standalone rebuild interrupted by SIGKILL [pglite]', () => {
  let dir = '';
  let port = 0;
  const procs: Proc[] = [];
  const start = async () => {
    const proc = run(
      process.execPath,
      ['--import', 'tsx', 'services/standalone/src/main.ts'],
      {
        BAHI_DATA_DIR: join(dir, 'data'),
        BAHI_FRONTENDS_DIR: join(dir, 'none'),
        BAHI_ADMIN_EMAIL: ADMIN.email,
        BAHI_ADMIN_PASSWORD: ADMIN.password,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        BAHI_SUBSCRIPTION_POLL_MS: '20',
        // Small steps, so the rebuild is caught part-way.
        BAHI_REBUILD_BATCH_SIZE: '10',
      },
      ROOT,
    );
    procs.push(proc);
    await waitFor(
      'the app to listen',
      async () => ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok ? true : undefined),
      60_000,
    );
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { token } = (await login.json()) as { token: string };
    const call = async (
      method: string,
      path: string,
      body?: unknown,
    ): Promise<{ status: number; body: Body }> => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: await res.json() };
    };
    const rebuild = async (id: string) =>
      ((await call('GET', '/api/admin/projections')).body.rebuilds as Body[]).find((r) => r.id === id);
    return { proc, call, rebuild };
  };
  const stopped = async (proc: Proc, signal: NodeJS.Signals) => {
    proc.signal(signal);
    await proc.exited;
    await proc.groupGone();
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bahi-rebuild-crash-'));
    port = await freePort();
  });
  afterAll(async () => {
    for (const proc of procs) proc.signal('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('restarted, it marks the rebuild failed, drops its shadow tables, and takes a new one at once', async () => {
    const first = await start();
    await seedBusiness(first.call, { days: 10, until: '2026-11-20' });
    const asked = await first.call('POST', '/api/admin/projections/rebuild', {});
    expect(asked.status).toBe(202);
    const id = asked.body.id as string;
    // Part-way through its replay (the status is answered meanwhile: the rebuild takes turns).
    await waitFor(
      'the rebuild to be part-way',
      async () => {
        const row = await first.rebuild(id);
        return row?.status === 'running' && BigInt(row.position) > 0n ? true : undefined;
      },
      60_000,
    );
    await stopped(first.proc, 'SIGKILL');
    // The debris a crash leaves.
    const left = await onDisk(join(dir, 'data'));
    expect(left.rebuilds.find((r) => r.id === id)?.status).toBe('running');
    expect(left.schemas.length).toBeGreaterThan(0);

    const second = await start();
    const row = await waitFor(
      'the start-up to mark it failed',
      async () => {
        const r = await second.rebuild(id);
        return r?.status === 'failed' ? r : undefined;
      },
      10_000,
    );
    expect(row.error).toMatch(/interrupted/);
    const next = await second.call('POST', '/api/admin/projections/rebuild', {});
    expect(next.status).toBe(202);
    const done = await waitFor(
      'the new rebuild to finish',
      async () => {
        const r = await second.rebuild(next.body.id);
        if (r?.status === 'failed') throw new Error(r.error);
        return r?.status === 'done' ? r : undefined;
      },
      120_000,
    );
    expect(done.report.identical).toBe(true);
    expect(second.proc.output()).toMatch(
      /an interrupted rebuild is marked failed and its shadow tables dropped/,
    );
    await stopped(second.proc, 'SIGTERM');

    const after = await onDisk(join(dir, 'data'));
    expect(after.schemas).toEqual([]);
    expect(after.rebuilds.map((r) => r.status)).toEqual(['failed', 'done']);
  }, 300_000);
});
