/**
 * Event store benchmark: our Postgres event store (@bahi/event-store) against Emmett's
 * PostgreSQL event store, in one run, on the same Postgres server, in a fresh database that
 * is dropped at the end. Prints a markdown report to stdout; progress goes to stderr.
 *
 *   npm run event-store --workspace bench      (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 *   SEAL_AB=1 npm run event-store --workspace bench
 *     compares our store without the seal (issue #30) against our store with it, each in its own
 *     fresh database, instead of ours against Emmett; the sealed store's lag (events appended but
 *     not sealed yet, sampled every 100 ms, and how long the seal takes to catch up after the
 *     run) is printed as an extra table.
 *
 * Both stores do the same work per append: one optimistic-concurrency append, each with its
 * own expected-version mechanism (ours: the 0-based last version or 'no_stream'; Emmett: the
 * stream position, 0n for a new stream, which its append function turns into an INSERT that
 * fails on an existing stream). Every writer owns its stream and passes back the version its
 * previous append returned, so no append ever conflicts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createPostgresEventStore, sealChain } from '@bahi/event-store';
import { createPgSqlClient } from '@bahi/sql-client';
import { getPostgreSQLEventStore, messagesTable } from '@event-driven-io/emmett-postgresql';
import pg from 'pg';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const POOL_SIZE = 20;
const SEAL_AB = process.env.SEAL_AB === '1';
const WATCHDOG_MS = 150_000; // the whole run must end; normal runs take well under two minutes

const SINGLE = { writers: 1, warmupMs: 1_000, durationMs: 5_000, maxAppendsPerWriter: 50_000 };
const CONCURRENT = { writers: 16, warmupMs: 1_000, durationMs: 5_000, maxAppendsPerWriter: 20_000 };
const BATCH = { streams: 100, eventsPerBatch: 1_000, maxDurationMs: 30_000 };

// ---------------------------------------------------------------------------------------
// Payload: a sale as the trading back office records it, ~300 bytes of JSON.

interface SaleData extends Record<string, unknown> {
  saleId: string;
  branchId: string;
  cashierId: string;
  customerId: string;
  lines: Array<{ sku: string; qty: number; unitPrice: string }>;
  currency: string;
  total: string;
  paymentMethod: string;
  soldAt: string;
}

interface BenchEvent {
  type: 'SaleRecorded';
  data: SaleData;
  metadata: { correlationId: string; userId: string };
}

const CITIES = ['KHI', 'LHE', 'ISB', 'FSD', 'MUX'];
let saleCounter = 0;

function saleEvent(): BenchEvent {
  const n = saleCounter++;
  const lines = [
    { sku: `SKU-${10_000 + (n % 977)}`, qty: 1 + (n % 5), unitPrice: (125 + (n % 300)).toFixed(2) },
    { sku: `SKU-${20_000 + (n % 613)}`, qty: 1 + (n % 3), unitPrice: (80 + (n % 90)).toFixed(2) },
  ];
  const total = lines.reduce((sum, l) => sum + l.qty * Number(l.unitPrice), 0);
  return {
    type: 'SaleRecorded',
    data: {
      saleId: randomUUID(),
      branchId: `${CITIES[n % CITIES.length]}-0${1 + (n % 7)}`,
      cashierId: `user-${100 + (n % 40)}`,
      customerId: `cust-${(n * 7919) % 100_000}`,
      lines,
      currency: 'PKR',
      total: total.toFixed(2),
      paymentMethod: n % 3 === 0 ? 'card' : 'cash',
      soldAt: new Date().toISOString(),
    },
    metadata: { correlationId: randomUUID(), userId: `user-${100 + (n % 40)}` },
  };
}

// ---------------------------------------------------------------------------------------
// The two stores behind one shape. `expected` is each store's own token: null for a stream
// that must not exist yet, otherwise whatever the previous append returned.

interface Appender {
  readonly name: string;
  append(stream: string, events: BenchEvent[], expected: bigint | null): Promise<bigint>;
  /** The token a stream holds after `appends` appends of `eventsPerAppend` events. */
  tokenAfter(appends: number, eventsPerAppend: number): bigint;
  countEvents(): Promise<number>;
  /** The table its events go to, to report whether Postgres had statistics for it. */
  readonly eventsTable: string;
  close(): Promise<void>;
}

interface SealLag {
  label: string;
  maxUnsealed: number;
  meanUnsealed: number;
  catchUpMs: number;
}

async function createOurs(
  connectionString: string,
  options: { seal: boolean; name?: string } = { seal: true },
): Promise<Appender & { lagStart?(): void; lagStop?(label: string): Promise<SealLag> }> {
  const sql = createPgSqlClient({ connectionString, max: POOL_SIZE, applicationName: 'bahi-bench' });
  const store = await createPostgresEventStore(sql, { seal: options.seal });
  const unsealed = async () => {
    const { rows } = await sql.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM es.events
        WHERE global_position > coalesce((SELECT max(global_position) FROM es.chain), 0)`,
    );
    return Number(rows[0]?.n ?? 0);
  };
  let sampler: { running: boolean; samples: number[]; loop: Promise<void> } | undefined;
  const lag = options.seal
    ? {
        lagStart() {
          const state = { running: true, samples: [] as number[], loop: Promise.resolve() };
          state.loop = (async () => {
            while (state.running) {
              state.samples.push(await unsealed());
              await new Promise((resolve) => setTimeout(resolve, 100));
            }
          })();
          sampler = state;
        },
        async lagStop(label: string): Promise<SealLag> {
          const state = sampler!;
          state.running = false;
          await state.loop;
          const stopped = performance.now();
          while ((await unsealed()) > 0) await new Promise((resolve) => setTimeout(resolve, 10));
          const samples = state.samples.length ? state.samples : [0];
          return {
            label,
            maxUnsealed: Math.max(...samples),
            meanUnsealed: Math.round(samples.reduce((a, b) => a + b, 0) / samples.length),
            catchUpMs: performance.now() - stopped,
          };
        },
      }
    : {};
  return {
    ...lag,
    name: options.name ?? 'ours (@bahi/event-store)',
    async append(stream, events, expected) {
      const r = await store.append(stream, events, expected === null ? 'no_stream' : expected);
      return r.nextExpectedVersion;
    },
    tokenAfter: (appends, perAppend) => BigInt(appends * perAppend - 1), // 0-based last version
    eventsTable: 'es.events',
    async countEvents() {
      const { rows } = await sql.query<{ n: string }>('SELECT count(*)::text AS n FROM es.events');
      return Number(rows[0]?.n ?? 0);
    },
    async close() {
      await store.close();
      await sql.close();
    },
  };
}

async function createEmmett(connectionString: string): Promise<Appender> {
  const pool = new pg.Pool({ connectionString, max: POOL_SIZE, application_name: 'emmett-bench' });
  pool.on('error', () => {});
  const store = getPostgreSQLEventStore(connectionString, {
    connectionOptions: { pool },
    schema: { autoMigration: 'CreateOrUpdate' },
  });
  await store.schema.migrate(); // otherwise the first append would run the migration
  return {
    name: 'Emmett 0.42.0 (emmett-postgresql)',
    async append(stream, events, expected) {
      const r = await store.appendToStream(stream, events, { expectedStreamVersion: expected ?? 0n });
      return r.nextExpectedStreamVersion;
    },
    tokenAfter: (appends, perAppend) => BigInt(appends * perAppend), // stream position = event count
    eventsTable: messagesTable.name,
    async countEvents() {
      const { rows } = await pool.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM ${messagesTable.name}`,
      );
      return Number(rows[0]?.n ?? 0);
    },
    async close() {
      await store.close(); // releases nothing of an ambient pool: end it ourselves
      await pool.end();
    },
  };
}

// ---------------------------------------------------------------------------------------
// Measurements

interface Result {
  measurement: string;
  store: string;
  appends: number;
  events: number;
  seconds: number;
  appendsPerSec: number;
  eventsPerSec: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  complete: boolean;
  conditions: Conditions;
}

/** What else was going on while a run was measured: the server is shared, the machine small. */
interface Conditions {
  /** How often the store's events table had been (auto)analyzed when the run started. */
  analyzedBefore: number;
  /** Rows in the store's events table when the run started. */
  rowsBefore: number;
  analyzedDuring: boolean;
  autovacuumSeen: boolean;
  /** Most client sessions seen active at once in other databases of the server. */
  otherSessionsMax: number;
}

/** Checkpoint before each measured run, and watch the server while it runs. */
interface Probe {
  beforeRun(store: Appender): Promise<void>;
  afterRun(store: Appender): Promise<Conditions>;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length); // nearest-rank
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

function summarise(
  measurement: string,
  store: string,
  latencies: number[],
  eventsPerAppend: number,
  seconds: number,
  complete: boolean,
  conditions: Conditions,
): Result {
  const sorted = Float64Array.from(latencies).sort();
  return {
    measurement,
    store,
    appends: latencies.length,
    events: latencies.length * eventsPerAppend,
    seconds,
    appendsPerSec: latencies.length / seconds,
    eventsPerSec: (latencies.length * eventsPerAppend) / seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
    complete,
    conditions,
  };
}

let runCounter = 0;

/** `writers` writers, each appending one event at a time to its own stream, until the deadline or the cap. */
async function appendLoop(
  store: Appender,
  writers: number,
  durationMs: number,
  maxAppendsPerWriter: number,
): Promise<{ latencies: number[]; seconds: number }> {
  const run = runCounter++;
  const latencies: number[] = [];
  const start = performance.now();
  const deadline = start + durationMs;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const stream = `sale-r${run}w${w}`;
      let expected: bigint | null = null;
      let appends = 0;
      while (appends < maxAppendsPerWriter && performance.now() < deadline) {
        const event = saleEvent();
        const t0 = performance.now();
        expected = await store.append(stream, [event], expected);
        latencies.push(performance.now() - t0);
        appends++;
      }
      const want = store.tokenAfter(appends, 1);
      if (appends > 0 && expected !== want) {
        throw new Error(`${store.name}: ${stream} ended at ${expected}, expected ${want}`);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - start) / 1000 };
}

async function measureAppends(
  label: string,
  store: Appender,
  cfg: typeof SINGLE,
  probe: Probe,
): Promise<Result> {
  await appendLoop(store, cfg.writers, cfg.warmupMs, cfg.maxAppendsPerWriter); // warm-up, discarded
  await probe.beforeRun(store);
  const { latencies, seconds } = await appendLoop(
    store,
    cfg.writers,
    cfg.durationMs,
    cfg.maxAppendsPerWriter,
  );
  return summarise(label, store.name, latencies, 1, seconds, true, await probe.afterRun(store));
}

/** Imports BATCH.streams streams of one BATCH.eventsPerBatch-event append each, `importers` at a time. */
async function measureBatch(
  label: string,
  store: Appender,
  importers: number,
  probe: Probe,
): Promise<Result> {
  const run = runCounter++;
  const batches = Array.from({ length: BATCH.streams }, () =>
    Array.from({ length: BATCH.eventsPerBatch }, saleEvent),
  );
  await store.append(`sale-r${run}warm`, batches[0]!.slice(0, 100), null); // warm-up, discarded
  await probe.beforeRun(store);
  const latencies: number[] = [];
  let next = 0;
  let complete = true;
  const start = performance.now();
  const deadline = start + BATCH.maxDurationMs;
  await Promise.all(
    Array.from({ length: importers }, async () => {
      while (next < batches.length) {
        if (performance.now() >= deadline) {
          complete = false;
          return;
        }
        const i = next++;
        const t0 = performance.now();
        const token = await store.append(`sale-r${run}s${i}`, batches[i]!, null);
        latencies.push(performance.now() - t0);
        if (token !== store.tokenAfter(1, BATCH.eventsPerBatch)) {
          throw new Error(`${store.name}: batch ${i} ended at ${token}`);
        }
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  return summarise(
    label,
    store.name,
    latencies,
    BATCH.eventsPerBatch,
    seconds,
    complete,
    await probe.afterRun(store),
  );
}

// ---------------------------------------------------------------------------------------
// Report

const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const fmtMs = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');

function resultsTable(results: Result[]): string {
  const rows = [
    '| Measurement | Store | Appends/s | Events/s | p50 ms | p95 ms | p99 ms | max ms | Appends | Events | Seconds |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    rows.push(
      `| ${r.measurement}${r.complete ? '' : ' (time cap hit, partial)'} | ${r.store} | ${fmtInt(r.appendsPerSec)} | ${fmtInt(r.eventsPerSec)} | ${fmtMs(r.p50)} | ${fmtMs(r.p95)} | ${fmtMs(r.p99)} | ${fmtMs(r.max)} | ${fmtInt(r.appends)} | ${fmtInt(r.events)} | ${r.seconds.toFixed(2)} |`,
    );
  }
  return rows.join('\n');
}

function conditionsTable(results: Result[]): string {
  const rows = [
    '| Measurement | Store | Rows in its events table at start | Table analyzed before run | Analyzed during run | Autovacuum seen | Other DBs: max active sessions |',
    '|---|---|---:|---|---|---|---:|',
  ];
  for (const r of results) {
    const c = r.conditions;
    rows.push(
      `| ${r.measurement} | ${r.store} | ${fmtInt(c.rowsBefore)} | ${c.analyzedBefore > 0 ? `yes (${c.analyzedBefore}x)` : 'no'} | ${c.analyzedDuring ? 'yes' : 'no'} | ${c.autovacuumSeen ? 'yes' : 'no'} | ${c.otherSessionsMax} |`,
    );
  }
  return rows.join('\n');
}

interface Measurement {
  label: string;
  throughput: 'appendsPerSec' | 'eventsPerSec';
  run: (store: Appender) => Promise<Result>;
}

function goalsTable(measurements: Measurement[], results: Result[], ours: string, emmett: string): string {
  const find = (label: string, store: string) =>
    results.find((r) => r.measurement === label && r.store === store);
  const rows = ['| Goal | Measured | Result |', '|---|---|---|'];
  const pass = (ok: boolean) => (ok ? 'PASS' : '**FAIL**');
  const conc = find(measurements[1]!.label, ours);
  const batch = find(measurements[2]!.label, ours);
  if (conc) {
    rows.push(
      `| ours, 16 writers: >= 2,000 appends/s | ${fmtInt(conc.appendsPerSec)} appends/s | ${pass(conc.appendsPerSec >= 2_000)} |`,
    );
    rows.push(`| ours, 16 writers: p99 < 25 ms | ${fmtMs(conc.p99)} ms | ${pass(conc.p99 < 25)} |`);
  }
  if (batch) {
    rows.push(
      `| ours, batch import: >= 20,000 events/s | ${fmtInt(batch.eventsPerSec)} events/s | ${pass(batch.eventsPerSec >= 20_000 && batch.complete)} |`,
    );
  }
  for (const m of measurements) {
    const o = find(m.label, ours);
    const e = find(m.label, emmett);
    if (!o || !e) continue;
    const unit = m.throughput === 'appendsPerSec' ? 'appends/s' : 'events/s';
    const ratio = o[m.throughput] / e[m.throughput];
    rows.push(
      `| ours no slower than Emmett: ${m.label} | ${fmtInt(o[m.throughput])} vs ${fmtInt(e[m.throughput])} ${unit} (x${ratio.toFixed(2)}) | ${pass(o[m.throughput] >= e[m.throughput])} |`,
    );
  }
  return rows.join('\n');
}

// ---------------------------------------------------------------------------------------

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function main(): Promise<void> {
  const dbName = `bahi_bench_${randomBytes(4).toString('hex')}`;
  const serverUrl = new URL(DATABASE_URL);
  const benchUrl = new URL(DATABASE_URL);
  benchUrl.pathname = `/${dbName}`;
  const connectionString = benchUrl.toString();

  let dropped = false;
  const extraDatabases: string[] = [];
  const dropDatabase = async () => {
    if (dropped) return;
    dropped = true;
    const admin = new pg.Client({ connectionString: serverUrl.toString() });
    try {
      await admin.connect();
      for (const name of [dbName, ...extraDatabases])
        await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      log(`dropped database ${dbName}`);
    } finally {
      await admin.end().catch(() => {});
    }
  };
  const watchdog = setTimeout(() => {
    log(`watchdog: run exceeded ${WATCHDOG_MS / 1000} s, aborting`);
    void dropDatabase()
      .catch((error: unknown) => log(`could not drop ${dbName}: ${String(error)}`))
      .finally(() => process.exit(2));
  }, WATCHDOG_MS);
  watchdog.unref();
  process.once('SIGINT', () => {
    void dropDatabase()
      .catch(() => {})
      .finally(() => process.exit(130));
  });

  const admin = new pg.Client({ connectionString: serverUrl.toString() });
  await admin.connect();
  let serverInfo: Record<string, string>;
  try {
    const version = (await admin.query<{ version: string }>('SELECT version()')).rows[0]!.version;
    const settings = await admin.query<{ name: string; setting: string; unit: string | null }>(
      `SELECT name, setting, unit FROM pg_settings
        WHERE name IN ('shared_buffers', 'synchronous_commit', 'fsync', 'wal_sync_method', 'max_connections')
        ORDER BY name`,
    );
    serverInfo = { version };
    for (const s of settings.rows) serverInfo[s.name] = s.unit ? `${s.setting} (${s.unit})` : s.setting;
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(dbName)}`);
    log(`created database ${dbName}`);
  } finally {
    await admin.end();
  }

  const stores: Appender[] = [];
  let control: pg.Client | undefined;
  try {
    control = new pg.Client({ connectionString });
    await control.connect();
    const ctl = control;
    const analyzeCount = async (table: string) => {
      const { rows } = await ctl.query<{ n: string; rows: string }>(
        `SELECT (coalesce(s.analyze_count, 0) + coalesce(s.autoanalyze_count, 0))::text AS n,
                (SELECT count(*) FROM ${table})::text AS rows
           FROM (SELECT 1) one LEFT JOIN pg_stat_user_tables s ON s.relid = $1::regclass`,
        [table],
      );
      return { analyzed: Number(rows[0]?.n ?? 0), rows: Number(rows[0]?.rows ?? 0) };
    };
    let sampling: { stop: () => Promise<{ autovacuum: boolean; others: number }> } | undefined;
    let startStats = { analyzed: 0, rows: 0 };
    const probe: Probe = {
      async beforeRun(store) {
        // Each measured run starts from a fresh checkpoint, so neither store pays for the
        // other's dirty pages being flushed in the middle of its run.
        await ctl.query('CHECKPOINT');
        (store as { lagStart?(): void }).lagStart?.();
        startStats = await analyzeCount(store.eventsTable);
        let autovacuum = false;
        let others = 0;
        let running = true;
        const loop = (async () => {
          while (running) {
            const { rows } = await ctl.query<{ av: string; others: string }>(
              `SELECT count(*) FILTER (WHERE backend_type = 'autovacuum worker')::text AS av,
                      count(*) FILTER (WHERE backend_type = 'client backend' AND state = 'active'
                                         AND datname IS DISTINCT FROM current_database())::text AS others
                 FROM pg_stat_activity`,
            );
            if (Number(rows[0]?.av ?? 0) > 0) autovacuum = true;
            others = Math.max(others, Number(rows[0]?.others ?? 0));
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        })();
        sampling = {
          async stop() {
            running = false;
            await loop;
            return { autovacuum, others };
          },
        };
      },
      async afterRun(store) {
        const seen = (await sampling?.stop()) ?? { autovacuum: false, others: 0 };
        const lagStop = (store as { lagStop?(label: string): Promise<SealLag> }).lagStop;
        if (lagStop) lags.push(await lagStop(`run ${lags.length + 1}`));
        sampling = undefined;
        const end = await analyzeCount(store.eventsTable);
        return {
          analyzedBefore: startStats.analyzed,
          rowsBefore: startStats.rows,
          analyzedDuring: end.analyzed > startStats.analyzed,
          autovacuumSeen: seen.autovacuum,
          otherSessionsMax: seen.others,
        };
      },
    };

    const ours = await createOurs(connectionString, {
      seal: !SEAL_AB,
      ...(SEAL_AB ? { name: 'ours, no seal' } : {}),
    });
    stores.push(ours);
    let sealedUrl: URL | undefined;
    if (SEAL_AB) {
      sealedUrl = new URL(connectionString);
      sealedUrl.pathname = `/${dbName}_sealed`;
      const admin2 = new pg.Client({ connectionString: serverUrl.toString() });
      await admin2.connect();
      await admin2.query(`CREATE DATABASE ${pg.escapeIdentifier(`${dbName}_sealed`)}`);
      await admin2.end();
      extraDatabases.push(`${dbName}_sealed`);
    }
    const emmett = SEAL_AB
      ? await createOurs(sealedUrl!.toString(), { seal: true, name: 'ours, sealed' })
      : await createEmmett(connectionString);
    stores.push(emmett);
    const lags: SealLag[] = [];

    const measurements: Measurement[] = [
      {
        label: '1 writer, 1 event/append',
        throughput: 'appendsPerSec',
        run: (s) => measureAppends('1 writer, 1 event/append', s, SINGLE, probe),
      },
      {
        label: '16 writers, 1 event/append',
        throughput: 'appendsPerSec',
        run: (s) => measureAppends('16 writers, 1 event/append', s, CONCURRENT, probe),
      },
      {
        label: `batch import, 1 importer (${BATCH.streams} x ${BATCH.eventsPerBatch} events)`,
        throughput: 'eventsPerSec',
        run: (s) =>
          measureBatch(
            `batch import, 1 importer (${BATCH.streams} x ${BATCH.eventsPerBatch} events)`,
            s,
            1,
            probe,
          ),
      },
      {
        label: `batch import, 4 importers (${BATCH.streams} x ${BATCH.eventsPerBatch} events)`,
        throughput: 'eventsPerSec',
        run: (s) =>
          measureBatch(
            `batch import, 4 importers (${BATCH.streams} x ${BATCH.eventsPerBatch} events)`,
            s,
            4,
            probe,
          ),
      },
    ];

    const results: Result[] = [];
    const order: string[] = [];
    for (const [i, m] of measurements.entries()) {
      // Alternate which store goes first, so neither always runs on the warmer/emptier server.
      const pair = i % 2 === 0 ? [ours, emmett] : [emmett, ours];
      order.push(`${m.label}: ${pair.map((s) => s.name.split(' ')[0]).join(' then ')}`);
      for (const store of pair) {
        log(`${m.label} — ${store.name}`);
        const r = await m.run(store);
        log(
          `  ${fmtInt(r.appendsPerSec)} appends/s, ${fmtInt(r.eventsPerSec)} events/s, p50 ${fmtMs(r.p50)} p99 ${fmtMs(r.p99)} ms`,
        );
        results.push(r);
      }
    }

    // The seal's own cost: the sealed database's whole log sealed again from nothing, alone.
    let reseal: { events: number; ms: number } | undefined;
    if (SEAL_AB) {
      const sql = createPgSqlClient({ connectionString: sealedUrl!.toString(), max: 2 });
      try {
        await sql.query('TRUNCATE es.chain');
        const started = performance.now();
        await sealChain(sql);
        reseal = { events: await emmett.countEvents(), ms: performance.now() - started };
        log(`resealed ${reseal.events} events in ${reseal.ms.toFixed(0)} ms`);
      } finally {
        await sql.close();
      }
    }
    const oursRows = await ours.countEvents();
    const emmettRows = await emmett.countEvents();

    const cpus = os.cpus();
    const sample = saleEvent();
    const lines = [
      '## Event store (bench/event-store)',
      '',
      `- Date: ${new Date().toISOString()}`,
      `- Command: \`cd /work/main && npm run event-store --workspace bench\` (runs \`${process.env.npm_lifecycle_script ?? 'tsx src/event-store.ts'}\`)`,
      `- Machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`,
      `- Postgres: ${serverInfo.version}`,
      `- Postgres settings: ${Object.entries(serverInfo)
        .filter(([k]) => k !== 'version')
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}`,
      `- Database: fresh \`${dbName}\` on the same server for both stores (dropped afterwards); pool size ${POOL_SIZE} for each store; benchmark client on the same machine as Postgres`,
      `- Payload: \`SaleRecorded\` event, data ${JSON.stringify(sample.data).length} bytes JSON + metadata ${JSON.stringify(sample.metadata).length} bytes`,
      `- Appends: ${SINGLE.warmupMs / 1000} s warm-up (discarded), then ${SINGLE.durationMs / 1000} s measured; each writer owns a stream and passes the version returned by its previous append (first append: stream must not exist)`,
      `- Batch import: ${BATCH.streams} new streams x 1 append of ${BATCH.eventsPerBatch} events = ${fmtInt(BATCH.streams * BATCH.eventsPerBatch)} events per run; latency columns are per 1,000-event append`,
      `- CHECKPOINT before every measured run; order: ${order.join('; ')}`,
      '- Both stores start with empty tables; the benchmark never runs ANALYZE, so when table statistics appear is up to autovacuum (see the conditions table)',
      `- Rows written (incl. warm-ups): ours ${fmtInt(oursRows)}, Emmett ${fmtInt(emmettRows)}`,
      '',
      '### Figures',
      '',
      resultsTable(results),
      '',
      '### Conditions during each measured run',
      '',
      conditionsTable(results),
      '',
      '### Goals',
      '',
      goalsTable(measurements, results, ours.name, emmett.name),
      '',
      '"No slower" compares throughput (appends/s, or events/s for batch import).',
      ...(SEAL_AB
        ? [
            '',
            '### Seal lag (ours, sealed; the measured runs in the order above)',
            '',
            '| Measurement | unsealed events, max | unsealed events, mean | catch-up after the run, ms |',
            '|---|---:|---:|---:|',
            ...lags.map(
              (l, i) =>
                `| ${measurements[i]?.label ?? l.label} | ${fmtInt(l.maxUnsealed)} | ${fmtInt(l.meanUnsealed)} | ${l.catchUpMs.toFixed(0)} |`,
            ),
            '',
            reseal
              ? `The seal alone, after the runs: the sealed database's ${fmtInt(reseal.events)} events sealed again from nothing in ${(reseal.ms / 1000).toFixed(2)} s (${fmtInt(Math.round(reseal.events / (reseal.ms / 1000)))} events/s, one process, nothing else of the benchmark running).`
              : '',
          ]
        : []),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const store of stores) {
      await store.close().catch((error: unknown) => log(`closing ${store.name}: ${String(error)}`));
    }
    await control?.end().catch(() => {});
    await dropDatabase().catch((error: unknown) => log(`could not drop ${dbName}: ${String(error)}`));
    clearTimeout(watchdog);
  }
}

main()
  .catch((error: unknown) => {
    process.stderr.write(
      `[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  })
  .finally(() => {
    // Everything is closed by now; a stray handle must not keep the process alive.
    setTimeout(() => process.exit(), 5_000).unref();
  });
