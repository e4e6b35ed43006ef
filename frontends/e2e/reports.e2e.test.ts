import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount, formatQuantity } from '../../packages/ui/src/format.ts';
import { showDay } from '../../packages/ui/src/screen/date-text.ts';
import { addDecimal, subtractDecimal } from '../../packages/ui/src/screen/decimal-text.ts';
import { pdfText, readXlsx } from '../../services/reports-worker/src/testing/readers.ts';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';
import { expectInView, openSignedIn, PHONE } from './browser.ts';
import { scriptsLoaded } from './budget.ts';

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
  // Without the idle prefetch: the budget test measures the scripts the first screen loads.
  browser = await openSignedIn(app, { prefetch: false });
  page = browser.page;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the reports remote in Chromium, on the demo business', () => {
  it('loads its first screen within the remote budget (from the dashboard, as the shell measures)', async () => {
    const go = (path: string) =>
      page.evaluate((to) => {
        window.history.pushState({}, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, path);
    const first = await scriptsLoaded(page, async () => {
      await go('/reports/balances');
      await page.getByRole('table', { name: 'Funders balances' }).getByRole('row').nth(1).waitFor();
    });
    const ledger = await scriptsLoaded(page, async () => {
      await go(`/reports/ledger/Collector/${collector.id}`);
      await page
        .getByRole('table', { name: `Ledger of ${collector.name}` })
        .getByRole('row')
        .nth(1)
        .waitFor();
    });
    console.log(
      `reports first screen (Balances): ${first.kb.toFixed(1)} kB gzip; then the Ledger: +${ledger.kb.toFixed(1)} kB`,
    );
    expect(first.kb).toBeLessThanOrEqual(150);
  });

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
      city_id: city.id,
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
    // The new row: 123.45 as entered, in the collector's currency; the report's amounts are INR
    // at the record's own rate, so the expenses grew by that row's INR and by nothing else.
    const added = now.filter((r: { record: { id: string } }) => r.record.id === expense.id);
    expect(added).toHaveLength(1);
    expect(added[0].amount_entered).toBe('123.45');
    expect(before.some((r: { record: { id: string } }) => r.record.id === expense.id)).toBe(false);
    expect(subtractDecimal(expenses(now), expenses(before), 2)).toBe(added[0].amount);
    const totalRow = table.getByRole('row').filter({ hasText: /^Total/ });
    await expect.poll(() => totalRow.textContent()).toContain(formatAmount(expenses(now)));

    await page.goto(
      url(
        `/financials/daywise-report?tab=${city.id}&startDate=${start}&endDate=${end}&knownAt=${encodeURIComponent(T)}`,
      ),
    );
    await expect.poll(() => totalRow.textContent()).toContain(formatAmount(expenses(before)));
    expect(await table.getByRole('row').filter({ hasText: 'Backdated audit check' }).count()).toBe(0);
    // The files of the report as known then say so, and carry its figures then.
    await checkFiles(
      new RegExp(`daywise_report_${start}_to_${end}`),
      ['Books as recorded at', formatAmount(expenses(before))],
      true,
    );
    const knownThen = await api('GET', `/reports/daywise-report?${range}&knownAt=${encodeURIComponent(T)}`);
    // The report as known at T is the report as it was read at T, field for field.
    expect(knownThen).toEqual(before);

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
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      'Expense: Backdated audit check',
    );
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

/** A file saved through a button (or a menu item) of the screen, as the browser saved it. */
async function saved(click: () => Promise<void>): Promise<{ name: string; body: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await download.path();
  await page.getByText('Download started successfully!').first().waitFor();
  return { name: download.suggestedFilename(), body: await readFile(path) };
}

/** Every cell of the first sheet as text: numbers at 2 decimals with the screen's grouping. */
async function xlsxTexts(body: Buffer): Promise<string[]> {
  const sheet = await readXlsx(body);
  const out: string[] = [];
  sheet.eachRow((row) =>
    row.eachCell((cell) => {
      const v = cell.value;
      if (typeof v === 'number')
        out.push(formatAmount(v.toFixed(2)), formatAmount(v.toFixed(4)).slice(0, -2));
      else if (v instanceof Date) out.push(v.toISOString().slice(0, 10));
      else if (v !== null && v !== undefined)
        out.push(
          String(typeof v === 'object' && 'richText' in v ? v.richText.map((t) => t.text).join('') : v),
        );
    }),
  );
  return out;
}

/**
 * The PDF and the Excel file of the report on screen, through its buttons (or its 'Download'
 * menu): each file is named `name` and carries every text the screen shows in `expected`.
 */
async function checkFiles(name: RegExp, expected: string[], compact = false) {
  const click = (label: 'PDF' | 'Excel') => async () => {
    if (compact) {
      await page.getByRole('button', { name: 'Download', exact: true }).click();
      await page.getByRole('menuitem', { name: label }).click();
    } else await page.getByRole('button', { name: `Download ${label}` }).click();
  };
  const pdf = await saved(click('PDF'));
  expect(pdf.name).toMatch(new RegExp(`^${name.source}\\.pdf$`));
  const text = pdfText(pdf.body).replace(/\s+/g, ' ');
  for (const t of expected) expect(text, `PDF ${pdf.name}`).toContain(t);
  const xlsx = await saved(click('Excel'));
  expect(xlsx.name).toMatch(new RegExp(`^${name.source}\\.xlsx$`));
  const cells = await xlsxTexts(xlsx.body);
  for (const t of expected)
    expect(
      cells.some((c) => c.includes(t)),
      `XLSX ${xlsx.name}: ${t}`,
    ).toBe(true);
}

/** A table's body rows as their cells' texts. */
async function cells(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
    );
}

describe('each report: the screen equals its endpoint, and its files equal the screen', () => {
  it('Balances: current balances equal the endpoint; PDF and Excel carry them', async () => {
    await page.goto(url('/reports/balances'));
    await heading('Balances Report').waitFor();
    const api1 = await api('GET', '/reports/balances?page=1&limit=10');
    for (const [tab, key] of [
      ['Funders', 'funders'],
      ['Collectors', 'collectors'],
    ] as const) {
      await page.getByRole('tab', { name: tab }).click();
      const table = page.getByRole('table', { name: `${tab} balances` });
      const first = api1[key].data[0];
      await table.getByRole('row').filter({ hasText: first.name }).first().waitFor();
      const rows = await cells(table);
      expect(rows.length).toBe(api1[key].data.length);
      for (const [i, p] of api1[key].data.entries()) {
        expect(rows[i]![0]).toBe(p.name);
        expect(rows[i]![3]).toContain(formatAmount(addDecimal(p.opening_balance, p.balance.amount, 2)));
      }
    }
    const f = api1.collectors.data[0];
    // A city filter adds the city to the name (balances_report_{city}).
    await checkFiles(/balances_report.*/, [
      f.name,
      formatAmount(addDecimal(f.opening_balance, f.balance.amount, 2)),
    ]);
  });

  it('Stock: every card equals the endpoint; PDF and Excel carry the quantities', async () => {
    await page.goto(url('/reports/stock'));
    await heading('Stock Report').waitFor();
    const stock = await api('GET', '/reports/stock');
    const names = Object.keys(stock);
    expect(names.length).toBeGreaterThan(0);
    const expected: string[] = [];
    for (const name of names) {
      const region = page.getByRole('region', { name, exact: true });
      for (const r of stock[name]) {
        const row = region.getByRole('row').filter({ hasText: r.product_name });
        await expect.poll(() => row.first().textContent()).toContain(formatQuantity(r.quantity));
        expected.push(r.product_name);
      }
    }
    await checkFiles(/stock_report/, [names[0]!, ...new Set(expected)]);
  });

  it('Payments: the city’s rows equal the endpoint; PDF and Excel carry them', async () => {
    await page.goto(url('/reports/payments'));
    await heading('Payments Report').waitFor();
    await page.getByRole('tab', { name: city.name }).click();
    const list = await api('GET', `/reports/payments?page=1&limit=15&city_id=${city.id}`);
    expect(list.totalItems).toBeGreaterThan(0);
    const table = page.getByRole('table', { name: 'Payments' });
    await expect.poll(async () => (await cells(table)).length).toBe(list.data.length);
    const rows = await cells(table);
    const p = list.data[0];
    expect(rows[0]!.join(' ')).toContain(formatAmount(p.amount));
    expect(rows[0]![1]).toBe(p.related_entity_type === 'Funder' ? 'Payment To' : 'Payment From');
    await checkFiles(/payments_report.*/, [formatAmount(p.amount)]);
  });

  it('Salary Payments: the city’s rows equal the endpoint; PDF and Excel carry them', async () => {
    await page.goto(url('/reports/salary-report'));
    await heading('Salary Payments Report').waitFor();
    await page.getByRole('tab', { name: city.name }).click();
    const list = await api('GET', `/reports/salary-report?page=1&limit=15&city_id=${city.id}`);
    expect(list.totalItems).toBeGreaterThan(0);
    const table = page.getByRole('table', { name: 'Salary payments' });
    await expect.poll(async () => (await cells(table)).length).toBe(list.data.length);
    const rows = await cells(table);
    expect(rows[0]!.join(' ')).toContain(formatAmount(list.data[0].amount));
    await checkFiles(/salary.*/, [formatAmount(list.data[0].amount)]);
  });

  it('Ledger, day-wise and cashbook files carry the figures on screen', async () => {
    await page.goto(url(`/reports/ledger/Collector/${collector.id}`));
    await heading(`Ledger: ${collector.name}`).waitFor();
    const ledger = await api('GET', `/reports/ledger/Collector/${collector.id}`);
    await expect
      .poll(() => card('Closing Balance').textContent())
      .toContain(formatAmount(ledger.closingBalance));
    await checkFiles(/.*ledger.*/i, [formatAmount(ledger.closingBalance), formatAmount(ledger.totalDebit)]);

    const day = new Date().toISOString().slice(0, 10);
    const start = `${day.slice(0, 8)}01`;
    await page.goto(url(`/financials/daywise-report?tab=${city.id}&startDate=${start}&endDate=${day}`));
    const table = page.getByRole('table', { name: 'Day-wise report' });
    const net = table.getByRole('row').filter({ hasText: /^Net Total/ });
    await net.waitFor();
    const netText = ((await net.textContent()) ?? '').replace('Net Total', '');
    const rows = await api(
      'GET',
      `/reports/daywise-report?startDate=${start}&endDate=${day}&city_id=${city.id}`,
    );
    const signed = rows.map((r: { type: string; amount: string }) =>
      r.type === 'Income' ? r.amount : `-${r.amount}`,
    );
    expect(netText).toBe(formatAmount(sum(signed)));
    await checkFiles(new RegExp(`daywise_report_${start}_to_${day}`), [netText], true);

    await page.goto(
      url(
        `/financials/cashbook-report?tab=${city.id}&startDate=2000-01-01&endDate=${day}&entity=Collector.${collector.id}`,
      ),
    );
    const book = page.getByRole('table', { name: 'Cashbook' });
    const total = book.getByRole('row').filter({ hasText: /^Total/ });
    await total.waitFor();
    const cashNet = (
      (await book
        .getByRole('row')
        .filter({ hasText: /^Net Total/ })
        .textContent()) ?? ''
    ).replace('Net Total', '');
    await checkFiles(/cashbook.*/, [cashNet]);
  });
});

/**
 * Issue #25, item 6: on a phone (390 x 844) a table that carries money shows each row as a card,
 * its amounts labelled beneath its title, so none is off-screen; the figures are the API's.
 */
describe('money on a phone, 390 x 844', () => {
  /** Where a figure of a card lies, and its text. */
  async function figure(scope: Locator, key: string) {
    const cell = scope.locator(`[data-figure="${key}"]`).first();
    await cell.scrollIntoViewIfNeeded();
    const box = await cell.boundingBox();
    return {
      box,
      label: await cell.locator('dt').textContent(),
      value: await cell.locator('dd').textContent(),
    };
  }
  /** Wholly inside the viewport: nothing to scroll sideways for. */
  const inView = (box: Parameters<typeof expectInView>[0]) => expectInView(box, PHONE);

  it('a ledger, the day-wise report with its Total, the funders list and the balances: date and money in view, as the API gives them', async () => {
    await page.setViewportSize(PHONE);
    try {
      // The ledger: the first line's date, debit, credit and balance, in the account's currency.
      const ledger = await api('GET', `/reports/ledger/Collector/${collector.id}`);
      const line: Line = ledger.transactions[0];
      await page.goto(url(`/reports/ledger/Collector/${collector.id}`));
      await heading(`Ledger: ${collector.name}`).waitFor();
      const first = page
        .getByRole('table', { name: `Ledger of ${collector.name}` })
        .getByRole('row')
        .nth(1);
      await first.locator('[data-card]').waitFor();
      const c = collector.currency;
      for (const [key, label, value] of [
        ['debit', `Debit (${c})`, line.debit],
        ['credit', `Credit (${c})`, line.credit],
        ['balance', `Balance (${c})`, line.balance],
      ] as const) {
        const f = await figure(first, key);
        inView(f.box);
        expect([f.label, f.value]).toEqual([label, formatAmount(value)]);
      }
      const date = first.getByText(showDay(line.date), { exact: true });
      inView(await date.boundingBox());
      // Each line's particulars are read whole: a long one wraps onto a second line of its card
      // (it ended in an ellipsis on one line: 'Expense: Generator diesel - rep...').
      const titles = page
        .getByRole('table', { name: `Ledger of ${collector.name}` })
        .locator('[data-card-title]');
      expect(await titles.count()).toBeGreaterThan(3);
      const clipped = await titles.evaluateAll((spans) =>
        spans
          .filter((s) =>
            [s, ...s.querySelectorAll('*')].some(
              (e) => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1,
            ),
          )
          .map((s) => s.textContent),
      );
      expect(clipped).toEqual([]);

      // Day-wise, the collector's city, every day so far: the first row's amount and the Total.
      const day = new Date().toISOString().slice(0, 10);
      const rows = await api(
        'GET',
        `/reports/daywise-report?startDate=2000-01-01&endDate=${day}&city_id=${city.id}`,
      );
      expect(rows.length).toBeGreaterThan(0);
      await page.goto(url(`/financials/daywise-report?tab=${city.id}&startDate=2000-01-01&endDate=${day}`));
      await heading('Day-wise Report').waitFor();
      const table = page.getByRole('table', { name: 'Day-wise report' });
      const row = table.getByRole('row').nth(1);
      await row.locator('[data-card]').waitFor();
      const r0 = rows[0] as { type: string; amount: string; date: string };
      const key = r0.type === 'Income' ? 'income' : 'expense';
      const f = await figure(row, key);
      inView(f.box);
      expect([f.label, f.value]).toEqual([`${r0.type} (INR)`, formatAmount(r0.amount)]);
      inView(await row.getByText(showDay(r0.date), { exact: true }).boundingBox());
      const of = (type: string) =>
        sum(rows.filter((r: { type: string }) => r.type === type).map((r: { amount: string }) => r.amount));
      const total = table.getByRole('row').filter({ hasText: /^Total/ });
      for (const [k, label, value] of [
        ['income', 'Income (INR)', of('Income')],
        ['expense', 'Expense (INR)', of('Expense')],
      ] as const) {
        const t = await figure(total, k);
        inView(t.box);
        expect([t.label, t.value]).toEqual([label, formatAmount(value)]);
      }
      const net = await figure(table.getByRole('row').filter({ hasText: /^Net Total/ }), 'income');
      inView(net.box);
      expect([net.label, net.value]).toEqual([
        'Net (INR)',
        formatAmount(subtractDecimal(of('Income'), of('Expense'), 2)),
      ]);

      // The funders list: the first funder's balances and its Pay button.
      const funders = (await api('GET', '/masters/funders?page=1&limit=15')).data;
      const funder = funders[0] as {
        name: string;
        opening_balance: string;
        balance: { amount: string } | null;
        city: { currency_name: string } | null;
      };
      await page.goto(url('/masters/funders'));
      await heading('Funders').waitFor();
      const fRow = page.getByRole('table', { name: 'Funders' }).getByRole('row').nth(1);
      await fRow.locator('[data-card]').waitFor();
      expect(await fRow.getByRole('link').first().textContent()).toBe(funder.name);
      const current = addDecimal(funder.opening_balance, funder.balance?.amount ?? '0', 2);
      const cb = await figure(fRow, 'current');
      inView(cb.box);
      expect([cb.label, cb.value]).toEqual([
        'Current Balance',
        shown(current, funder.city?.currency_name ?? 'INR'),
      ]);
      inView(await fRow.getByRole('button', { name: `Pay ${funder.name}` }).boundingBox());

      // Balances, the funders' tab: the first one's current balance.
      const balances = await api('GET', '/reports/balances?page=1&limit=10');
      const p0 = balances.funders.data[0];
      await page.goto(url('/reports/balances'));
      await heading('Balances Report').waitFor();
      const bRow = page.getByRole('table', { name: 'Funders balances' }).getByRole('row').nth(1);
      await bRow.locator('[data-card]').waitFor();
      expect(await bRow.getByRole('link').first().textContent()).toBe(p0.name);
      const bb = await figure(bRow, 'current');
      inView(bb.box);
      expect(bb.label).toBe('Current Balance');
      expect(bb.value).toContain(formatAmount(addDecimal(p0.opening_balance, p0.balance.amount, 2)));
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('Show corrections, by keyboard: an edited expense shows once, then its trail tagged and muted, as the API gives it', async () => {
    // An expense on the ledger's first day, then edited: a correction at the top of the ledger.
    const before = await api('GET', `/reports/ledger/Collector/${collector.id}`);
    const body = {
      city_id: collector.city_id,
      expense_date: before.transactions[0].date,
      category: 'Generator diesel',
      amount: '100.00',
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: collector.id,
    };
    const { id } = await api('POST', '/transactions/expenses', body);
    await api('PUT', `/transactions/expenses/${id}`, { ...body, amount: '120.00' });
    await app.syncToHead();
    const plain = await api('GET', `/reports/ledger/Collector/${collector.id}`);
    const trail = await api('GET', `/reports/ledger/Collector/${collector.id}?corrections=true`);
    const ofExpense = (l: { record: { id: string } }) => l.record.id === id;
    expect(plain.transactions.filter(ofExpense)).toHaveLength(1);
    expect(
      trail.transactions
        .filter(ofExpense)
        .map((l: Line & { correction: { state: string } }) => l.correction.state),
    ).toEqual(['superseded', 'reversal', 'amended']);

    await page.goto(url(`/reports/ledger/Collector/${collector.id}`));
    const table = page.getByRole('table', { name: `Ledger of ${collector.name}` });
    const rows = table.getByRole('row').filter({ hasText: 'Generator diesel' });
    await expect.poll(() => rows.count()).toBe(1);
    const toggle = page.getByRole('switch', { name: 'Show corrections' });
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => rows.count()).toBe(3);
    expect(new URL(page.url()).searchParams.get('corrections')).toBe('1');
    const lines = trail.transactions.filter(ofExpense);
    for (const [i, tag] of ['Replaced', 'Reversal', 'Amended'].entries()) {
      const row = rows.nth(i);
      expect(await row.textContent()).toContain(`${tag}${lines[i].particulars}`);
      expect(await row.getAttribute('data-dim')).toBe(tag === 'Amended' ? null : 'true');
    }
    await page.keyboard.press('Space');
    await expect.poll(() => rows.count()).toBe(1);
  });

  it('screenshots of the screens with money tables, at 1366 and 390 px, both themes', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const screens: [string, string, string][] = [
      ['ledger', `/reports/ledger/Collector/${collector.id}?corrections=1`, `Ledger of ${collector.name}`],
      [
        'daywise',
        `/financials/daywise-report?tab=${city.id}&startDate=2000-01-01&endDate=${day}`,
        'Day-wise report',
      ],
      [
        'cashbook',
        `/financials/cashbook-report?tab=${city.id}&startDate=2000-01-01&endDate=${day}&entity=Collector.${collector.id}&corrections=1`,
        'Cashbook',
      ],
      ['balances', '/reports/balances', 'Funders balances'],
      ['payments', `/reports/payments?tab=${city.id}`, 'Payments'],
      ['funders', '/masters/funders', 'Funders'],
    ];
    try {
      for (const theme of ['dark', 'light'] as const) {
        await page.setViewportSize({ width: 1366, height: 900 });
        if (theme === 'light') await page.getByRole('switch', { name: 'Dark mode' }).click();
        for (const width of [1366, 390]) {
          await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
          for (const [name, path, table] of screens) {
            await page.goto(url(path));
            await page.getByRole('table', { name: table }).getByRole('row').nth(1).waitFor();
            await page.screenshot({ path: join(SHOTS, `money-${name}-${width}-${theme}.png`) });
          }
        }
      }
      await page.getByRole('switch', { name: 'Dark mode' }).click();
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  }, 240_000);
});
