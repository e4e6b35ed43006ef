// Issue #27: a retry with the same Idempotency-Key after a crash records the write once and
// answers the original ids. A real process is killed (SIGKILL) while requests are exactly in the
// window that used to lose or double them: each has appended, none has kept or sent its answer
// (the failpoint `hold-after-append`, services/command/src/failpoints.ts). It is started again,
// every request is retried, and the event log is counted: each write is in it once, under the id
// its retry answered. On the standalone app (PGlite, in-process locks) and on the command service
// alone on Postgres (advisory locks on held sessions), 200 crashed requests each.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { call, json } from './http.ts';
import { writeTestLicense } from './license.ts';
import { withTestDatabase } from './postgres.ts';
import { freePort, type Proc, run, waitFor } from './processes.ts';

const root = resolve(import.meta.dirname, '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };

/** A write through the API, keyed or not; the body parsed. */
async function write(port: number, path: string, options: { body: unknown; token?: string; key?: string }) {
  const r = await call(port, 'POST', `/api${path}`, {
    body: options.body,
    ...(options.token ? { token: options.token } : {}),
    ...(options.key ? { headers: { 'idempotency-key': options.key } } : {}),
  });
  return { status: r.status, headers: r.headers, body: json(r) };
}

/** One keyed write, with what marks its events in the log and how many events it makes. */
interface Write {
  key: string;
  path: string;
  body: Record<string, unknown>;
  marker: string;
  events: number;
}

interface Variant {
  name: string;
  /** Crashes, and requests held in the window each time (a multiple of the 5 kinds below). */
  rounds: number;
  perRound: number;
  start(env: Record<string, string>): Promise<{ proc: Proc; port: number }>;
  /** Every event's type and data as text, read once the process has stopped. */
  events(): Promise<Array<{ type: string; data: string }>>;
  cleanup(): Promise<void>;
}

async function standalone(): Promise<Variant> {
  const dir = await mkdtemp(join(tmpdir(), 'bahi-once-'));
  return {
    name: 'standalone on PGlite',
    rounds: 5,
    perRound: 40,
    async start(env) {
      const port = await freePort();
      const proc = run(
        tsx,
        ['services/standalone/src/main.ts'],
        {
          PORT: String(port),
          HOST: '127.0.0.1',
          BAHI_DATA_DIR: join(dir, 'data'),
          BAHI_FRONTENDS_DIR: join(dir, 'none'),
          BAHI_ADMIN_EMAIL: ADMIN.email,
          BAHI_ADMIN_PASSWORD: ADMIN.password,
          LOG_LEVEL: 'warn',
          ...env,
        },
        root,
      );
      return { proc, port };
    },
    async events() {
      const db = await PGlite.create(join(dir, 'data', 'pglite'));
      try {
        return (
          await db.query<{ type: string; data: string }>('SELECT type, data::text AS data FROM es.events')
        ).rows;
      } finally {
        await db.close();
      }
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

async function commandOnPostgres(): Promise<Variant> {
  const db = await withTestDatabase('once');
  const dir = await mkdtemp(join(tmpdir(), 'bahi-once-pg-'));
  await writeTestLicense(dir);
  return {
    name: 'command service on Postgres',
    // Each held request holds a session (its key's lock) from a pool of BAHI_DB_POOL_SIZE.
    rounds: 10,
    perRound: 20,
    async start(env) {
      const port = await freePort();
      const proc = run(
        tsx,
        ['services/command/src/main.ts'],
        {
          DATABASE_URL: db.url,
          PORT: String(port),
          HOST: '127.0.0.1',
          BAHI_DB_POOL_SIZE: '22',
          BAHI_JWT_SECRET: 'a-test-secret-that-is-long-enough-for-hs256',
          BAHI_ADMIN_EMAIL: ADMIN.email,
          BAHI_ADMIN_PASSWORD: ADMIN.password,
          BAHI_LICENSE_FILE: join(dir, 'license.jws'),
          BAHI_LICENSE_PUBLIC_KEY_FILE: join(dir, 'public.pem'),
          LOG_LEVEL: 'warn',
          ...env,
        },
        root,
      );
      return { proc, port };
    },
    async events() {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        return (
          await client.query<{ type: string; data: string }>('SELECT type, data::text AS data FROM es.events')
        ).rows;
      } finally {
        await client.end();
      }
    },
    async cleanup() {
      await db.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const variants = [
  ['standalone', standalone],
  ...(process.env.DATABASE_URL ? ([['postgres', commandOnPostgres]] as const) : []),
] as const;

describe.each(variants)('exactly once across crashes [%s]', (_name, make) => {
  let variant: Variant | undefined;
  let running: Proc | undefined;
  afterAll(async () => {
    running?.signal('SIGKILL');
    await running?.groupGone().catch(() => {});
    await variant?.cleanup();
  });

  it('kills the process again and again with requests between append and answer: no write lost or doubled, every retry answers the original id', async () => {
    variant = await make();
    const v = variant;
    const ROUNDS = v.rounds;
    const PER_ROUND = v.perRound;
    const up = async (env: Record<string, string> = {}) => {
      const started = await v.start(env);
      running = started.proc;
      await waitFor(
        'the service',
        async () => ((await call(started.port, 'GET', '/api/health')).status === 200 ? true : undefined),
        60_000,
      ).catch((error) => {
        throw new Error(`${(error as Error).message}\n${started.proc.output().slice(-3000)}`);
      });
      return started;
    };

    // The books the writes need, written without keys (the failpoint holds only keyed writes).
    let { proc, port } = await up({ BAHI_FAILPOINT: `hold-after-append:${PER_ROUND}` });
    const login = await write(port, '/auth/login', { body: ADMIN });
    expect(login.status).toBe(200);
    const token = login.body.token as string;
    const make1 = async (path: string, body: Record<string, unknown>) => {
      const r = await write(port, path, { body, token });
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(201);
      return r.body.id as string;
    };
    const city = await make1('/masters/cities', { name: 'Mumbai', currency_name: 'INR', rate: 1 });
    const funder = await make1('/masters/funders', { name: 'Dev', city_id: city });
    const agent = await make1('/masters/agents', { name: 'Mehta', city_id: city });
    const collector = await make1('/masters/collectors', { name: 'Mohan', city_id: city });
    const godown = await make1('/masters/godowns', { name: 'Bhiwandi' });
    const cumin = await make1('/masters/products', { name: 'Cumin' });
    await make1('/transactions/purchases', {
      type: 'Godown',
      purchase_date: '2026-11-01',
      city_id: city,
      funder_id: funder,
      product_id: cumin,
      godown_id: godown,
      rate: 10,
      quantity: 1_000_000,
    });

    const roundOf = (r: number): Write[] =>
      Array.from({ length: PER_ROUND / 5 }, (_, i) => {
        const tag = `r${r}i${i}`;
        const n = r * 100 + i; // numbers no other write's figures contain
        return [
          {
            key: `product-${tag}`,
            path: '/masters/products',
            body: { name: `Crash product ${tag}` },
            marker: `"Crash product ${tag}"`,
            events: 1,
          },
          {
            key: `payment-${tag}`,
            path: '/transactions/payments',
            body: {
              related_entity_type: 'Funder',
              related_entity_id: funder,
              payment_date: '2026-11-02',
              amount: `8${n}.13`,
              payment_mode: 'Currency',
              collector_id: collector,
            },
            marker: `"8${n}.13"`,
            events: 1,
          },
          {
            key: `sale-${tag}`,
            path: '/transactions/sales',
            body: {
              sale_date: '2026-11-03',
              agent_id: agent,
              product_id: cumin,
              godown_id: godown,
              rate: 12,
              quantity: `7${n}.0013`,
            },
            marker: `"7${n}.0013"`,
            events: 1,
          },
          {
            key: `expense-${tag}`,
            path: '/transactions/expenses',
            body: {
              city_id: city,
              category: `Crash ${tag}`,
              amount: 5,
              expense_date: '2026-11-04',
              paid_from_entity_type: 'Collector',
              paid_from_entity_id: collector,
            },
            marker: `"Crash ${tag}"`,
            events: 1,
          },
          // Two steps: the email's reservation, then the user. The crash comes after the first.
          {
            key: `user-${tag}`,
            path: '/masters/users',
            body: {
              name: `User ${tag}`,
              email: `user-${tag}@test.local`,
              password: 'a-password-1',
              role: 'Viewer',
            },
            marker: `user-${tag}@test.local`,
            events: 2,
          },
        ];
      }).flat();

    const answered = new Map<string, string>(); // key -> the id its retry answered
    const all: Write[] = [];
    let previous: Write[] = [];
    for (let r = 1; r <= ROUNDS + 1; r++) {
      if (r > 1)
        ({ proc, port } = await up(r <= ROUNDS ? { BAHI_FAILPOINT: `hold-after-append:${PER_ROUND}` } : {}));
      for (const w of previous) {
        const retry = await write(port, w.path, { body: w.body, token, key: w.key });
        expect(retry.status, `${w.key}: ${JSON.stringify(retry.body)}`).toBe(201);
        // Every step of these was appended before the crash but the user's second one.
        expect(retry.headers['idempotent-replayed'], w.key).toBe(w.events === 1 ? 'true' : undefined);
        answered.set(w.key, retry.body.id as string);
        const again = await write(port, w.path, { body: w.body, token, key: w.key });
        expect({
          status: again.status,
          body: again.body,
          replayed: again.headers['idempotent-replayed'],
        }).toEqual({
          status: 201,
          body: retry.body,
          replayed: 'true',
        });
      }
      if (r > ROUNDS) break;
      const round = roundOf(r);
      const outcomes = await Promise.allSettled(
        round.map((w) => write(port, w.path, { body: w.body, token, key: w.key })),
      );
      // The process killed itself once all of them had appended: not one got an answer.
      const answeredAnyway = outcomes.filter((o) => o.status === 'fulfilled');
      expect(answeredAnyway, JSON.stringify(answeredAnyway)).toEqual([]);
      await proc.exited;
      expect(proc.output()).not.toMatch(/"level":(50|60)/);
      previous = round;
      all.push(...round);
    }
    proc.signal('SIGTERM');
    await proc.groupGone();
    running = undefined;

    expect(all.length).toBeGreaterThanOrEqual(200);
    const events = await v.events();
    const problems: string[] = [];
    for (const w of all) {
      const mine = events.filter((e) => e.data.includes(w.marker));
      if (mine.length !== w.events) problems.push(`${w.key}: ${mine.length} events, expected ${w.events}`);
      const id = answered.get(w.key)!;
      if (!mine.some((e) => e.data.includes(id)))
        problems.push(`${w.key}: answered ${id}, not the logged id`);
    }
    expect(problems).toEqual([]);
  }, 600_000);
});
