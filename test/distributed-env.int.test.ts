// The deployment settings of issue #17, on real processes: the queue prefix query and worker
// share (two deployments on one Redis), the Postgres pool per process, and secrets read from
// mounted files (X_FILE) as compose gives them.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestLicense } from './license.ts';
import { withTestDatabase } from './postgres.ts';
import { freePort, getJson, type Proc, run, waitFor } from './processes.ts';

const root = resolve(import.meta.dirname, '..');
const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const POOL = 2;

describe.skipIf(!databaseUrl)('deployment settings from the environment', () => {
  let db: Awaited<ReturnType<typeof withTestDatabase>>;
  let dir = '';
  const procs: Record<string, Proc> = {};
  const ports: Record<string, number> = {};
  const prefix = `bahi-t-${randomBytes(4).toString('hex')}`;
  let token = '';

  beforeAll(async () => {
    db = await withTestDatabase('env');
    dir = await mkdtemp(join(tmpdir(), 'bahi-env-'));
    await writeFile(join(dir, 'jwt_secret'), 'a-test-secret-that-is-long-enough-for-hs256\n');
    await writeFile(join(dir, 'admin_password'), 'admin-password-from-a-file\n');
    // The license as compose mounts it: license.jws and public.pem in one directory.
    await writeTestLicense(dir);
    const license = {
      BAHI_LICENSE_FILE: join(dir, 'license.jws'),
      BAHI_LICENSE_PUBLIC_KEY_FILE: join(dir, 'public.pem'),
    };
    const common = {
      DATABASE_URL: db.url,
      HOST: '127.0.0.1',
      BAHI_DB_POOL_SIZE: String(POOL),
      BAHI_SUBSCRIPTION_POLL_MS: '200',
    };
    const services = {
      command: {
        script: 'start:command',
        env: {
          ...license,
          BAHI_JWT_SECRET_FILE: join(dir, 'jwt_secret'),
          BAHI_ADMIN_EMAIL: 'admin@test.local',
          BAHI_ADMIN_PASSWORD_FILE: join(dir, 'admin_password'),
        },
      },
      query: {
        script: 'start:query',
        env: {
          ...license,
          BAHI_JWT_SECRET_FILE: join(dir, 'jwt_secret'),
          REDIS_URL: redisUrl,
          BAHI_QUEUE_PREFIX: prefix,
        },
      },
      projector: { script: 'start:projector', env: {} },
      'reports-worker': { script: 'start:worker', env: { REDIS_URL: redisUrl, BAHI_QUEUE_PREFIX: prefix } },
    };
    for (const [name, { script, env }] of Object.entries(services)) {
      ports[name] = await freePort();
      procs[name] = run('npm', ['run', script], { ...common, ...env, PORT: String(ports[name]) }, root);
    }
    for (const name of Object.keys(services)) {
      await waitFor(
        `${name} ready`,
        async () =>
          (await getJson(`http://127.0.0.1:${ports[name]}/api/ready`)).status === 200 ? true : undefined,
        90_000,
      ).catch((error) => {
        throw new Error(`${(error as Error).message}\n${procs[name]?.output().slice(-3000)}`);
      });
    }
    // The read models caught up (reports answer 503 'still being brought up to date' before).
    await waitFor(
      'projections caught up',
      async () => {
        const body = (await getJson(`http://127.0.0.1:${ports.query}/api/ready`)).body as {
          projections: Array<{ lag: string }>;
        };
        return body.projections.length > 0 && body.projections.every((p) => p.lag === '0') ? true : undefined;
      },
      60_000,
    );
    const login = await fetch(`http://127.0.0.1:${ports.command}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@test.local', password: 'admin-password-from-a-file' }),
    });
    expect(login.status).toBe(200);
    token = ((await login.json()) as { token: string }).token;
  }, 120_000);

  afterAll(async () => {
    for (const p of Object.values(procs)) p.signal('SIGTERM');
    await Promise.all(Object.values(procs).map((p) => p.groupGone().catch(() => p.signal('SIGKILL'))));
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reads the JWT secret, the Admin password and the license from files: command signs, query accepts', async () => {
    const res = await fetch(`http://127.0.0.1:${ports.query}/api/auth/license-status`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ isValid: true });
  });

  it('puts report jobs and files under BAHI_QUEUE_PREFIX, where the worker takes them', async () => {
    const res = await fetch(`http://127.0.0.1:${ports.query}/api/reports/stock/download/pdf`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    const redis = new Redis(redisUrl);
    try {
      const keys = await redis.keys(`${prefix}:*`);
      expect(keys).toContain(`${prefix}:bahi-reports:completed`);
      expect(keys.some((k) => k.startsWith(`${prefix}:bahi-reports:file:`))).toBe(true);
    } finally {
      await redis.quit();
    }
  }, 60_000);

  it('keeps each process within BAHI_DB_POOL_SIZE connections (plus one for LISTEN)', async () => {
    // Many reads at once: more than the pool, so the pool must queue them.
    const reads = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(
          `http://127.0.0.1:${ports.query}/api/reports/stock?asOf=2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
          {
            headers: { authorization: `Bearer ${token}` },
          },
        ).then((r) => r.status),
      ),
    );
    expect(reads).toEqual(reads.map(() => 200));
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ application_name: string; n: number }>(
        'SELECT application_name, count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 GROUP BY 1',
        [db.name],
      );
      const counts = Object.fromEntries(rows.map((r) => [r.application_name, r.n]));
      for (const service of ['command', 'query', 'projector', 'reports-worker']) {
        expect(counts[`bahi-${service}`] ?? 0, service).toBeGreaterThan(0);
        expect(counts[`bahi-${service}`], service).toBeLessThanOrEqual(POOL + 1);
      }
    } finally {
      await admin.end();
    }
  });
});

if (!databaseUrl) console.log('distributed-env test skipped: DATABASE_URL is not set');
