import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';
import { openSignedIn, themedShots } from './browser.ts';

/**
 * Reports as closed (issue #30), in Chromium: October is closed through the API; a week of
 * November entries later, Balances and Stock as of 31 Oct say "Closed on <moment> by <Admin>"
 * and show the closed figures (the API's stored ones). After a reopening and an October
 * restatement, the note says the figures changed and its button opens the time-travel compare
 * against the close.
 */
const FRONTENDS = dirname(dirname(fileURLToPath(import.meta.url)));
const SHOTS = process.env.BAHI_SHOTS_DIR ?? join(dirname(FRONTENDS), 'test-results', 'screenshots');

let app: TestApp;
let browser: Awaited<ReturnType<typeof openSignedIn>>;
let page: Page;
const ids: Record<string, string> = {};
let close: { position: string; closed_at: string; closed_by: { name: string } };
let figures: {
  balances: { funders: { id: string; opening_balance: string; balance: string }[] };
  stock: { quantity: string }[];
};

async function api(method: string, path: string, body?: unknown) {
  const r = await app.call(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

const purchase = (date: string, quantity: number) => ({
  type: 'Godown',
  purchase_date: date,
  city_id: ids.city,
  funder_id: ids.funder,
  product_id: ids.product,
  godown_id: ids.godown,
  rate: 100,
  quantity,
});

/** Two decimal texts added exactly (cents as bigints), as 2-place text: the Current Balance. */
const add = (a: string, b: string) => {
  const cents = (v: string) => BigInt(v.replace('.', ''));
  const sum = cents(a) + cents(b);
  const abs = sum < 0n ? -sum : sum;
  return `${sum < 0n ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
};

const note = () => page.getByRole('region', { name: 'Closed period' });

const shots = (name: string) => themedShots(page, join(SHOTS, `closed-${name}`));

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  app = await openTestApp({ env: () => ({ BAHI_FRONTENDS_DIR: FRONTENDS }) });
  ids.city = (await api('POST', '/masters/cities', { name: 'Mumbai', currency_name: 'INR', rate: 1 })).id;
  ids.funder = (
    await api('POST', '/masters/funders', { name: 'Dev', city_id: ids.city, opening_balance: 300 })
  ).id;
  ids.godown = (await api('POST', '/masters/godowns', { name: 'Bhiwandi' })).id;
  ids.product = (await api('POST', '/masters/products', { name: 'Cumin' })).id;
  ids.october = (await api('POST', '/transactions/purchases', purchase('2026-10-10', 4))).id;
  const closed = await api('POST', '/books/close', { up_to: '2026-10-31' });
  const answer = await api('GET', `/books/closes/${closed.position}/figures`);
  close = answer.close;
  figures = answer.figures;
  // A week of November entries after the close.
  for (let d = 1; d <= 7; d += 1) await api('POST', '/transactions/purchases', purchase(`2026-11-0${d}`, 1));
  await app.syncToHead();
  browser = await openSignedIn(app);
  page = browser.page;
  await page.setViewportSize({ width: 1366, height: 900 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('reports as closed in Chromium', () => {
  it('Balances as of 31 Oct say when and by whom they were closed, with the closed figures', async () => {
    const admin = (await api('GET', '/books/close')).by.name as string;
    expect(close.closed_by.name).toBe(admin);
    await page.goto(`${app.bahi.url}/reports/balances?asOf=2026-10-31`);
    await page.getByRole('heading', { name: 'Balances Report', exact: true }).waitFor();
    await note().getByText(`by ${admin}`).waitFor();
    const text = await note().textContent();
    expect(text).toMatch(/^Closed on \d{1,2} [A-Z][a-z]{2} \d{4} /);
    expect(text).toContain(`by ${admin}`);
    expect(text).toContain(
      'The books up to 31 Oct 2026 were closed; these figures are exactly the closed ones.',
    );
    expect(text).toMatch(/Digest [0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}\./);
    // The row shows the closed figures: the stored opening balance and opening + balance.
    const funder = figures.balances.funders.find((f) => f.id === ids.funder)!;
    const row = page.getByRole('row').filter({ hasText: 'Dev' });
    await expect.poll(() => row.textContent()).toContain(funder.opening_balance);
    expect(await row.textContent()).toContain(add(funder.opening_balance, funder.balance));
    // Today's books did move (the November week): the screen as of now is not the closed one.
    const now = await api('GET', '/reports/balances?limit=-1');
    const today = now.funders.data.find((p: { id: string }) => p.id === ids.funder);
    expect(add(today.opening_balance, today.balance.amount)).not.toBe(
      add(funder.opening_balance, funder.balance),
    );
    await shots('balances');
  }, 90_000);

  it('Stock as of 31 Oct says so too, with the closed quantity', async () => {
    await page.goto(`${app.bahi.url}/reports/stock?asOf=2026-10-31`);
    await page.getByRole('heading', { name: 'Stock Report', exact: true }).waitFor();
    await note()
      .getByText(/^Closed on /)
      .waitFor();
    expect(figures.stock.map((s) => s.quantity)).toEqual(['4.0000']);
    await page.getByRole('region', { name: 'Bhiwandi' }).getByText('4.0000').waitFor();
    await shots('stock');
  }, 90_000);

  it('after a reopening and an October restatement, says the figures changed and opens the compare', async () => {
    await api('POST', '/books/reopen', { reason: 'Late invoice from Dev' });
    await api('PUT', `/transactions/purchases/${ids.october}`, purchase('2026-10-10', 6));
    await app.syncToHead();
    await page.goto(`${app.bahi.url}/reports/stock?asOf=2026-10-31`);
    await note()
      .getByText(/have changed since: the books were reopened and restated/)
      .waitFor();
    await page.getByRole('region', { name: 'Bhiwandi' }).getByText('6.0000').waitFor();
    await note().getByRole('button', { name: 'Compare with the close' }).click();
    await note()
      .getByText(/Marked: what changed since the close/)
      .waitFor();
    expect(new URL(page.url()).searchParams.get('compare')).toBe(close.closed_at);
    await page.getByRole('region', { name: 'Bhiwandi' }).getByText('(+2.0000 since)').waitFor();
    await shots('stock-restated');
  }, 90_000);
});
