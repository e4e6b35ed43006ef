// Issue #17: the distributed deployment with two copies each of command, query and projector
// behind the real nginx gateway (deploy/gateway/bahi.conf.template), one reports worker, its own
// Redis (so that this test can take Redis away without touching anyone else's), on Postgres.
// What must hold across copies: a license reload reaches every copy; the sign-in limit is one
// limit for all copies and counts the client's own address (not the gateway's, not a spoofed
// one); the gateway answers JSON when a service is down; Redis down and no reports worker are
// each said within 2 s.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { LicenseClaims } from '@bahi/contracts';
import { generateLicenseKeys, issueLicense } from '@bahi/server-kit';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, nginxAvailable, startGateway } from './gateway.ts';
import { call, json } from './http.ts';
import { withTestDatabase } from './postgres.ts';
import { freePort, type Proc, run, waitFor } from './processes.ts';

const root = resolve(import.meta.dirname, '..');
const databaseUrl = process.env.DATABASE_URL;
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };

describe.skipIf(!databaseUrl || !nginxAvailable)('two copies of each service behind the gateway', () => {
  let db: Awaited<ReturnType<typeof withTestDatabase>>;
  let dir = '';
  let redis: ChildProcess | undefined;
  let redisPort = 0;
  let gateway: Gateway | undefined;
  let sign: (claims: Partial<LicenseClaims>) => Promise<void>;
  const procs: Record<string, Proc> = {};
  const ports: Record<string, number> = {};
  let token = '';

  const startRedis = async () => {
    redis = spawn(
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await waitFor(
      'the test Redis',
      async () => {
        return new Promise<true | undefined>((ok) => {
          const s = connect(redisPort, '127.0.0.1');
          s.once('connect', () => {
            s.destroy();
            ok(true);
          });
          s.once('error', () => ok(undefined));
        });
      },
      10_000,
    );
  };

  beforeAll(async () => {
    db = await withTestDatabase('copies');
    dir = await mkdtemp(join(tmpdir(), 'bahi-copies-'));
    redisPort = await freePort();
    await startRedis();
    const keys = await generateLicenseKeys();
    await writeFile(join(dir, 'public.pem'), keys.publicKeyPem);
    sign = async (claims) =>
      writeFile(
        join(dir, 'license.jws'),
        await issueLicense(keys.privateKeyPem, {
          status: 'Active',
          type: 'Standard',
          expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
          grace_period_days: 7,
          expiry_notification_days: 15,
          ...claims,
        }),
      );
    await sign({});
    const common = {
      DATABASE_URL: db.url,
      HOST: '127.0.0.1',
      BAHI_DB_POOL_SIZE: '3',
      BAHI_SUBSCRIPTION_POLL_MS: '200',
      BAHI_JWT_SECRET: 'a-test-secret-that-is-long-enough-for-hs256',
      BAHI_LICENSE_FILE: join(dir, 'license.jws'),
      BAHI_LICENSE_PUBLIC_KEY_FILE: join(dir, 'public.pem'),
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      BAHI_QUEUE_PREFIX: `bahi-copies-${randomBytes(3).toString('hex')}`,
      // The gateway connects from 127.0.0.1: its X-Forwarded-For names the client.
      BAHI_TRUSTED_PROXIES: '127.0.0.1',
      LOG_LEVEL: 'warn',
    };
    const services: Record<string, string> = {
      command1: 'services/command/src/main.ts',
      command2: 'services/command/src/main.ts',
      query1: 'services/query/src/main.ts',
      query2: 'services/query/src/main.ts',
      projector1: 'services/projector/src/main.ts',
      projector2: 'services/projector/src/main.ts',
      worker: 'services/reports-worker/src/main.ts',
    };
    for (const [name, main] of Object.entries(services)) {
      ports[name] = await freePort();
      procs[name] = run(
        tsx,
        [main],
        {
          ...common,
          PORT: String(ports[name]),
          ...(name.startsWith('command')
            ? { BAHI_ADMIN_EMAIL: ADMIN.email, BAHI_ADMIN_PASSWORD: ADMIN.password }
            : {}),
          // The writes' half of the contract, as compose gives query (command1 starts first).
          ...(name.startsWith('query')
            ? { BAHI_CONTRACT_PEER_URL: `http://127.0.0.1:${ports.command1}` }
            : {}),
        },
        root,
      );
    }
    for (const name of Object.keys(services)) {
      await waitFor(
        `${name} ready`,
        async () => {
          const r = await call(ports[name]!, 'GET', '/api/ready');
          return r.status === 200 && json(r).status === 'ready' ? true : undefined;
        },
        90_000,
      ).catch((error) => {
        throw new Error(`${(error as Error).message}\n${procs[name]!.output().slice(-3000)}`);
      });
    }
    // The template's one `server ${COMMAND_UPSTREAM};` line, given two servers: what
    // `--scale command=2` gives nginx through Docker's DNS (two addresses for one name).
    gateway = await startGateway({
      commandUpstream: [`127.0.0.1:${ports.command1}`, `127.0.0.1:${ports.command2}`],
      queryUpstream: [`127.0.0.1:${ports.query1}`, `127.0.0.1:${ports.query2}`],
      frontendsRoot: dir,
    });
    const login = await call(gateway.port, 'POST', '/api/auth/login', { body: ADMIN, from: '127.0.0.9' });
    expect(login.status).toBe(200);
    token = json(login).token as string;
  }, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    for (const p of Object.values(procs)) p.signal('SIGTERM');
    await Promise.all(Object.values(procs).map((p) => p.groupGone().catch(() => p.signal('SIGKILL'))));
    redis?.kill('SIGKILL');
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const gw = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
    call(gateway!.port, method, path, { token, ...options });

  it('writes through the gateway land on both command copies, and both projectors follow', async () => {
    const cities = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        gw('POST', '/api/masters/cities', { body: { name: `City ${i}`, currency_name: 'INR', rate: 1 } }),
      ),
    );
    expect(cities.map((r) => r.status)).toEqual(Array(12).fill(201));
    const listed = await waitFor(
      'the cities in the read model',
      async () => {
        const r = await gw('GET', '/api/masters/cities?limit=-1');
        const data = (json(r).data ?? []) as unknown[];
        return data.length === 12 ? data : undefined;
      },
      20_000,
    );
    expect(listed).toHaveLength(12);
    for (const name of ['projector1', 'projector2']) {
      const r = await call(ports[name]!, 'GET', '/api/ready');
      expect(json(r).status).toBe('ready');
    }
  });

  it('the gateway serves the whole API contract: the reads of query and the writes of command', async () => {
    const res = await gw('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    const document = json(res) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(document.paths['/api/transactions/purchases']!).sort()).toEqual(['get', 'post']);
    expect(document.paths['/api/auth/login']!.post).toBeDefined();
    expect(document.paths['/api/reports/balances']!.get).toBeDefined();
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('a license retried on one command copy reaches the other command copy and every query copy', async () => {
    // The license expires (past its grace) and one copy is asked to check again.
    await sign({
      status: 'Expired',
      expires_at: new Date(Date.now() - 30 * 86_400_000).toISOString(),
      grace_period_days: 1,
    });
    const retried = await call(ports.command1!, 'POST', '/api/auth/retry-license-check', { token });
    expect(retried.status).toBe(200);
    expect(json(retried).isValid).toBe(false);
    const refusedEverywhere = async () => {
      const reads = await Promise.all(
        ['query1', 'query2'].map((q) => call(ports[q]!, 'GET', '/api/masters/cities', { token })),
      );
      const write = await call(ports.command2!, 'POST', '/api/masters/cities', {
        token,
        body: { name: `Refused ${Date.now()}`, currency_name: 'INR', rate: 1 },
      });
      return [...reads, write].every((r) => r.status === 403) ? true : undefined;
    };
    await waitFor('every copy to refuse on the expired license', refusedEverywhere, 5_000);

    // A new license is installed and the *other* copy is asked: every copy works again.
    await sign({});
    const again = await call(ports.command2!, 'POST', '/api/auth/retry-license-check', { token });
    expect(json(again).isValid).toBe(true);
    let attempt = 0;
    await waitFor(
      'every copy to accept the new license',
      async () => {
        attempt += 1;
        const reads = await Promise.all(
          ['query1', 'query2'].map((q) => call(ports[q]!, 'GET', '/api/masters/cities', { token })),
        );
        const status = await Promise.all(
          ['query1', 'query2'].map((q) => call(ports[q]!, 'GET', '/api/auth/license-status', { token })),
        );
        // A refused write records nothing, so each try may use new names.
        const writes = await Promise.all(
          ['command1', 'command2'].map((c) =>
            call(ports[c]!, 'POST', '/api/masters/cities', {
              token,
              body: { name: `Licensed ${c} ${attempt}`, currency_name: 'INR', rate: 1 },
            }),
          ),
        );
        return reads.every((r) => r.status === 200) &&
          status.every((s) => json(s).isValid === true) &&
          writes.every((w) => w.status === 201)
          ? true
          : undefined;
      },
      5_000,
    );
  });

  it('the sign-in limit is one limit across copies, counts the real client address, and is not tripped by others', async () => {
    const login = (email: string, password: string, from: string, spoof?: string) =>
      call(gateway!.port, 'POST', '/api/auth/login', {
        body: { email, password },
        from,
        ...(spoof ? { headers: { 'x-forwarded-for': spoof } } : {}),
      });
    // One guesser at one account: the gateway alternates the copies, yet only 5 guesses are checked.
    const guesses = [];
    for (let i = 0; i < 12; i++) guesses.push((await login(ADMIN.email, `wrong-${i}`, '127.0.0.2')).status);
    expect(guesses.filter((s) => s === 401)).toHaveLength(5);
    expect(guesses.slice(5)).toEqual(Array(7).fill(429));

    // An attacker at another address, writing a fresh address into X-Forwarded-For each time, is
    // still counted at its own address: after 30 attempts it is refused, whatever it claims.
    const attacker: number[] = [];
    for (let i = 0; i < 40; i++)
      attacker.push((await login(`nobody${i}@test.local`, 'x', '127.0.0.3', `203.0.113.${i}`)).status);
    expect(attacker.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(attacker.slice(30)).toEqual(Array(10).fill(429));

    // The Admin at their own address signs in, though their account had 12 failures elsewhere
    // and the gateway's address saw 52.
    const admin = await login(ADMIN.email, ADMIN.password, '127.0.0.4');
    expect(admin.status).toBe(200);
  }, 60_000);

  it('with no reports worker, a download and a WhatsApp send say so within 2 s, and readiness names it', async () => {
    const before = await gw('GET', '/api/reports/balances/download/pdf');
    expect(before.status).toBe(200);
    expect(before.headers['content-type']).toBe('application/pdf');

    procs.worker!.signal('SIGTERM');
    await procs.worker!.groupGone();
    const download = await gw('GET', '/api/reports/stock/download/xlsx');
    expect(download.status).toBe(503);
    expect(download.ms).toBeLessThan(2_000);
    expect(json(download).message).toBe(
      'Failed to download xlsx report. The reports worker is not running, so nothing was queued. Please try again in a few minutes, or tell your administrator.',
    );
    const send = await gw('POST', '/api/reports/whatsapp', {
      body: { recipientNumber: '+919876543210', reportName: 'stock', data: {} },
    });
    expect(send.status).toBe(503);
    expect(send.ms).toBeLessThan(2_000);
    expect(json(send).message).toMatch(
      /^Failed to send report via WhatsApp\. The reports worker is not running/,
    );
    for (const q of ['query1', 'query2']) {
      const ready = await call(ports[q]!, 'GET', '/api/ready');
      expect(ready.status).toBe(200); // reads go on: the copy stays in the load balancer
      expect(json(ready)).toMatchObject({
        status: 'degraded',
        checks: {
          redis: { ok: true },
          reportsWorker: {
            ok: false,
            error: 'no reports worker is running: report files and WhatsApp sends are refused',
          },
        },
      });
    }
  }, 60_000);

  it('with Redis gone, a download answers 503 within 2 s and readiness says Redis is not reachable', async () => {
    redis!.kill('SIGKILL');
    await new Promise((r) => redis!.once('exit', r));
    for (let i = 0; i < 3; i++) {
      const download = await gw('GET', `/api/reports/payments/download/pdf?i=${i}`);
      expect(download.status).toBe(503);
      expect(download.ms).toBeLessThan(2_000);
      expect(json(download).message).toBe(
        'Report files are unavailable right now (the job queue cannot be reached). Please try again.',
      );
    }
    // Reads that need no Redis go on.
    expect((await gw('GET', '/api/masters/cities')).status).toBe(200);
    const ready = await call(ports.query1!, 'GET', '/api/ready');
    expect(ready.status).toBe(503);
    expect(ready.ms).toBeLessThan(2_500);
    expect(json(ready)).toMatchObject({
      status: 'not_ready',
      checks: { redis: { ok: false, error: 'not reachable' } },
    });
    expect(ready.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|redis:\/\//);
  }, 60_000);

  it('with one command copy killed, writes go on through the other; with none, the gateway answers JSON 502', async () => {
    procs.command1!.signal('SIGKILL');
    await procs.command1!.groupGone();
    const writes = [];
    for (let i = 0; i < 6; i++)
      writes.push(
        await gw('POST', '/api/masters/cities', {
          body: { name: `After ${i}`, currency_name: 'INR', rate: 1 },
        }),
      );
    expect(writes.map((w) => w.status)).toEqual(Array(6).fill(201));

    procs.command2!.signal('SIGKILL');
    await procs.command2!.groupGone();
    const down = await gw('POST', '/api/masters/cities', {
      body: { name: 'Nowhere', currency_name: 'INR', rate: 1 },
    });
    expect(down.status).toBe(502);
    expect(down.headers['content-type']).toMatch(/^application\/json/);
    expect(json(down)).toEqual({
      message: 'The server cannot be reached right now. Please try again in a moment.',
    });
    // Reads still answer from query.
    expect((await gw('GET', '/api/masters/cities')).status).toBe(200);
  }, 60_000);
});

if (!databaseUrl || !nginxAvailable)
  console.log('two-copies distributed test skipped: DATABASE_URL or nginx is missing');
