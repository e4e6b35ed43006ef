/**
 * The longest ledger in the browser (issue #15): the busiest collector of a large-scale seed
 * (about 6,000 lines) opened in Chromium on the Ledger screen. Measures, over RUNS runs:
 * - navigation start -> the first line shown, and -> the page idle with the lines shown;
 * - the longest main-thread task and the total blocking time (Long Tasks API) while it loads;
 * - End (scroll to the bottom) -> the last line shown; how many rows the DOM holds.
 *
 * `npm run ledger-browser --workspace bench` (SCALE=unit by default: one unit of the large
 * seed, whose busiest collector's ledger is as long as the large seed's; SCALE=large for all of
 * it; DATABASE_URL for Postgres, else PGlite). Numbers go to docs/benchmarks.md.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Call, SCALES, seedScale } from '@bahi/command';
import pg from 'pg';
import { buildFrontends, FRONTENDS as FRONTENDS_BUILT } from '../../frontends/build.ts';
import { openSignedIn } from '../../frontends/e2e/browser.ts';
import { openTestApp } from '../../services/standalone/src/testing/test-app.ts';

const FRONTENDS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'frontends');
const scaleName = (process.env.SCALE ?? 'unit') as keyof typeof SCALES;
const RUNS = Number(process.env.RUNS ?? 5);
const log = (...a: unknown[]) =>
  console.log(`[ledger-browser ${new Date().toISOString().slice(11, 19)}]`, ...a);

await buildFrontends();
// The app serves a copy of the built frontends: a rebuild elsewhere meanwhile cannot pull the
// chunks from under the measured page.
const served = await mkdtemp(join(tmpdir(), 'bahi-bench-frontends-'));
for (const name of FRONTENDS_BUILT)
  await cp(join(FRONTENDS, name, 'dist'), join(served, name, 'dist'), { recursive: true });
// On Postgres the seeded books are kept (bahi_bench_ledger_<scale>) and reused by the next run.
const databaseUrl = process.env.DATABASE_URL
  ? await keptDatabase(process.env.DATABASE_URL, `bahi_bench_ledger_${scaleName}`)
  : undefined;
const app = await openTestApp({
  env: () => ({ BAHI_FRONTENDS_DIR: served }),
  ...(databaseUrl ? { databaseUrl } : {}),
});
try {
  // The seed names whole paths (/api/...); the test app's client adds /api itself.
  const call: Call = (method, path, body) => app.call(method, path.replace(/^\/api/, ''), body);
  const started = Date.now();
  const today = new Date().toISOString().slice(0, 10);
  const seeded = (await app.call('GET', '/masters/collectors?limit=1')).body.totalItems > 0;
  if (seeded) log(`reusing the seeded books in ${new URL(databaseUrl!).pathname.slice(1)}`);
  else {
    const { writes } = await seedScale(call, SCALES[scaleName], today, (n) => {
      if (n % 10_000 === 0) log(`seeded ${n} records`);
    });
    log(`seed ${scaleName}: ${writes} records in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  await app.syncToHead();

  // The busiest collector: the longest ledger.
  const collectors = (await app.call('GET', '/masters/collectors?limit=-1')).body.data as Array<{
    id: string;
    name: string;
  }>;
  let busiest = { id: '', name: '', lines: 0 };
  for (const c of collectors) {
    const ledger = (await app.call('GET', `/reports/ledger/Collector/${c.id}`)).body;
    if (ledger.transactions.length > busiest.lines)
      busiest = { id: c.id, name: c.name, lines: ledger.transactions.length };
  }
  log(`busiest collector: ${busiest.name} with ${busiest.lines} ledger lines`);

  // Without the idle prefetch of the other remotes: it would run beside the measured loads.
  const browser = await openSignedIn(app, { prefetch: false });
  const { page } = browser;
  await page.setViewportSize({ width: 1366, height: 900 });
  // Browser code as text: this file is type-checked for Node, without the DOM's types.
  await page.addInitScript(`
    window.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__long.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  `);
  const url = `${app.bahi.url}/reports/ledger/Collector/${busiest.id}`;
  const results: Array<{
    first: number;
    idle: number;
    longest: number;
    blocking: number;
    end: number;
    dom: number;
  }> = [];
  for (let run = 0; run < RUNS; run++) {
    await page.goto('about:blank');
    await page.goto(url);
    const table = page.getByRole('table', { name: `Ledger of ${busiest.name}` });
    await table.getByRole('row').nth(1).waitFor();
    const first = await page.evaluate(() => performance.now());
    await page.waitForLoadState('networkidle');
    const idle = (await page.evaluate(
      'new Promise((resolve) => requestIdleCallback(() => resolve(performance.now())))',
    )) as number;
    const long = (await page.evaluate('window.__long')) as number[];
    const dom = await table.locator('tbody tr').count();
    // End: the scroller jumps to the bottom; the last line (the closing balance) shows.
    const scroller = page.getByRole('region', { name: `Ledger of ${busiest.name}, scrollable` });
    await scroller.focus();
    const t0 = await page.evaluate(() => performance.now());
    await page.keyboard.press('End');
    await table.locator(`tr[aria-rowindex="${busiest.lines + 1}"]`).waitFor();
    const end = (await page.evaluate(() => performance.now())) - t0;
    results.push({
      first,
      idle,
      longest: Math.max(0, ...long),
      blocking: long.reduce((s, d) => s + Math.max(0, d - 50), 0),
      end,
      dom,
    });
    log(
      `run ${run + 1}:`,
      JSON.stringify(results.at(-1), (_, v) => (typeof v === 'number' ? Math.round(v) : v)),
    );
  }
  const median = (k: keyof (typeof results)[number]) => {
    const v = results.map((r) => r[k]).sort((a, b) => a - b);
    return Math.round(v[Math.floor(v.length / 2)]!);
  };
  log(
    `median of ${RUNS}: first line ${median('first')} ms, idle ${median('idle')} ms after navigation start;` +
      ` longest task ${median('longest')} ms, total blocking ${median('blocking')} ms;` +
      ` End -> last line ${median('end')} ms; ${median('dom')} rows in the DOM of ${busiest.lines}`,
  );
  await browser.close();
} finally {
  await app.close();
  await rm(served, { recursive: true, force: true });
}

/** A database of that name on the server (created when missing), kept after the run. */
async function keptDatabase(base: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}
