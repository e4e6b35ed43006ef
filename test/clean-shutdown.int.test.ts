// Issue #26: `docker stop` sends SIGTERM to what compose runs. Each service is started here
// exactly as docker-compose.yml's `command:` says (node on the compiled service, no npm in
// between), stopped with SIGTERM while it is busy, and must stop cleanly: exit 0, the requests in
// flight answered, live streams ended, and the worker gone from the queue at once.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createPostgresEventStore } from '@bahi/event-store';
import { createPgSqlClient } from '@bahi/sql-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServices } from '../scripts/build-services.ts';
import { call, json, type Reply } from './http.ts';
import { writeTestLicense } from './license.ts';
import { withTestDatabase } from './postgres.ts';
import { freePort, getJson, type Proc, run, waitFor } from './processes.ts';

const root = resolve(import.meta.dirname, '..');
const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };

/** The `command:` compose gives a service: `["node", ..., "services/<name>/dist/main.mjs"]`. */
async function composeCommand(service: string): Promise<string[]> {
  const text = await readFile(resolve(root, 'docker-compose.yml'), 'utf8');
  const block = text.split(/\n(?= {2}[a-z-]+:\n)/).find((b) => b.startsWith(`  ${service}:\n`));
  const line = block?.split('\n').find((l) => /^ {4}command: \[/.test(l));
  if (!line) throw new Error(`docker-compose.yml gives ${service} no command`);
  return JSON.parse(line.replace(/^ {4}command: /, '')) as string[];
}

describe.skipIf(!databaseUrl)('clean shutdown on SIGTERM, each service as compose runs it', () => {
  let db: Awaited<ReturnType<typeof withTestDatabase>>;
  const procs: Record<string, Proc> = {};
  const ports: Record<string, number> = {};
  let token = '';
  let dir = '';

  beforeAll(async () => {
    db = await withTestDatabase('shutdown');
    dir = await mkdtemp(join(tmpdir(), 'bahi-shutdown-'));
    await writeTestLicense(dir);
    const services = ['command', 'query', 'projector', 'reports-worker'];
    await buildServices(services);
    const prefix = `shutdown-${randomBytes(4).toString('hex')}`;
    for (const service of services) {
      ports[service] = await freePort();
      const [command, ...args] = await composeCommand(service);
      expect(command).toBe('node');
      procs[service] = run(
        command!,
        args,
        {
          DATABASE_URL: db.url,
          REDIS_URL: redisUrl,
          BAHI_QUEUE_PREFIX: prefix,
          PORT: String(ports[service]),
          HOST: '127.0.0.1',
          BAHI_SUBSCRIPTION_POLL_MS: '200',
          BAHI_DB_POOL_SIZE: '3',
          BAHI_JWT_SECRET: 'a-test-secret-that-is-long-enough-for-hs256',
          BAHI_ADMIN_EMAIL: ADMIN.email,
          BAHI_ADMIN_PASSWORD: ADMIN.password,
          BAHI_LICENSE_FILE: join(dir, 'license.jws'),
          BAHI_LICENSE_PUBLIC_KEY_FILE: join(dir, 'public.pem'),
        },
        root,
      );
    }
    for (const service of services)
      await waitFor(
        `${service} ready`,
        async () =>
          (await getJson(`http://127.0.0.1:${ports[service]}/api/ready`)).status === 200 ? true : undefined,
        60_000,
      );
    const login = await call(ports.command!, 'POST', '/api/auth/login', { body: ADMIN });
    expect(login.status).toBe(200);
    token = json(login).token as string;
  }, 120_000);

  afterAll(async () => {
    for (const p of Object.values(procs)) p.signal('SIGKILL');
    await Promise.all(Object.values(procs).map((p) => p.groupGone().catch(() => {})));
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** SIGTERM to the service's own process (what tini passes on), then its exit code. */
  const stop = async (service: string) => {
    const proc = procs[service]!;
    proc.child.kill('SIGTERM');
    const code = await proc.exited;
    return { code, output: proc.output() };
  };

  it('every service serves its metrics at /metrics, with the figures an operator graphs', async () => {
    const metrics = async (service: string) => {
      const r = await call(ports[service]!, 'GET', '/metrics');
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toMatch(/^text\/plain/);
      return r.body;
    };
    const city = await call(ports.command!, 'POST', '/api/masters/cities', {
      token,
      body: { name: 'Metrics city', currency_name: 'INR', rate: '1' },
    });
    expect(city.status).toBe(201);
    const file = await call(ports.query!, 'GET', '/api/reports/stock/download/pdf', { token });
    expect(file.status).toBe(200);
    for (const service of ['command', 'query', 'projector', 'reports-worker']) {
      const text = await metrics(service);
      expect(text).toContain('process_cpu_seconds_total');
      expect(text).toMatch(/^bahi_projection_lag_events\{projection="journal"\} \d+$/m);
      expect(text).toMatch(/^bahi_projection_running\{projection="journal"\} 1$/m);
      expect(text).toMatch(/^bahi_rebuild_running 0$/m);
      expect(text).toMatch(/^bahi_event_store_head_position [1-9]\d*$/m);
    }
    expect(await metrics('command')).toMatch(
      /^bahi_http_request_duration_seconds_count\{method="POST",route="\/api\/masters\/cities",status_code="201"\} 1$/m,
    );
    expect(await metrics('command')).toMatch(/^bahi_events_appended_total\{type="CityCreated"\} 1$/m);
    expect(await metrics('command')).toMatch(/^bahi_append_duration_seconds_count [1-9]/m);
    expect(await metrics('query')).toMatch(/^bahi_report_queue_jobs\{state="waiting"\} \d+$/m);
    expect(await metrics('reports-worker')).toMatch(
      /^bahi_report_job_duration_seconds_count\{kind="render",outcome="done"\} 1$/m,
    );
  });

  it('the worker leaves the queue: exit 0, and the next download answers 503 instead of waiting for it', async () => {
    const before = await call(ports.query!, 'GET', '/api/reports/balances/download/xlsx', { token });
    expect(before.status, before.body).toBe(200);
    const { code, output } = await stop('reports-worker');
    expect(output).toContain('bahi reports-worker: SIGTERM received, stopping');
    expect(output).toContain('bahi reports-worker: stopped cleanly in');
    expect(code).toBe(0);
    const after = await call(ports.query!, 'GET', '/api/reports/balances/download/pdf', { token });
    expect(after.status).toBe(503);
    expect(json(after).message).toMatch(/Failed to download pdf report/);
  });

  it('command answers the writes in flight and exits 0; every acknowledged write is in the books', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `Shutdown city ${i}`);
    const writes: Array<Promise<Reply | Error>> = [];
    for (const name of names) {
      writes.push(
        call(ports.command!, 'POST', '/api/masters/cities', {
          token,
          body: { name, currency_name: 'INR', rate: '1' },
        }).catch((error: Error) => error),
      );
      if (writes.length === 10) await writes[0]; // some done, the rest in flight at the signal
    }
    const stopped = stop('command');
    const results = await Promise.all(writes);
    const { code, output } = await stopped;
    expect(output).toContain('bahi command: stopped cleanly in');
    expect(code).toBe(0);
    const acknowledged = results.filter((r): r is Reply => !(r instanceof Error) && r.status === 201);
    expect(acknowledged.length).toBeGreaterThan(0);
    // Nothing in between: each write was answered 201, refused as the server closed (503), or
    // never reached it (connection refused); none failed half-way.
    for (const r of results) if (!(r instanceof Error)) expect([201, 503]).toContain(r.status);
    const ids = acknowledged.map((r) => json(r).id as string);
    const listed = await waitFor(
      'the acknowledged cities in the read models',
      async () => {
        const r = await call(ports.query!, 'GET', '/api/masters/cities?limit=-1', { token });
        const found = new Set((json(r).data as Array<{ id: string }>).map((c) => c.id));
        return ids.every((id) => found.has(id)) ? found : undefined;
      },
      20_000,
    );
    expect(listed.size).toBeGreaterThanOrEqual(ids.length);
  });

  it('projector exits 0; while it is stopped, the projections lag, and /metrics shows it', async () => {
    const lag = async () => {
      const text = (await call(ports.query!, 'GET', '/metrics')).body;
      return Number(/^bahi_projection_lag_events\{projection="journal"\} (\d+)$/m.exec(text)?.[1]);
    };
    await waitFor('the projections caught up', async () => ((await lag()) === 0 ? true : undefined), 20_000);
    const { code, output } = await stop('projector');
    expect(output).toContain('bahi projector: stopped cleanly in');
    expect(code).toBe(0);
    const sql = createPgSqlClient({ connectionString: db.url, max: 1 });
    const store = await createPostgresEventStore(sql);
    try {
      await store.append(
        'metrics-probe',
        [1, 2, 3].map((n) => ({ type: 'MetricsProbe', data: { n } })),
        'any',
      );
    } finally {
      await store.close();
      await sql.close();
    }
    expect(await lag()).toBe(3);
  });

  it('query ends its live streams and answers the reads in flight: exit 0, no error', async () => {
    const stream = await fetch(`http://127.0.0.1:${ports.query}/api/events`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('event: ready');
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return true;
    })().catch(() => true);
    const reads = Array.from({ length: 20 }, () =>
      call(ports.query!, 'GET', '/api/reports/balances', { token }).catch((error: Error) => error),
    );
    await reads[0];
    const { code, output } = await stop('query');
    expect(await ended).toBe(true);
    for (const r of await Promise.all(reads))
      if (!(r instanceof Error)) expect([200, 503]).toContain(r.status);
    expect(output).toContain('bahi query: stopped cleanly in');
    expect(output).not.toMatch(/destroyed|"level":50/);
    expect(code).toBe(0);
  });
});
