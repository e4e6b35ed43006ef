/**
 * A command mix through HTTP (issue #17, "Speed of writes under load"): real sockets against
 * the real server processes, as a browser's writes arrive.
 *
 *  1. seed, through the API: cities with collectors, funders and agents, many godowns,
 *     products, and a large opening purchase of every product in every godown;
 *  2. mix: CLIENTS (16) clients for DURATION_S (30) seconds, each sending one write after the
 *     other: purchases, sales, payments, expenses, incomes and collector transfers spread over
 *     every godown and collector;
 *  3. hot: HOT_CLIENTS (32) clients on ONE godown and ONE collector (sales from that godown;
 *     expenses, transfers and payments through that collector) for the same duration;
 *  4. check: every write answered 201 is in the books: record counts, stock and the hot
 *     collector's ledger read through the query API (and, on Postgres, the event store).
 *
 * Each client behaves as packages/ui/src/api-client.ts does: a fresh Idempotency-Key on every
 * write and X-Bahi-Position = the position of its own last write (UI_HEADERS=0 sends neither).
 *
 * Modes (MODES, default "standalone,distributed"; GATEWAY=1 adds "gateway"):
 *  - standalone: `services/standalone/src/main.ts` as a child process on PGlite in a temp dir;
 *  - distributed: command, query, projector and reports-worker as four processes on a fresh
 *    database of DATABASE_URL's server (dropped at the end), writes sent straight to the
 *    command service's port, reads to the query service's;
 *  - gateway: the same four processes behind the real nginx (deploy/gateway), every call
 *    through the gateway's port.
 *
 * PROFILE=<dir> runs the server processes under `node --cpu-prof` (profiles written on exit).
 *
 *   flock /tmp/bahi-heavy.lock npm run command-mix --workspace bench
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateLicenseKeys, issueLicense } from '@bahi/server-kit';
import { Redis } from 'ioredis';
import pg from 'pg';
import { nginxAvailable, startGateway } from '../../test/gateway.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DURATION_S = Number(process.env.DURATION_S ?? 30);
const WARMUP_S = Number(process.env.WARMUP_S ?? 3);
const CLIENTS = Number(process.env.CLIENTS ?? 16);
const HOT_CLIENTS = Number(process.env.HOT_CLIENTS ?? 32);
const UI_HEADERS = process.env.UI_HEADERS !== '0';
const PROFILE = process.env.PROFILE;
const MODES = (process.env.MODES ?? 'standalone,distributed')
  .split(',')
  .map((m) => m.trim())
  .filter(Boolean)
  .concat(process.env.GATEWAY === '1' ? ['gateway'] : []);
const SKIP_HOT = process.env.HOT === '0';
const SKIP_MIX = process.env.MIX === '0';

const CITIES = 6;
const COLLECTORS_PER_CITY = 4;
const FUNDERS_PER_CITY = 3;
const AGENTS_PER_CITY = 4;
const GODOWNS = 24;
const PRODUCTS = 6;
const OPENING_QUANTITY = 1_000_000;
const HOT_OPENING_QUANTITY = 10_000_000;
const CATEGORIES = [
  'Rent',
  'Fuel',
  'Tea and snacks',
  'Labour',
  'Electricity',
  'Phone',
  'Repairs',
  'Transport',
];
const DATE = '2026-11-20';

const log = (message: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// HTTP: keep-alive sockets, one per client, as a browser keeps its connection open.

interface Answer {
  status: number;
  body: unknown;
  ms: number;
}

class Api {
  readonly agent: http.Agent;
  token = '';
  constructor(
    readonly writeBase: URL,
    readonly readBase: URL,
    sockets: number,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  }

  call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    base = method === 'GET' ? this.readBase : this.writeBase,
  ): Promise<Answer> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const started = performance.now();
    return new Promise((resolvePromise, reject) => {
      const req = http.request(
        {
          agent: this.agent,
          host: base.hostname,
          port: base.port,
          method,
          path,
          headers: {
            accept: 'application/json',
            ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
            ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const ms = performance.now() - started;
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              // not JSON: keep the text (an nginx error page, say)
            }
            resolvePromise({ status: res.statusCode ?? 0, body: parsed, ms });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  async must(method: string, path: string, body?: unknown, expect = method === 'POST' ? 201 : 200) {
    const res = await this.call(method, path, body);
    if (res.status !== expect)
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
    return res.body as Record<string, unknown>;
  }

  /** A read once the read models have reached `position` (503 while they catch up: try again). */
  async readAt(path: string, position: bigint): Promise<Record<string, unknown>> {
    for (let attempt = 0; ; attempt++) {
      const res = await this.call('GET', path, undefined, { 'x-bahi-position': position.toString() });
      if (res.status === 200) return res.body as Record<string, unknown>;
      if (res.status !== 503 || attempt > 60)
        throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
      await sleep(500);
    }
  }

  close() {
    this.agent.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// Processes: each in its own process group, stopped by that group at the end.

function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePromise(port));
    });
  });
}

interface Proc {
  name: string;
  child: ChildProcess;
  output: () => string;
}

function startProcess(name: string, script: string, env: NodeJS.ProcessEnv): Proc {
  const profile = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${join(PROFILE, name)}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { name, child, output: () => out };
}

async function stopProcess(p: Proc): Promise<void> {
  const pid = p.child.pid;
  if (pid === undefined || p.child.exitCode !== null || p.child.signalCode !== null) return;
  const gone = new Promise((r) => p.child.once('exit', r));
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return;
  }
  const timedOut = await Promise.race([gone.then(() => false), sleep(20_000).then(() => true)]);
  if (timedOut) {
    log(`${p.name} (pid ${pid}) did not stop in 20 s: SIGKILL to its group`);
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

async function waitReady(p: Proc, url: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (p.child.exitCode !== null) throw new Error(`${p.name} exited (${p.child.exitCode}):\n${p.output()}`);
    const ok = await fetch(url).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${p.name} not ready in time:\n${p.output()}`);
    await sleep(200);
  }
}

/** CPU seconds the whole machine has spent, from /proc/stat (USER_HZ ticks). */
const machineCpu = () => {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq] = ticks.map(Number);
  return (user! + nice! + system! + irq! + softirq!) / 100;
};
/** CPU seconds one process has spent (utime + stime of /proc/<pid>/stat). */
const processCpu = (pid: number) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
};

/** CPU seconds of every Postgres process on the machine (the server's backends, any database). */
const postgresCpu = () => {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.split(') ')[1]!.split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // gone meanwhile
    }
  }
  return total;
};

interface Server {
  mode: string;
  writeBase: URL;
  readBase: URL;
  procs: Proc[];
  /** Event counts by type straight from the event store, where the benchmark can reach it. */
  eventCounts?: () => Promise<Map<string, number>>;
  /**
   * CPU of this run's own Postgres backends (those connected to its database), counted from a
   * call on: the figure "Postgres (all databases)" also holds whatever else the machine's
   * Postgres serves (other engineers' tests), this one does not.
   */
  ownPostgresCpu?: () => () => Promise<number>;
  /** PG_SAMPLE=1: what Postgres' active backends run and wait on, sampled from pg_stat_activity. */
  sampleActivity?: () => () => Promise<Array<[string, number]>>;
  stop(): Promise<void>;
}

async function startStandaloneServer(): Promise<Server> {
  const dataDir = await mkdtemp(join(os.tmpdir(), 'bahi-mix-'));
  const port = await freePort();
  const proc = startProcess('standalone', 'services/standalone/src/main.ts', {
    BAHI_DATA_DIR: dataDir,
    PORT: String(port),
    BAHI_FRONTENDS_DIR: join(dataDir, 'no-frontends'),
  });
  const base = new URL(`http://127.0.0.1:${port}`);
  const stop = async () => {
    await stopProcess(proc);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitReady(proc, `${base}api/ready`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { mode: 'standalone', writeBase: base, readBase: base, procs: [proc], stop };
}

/** The report queue's keys under this run's prefix (BAHI_QUEUE_PREFIX), left in Redis otherwise. */
async function dropQueueKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } catch (error) {
    log(`could not drop the queue keys ${prefix}:* from Redis: ${(error as Error).message}`);
  } finally {
    redis.disconnect();
  }
}

async function startDistributed(mode: 'distributed' | 'gateway'): Promise<Server> {
  const name = `bahi_bench_mix_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  const keys = await generateLicenseKeys();
  const license = await issueLicense(keys.privateKeyPem, {
    status: 'Active',
    type: 'Standard',
    expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    grace_period_days: 7,
    expiry_notification_days: 15,
  });
  const common = {
    DATABASE_URL: url.toString(),
    REDIS_URL,
    BAHI_QUEUE_PREFIX: name,
    BAHI_JWT_SECRET: `bench-${randomUUID()}-${randomUUID()}`,
    BAHI_LICENSE: license,
    BAHI_LICENSE_PUBLIC_KEY: keys.publicKeyPem,
  };
  const services = {
    command: 'services/command/src/main.ts',
    query: 'services/query/src/main.ts',
    projector: 'services/projector/src/main.ts',
    'reports-worker': 'services/reports-worker/src/main.ts',
  };
  const procs: Proc[] = [];
  const ports: Record<string, number> = {};
  let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
  const sql = new pg.Pool({ connectionString: url.toString(), max: 1 });
  const stop = async () => {
    await gateway?.stop();
    await Promise.all(procs.map(stopProcess));
    await sql.end();
    await dropQueueKeys(name);
    const c = new pg.Client({ connectionString: DATABASE_URL });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  };
  try {
    // The command service first: it creates the event store's and its own tables.
    for (const [service, script] of Object.entries(services)) {
      ports[service] = await freePort();
      const proc = startProcess(service, script, {
        ...common,
        PORT: String(ports[service]),
        ...(service === 'command'
          ? { BAHI_ADMIN_EMAIL: 'admin@bahi.local', BAHI_ADMIN_PASSWORD: 'bahi-admin-2026' }
          : {}),
      });
      procs.push(proc);
      if (service === 'command') await waitReady(proc, `http://127.0.0.1:${ports[service]}/api/ready`);
    }
    for (const proc of procs) await waitReady(proc, `http://127.0.0.1:${ports[proc.name]}/api/ready`);
    let writeBase = new URL(`http://127.0.0.1:${ports.command}`);
    let readBase = new URL(`http://127.0.0.1:${ports.query}`);
    if (mode === 'gateway') {
      gateway = await startGateway({
        commandUpstream: `127.0.0.1:${ports.command}`,
        queryUpstream: `127.0.0.1:${ports.query}`,
        frontendsRoot: join(ROOT, 'frontends'),
      });
      writeBase = new URL(gateway.url);
      readBase = new URL(gateway.url);
    }
    return {
      mode,
      writeBase,
      readBase,
      procs,
      ownPostgresCpu() {
        // CPU seconds per backend pid when first and last seen; a backend that starts later
        // counts from 0 (it did not exist before), one that ends counts up to its last sample.
        const first = new Map<number, number>();
        const last = new Map<number, number>();
        let running = true;
        const watcher = new pg.Client({ connectionString: url.toString() });
        const sample = async () => {
          const { rows } = await watcher.query<{ pid: number }>(
            'SELECT pid FROM pg_stat_activity WHERE datname = $1',
            [name],
          );
          for (const { pid } of rows) {
            const cpu = processCpu(pid);
            if (!first.has(pid)) first.set(pid, started ? 0 : cpu);
            last.set(pid, cpu);
          }
        };
        let started = false;
        const done = (async () => {
          await watcher.connect();
          await sample();
          started = true;
          while (running) {
            await sleep(250);
            await sample();
          }
          await watcher.end();
        })();
        return async () => {
          running = false;
          await done;
          let total = 0;
          for (const [pid, cpu] of last) total += cpu - (first.get(pid) ?? 0);
          return total;
        };
      },
      sampleActivity() {
        const counts = new Map<string, number>();
        let running = true;
        let samples = 0;
        const sampler = new pg.Client({ connectionString: url.toString() });
        const done = (async () => {
          await sampler.connect();
          while (running) {
            const { rows } = await sampler.query<{ what: string }>(
              `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') || ' | ' ||
                      regexp_replace(left(query, 110), '\\s+', ' ', 'g') AS what
                 FROM pg_stat_activity
                WHERE datname = $1 AND state = 'active' AND pid <> pg_backend_pid()`,
              [name],
            );
            samples++;
            for (const r of rows) counts.set(r.what, (counts.get(r.what) ?? 0) + 1);
            await sleep(5);
          }
          await sampler.end();
        })();
        return async () => {
          running = false;
          await done;
          return [...counts]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 25)
            .map(([what, n]) => [what, n / samples] as [string, number]);
        };
      },
      async eventCounts() {
        const { rows } = await sql.query<{ type: string; n: number }>(
          'SELECT type, count(*)::int AS n FROM es.events GROUP BY type',
        );
        return new Map(rows.map((r) => [r.type, r.n]));
      },
      stop,
    };
  } catch (error) {
    for (const p of procs) if (p.child.exitCode !== null) log(`${p.name} output:\n${p.output()}`);
    await stop();
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// The business.

interface City {
  id: string;
  collectors: string[];
  funders: string[];
  agents: string[];
}
interface World {
  cities: City[];
  godowns: string[];
  products: string[];
  hot: { city: City; godown: string; collector: string; other: string; product: string };
  /** Writes made while seeding, by record kind. */
  seeded: Record<Kind, number>;
  /** Opening stock, in units, over every godown. */
  openingStock: number;
  lastPosition: bigint;
}

type Kind = 'purchase' | 'sale' | 'payment' | 'expense' | 'income' | 'transfer';
const KINDS: Kind[] = ['purchase', 'sale', 'payment', 'expense', 'income', 'transfer'];

async function seed(api: Api): Promise<World> {
  const master = async (kind: string, body: Record<string, unknown>) =>
    (await api.must('POST', `/api/masters/${kind}`, body)).id as string;
  const cities: City[] = [];
  const currencies = [
    ['INR', '1'],
    ['PKR', '0.3'],
    ['AED', '22.5'],
  ] as const;
  for (let c = 0; c <= CITIES; c++) {
    const [currency, rate] = currencies[c % currencies.length]!;
    const id = await master('cities', { name: `City ${c}`, currency_name: currency, rate });
    const party = async (kind: string, n: number, label: string) =>
      Promise.all(
        Array.from({ length: n }, (_, i) => master(kind, { name: `${label} ${c}-${i}`, city_id: id })),
      );
    cities.push({
      id,
      collectors: await party('collectors', COLLECTORS_PER_CITY, 'Collector'),
      funders: await party('funders', FUNDERS_PER_CITY, 'Funder'),
      agents: await party('agents', AGENTS_PER_CITY, 'Agent'),
    });
  }
  // The last city is the hot case's alone: its records are counted apart.
  const hotCity = cities.pop()!;
  const godowns = await Promise.all(
    Array.from({ length: GODOWNS + 1 }, (_, i) => master('godowns', { name: `Godown ${i}` })),
  );
  const hotGodown = godowns.pop()!;
  const products = await Promise.all(
    Array.from({ length: PRODUCTS }, (_, i) => master('products', { name: `Product ${i}` })),
  );
  let lastPosition = 0n;
  let purchases = 0;
  const opening = async (godown: string, product: string, city: City, quantity: number) => {
    const res = await api.must('POST', '/api/transactions/purchases', {
      type: 'Godown',
      purchase_date: '2026-11-01',
      city_id: city.id,
      funder_id: city.funders[0],
      product_id: product,
      godown_id: godown,
      rate: '10',
      quantity: String(quantity),
    });
    purchases++;
    const position = BigInt(res.position as string);
    if (position > lastPosition) lastPosition = position;
  };
  // Eight at a time: godowns are separate streams.
  const jobs = godowns.flatMap((g, i) =>
    products.map((p) => () => opening(g, p, cities[i % CITIES]!, OPENING_QUANTITY)),
  );
  for (let i = 0; i < jobs.length; i += 8) await Promise.all(jobs.slice(i, i + 8).map((j) => j()));
  await opening(hotGodown, products[0]!, hotCity, HOT_OPENING_QUANTITY);
  return {
    cities,
    godowns,
    products,
    hot: {
      city: hotCity,
      godown: hotGodown,
      collector: hotCity.collectors[0]!,
      other: hotCity.collectors[1]!,
      product: products[0]!,
    },
    seeded: { purchase: purchases, sale: 0, payment: 0, expense: 0, income: 0, transfer: 0 },
    openingStock: GODOWNS * PRODUCTS * OPENING_QUANTITY + HOT_OPENING_QUANTITY,
    lastPosition,
  };
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const int = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));

interface Command {
  kind: Kind;
  path: string;
  body: Record<string, unknown>;
  /** Units of stock it moves (+ in, - out). */
  stock: number;
  /** Cash it takes out of the hot collector (hot case), in whole rupees of its city. */
  hotCash: number;
}

/** A realistic day's mix: sales most, then payments, purchases and expenses; few transfers. */
const MIX: Array<[Kind, number]> = [
  ['sale', 35],
  ['payment', 20],
  ['purchase', 15],
  ['expense', 15],
  ['income', 7],
  ['transfer', 8],
];

function mixCommand(w: World): Command {
  let r = Math.random() * 100;
  let kind: Kind = 'sale';
  for (const [k, weight] of MIX) {
    if (r < weight) {
      kind = k;
      break;
    }
    r -= weight;
  }
  const city = pick(w.cities);
  const amount = int(100, 5000);
  switch (kind) {
    case 'purchase': {
      const quantity = int(10, 500);
      return {
        kind,
        path: '/api/transactions/purchases',
        body: {
          type: 'Godown',
          purchase_date: DATE,
          city_id: city.id,
          funder_id: pick(city.funders),
          product_id: pick(w.products),
          godown_id: pick(w.godowns),
          rate: String(int(8, 12)),
          quantity: String(quantity),
        },
        stock: quantity,
        hotCash: 0,
      };
    }
    case 'sale': {
      const quantity = int(1, 20);
      return {
        kind,
        path: '/api/transactions/sales',
        body: {
          sale_date: DATE,
          agent_id: pick(city.agents),
          product_id: pick(w.products),
          godown_id: pick(w.godowns),
          rate: String(int(11, 15)),
          quantity: String(quantity),
        },
        stock: -quantity,
        hotCash: 0,
      };
    }
    case 'payment': {
      const funder = Math.random() < 0.5;
      const currency = Math.random() < 0.7;
      return {
        kind,
        path: '/api/transactions/payments',
        body: {
          related_entity_type: funder ? 'Funder' : 'Agent',
          related_entity_id: pick(funder ? city.funders : city.agents),
          payment_date: DATE,
          amount: String(amount),
          payment_mode: currency ? 'Currency' : 'INR',
          ...(currency ? { collector_id: pick(city.collectors) } : { godown_id: pick(w.godowns) }),
        },
        stock: 0,
        hotCash: 0,
      };
    }
    case 'expense':
    case 'income': {
      const collector = Math.random() < 0.8;
      const side = kind === 'expense' ? 'paid_from' : 'received_by';
      return {
        kind,
        path: `/api/transactions/${kind}s`,
        body: {
          city_id: city.id,
          category: pick(CATEGORIES),
          amount: String(amount),
          [kind === 'expense' ? 'expense_date' : 'income_date']: DATE,
          [`${side}_entity_type`]: collector ? 'Collector' : 'Godown',
          [`${side}_entity_id`]: collector ? pick(city.collectors) : pick(w.godowns),
        },
        stock: 0,
        hotCash: 0,
      };
    }
    case 'transfer': {
      const other = pick(w.cities);
      const from = pick(city.collectors);
      let to = pick(other.collectors);
      while (to === from) to = pick(other.collectors);
      return {
        kind,
        path: '/api/transactions/transfers',
        body: {
          transfer_date: DATE,
          from_collector_id: from,
          to_collector_id: to,
          sent_amount: String(amount),
          rate: '1',
        },
        stock: 0,
        hotCash: 0,
      };
    }
  }
}

/** Everything on one godown and one collector: sales, expenses, transfers and payments. */
function hotCommand(w: World): Command {
  const h = w.hot;
  const r = Math.random();
  const amount = int(1, 500);
  if (r < 0.4) {
    const quantity = int(1, 5);
    return {
      kind: 'sale',
      path: '/api/transactions/sales',
      body: {
        sale_date: DATE,
        agent_id: pick(h.city.agents),
        product_id: h.product,
        godown_id: h.godown,
        rate: '13',
        quantity: String(quantity),
      },
      stock: -quantity,
      hotCash: 0,
    };
  }
  if (r < 0.6)
    return {
      kind: 'expense',
      path: '/api/transactions/expenses',
      body: {
        city_id: h.city.id,
        category: pick(CATEGORIES),
        amount: String(amount),
        expense_date: DATE,
        paid_from_entity_type: 'Collector',
        paid_from_entity_id: h.collector,
      },
      stock: 0,
      hotCash: amount,
    };
  if (r < 0.8)
    return {
      kind: 'transfer',
      path: '/api/transactions/transfers',
      body: {
        transfer_date: DATE,
        from_collector_id: h.collector,
        to_collector_id: h.other,
        sent_amount: String(amount),
        rate: '1',
      },
      stock: 0,
      hotCash: amount,
    };
  return {
    kind: 'payment',
    path: '/api/transactions/payments',
    body: {
      related_entity_type: 'Funder',
      related_entity_id: h.city.funders[0],
      payment_date: DATE,
      amount: String(amount),
      payment_mode: 'Currency',
      collector_id: h.collector,
    },
    stock: 0,
    hotCash: amount,
  };
}

// ---------------------------------------------------------------------------------------------
// The load.

interface RunResult {
  label: string;
  clients: number;
  seconds: number;
  /** Latencies (ms) of answers after the warm-up, by kind. */
  latencies: Map<Kind, number[]>;
  accepted: Record<Kind, number>;
  stock: number;
  hotCash: number;
  errors: Map<string, number>;
  errorSamples: string[];
  serverErrors: number;
  lastPosition: bigint;
  cpu: {
    server: number;
    /** By server process (command, query, projector, reports-worker; or standalone). */
    byProcess: Record<string, number>;
    postgres: number;
    /** This run's database's own backends (distributed modes). */
    ownPostgres?: number;
    client: number;
    rest: number;
    wall: number;
  };
}

async function load(
  api: Api,
  server: Server,
  label: string,
  clients: number,
  next: () => Command,
): Promise<RunResult> {
  const latencies = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
  const accepted = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  const errors = new Map<string, number>();
  const errorSamples: string[] = [];
  let stock = 0;
  let hotCash = 0;
  let serverErrors = 0;
  let lastPosition = 0n;
  const start = performance.now();
  const measureFrom = start + WARMUP_S * 1000;
  const end = measureFrom + DURATION_S * 1000;
  const byProcess = () => Object.fromEntries(server.procs.map((p) => [p.name, processCpu(p.child.pid!)]));
  let cpu0 = { server: 0, byProcess: byProcess(), postgres: 0, client: process.cpuUsage(), machine: 0 };
  const serverCpu = () => server.procs.reduce((s, p) => s + processCpu(p.child.pid!), 0);
  setTimeout(() => {
    cpu0 = {
      server: serverCpu(),
      byProcess: byProcess(),
      postgres: postgresCpu(),
      client: process.cpuUsage(),
      machine: machineCpu(),
    };
  }, WARMUP_S * 1000);
  let stopOwnPostgres: (() => Promise<number>) | undefined;
  if (server.ownPostgresCpu)
    setTimeout(() => {
      stopOwnPostgres = server.ownPostgresCpu!();
    }, WARMUP_S * 1000);
  let stopSampling: (() => Promise<Array<[string, number]>>) | undefined;
  if (process.env.PG_SAMPLE === '1' && server.sampleActivity)
    setTimeout(() => {
      stopSampling = server.sampleActivity!();
    }, WARMUP_S * 1000);
  const client = async () => {
    let seen: bigint | undefined;
    while (performance.now() < end) {
      const command = next();
      const headers: Record<string, string> = UI_HEADERS
        ? {
            'idempotency-key': randomUUID(),
            ...(seen !== undefined ? { 'x-bahi-position': seen.toString() } : {}),
          }
        : {};
      const sentAt = performance.now();
      let res: Answer;
      try {
        res = await api.call('POST', command.path, command.body, headers);
      } catch (error) {
        const key = `${command.kind}: ${(error as Error).message}`;
        errors.set(key, (errors.get(key) ?? 0) + 1);
        if (errorSamples.length < 10) errorSamples.push(key);
        continue;
      }
      if (res.status === 201) {
        accepted[command.kind]++;
        stock += command.stock;
        hotCash += command.hotCash;
        const position = BigInt((res.body as { position: string }).position);
        seen = position;
        if (position > lastPosition) lastPosition = position;
        if (sentAt >= measureFrom) latencies.get(command.kind)!.push(res.ms);
      } else {
        if (res.status >= 500) serverErrors++;
        const key = `${command.kind} ${res.status}`;
        errors.set(key, (errors.get(key) ?? 0) + 1);
        if (errorSamples.length < 10)
          errorSamples.push(
            `${key}: ${JSON.stringify(res.body).slice(0, 300)} <- ${JSON.stringify(command.body)}`,
          );
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  if (stopSampling) {
    const activity = await stopSampling();
    console.log(`\nPostgres backends of the ${label} run, average number active, by wait and statement:`);
    for (const [what, n] of activity) console.log(`  ${n.toFixed(3)}  ${what}`);
  }
  const wall = (performance.now() - measureFrom) / 1000;
  const clientCpu = process.cpuUsage(cpu0.client);
  const server1 = serverCpu() - cpu0.server;
  const machine = machineCpu() - cpu0.machine;
  const postgres = postgresCpu() - cpu0.postgres;
  const ownPostgres = stopOwnPostgres ? await stopOwnPostgres() : undefined;
  const processes = Object.fromEntries(
    Object.entries(byProcess()).map(([name, s]) => [name, s - (cpu0.byProcess[name] ?? 0)]),
  );
  const clientS = (clientCpu.user + clientCpu.system) / 1e6;
  return {
    label,
    clients,
    seconds: wall,
    latencies,
    accepted,
    stock,
    hotCash,
    errors,
    errorSamples,
    serverErrors,
    lastPosition,
    cpu: {
      server: server1,
      byProcess: processes,
      postgres,
      ownPostgres,
      client: clientS,
      rest: machine - server1 - clientS - postgres,
      wall,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The check: every accepted write is in the books.

const totalItems = async (api: Api, path: string, at: bigint) =>
  Number((await api.readAt(`${path}${path.includes('?') ? '&' : '?'}page=1&limit=1`, at)).totalItems);

interface Check {
  what: string;
  expected: string;
  found: string;
  ok: boolean;
}

async function check(api: Api, server: Server, w: World, runs: RunResult[]): Promise<Check[]> {
  const at = runs.reduce((m, r) => (r.lastPosition > m ? r.lastPosition : m), w.lastPosition);
  const sum = (kind: Kind) => w.seeded[kind] + runs.reduce((s, r) => s + r.accepted[kind], 0);
  const checks: Check[] = [];
  const add = (what: string, expected: number | string, found: number | string) =>
    checks.push({
      what,
      expected: String(expected),
      found: String(found),
      ok: String(expected) === String(found),
    });

  add('purchases listed', sum('purchase'), await totalItems(api, '/api/transactions/purchases', at));
  add('sales listed', sum('sale'), await totalItems(api, '/api/transactions/sales', at));
  add('expenses listed', sum('expense'), await totalItems(api, '/api/transactions/expenses', at));
  add('incomes listed', sum('income'), await totalItems(api, '/api/transactions/incomes', at));
  add('transfers listed', sum('transfer'), await totalItems(api, '/api/transactions/transfers', at));
  const payments = (await api.readAt('/api/reports/payments?page=1&limit=1', at)) as { totalItems?: number };
  if (payments.totalItems !== undefined) add('payments listed', sum('payment'), payments.totalItems);

  const stock = (await api.readAt(`/api/reports/stock?asOf=2099-12-31`, at)) as Record<
    string,
    Array<{ godown_id: string; quantity: string }>
  >;
  const rows = Object.values(stock).flat();
  const units = (list: typeof rows) => list.reduce((s, r) => s + Number(r.quantity), 0);
  add('stock, all godowns (units)', w.openingStock + runs.reduce((s, r) => s + r.stock, 0), units(rows));
  const hot = runs.find((r) => r.label === 'hot');
  if (hot) {
    add(
      'stock of the hot godown (units)',
      HOT_OPENING_QUANTITY + hot.stock,
      units(rows.filter((r) => r.godown_id === w.hot.godown)),
    );
    const ledger = (await api.readAt(`/api/reports/ledger/Collector/${w.hot.collector}`, at)) as {
      closingBalance: string;
      transactions: unknown[];
    };
    add(
      'hot collector ledger lines',
      hot.accepted.expense + hot.accepted.transfer + hot.accepted.payment,
      ledger.transactions.length,
    );
    add('hot collector balance', (-hot.hotCash).toFixed(2), ledger.closingBalance);
  }
  if (server.eventCounts) {
    const counts = await server.eventCounts();
    const events: Record<Kind, string> = {
      purchase: 'PurchaseRecorded',
      sale: 'SaleRecorded',
      payment: 'PaymentRecorded',
      expense: 'ExpenseRecorded',
      income: 'IncomeRecorded',
      transfer: 'TransferRecorded',
    };
    for (const kind of KINDS) add(`event store: ${events[kind]}`, sum(kind), counts.get(events[kind]) ?? 0);
  }
  return checks;
}

// ---------------------------------------------------------------------------------------------
// Figures.

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const fmt = (ms: number) => (Number.isNaN(ms) ? '-' : ms < 10 ? ms.toFixed(1) : ms.toFixed(0));

function table(mode: string, r: RunResult): string[] {
  const lines: string[] = [];
  const all = [...r.latencies.values()].flat().sort((a, b) => a - b);
  const row = (name: string, list: number[]) => {
    const sorted = list === all ? all : [...list].sort((a, b) => a - b);
    return `| ${mode} | ${r.label} (${r.clients} clients) | ${name} | ${sorted.length} | ${(sorted.length / r.seconds).toFixed(0)} | ${fmt(percentile(sorted, 50))} | ${fmt(percentile(sorted, 95))} | ${fmt(percentile(sorted, 99))} | ${fmt(sorted.at(-1) ?? Number.NaN)} |`;
  };
  lines.push(row('**all**', all));
  for (const kind of KINDS)
    if (r.latencies.get(kind)!.length > 0) lines.push(row(kind, r.latencies.get(kind)!));
  return lines;
}

// ---------------------------------------------------------------------------------------------

const cpuModel = os.cpus()[0]?.model ?? 'unknown';
const started = new Date();
const loadBefore = readFileSync('/proc/loadavg', 'utf8').trim();
const report: string[] = [];
let failed = false;

for (const mode of MODES) {
  if (mode === 'gateway' && !nginxAvailable) {
    log('gateway: no nginx at /usr/sbin/nginx, skipped');
    continue;
  }
  log(`${mode}: starting the server`);
  const server =
    mode === 'standalone'
      ? await startStandaloneServer()
      : await startDistributed(mode as 'distributed' | 'gateway');
  const api = new Api(server.writeBase, server.readBase, Math.max(CLIENTS, HOT_CLIENTS) + 4);
  try {
    const login = await api.must(
      'POST',
      '/api/auth/login',
      { email: 'admin@bahi.local', password: 'bahi-admin-2026' },
      200,
    );
    api.token = login.token as string;
    log(`${mode}: seeding`);
    const seedStarted = performance.now();
    const world = await seed(api);
    log(`${mode}: seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
    const runs: RunResult[] = [];
    if (!SKIP_MIX) {
      log(`${mode}: mix, ${CLIENTS} clients, ${WARMUP_S} + ${DURATION_S} s`);
      runs.push(await load(api, server, 'mix', CLIENTS, () => mixCommand(world)));
    }
    if (!SKIP_HOT) {
      log(`${mode}: hot, ${HOT_CLIENTS} clients, ${WARMUP_S} + ${DURATION_S} s`);
      runs.push(await load(api, server, 'hot', HOT_CLIENTS, () => hotCommand(world)));
    }
    log(`${mode}: checking the books`);
    const checks = await check(api, server, world, runs);
    const from = report.length;
    report.push(`\n### ${mode}\n`);
    report.push(
      '| mode | run | command | answered 201 (after warm-up) | per s | p50 ms | p95 ms | p99 ms | max ms |',
    );
    report.push('|---|---|---|---:|---:|---:|---:|---:|---:|');
    for (const r of runs) report.push(...table(mode, r));
    report.push('');
    for (const r of runs) {
      const total = KINDS.reduce((s, k) => s + r.accepted[k], 0);
      const errs = [...r.errors.values()].reduce((s, n) => s + n, 0);
      report.push(
        `- ${r.label}: ${total} writes answered 201 in all (warm-up included), ${errs} other answers (${r.serverErrors} 5xx)` +
          `${errs ? `: ${[...r.errors].map(([k, n]) => `${k} x${n}`).join(', ')}` : ''}; CPU per second of the run (cores): ` +
          `${Object.entries(r.cpu.byProcess)
            .map(([name, c]) => `${name} ${(c / r.cpu.wall).toFixed(2)}`)
            .join(', ')}, Postgres (all databases) ${(r.cpu.postgres / r.cpu.wall).toFixed(2)}, ` +
          `benchmark client ${(r.cpu.client / r.cpu.wall).toFixed(2)}, the rest (kernel, others) ${(r.cpu.rest / r.cpu.wall).toFixed(2)}; ` +
          `CPU per write: ${((1000 * (r.cpu.server + r.cpu.postgres)) / KINDS.reduce((s, k) => s + r.latencies.get(k)!.length, 0)).toFixed(2)} ms (server processes and Postgres)` +
          (r.cpu.ownPostgres === undefined
            ? ''
            : `; ${((1000 * (r.cpu.server + r.cpu.ownPostgres)) / KINDS.reduce((s, k) => s + r.latencies.get(k)!.length, 0)).toFixed(2)} ms with only this database's Postgres backends (${(r.cpu.ownPostgres / r.cpu.wall).toFixed(2)} cores)`),
      );
      for (const s of r.errorSamples) report.push(`  - ${s}`);
      if (errs > 0) failed = true;
    }
    report.push('\n| check | expected | found | |\n|---|---:|---:|---|');
    for (const c of checks) {
      report.push(`| ${c.what} | ${c.expected} | ${c.found} | ${c.ok ? 'ok' : '**LOST/EXTRA**'} |`);
      if (!c.ok) failed = true;
    }
    console.log(report.slice(from).join('\n'));
  } catch (error) {
    failed = true;
    log(`${mode}: ${(error as Error).stack}`);
    for (const p of server.procs) log(`${p.name} output (tail):\n${p.output().slice(-3000)}`);
  } finally {
    api.close();
    log(`${mode}: stopping`);
    await server.stop();
  }
}

console.log(`\n## Command mix through HTTP: ${started.toISOString()} - ${new Date().toISOString()}`);
console.log(
  `Machine: ${cpuModel}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
);
console.log(`Load average before: ${loadBefore}; after: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
console.log(
  `DURATION_S=${DURATION_S} (after ${WARMUP_S} s warm-up), CLIENTS=${CLIENTS}, HOT_CLIENTS=${HOT_CLIENTS}, UI_HEADERS=${UI_HEADERS ? 1 : 0}, MODES=${MODES.join(',')}`,
);
console.log(report.join('\n'));
process.exitCode = failed ? 1 : 0;
