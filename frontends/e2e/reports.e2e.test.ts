import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount } from '../../packages/ui/src/format.ts';
import { showDay } from '../../packages/ui/src/screen/date-text.ts';
import { addDecimal, subtractDecimal } from '../../packages/ui/src/screen/decimal-text.ts';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';
import { openSignedIn } from './browser.ts';

/**
 * The reports remote driven as an auditor drives it, on the demo business (BAHI_DEMO=1): every
 * figure on screen is checked against the report's JSON endpoint, and the time-travel bar
 * against a backdated expense keyed after the report was read.
 */
const FRONTENDS = dirname(dirname(fileURLToPath(import.meta.url)));
const SHOTS = join(dirname(FRONTENDS), 'test-results', 'screenshots');

let app: TestApp;
let browser: Awaited<ReturnType<typeof openSignedIn>>;
let page: Page;

const url = (path: string) => `${app.bahi.url}${path}`;
const heading = (name: string) => page.getByRole('heading', { name, exact: true });
const card = (name: string) => page.getByRole('region', { name, exact: true });

async function api(method: string, path: string, body?: unknown) {
  const r = await app.call(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

interface Line {
  date: string;
  particulars: string;
  debit: string;
  credit: string;
  balance: string;
  key: string;
}

/** Money as the screen prints it, with the currency. */
const shown = (amount: string, currency: string) => `${formatAmount(amount)} ${currency}`;
const sum = (values: string[]) => values.reduce((s, v) => addDecimal(s, v, 2), '0.00');

let collector: { id: string; name: string; city_id: string; currency: string };
let city: { id: string; name: string };

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  app = await openTestApp({ env: () => ({ BAHI_FRONTENDS_DIR: FRONTENDS, BAHI_DEMO: '1' }) });
  await app.syncToHead();
  const cities = (await api('GET', '/masters/cities?limit=-1')).data;
  const collectors = (await api('GET', '/masters/collectors?limit=-1')).data;
  // The collector with the longest ledger.
  let best = { lines: -1, c: collectors[0] };
  for (const c of collectors) {
    const n = (await api('GET', `/reports/ledger/Collector/${c.id}`)).transactions.length;
    if (n > best.lines) best = { lines: n, c };
  }
  const c = best.c;
  const home = cities.find((x: { id: string }) => x.id === c.city_id);
  collector = { id: c.id, name: c.name, city_id: c.city_id, currency: home.currency_name };
  city = { id: home.id, name: home.name };
  browser = await openSignedIn(app);
  page = browser.page;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the reports remote in Chromium, on the demo business', () => {
  it('Ledger: the four figures equal the endpoint; filtered by dates it opens at the balance before the start date', async () => {
    // From the collectors list, as a person does: the name is the ledger's link.
    await page.goto(url(`/masters/collectors?search=${encodeURIComponent(collector.name)}`));
    await page.getByRole('link', { name: collector.name, exact: true }).click();
    await heading(`Ledger: ${collector.name}`).waitFor();
    const all = await api('GET', `/reports/ledger/Collector/${collector.id}`);
    const c = collector.currency;
    await expect.poll(() => card('Closing Balance').textContent()).toContain(shown(all.closingBalance, c));
    expect(await card('Opening Balance').textContent()).toContain(shown(all.openingBalance, c));
    expect(await card('Total Debit').textContent()).toContain(shown(all.totalDebit, c));
    expect(await card('Total Credit').textContent()).toContain(shown(all.totalCredit, c));
    // The totals are the sums of the lines.
    expect(sum(all.transactions.map((l: Line) => l.debit))).toBe(all.totalDebit);
    expect(sum(all.transactions.map((l: Line) => l.credit))).toBe(all.totalCredit);
    // The breadcrumb goes back to the list.
    expect(
      await page
        .getByRole('navigation', { name: 'Breadcrumb' })
        .getByRole('link', { name: 'Collectors' })
        .count(),
    ).toBe(1);

    // Start at the date of a line in the middle: the opening is the running balance of the last line before it.
    const lines: Line[] = all.transactions;
    const mid = lines[Math.floor(lines.length / 2)]!;
    const before = lines.filter((l) => l.date < mid.date).at(-1)!;
    await page.getByLabel('Start Date', { exact: true }).fill(mid.date);
    await page.getByLabel('Start Date', { exact: true }).press('Tab');
    await page.getByRole('button', { name: 'Apply Filter' }).click();
    await expect.poll(() => card('Opening Balance').textContent()).toContain(shown(before.balance, c));
    expect(page.url()).toContain(`startDate=${mid.date}`);
    const filtered = await api('GET', `/reports/ledger/Collector/${collector.id}?startDate=${mid.date}`);
    expect(filtered.openingBalance).toBe(before.balance);
    expect(await card('Closing Balance').textContent()).toContain(shown(filtered.closingBalance, c));
    const firstRow = page
      .getByRole('table', { name: `Ledger of ${collector.name}` })
      .getByRole('row')
      .nth(1);
    expect(await firstRow.textContent()).toContain(formatAmount(filtered.transactions[0].balance));
  });

  it('a backdated expense keyed after the report was read: on its own date, absent as known then, marked by Compare', async () => {
    const all = await api('GET', `/reports/ledger/Collector/${collector.id}`);
    const lines: Line[] = all.transactions;
    const backdated = lines[Math.floor(lines.length / 3)]!.date;
    // The day-wise report of the city, read now (moment T), over the month of the backdated day.
    const start = `${backdated.slice(0, 8)}01`;
    const end = backdated;
    const range = `startDate=${start}&endDate=${end}&city_id=${city.id}`;
    const before = await api('GET', `/reports/daywise-report?${range}`);
    await new Promise((r) => setTimeout(r, 1100));
    const T = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 1100));
    const expense = await api('POST', '/transactions/expenses', {
      expense_date: `${backdated}T00:00:00.000Z`,
      category: 'Backdated audit check',
      amount: '123.45',
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: collector.id,
      remarks: 'keyed after the report was read',
    });
    await app.syncToHead();

    // Day-wise now: the expense on its own date; as known at T: the report as it was read.
    await page.goto(url(`/financials/daywise-report?tab=${city.id}&startDate=${start}&endDate=${end}`));
    await heading('Day-wise Report').waitFor();
    const table = page.getByRole('table', { name: 'Day-wise report' });
    const row = table.getByRole('row').filter({ hasText: 'Backdated audit check' });
    await row.waitFor();
    expect(await row.textContent()).toContain(showDay(backdated));
    const now = await api('GET', `/reports/daywise-report?${range}`);
    const expenses = (rows: Array<{ type: string; amount: string }>) =>
      sum(rows.filter((r) => r.type === 'Expense').map((r) => r.amount));
    expect(subtractDecimal(expenses(now), expenses(before), 2)).toBe('123.45');
    const totalRow = table.getByRole('row').filter({ hasText: /^Total/ });
    await expect.poll(() => totalRow.textContent()).toContain(formatAmount(expenses(now)));

    await page.goto(
      url(
        `/financials/daywise-report?tab=${city.id}&startDate=${start}&endDate=${end}&knownAt=${encodeURIComponent(T)}`,
      ),
    );
    await expect.poll(() => totalRow.textContent()).toContain(formatAmount(expenses(before)));
    expect(await table.getByRole('row').filter({ hasText: 'Backdated audit check' }).count()).toBe(0);
    const knownThen = await api('GET', `/reports/daywise-report?${range}&knownAt=${encodeURIComponent(T)}`);
    expect(knownThen).toEqual(before.map((r: object, i: number) => ({ ...r, ...knownThen[i] })));
    expect(knownThen.length).toBe(before.length);

    // Compare with T: the expense is marked as added since, on the day-wise report and the ledger.
    await page.goto(
      url(
        `/financials/daywise-report?tab=${city.id}&startDate=${start}&endDate=${end}&compare=${encodeURIComponent(T)}`,
      ),
    );
    await expect.poll(() => row.getAttribute('data-mark')).toBe('added');
    expect(await row.textContent()).toContain('Added since');
    await page.screenshot({ path: join(SHOTS, 'reports-daywise-compare-1366-dark.png') });

    await page.goto(url(`/reports/ledger/Collector/${collector.id}?compare=${encodeURIComponent(T)}`));
    const ledger = page.getByRole('table', { name: `Ledger of ${collector.name}` });
    const marked = ledger.locator('tr[data-mark="added"]');
    await expect.poll(() => card('Closing Balance').textContent()).toContain('-123.45 since');
    // The virtualized table renders the rows in view: scroll the marked line into it.
    const index = (await api('GET', `/reports/ledger/Collector/${collector.id}`)).transactions.findIndex(
      (l: { record?: { id: string } }) => l.record?.id === expense.id,
    );
    expect(index).toBeGreaterThanOrEqual(0);
    const scroller = page.getByRole('region', { name: `Ledger of ${collector.name}, scrollable` });
    await scroller.evaluate((el, i) => {
      el.scrollTop = Math.max(0, i * 36 - 200);
    }, index);
    await marked.first().waitFor();
    expect(await marked.count()).toBe(1);
    expect(await marked.first().textContent()).toContain('123.45');
    await page.screenshot({ path: join(SHOTS, 'reports-ledger-compare-1366-dark.png') });

    // Drill-down: the line opens the expense with its history; Esc returns to the same place.
    const top = await scroller.evaluate((el) => el.scrollTop);
    const search = new URL(page.url()).search;
    await marked.first().getByRole('button').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('CREATE').waitFor();
    expect(await dialog.textContent()).toContain('by Administrator');
    expect(await dialog.textContent()).toContain('Backdated audit check');
    await page.screenshot({ path: join(SHOTS, 'reports-record-1366-dark.png') });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).search).toBe(search);
    expect(await scroller.evaluate((el) => el.scrollTop)).toBe(top);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Expense');
  });

  it('Cashbook: the city’s collector picked and applied; totals equal the endpoint; zero shows -', async () => {
    await page.goto(url('/financials/cashbook-report'));
    await heading('Cashbook Report').waitFor();
    await page.getByRole('tab', { name: city.name }).click();
    const start = '2000-01-01';
    await page.getByLabel('Start Date', { exact: true }).fill(start);
    await page.getByLabel('Start Date', { exact: true }).press('Tab');
    await page.getByLabel('Collector or Godown').selectOption({ label: collector.name });
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    const table = page.getByRole('table', { name: 'Cashbook' });
    const rows = await api(
      'GET',
      `/reports/cashbook-report?startDate=${start}&endDate=${new Date().toISOString().slice(0, 10)}&entity_type=Collector&entity_id=${collector.id}&city_id=${city.id}`,
    );
    expect(rows.length).toBeGreaterThan(0);
    const cashIn = sum(rows.map((r: { cash_in: string }) => r.cash_in));
    const cashOut = sum(rows.map((r: { cash_out: string }) => r.cash_out));
    const total = table.getByRole('row').filter({ hasText: /^Total/ });
    await expect.poll(() => total.textContent()).toBe(`Total${formatAmount(cashIn)}${formatAmount(cashOut)}`);
    const net = table.getByRole('row').filter({ hasText: /^Net Total/ });
    expect(await net.textContent()).toContain(formatAmount(subtractDecimal(cashIn, cashOut, 2)));
    const first = table.getByRole('row').nth(1);
    expect(await first.textContent()).toContain('-');
    // Changing the city clears the picked collector.
    const other = page.getByRole('tab').filter({ hasNotText: city.name }).first();
    await other.click();
    expect(await page.getByLabel('Collector or Godown').inputValue()).toBe('');
  });
});
