/**
 * Command-side write speed on one busy godown: sequential sales through the real HTTP routes
 * (app.inject) on Postgres, with the per-process stream cache and without it. Each sale's
 * stock check needs the godown's inventory stream folded; without the cache every write
 * folds the whole, growing stream again.
 *
 *   npm run command-writes --workspace bench     (DATABASE_URL, default the local Postgres)
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setStreamCacheSize } from '@bahi/command';
import { commandTestApp } from '@bahi/command/testing';
import { createPgSqlClient } from '@bahi/sql-client';
import pg from 'pg';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SALES = Number(process.env.SALES ?? 3000);
const SEGMENT = 500;

async function run(label: string, cacheSize: number) {
  const name = `bahi_bench_cmd_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  const sql = createPgSqlClient({ connectionString: url.toString(), max: 5 });
  setStreamCacheSize(cacheSize);
  const t = await commandTestApp({ sql });
  try {
    const mk = async (kind: string, body: unknown) =>
      (await t.call('POST', `/api/masters/${kind}`, t.adminToken, body)).json().id as string;
    const city = await mk('cities', { name: 'C', currency_name: 'INR', rate: 1 });
    const funder = await mk('funders', { name: 'F', city_id: city });
    const agent = await mk('agents', { name: 'A', city_id: city });
    const godown = await mk('godowns', { name: 'G' });
    const product = await mk('products', { name: 'P' });
    await t.call('POST', '/api/transactions/purchases', t.adminToken, {
      type: 'Godown',
      purchase_date: '2026-11-01',
      city_id: city,
      funder_id: funder,
      product_id: product,
      godown_id: godown,
      rate: 10,
      quantity: 1_000_000,
    });
    const segments: number[] = [];
    let start = performance.now();
    for (let i = 1; i <= SALES; i++) {
      const res = await t.call('POST', '/api/transactions/sales', t.adminToken, {
        sale_date: '2026-11-02',
        agent_id: agent,
        product_id: product,
        godown_id: godown,
        rate: 12,
        quantity: 1,
      });
      if (res.statusCode !== 201) throw new Error(`sale ${i}: ${res.statusCode} ${res.body}`);
      if (i % SEGMENT === 0) {
        segments.push(SEGMENT / ((performance.now() - start) / 1000));
        start = performance.now();
      }
    }
    return { label, segments };
  } finally {
    await t.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const results = [await run('with the stream cache (500 streams)', 500), await run('without it', 0)];
const cpu = os.cpus()[0]?.model ?? 'unknown';
console.log(`Command writes: ${SALES} sequential sales on one godown, Postgres; ${new Date().toISOString()}`);
console.log(
  `Machine: ${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}\n`,
);
console.log(
  `| run | ${results[0]!.segments.map((_, i) => `sales ${i * SEGMENT + 1}-${(i + 1) * SEGMENT}`).join(' | ')} |`,
);
console.log(`|---|${results[0]!.segments.map(() => '---:').join('|')}|`);
for (const r of results)
  console.log(`| ${r.label} | ${r.segments.map((s) => `${s.toFixed(0)}/s`).join(' | ')} |`);
