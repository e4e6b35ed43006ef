/**
 * First visits of a screen in Chromium (issue #28): the time from a person's click on the
 * screen's link to the screen's heading in the page, on the first visit after a fresh sign-in,
 * when the screen's remote may not have loaded yet.
 *
 * The standalone app on a fresh data directory with the demo business (BAHI_DEMO=1). For each
 * screen, RUNS fresh sign-ins (a new browser context each: nothing cached), then DWELL_MS on
 * the dashboard (a person reading it before the first click), then:
 * - Purchases, Day-wise, Balances, Stock: the drawer's group, then the screen's link (timed);
 * - Ledger (no menu link): the drawer's Collectors first (untimed: the masters remote), then
 *   the first collector's name, the ledger's link (timed).
 * Timed in the page: a capturing click listener stamps the click, a MutationObserver stamps
 * the heading's first rendering (in the DOM with a box). p95 of 10 runs is the slowest run.
 *
 * `npm run first-visits --workspace bench` (RUNS=10, DWELL_MS=2000; SCREENS=Ledger,Stock for
 * some of them). Also logs when the shell's idle prefetch ended (the `bahi:prefetch-done` mark)
 * after the dashboard was seen, where there is one.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { buildFrontends, FRONTENDS as FRONTENDS_BUILT } from '../../frontends/build.ts';
import { CHROMIUM } from '../../frontends/e2e/browser.ts';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';

const FRONTENDS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'frontends');
const RUNS = Number(process.env.RUNS ?? 10);
const DWELL_MS = Number(process.env.DWELL_MS ?? 2000);
const log = (...a: unknown[]) =>
  console.log(`[first-visits ${new Date().toISOString().slice(11, 19)}]`, ...a);

interface Screen {
  name: string;
  /** The drawer's group and link; for the Ledger the collectors' list it is opened from. */
  group: string;
  link: string;
  heading: string | RegExp;
  /** After the link: the click that is timed, when it is not the link itself. */
  via?: (page: Page) => Promise<void>;
}

const SCREENS: Screen[] = [
  { name: 'Purchases', group: 'Transactions', link: 'Purchases', heading: 'Purchases' },
  {
    name: 'Ledger',
    group: 'Masters',
    link: 'Collectors',
    heading: /^Ledger: /,
    via: async (page) => {
      await page.getByRole('heading', { name: 'Collectors', exact: true }).waitFor();
      await page
        .getByRole('table', { name: 'Collectors' })
        .getByRole('row')
        .nth(1)
        .getByRole('link')
        .first()
        .waitFor();
    },
  },
  { name: 'Day-wise', group: 'Financials', link: 'Day-wise Report', heading: 'Day-wise Report' },
  { name: 'Balances', group: 'Reports', link: 'Balances', heading: 'Balances Report' },
  { name: 'Stock', group: 'Reports', link: 'Stock', heading: 'Stock Report' },
];

/** In the page: resolves with performance.now() when a heading matching the text is rendered. */
const WATCH = `(pattern) => new Promise((resolve) => {
  const re = new RegExp(pattern);
  const found = () => [...document.querySelectorAll('h1, h2, [role="heading"]')].some(
    (h) => re.test((h.textContent || '').trim()) && h.getClientRects().length > 0);
  if (found()) return resolve(performance.now());
  const observer = new MutationObserver(() => {
    if (found()) { observer.disconnect(); resolve(performance.now()); }
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
})`;

async function visit(
  browser: Browser,
  app: TestApp,
  screen: Screen,
): Promise<{ ms: number; prefetch?: number }> {
  const context = await browser.newContext({
    viewport: { width: 1366, height: 900 },
    reducedMotion: 'reduce',
  });
  try {
    await context.addInitScript(`
      document.addEventListener('click', () => { window.__clickAt = performance.now(); }, true);
    `);
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${app.bahi.url}/login`);
    await page.getByLabel('Email').fill(app.bahi.config.BAHI_ADMIN_EMAIL);
    await page.getByLabel('Password').fill(app.bahi.config.BAHI_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    const dashboardAt = (await page.evaluate('performance.now()')) as number;
    await page.waitForTimeout(DWELL_MS);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: screen.group, exact: true }).click();
    const link = nav.getByRole('link', { name: screen.link, exact: true });
    await link.waitFor();
    let target = link;
    if (screen.via) {
      await link.click();
      await screen.via(page);
      target = page
        .getByRole('table', { name: 'Collectors' })
        .getByRole('row')
        .nth(1)
        .getByRole('link')
        .first();
    }
    const pattern = typeof screen.heading === 'string' ? `^${screen.heading}$` : screen.heading.source;
    const shown = page.evaluate(`(${WATCH})(${JSON.stringify(pattern)})`) as Promise<number>;
    await target.click();
    const at = await Promise.race([
      shown,
      page.waitForTimeout(30_000).then(async () => {
        const headings = await page.getByRole('heading').allTextContents();
        throw new Error(`${screen.name}: no heading ${pattern} at ${page.url()} (headings: ${headings})`);
      }),
    ]);
    const clickAt = (await page.evaluate('window.__clickAt')) as number;
    const mark = (await page.evaluate(
      `performance.getEntriesByName('bahi:prefetch-done').map((e) => e.startTime)[0] ?? null`,
    )) as number | null;
    return { ms: at - clickAt, ...(mark === null ? {} : { prefetch: mark - dashboardAt }) };
  } finally {
    await context.close();
  }
}

await buildFrontends();
// The app serves a copy of the built frontends: a rebuild elsewhere cannot pull chunks away.
const served = await mkdtemp(join(tmpdir(), 'bahi-bench-frontends-'));
for (const name of FRONTENDS_BUILT)
  await cp(join(FRONTENDS, name, 'dist'), join(served, name, 'dist'), { recursive: true });
const app = await openTestApp({ env: () => ({ BAHI_FRONTENDS_DIR: served, BAHI_DEMO: '1' }) });
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking'],
});
try {
  log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${RUNS} runs, dwell ${DWELL_MS} ms`,
  );
  const rank = (v: number[], p: number) => [...v].sort((a, b) => a - b)[Math.ceil(p * v.length) - 1]!;
  const rows: string[] = [];
  const only = process.env.SCREENS?.split(',');
  for (const screen of SCREENS.filter((s) => !only || only.includes(s.name))) {
    const times: number[] = [];
    const prefetch: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const r = await visit(browser, app, screen);
      times.push(r.ms);
      if (r.prefetch !== undefined) prefetch.push(r.prefetch);
    }
    const row =
      `${screen.name}: p50 ${Math.round(rank(times, 0.5))} ms, p95 ${Math.round(rank(times, 0.95))} ms` +
      ` (runs: ${times.map((t) => Math.round(t)).join(', ')})` +
      (prefetch.length
        ? `; prefetch done ${Math.round(rank(prefetch, 0.5))} ms after the dashboard (median, ${prefetch.length} runs)`
        : '; no prefetch mark');
    log(row);
    rows.push(row);
  }
  log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(rows.join('\n'));
} finally {
  await browser.close();
  await app.close();
  await rm(served, { recursive: true, force: true });
}
