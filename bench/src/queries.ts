/// <reference path="./autocannon.d.ts" />
/**
 * The read side on the large seed, on Postgres:
 *  1. seed: the large business (npm run seed's `large` scale, about a million events), its
 *     units written concurrently, by the fast seed (fastSeedScale, services/command/src/seed-fast.ts:
 *     the command handlers deciding in memory, the events copied into the log in batches;
 *     seed-fast.int.test.ts keeps it equal to the command path). SEED=command seeds through the
 *     command routes in-process instead, projecting only the read models the command side
 *     consults. Skipped when the database already holds the seed (a `bench-seeded` event;
 *     BENCH_DB names the database; REUSE=0 forces a fresh one). SEED_ONLY=1 stops after the
 *     seed and its rebuild.
 *  2. rebuild: every projection from the whole log into a shadow schema, compared with the
 *     live tables and swapped in (the first time, the live ones are mostly empty).
 *  3. latency: the query service as its own process; 32 connections hammer each endpoint
 *     for DURATION seconds, after WARMUP (3) seconds not measured; p50/p95/p99 per endpoint.
 *
 *   npm run queries --workspace bench     (DATABASE_URL: the server; SCALE=large|small|unit|quick)
 *
 * `npm run bench:reads:quick` is SCALE=quick: about 100,000 events (seeded once, then reused),
 * the ledger, a list, balances, day-wise and the cashbook for DURATION (10) s each, and the
 * ratio of each figure to a stored reference run of the same script on this machine
 * (bench/reads-quick.reference.json; SAVE_REFERENCE=1 writes it). BASELINE=<another checkout>
 * (a worktree of the code before a change, with its own node_modules) also starts that
 * checkout's query service on the same database and measures both, endpoint by endpoint, in
 * the same run: what a change to the read side shows before it lands. When the change adds a
 * read-db migration, copy it (and the migrations index) into the baseline checkout too: the older
 * code refuses a database with a migration it does not know, and an additive one changes nothing
 * it reads.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Call, fastSeedScale, SCALES, seedScale } from '@bahi/command';
import { commandTestApp } from '@bahi/command/testing';
import {
  customFieldDefinitions,
  masterReferences,
  masters,
  rebuildProjections,
  recordStreams,
  startProjector,
} from '@bahi/projections';
import { generateLicenseKeys, issueLicense } from '@bahi/server-kit';
import { createPgSqlClient } from '@bahi/sql-client';
import autocannon from 'autocannon';
import pg from 'pg';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SCALE = (process.env.SCALE ?? 'large') as keyof typeof SCALES;
const DB = process.env.BENCH_DB ?? `bahi_bench_queries_${SCALE}`;
const REUSE = process.env.REUSE !== '0';
/** SEED=command: seed through the command routes (HTTP inject, the live projector), as before issue #28. */
const SEED_PATH = process.env.SEED === 'command' ? 'command' : 'fast';
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const QUICK = SCALE === 'quick';
const DURATION = Number(process.env.DURATION ?? (QUICK ? 10 : 20));
/** Seconds of load before each measurement, not measured (WARMUP=0: none). */
const WARMUP = Number(process.env.WARMUP ?? 3);
const BASELINE = process.env.BASELINE ? resolve(process.env.BASELINE) : undefined;
const REFERENCE = resolve(import.meta.dirname, '../reads-quick.reference.json');
const UNTIL = '2026-11-20';
const JWT_SECRET = 'test-secret-test-secret-test-secret-!!'; // commandTestApp's
const ROOT = resolve(import.meta.dirname, '../..');

const log = (message: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

const admin = new pg.Client({ connectionString: DATABASE_URL });
await admin.connect();
const url = new URL(DATABASE_URL);
url.pathname = `/${DB}`;
const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB])).rowCount === 1;
let seeded = false;
if (exists && REUSE) {
  const probe = new pg.Client({ connectionString: url.toString() });
  await probe.connect();
  const done = await probe
    .query(`SELECT count(*)::int AS n FROM es.events WHERE stream_id = 'bench-seeded'`)
    .catch(() => ({ rows: [{ n: 0 }] }));
  seeded = done.rows[0].n > 0;
  await probe.end();
}
if (!seeded) {
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB}`);
}
await admin.end();

/** CPU seconds the whole machine has spent, from /proc/stat (USER_HZ ticks). */
const machineCpu = () => {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq] = ticks.map(Number);
  return (user! + nice! + system! + irq! + softirq!) / 100;
};
/** CPU seconds one process has spent (utime + stime of /proc/<pid>/stat). */
const processCpu = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

const sql = createPgSqlClient({ connectionString: url.toString(), max: 16 });
// The command app, with only the read models the command side consults projected live (when
// seeding through it), in larger transactions than usual (the seed writes hard; the rest waits
// for the rebuild). The fast seed consults its own (seed-fast.ts).
const t = await commandTestApp({ sql, projector: false });
const seedProjector =
  SEED_PATH === 'fast'
    ? undefined
    : startProjector({
        eventStore: t.eventStore,
        readDb: t.deps.readDb,
        projections: [recordStreams, masterReferences, customFieldDefinitions, masters],
        flushAfterMs: 250,
        rebuildPollMs: 0,
      });
const results: Record<string, string> = {};

const seedScaleOf = () => ({
  days: Number(process.env.DAYS ?? SCALES[SCALE].days),
  units: Number(process.env.UNITS ?? SCALES[SCALE].units),
  intensity: Number(process.env.INTENSITY ?? SCALES[SCALE].intensity),
});

/** The business through the command routes, one HTTP inject per record (SEED=command). */
async function seedThroughCommands(started: number): Promise<number> {
  const call: Call = async (method, path, body) => {
    const res = await t.call(method, path, t.adminToken, body);
    return { status: res.statusCode, body: res.json() };
  };
  let last = started;
  const { writes } = await seedScale(call, seedScaleOf(), UNTIL, (n) => {
    if (performance.now() - last > 5_000) {
      last = performance.now();
      log(`seed: ${n} records, ${(n / ((last - started) / 1000)).toFixed(0)}/s`);
    }
  });
  return writes;
}

/**
 * The same business through the same handlers, deciding in memory, then copied into the log in
 * large transactions (fastSeedScale, services/command/src/seed-fast.ts); the rebuild below
 * builds every read model from it.
 */
async function seedFast(started: number): Promise<number> {
  const lookupsDb = `${DB}_lookups`;
  const lookupsUrl = new URL(url);
  lookupsUrl.pathname = `/${lookupsDb}`;
  const server = new pg.Client({ connectionString: DATABASE_URL });
  await server.connect();
  await server.query(`DROP DATABASE IF EXISTS ${lookupsDb} WITH (FORCE)`);
  await server.query(`CREATE DATABASE ${lookupsDb}`);
  const lookups = createPgSqlClient({ connectionString: lookupsUrl.toString(), max: 4 });
  try {
    const admin = (await t.eventStore.readAll(0n, 1_000)).find((e) => e.type === 'UserCreated');
    let last = started;
    const { writes, events: n } = await fastSeedScale({
      eventStore: t.eventStore,
      sql,
      lookups,
      userId: (admin?.data as { id: string } | undefined)?.id ?? null,
      scale: seedScaleOf(),
      until: UNTIL,
      onProgress: (done) => {
        if (performance.now() - last > 5_000) {
          last = performance.now();
          log(`seed: ${done} records decided, ${(done / ((last - started) / 1000)).toFixed(0)}/s`);
        }
      },
    });
    log(`seed: ${writes} records (${n} events) decided and copied into the log`);
    return writes;
  } finally {
    await lookups.close();
    await server.query(`DROP DATABASE IF EXISTS ${lookupsDb} WITH (FORCE)`);
    await server.end();
  }
}

if (!seeded) {
  log(`seeding the ${SCALE} business into ${DB} (${SEED_PATH})`);
  const started = performance.now();
  const writes = SEED_PATH === 'fast' ? await seedFast(started) : await seedThroughCommands(started);
  await t.eventStore.append('bench-seeded', [{ type: 'BenchSeeded', data: { writes } }], 'any');
  const seconds = (performance.now() - started) / 1000;
  results.seed = `${writes} records in ${seconds.toFixed(0)} s (${(writes / seconds).toFixed(0)}/s, ${SEED_PATH})`;
  log(`seed: ${results.seed}`);
}
await seedProjector?.stop();
const head = await t.eventStore.headPosition();
const events = Number(
  (await sql.query<{ n: string }>('SELECT count(*)::text AS n FROM es.events', [])).rows[0]!.n,
);
log(`the log holds ${events} events (head ${head})`);

// 2. Rebuild every projection from the log (SKIP_REBUILD=1: measure the queries only). The
// quick run rebuilds only a fresh seed, or when asked (REBUILD=1: after a change to what the
// projections write).
const rebuild = QUICK ? !seeded || process.env.REBUILD === '1' : process.env.SKIP_REBUILD !== '1';
if (rebuild) {
  log('rebuild: every projection');
  // Where the CPU goes: this process (reading the log, the projections' code) against the
  // whole machine (Postgres, mostly).
  const machine0 = machineCpu();
  const own0 = process.cpuUsage();
  const started = performance.now();
  let caughtUpAt = 0;
  let shown = started;
  const report = await rebuildProjections({
    eventStore: t.eventStore,
    readDb: t.deps.readDb,
    liveWaitMs: 0,
    ...(process.env.REBUILD_BATCH ? { batchSize: Number(process.env.REBUILD_BATCH) } : {}),
    onStep: (step) => log(`rebuild: ${step} at ${((performance.now() - started) / 1000).toFixed(1)} s`),
    onProjectionStep: (name, step) =>
      log(`rebuild: ${name} ${step} at ${((performance.now() - started) / 1000).toFixed(1)} s`),
    onProgress: ({ position, target, events: n }) => {
      if (position >= target) caughtUpAt ||= performance.now();
      if (performance.now() - shown > 10_000) {
        shown = performance.now();
        log(`rebuild: ${n} events, ${(n / ((shown - started) / 1000)).toFixed(0)}/s`);
      }
    },
  });
  const total = (performance.now() - started) / 1000;
  log(
    `rebuild: the rebuilt tables are ${report.identical ? 'identical to' : 'NOT identical to'} the live ones`,
  );
  const replay = ((caughtUpAt || performance.now()) - started) / 1000;
  const own = process.cpuUsage(own0);
  const ownSeconds = (own.user + own.system) / 1e6;
  results.rebuildCpu = `CPU over the whole rebuild: this process ${ownSeconds.toFixed(0)} s, the rest of the machine (Postgres) ${(machineCpu() - machine0 - ownSeconds).toFixed(0)} s, in ${total.toFixed(0)} s on ${os.cpus().length} cores`;
  log(`rebuild: ${results.rebuildCpu}`);
  results.rebuild = `${report.events} events replayed into 10 projections in ${replay.toFixed(1)} s (${(
    report.events / replay
  ).toFixed(0)} events/s); with comparison and swap ${total.toFixed(1)} s`;
  log(`rebuild: ${results.rebuild}`);
}

if (process.env.SEED_ONLY === '1') {
  // Only the seed (and its rebuild): for timing the seed, or to prepare a database for later runs.
  await t.close();
  process.exit(0);
}

// 3. Query latency, against the query service as its own process. A rebuild leaves gigabytes
// of WAL and dirty pages behind: a checkpoint writes them now, not during the first endpoint.
await sql.query('CHECKPOINT', []);
const rows = async <R>(text: string) => (await sql.query<R & Record<string, unknown>>(text, [])).rows;
const [busy] = await rows<{ account: string; n: string }>(
  `SELECT account, count(*)::text AS n FROM journal WHERE account LIKE 'collector:%' GROUP BY account ORDER BY count(*) DESC LIMIT 1`,
);
if (!busy) throw new Error('The journal is empty: run once without SKIP_REBUILD=1 to fill the read models.');
const busyCollector = busy.account.split(':')[1]!;
const [city] = await rows<{ id: string }>(`SELECT id FROM cities ORDER BY name LIMIT 1`);
const [collectorCity] = await rows<{ city_id: string }>(
  `SELECT city_id::text FROM parties WHERE id = '${busyCollector}'`,
);
log(`busiest collector: ${busyCollector} with ${busy.n} journal lines`);

const freePort = async () => {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
};
const keys = await generateLicenseKeys();
const license = await issueLicense(keys.privateKeyPem, {
  status: 'Active',
  type: 'Standard',
  expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  grace_period_days: 7,
  expiry_notification_days: 15,
});
const profile = process.env.PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE}`] : [];
/** A query service as its own process, from a checkout (this one, or BASELINE's). */
async function startQuery(root: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'services/query/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: url.toString(),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      BAHI_JWT_SECRET: JWT_SECRET,
      BAHI_LICENSE: license,
      BAHI_LICENSE_PUBLIC_KEY: keys.publicKeyPem,
      // The service's own pool (10 connections by default) unless POOL says otherwise.
      ...(process.env.POOL ? { BAHI_DB_POOL_SIZE: process.env.POOL } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}/api`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 300) throw new Error(`the query service of ${root} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base };
}
const services = [
  { label: 'this checkout', ...(await startQuery(ROOT)) },
  ...(BASELINE ? [{ label: `baseline (${BASELINE})`, ...(await startQuery(BASELINE)) }] : []),
];

const month = `startDate=2026-10-01&endDate=2026-10-31`;
const allEndpoints: Array<{ name: string; kind: 'list' | 'report'; path: string; quick?: boolean }> = [
  {
    name: 'sales list (a city, page 1)',
    kind: 'list',
    path: `/transactions/sales?city_id=${city!.id}&page=1&limit=15`,
    quick: true,
  },
  { name: 'funders list (search)', kind: 'list', path: `/masters/funders?search=Traders&page=1&limit=15` },
  {
    name: 'ledger of the busiest collector (a month)',
    kind: 'report',
    path: `/reports/ledger/Collector/${busyCollector}?${month}`,
    quick: true,
  },
  { name: 'balances', kind: 'report', path: `/reports/balances?page=1&limit=15`, quick: true },
  {
    name: 'day-wise (a city, a month)',
    kind: 'report',
    path: `/reports/daywise-report?${month}&city_id=${city!.id}`,
    quick: true,
  },
  {
    name: 'cashbook of the busiest collector (a month)',
    kind: 'report',
    path: `/reports/cashbook-report?${month}&city_id=${collectorCity!.city_id}&entity_type=Collector&entity_id=${busyCollector}`,
    quick: true,
  },
  { name: 'dashboard summary', kind: 'report', path: `/reports/dashboard-summary` },
];
const endpoints = QUICK ? allEndpoints.filter((e) => e.quick) : allEndpoints;

const headers = { authorization: `Bearer ${t.adminToken}` };
const only = process.env.ONLY?.split(',');
const latencies: string[] = [];
const measured: Record<string, Record<string, { perSecond: number; p99: number }>> = {};
for (const endpoint of endpoints) {
  if (only && !only.some((o) => endpoint.name.startsWith(o))) continue;
  // With a baseline, the two services take turns, in the other order on every other endpoint.
  const turn = endpoints.indexOf(endpoint) % 2 === 0 ? services : [...services].reverse();
  for (const service of turn) {
    const { base, child: query } = service;
    const first = await fetch(`${base}${endpoint.path}`, { headers });
    if (first.status !== 200) throw new Error(`${endpoint.path}: ${first.status} ${await first.text()}`);
    await first.arrayBuffer();
    // Warmed up at full load first, not measured: the code's JIT, each pool connection's prepared
    // statements and Postgres's caches. Without it the first endpoint of a run measured the
    // service that went first on it cold (the sales list came out at 0.6x its baseline twice,
    // with code that the list does not run).
    if (WARMUP > 0)
      await autocannon({
        url: `${base}${endpoint.path}`,
        connections: CONNECTIONS,
        duration: WARMUP,
        headers,
      });
    // autocannon keeps CONNECTIONS requests in flight over keep-alive connections and records
    // each latency in an HdrHistogram; it costs far less CPU per request than a loop of fetch
    // calls, which matters when the client shares the 2 cores with the service and Postgres.
    const cpu0 = { query: processCpu(query.pid!), machine: machineCpu(), client: process.cpuUsage() };
    const result = await autocannon({
      url: `${base}${endpoint.path}`,
      connections: CONNECTIONS,
      duration: DURATION,
      headers,
    });
    const queryCpu = processCpu(query.pid!) - cpu0.query;
    const machine = machineCpu() - cpu0.machine;
    const client = process.cpuUsage(cpu0.client);
    const clientCpu = (client.user + client.system) / 1e6;
    const perRequest = (seconds: number) => ((seconds * 1000) / result.requests.total).toFixed(2);
    log(
      `${endpoint.name} [${service.label}]: CPU per request ${perRequest(queryCpu)} ms in the query service, ${perRequest(clientCpu)} ms in the client, ${perRequest(machine - queryCpu - clientCpu)} ms elsewhere (Postgres)`,
    );
    const failures = result.errors + result.timeouts + result.non2xx;
    if (failures > 0) throw new Error(`${endpoint.path}: ${failures} failed requests`);
    const goal = endpoint.kind === 'list' ? 50 : 150;
    const { p50, p90, p99 } = result.latency;
    const byEndpoint = measured[service.label] ?? {};
    byEndpoint[endpoint.name] = { perSecond: result.requests.average, p99 };
    measured[service.label] = byEndpoint;
    const line = `| ${endpoint.name}${services.length > 1 ? ` [${service.label}]` : ''} | ${result.requests.total} | ${result.requests.average.toFixed(0)} | ${p50} | ${p90} | ${p99} | ${goal} | ${p99 <= goal ? 'yes' : 'no'} |`;
    latencies.push(line);
    log(line);
  }
}
for (const service of services) {
  service.child.kill('SIGTERM');
  await once(service.child, 'exit');
}
await t.close();

const cpu = os.cpus()[0]?.model ?? 'unknown';
console.log(`Read side on the ${SCALE} seed, Postgres 15; ${new Date().toISOString()}`);
console.log(
  `Machine: ${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
);
console.log(
  `Log: ${events} events. Load average at the end: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}.`,
);
if (results.seed) console.log(`Seed: ${results.seed}.`);
if (results.rebuild) console.log(`Rebuild: ${results.rebuild}.`);
if (results.rebuildCpu) console.log(`${results.rebuildCpu}.`);
console.log('');
console.log(`Latency at ${CONNECTIONS} connections, ${DURATION} s each (ms):\n`);
console.log('| endpoint | requests | per s | p50 | p90 | p99 | goal p99 | met |');
console.log('|---|---:|---:|---:|---:|---:|---:|---|');
for (const line of latencies) console.log(line);

const mine = measured['this checkout'] ?? {};
const ratios = (title: string, other: Record<string, { perSecond: number; p99: number }> | undefined) => {
  if (!other) return;
  console.log(`\n${title}\n`);
  console.log('| endpoint | req/s ratio | p99 ratio (lower is better) |');
  console.log('|---|---:|---:|');
  for (const [name, m] of Object.entries(mine)) {
    const o = other[name];
    if (o)
      console.log(`| ${name} | ${(m.perSecond / o.perSecond).toFixed(2)} | ${(m.p99 / o.p99).toFixed(2)} |`);
  }
};
if (BASELINE)
  ratios('This checkout against the baseline, same data, same run:', measured[services[1]!.label]);
if (QUICK) {
  if (existsSync(REFERENCE)) {
    const reference = JSON.parse(readFileSync(REFERENCE, 'utf8')) as {
      date: string;
      endpoints: Record<string, { perSecond: number; p99: number }>;
    };
    ratios(`This run against the stored reference of ${reference.date} (${REFERENCE}):`, reference.endpoints);
  }
  if (process.env.SAVE_REFERENCE === '1') {
    writeFileSync(
      REFERENCE,
      `${JSON.stringify({ date: new Date().toISOString(), machine: cpu, loadavg: os.loadavg(), endpoints: mine }, null, 2)}\n`,
    );
    console.log(`\nSaved as the reference: ${REFERENCE}`);
  }
}
