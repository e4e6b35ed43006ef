/**
 * Reads and writes while a standalone rebuild runs (issue #27.7): the standalone app on PGlite,
 * seeded through its own routes once (the data directory is kept in `BENCH_DIR` and reused),
 * then a rebuild of every projection asked for through the Admin API while a read (a collector's
 * ledger) and a write (an expense) are sent one after the other, each timed, until the rebuild is
 * done (three clients side by side: reads, writes, the status). Prints the rebuild's length and each kind's count, median and maximum. `DAYS` (60),
 * `UNITS` (1), `INTENSITY` (16) size the seed (SCALE=unit is 730 days, about 84,000 records).
 * Numbers go to docs/benchmarks.md.
 */
import { execSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { type Call, seedScale } from '@bahi/command';
import { startStandalone } from '../../services/standalone/src/standalone.ts';

// biome-ignore lint/suspicious/noExplicitAny: the answers are read field by field
type Body = any;

const DIR = process.env.BENCH_DIR ?? '/tmp/bahi-bench-rebuild';
const scale = {
  days: Number(process.env.DAYS ?? 60),
  units: Number(process.env.UNITS ?? 1),
  intensity: Number(process.env.INTENSITY ?? 16),
};
const log = (...a: unknown[]) =>
  console.log(`[rebuild-traffic ${new Date().toISOString().slice(11, 19)}]`, ...a);

const bahi = await startStandalone(
  { PORT: '0', HOST: '127.0.0.1', BAHI_DATA_DIR: join(DIR, 'data'), BAHI_FRONTENDS_DIR: join(DIR, 'none') },
  { logger: false },
);
try {
  const login = await fetch(`${bahi.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: bahi.config.BAHI_ADMIN_EMAIL, password: bahi.config.BAHI_ADMIN_PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  const call = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Body }> => {
    const res = await fetch(`${bahi.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: await res.json() };
  };
  const collectors = await call('GET', '/api/masters/collectors?limit=-1');
  if ((collectors.body as { totalItems: number }).totalItems === 0) {
    const started = Date.now();
    const { writes } = await seedScale(call as Call, scale, '2026-11-20', (n) => {
      if (n % 1000 === 0) log(`seeded ${n} records`);
    });
    log(`seeded ${writes} records in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } else log(`reusing the seeded books in ${DIR}`);

  const head = await bahi.eventStore.headPosition();
  // Every projection at the head before the rebuild starts.
  for (;;) {
    const status = (await call('GET', '/api/admin/projections')).body as {
      projections: Array<{ position: string }>;
    };
    if (status.projections.every((p) => BigInt(p.position) >= head)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const collector = (
    (await call('GET', '/api/masters/collectors?limit=1')).body as {
      data: Array<{ id: string; city_id: string }>;
    }
  ).data[0]!;
  log(`${head} events in the log; asking for a rebuild of every projection`);

  const reads: number[] = [];
  const writes: number[] = [];
  const slowest: Array<{ what: string; at: number; ms: number }> = [];
  const timed = async (into: number[], fn: () => Promise<{ status: number; body: Body }>, what = '') => {
    const t0 = performance.now();
    const res = await fn();
    const ms = performance.now() - t0;
    into.push(ms);
    slowest.push({ what, at: Math.round(t0 - t00), ms: Math.round(ms) });
    if (res.status >= 300) throw new Error(`status ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const started = Date.now();
  const t00 = performance.now();
  const asked = await timed(writes, () => call('POST', '/api/admin/projections/rebuild', {}));
  // Every read of the status is timed too: it is a read like any other.
  const rebuild = async () =>
    (
      (await timed(reads, () => call('GET', '/api/admin/projections'), 'status')) as {
        rebuilds: Array<{ id: string; status: string }>;
      }
    ).rebuilds.find((r) => r.id === asked.id);
  // Three clients side by side until the rebuild is through: one reads a ledger, one writes
  // expenses, one reads the rebuild's status, each sending its next request when the last is
  // answered.
  let status = 'requested';
  const going = () => status === 'requested' || status === 'running';
  let i = 0;
  const pause = () => new Promise((r) => setTimeout(r, 100));
  await Promise.all([
    (async () => {
      while (going()) {
        await timed(reads, () => call('GET', `/api/reports/ledger/Collector/${collector.id}`), 'ledger');
        await pause();
      }
    })(),
    (async () => {
      while (going()) {
        await timed(
          writes,
          () =>
            call('POST', '/api/transactions/expenses', {
              amount: `${10 + (i++ % 90)}.50`,
              expense_date: '2026-11-20',
              category: 'Rent',
              remarks: 'during a rebuild',
              city_id: collector.city_id,
              paid_from_entity_type: 'Collector',
              paid_from_entity_id: collector.id,
            }),
          'expense',
        );
        await pause();
      }
    })(),
    (async () => {
      while (going()) {
        status = (await rebuild())?.status ?? 'gone';
        await pause();
      }
    })(),
  ]);
  const took = (Date.now() - started) / 1000;
  const stats = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    return `n=${xs.length} p50=${at(0.5).toFixed(0)} ms p95=${at(0.95).toFixed(0)} ms max=${sorted.at(-1)!.toFixed(0)} ms`;
  };
  // From the request (the projector looks for one every second) to the status saying done.
  console.log(`\nrebuild ${status} ${took.toFixed(1)} s after it was asked for, over ${head} events`);
  console.log(`reads (ledger, status): ${stats(reads)}`);
  console.log(`writes (expense):       ${stats(writes)}`);
  const worst = slowest.sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(
    `slowest (sent at ms after the request): ${worst.map((w) => `${w.what} @${w.at}: ${w.ms} ms`).join(', ')}`,
  );
  console.log(
    `machine: ${cpus()[0]?.model} x${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
  );
  console.log(`date: ${new Date().toISOString()}; uptime: ${execSync('uptime').toString().trim()}`);
} finally {
  await bahi.stop();
}
