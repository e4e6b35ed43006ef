import { resolve } from 'node:path';
import { createPostgresEventStore } from '@bahi/event-store';
import { createPgSqlClient } from '@bahi/sql-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTestDatabase } from './postgres.ts';
import { freePort, getJson, type Proc, run, waitFor } from './processes.ts';

const root = resolve(import.meta.dirname, '..');
const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Ready {
  status: string;
  checks: Record<string, { ok: boolean }>;
  eventStore: { kind: string; headPosition: string };
  projections: Array<{ name: string; position: string; lag: string }>;
}

/** Distributed mode: each service its own process on Postgres and Redis, as `npm run start:*` runs them. */
describe.skipIf(!databaseUrl)('distributed services', () => {
  let db: Awaited<ReturnType<typeof withTestDatabase>>;
  const procs: Proc[] = [];
  const ports: Record<string, number> = {};
  const scripts = {
    command: 'start:command',
    query: 'start:query',
    projector: 'start:projector',
    'reports-worker': 'start:worker',
  };

  beforeAll(async () => {
    db = await withTestDatabase('distributed');
    for (const [service, script] of Object.entries(scripts)) {
      ports[service] = await freePort();
      procs.push(
        run(
          'npm',
          ['run', script],
          {
            DATABASE_URL: db.url,
            REDIS_URL: redisUrl,
            PORT: String(ports[service]),
            HOST: '127.0.0.1',
            BAHI_SUBSCRIPTION_POLL_MS: '200',
            BAHI_DB_POOL_SIZE: '3',
            BAHI_JWT_SECRET: 'a-test-secret-that-is-long-enough-for-hs256',
            BAHI_ADMIN_EMAIL: 'admin@test.local',
            BAHI_ADMIN_PASSWORD: 'admin-password-1',
          },
          root,
        ),
      );
    }
  }, 60_000);
  afterAll(async () => {
    for (const p of procs) p.signal('SIGTERM');
    await Promise.all(procs.map((p) => p.groupGone().catch(() => p.signal('SIGKILL'))));
    await db?.drop();
  });

  const ready = (service: string) =>
    waitFor(
      `${service} ready`,
      async () => {
        const r = await getJson(`http://127.0.0.1:${ports[service]}/api/ready`);
        return r.status === 200 && (r.body as Ready).status === 'ready' ? (r.body as Ready) : undefined;
      },
      60_000,
    );

  it('every service answers /api/health and /api/ready on its own port', async () => {
    for (const service of Object.keys(scripts)) {
      const health = await waitFor(
        `${service} health`,
        async () => {
          const r = await getJson(`http://127.0.0.1:${ports[service]}/api/health`);
          return r.status === 200 ? r.body : undefined;
        },
        60_000,
      );
      expect(health).toEqual({ status: 'ok', service });
      const body = await ready(service);
      expect(body.status).toBe('ready');
      expect(body.eventStore.kind).toBe('postgres');
    }
    expect((await ready('reports-worker')).checks.redis).toEqual({ ok: true });
  }, 120_000);

  it('the projector process follows appends made by another process, and every service reports its lag', async () => {
    const sql = createPgSqlClient({ connectionString: db.url, max: 2 });
    const store = await createPostgresEventStore(sql);
    try {
      for (let i = 0; i < 20; i++)
        await store.append(`other-process-${i % 4}`, [{ type: 'FromElsewhere', data: { i } }], 'any');
      const head = (await store.headPosition()).toString();
      const projectorProc = procs[Object.keys(scripts).indexOf('projector')]!;
      const caughtUp = await waitFor(
        'projector catch-up',
        async () => {
          const body = (await getJson(`http://127.0.0.1:${ports.projector}/api/ready`)).body as Ready;
          const p = body.projections.find((x) => x.name === 'event_type_counts');
          return p?.position === head ? body : undefined;
        },
        20_000,
      ).catch((error) => {
        throw new Error(
          `${(error as Error).message}\nprojector output:\n${projectorProc.output().slice(-4000)}`,
        );
      });
      expect(caughtUp.projections[0]?.lag).toBe('0');
      const fromQuery = (await getJson(`http://127.0.0.1:${ports.query}/api/ready`)).body as Ready;
      expect(fromQuery.eventStore.headPosition).toBe(head);
      expect(fromQuery.projections.find((p) => p.name === 'event_type_counts')).toMatchObject({
        position: head,
        lag: '0',
      });
    } finally {
      await store.close();
      await sql.close();
    }
  }, 60_000);

  it('a service started without a required variable stops with a message naming it', async () => {
    const noDb = run(
      'npm',
      ['run', 'start:query'],
      { DATABASE_URL: '', PORT: String(await freePort()) },
      root,
    );
    const noRedis = run(
      'npm',
      ['run', 'start:worker'],
      { DATABASE_URL: db.url, REDIS_URL: '', PORT: String(await freePort()) },
      root,
    );
    expect(await noDb.exited).toBe(1);
    expect(noDb.output()).toMatch(/DATABASE_URL: is required/);
    expect(await noRedis.exited).toBe(1);
    expect(noRedis.output()).toMatch(/REDIS_URL: is required by the reports-worker service/);
    const noAdmin = run(
      'npm',
      ['run', 'start:command'],
      {
        DATABASE_URL: db.url,
        BAHI_JWT_SECRET: 'a-test-secret-that-is-long-enough-for-hs256',
        BAHI_ADMIN_EMAIL: '',
        BAHI_ADMIN_PASSWORD: '',
        PORT: String(await freePort()),
      },
      root,
    );
    expect(await noAdmin.exited).toBe(1);
    expect(noAdmin.output()).toMatch(/BAHI_ADMIN_EMAIL: is required by the command service/);
  }, 60_000);
});

if (!databaseUrl) console.log('distributed services test skipped: DATABASE_URL is not set');
