import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount } from '../../packages/ui/src/format.ts';
import { addDecimal } from '../../packages/ui/src/screen/decimal-text.ts';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';
import { openSignedIn } from './browser.ts';

/**
 * Dates and moments typed as staff type them (issue #25, item 5), in Chromium on the demo
 * business, with the browser in India's time zone so a moment's zone is not UTC by chance: a
 * day that does not exist stays in a voucher's box with its message and nothing is saved; the
 * day-wise report's "As known at" takes a day-first, 24-hour moment by keyboard, Enter applies
 * it, and the report then equals the API's as known at that moment.
 */
const FRONTENDS = dirname(dirname(fileURLToPath(import.meta.url)));
const SHOTS = join(dirname(FRONTENDS), 'test-results', 'screenshots');
const ZONE = 'Asia/Kolkata';

let app: TestApp;
let browser: Awaited<ReturnType<typeof openSignedIn>>;
let page: Page;
let city: { id: string; name: string };
let collector: { id: string; name: string };

const url = (path: string) => `${app.bahi.url}${path}`;
const dialog = () => page.getByRole('dialog');

async function api(method: string, path: string, body?: unknown) {
  const r = await app.call(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

/** A moment as someone in ZONE reads a clock: the parts of '25/11/2026 14:30:05'. */
function wallClock(at: Date) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: ZONE,
      day: '2-digit',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const mm = String(months.indexOf(parts.month!) + 1).padStart(2, '0');
  const time = `${parts.hour}:${parts.minute}:${parts.second}`;
  return {
    typed: `${parts.day}/${mm}/${parts.year} ${time}`,
    shown: `${Number(parts.day)} ${parts.month} ${parts.year} ${time}`,
  };
}

/** Light or dark, as the shell's switch leaves it. */
async function theme(wanted: 'light' | 'dark') {
  const toggle = page.getByRole('switch', { name: 'Dark mode' });
  if ((await toggle.isChecked()) !== (wanted === 'dark')) await toggle.click();
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  app = await openTestApp({ env: () => ({ BAHI_FRONTENDS_DIR: FRONTENDS, BAHI_DEMO: '1' }) });
  await app.syncToHead();
  const cities = (await api('GET', '/masters/cities?limit=-1')).data;
  const collectors = (await api('GET', '/masters/collectors?limit=-1')).data;
  const c = collectors[0];
  collector = { id: c.id, name: c.name };
  const home = cities.find((x: { id: string }) => x.id === c.city_id);
  city = { id: home.id, name: home.name };
  browser = await openSignedIn(app);
  page = browser.page;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: ZONE });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('dates and moments typed in Chromium', () => {
  it('a day that does not exist stays in the voucher with its message, and nothing is saved', async () => {
    const count = async () =>
      (await api('GET', `/transactions/expenses?limit=-1&city_id=${city.id}`)).totalItems;
    const before = await count();
    await page.goto(url(`/transactions/expenses?tab=${city.id}`));
    await page.getByRole('button', { name: 'New Expense' }).click();
    const date = dialog().getByLabel(/^Expense Date/);
    await date.waitFor();
    await date.fill('31/02/2026');
    await date.press('Tab');
    const message = dialog().getByText('31/02/2026 is not a date: Feb 2026 has 28 days.');
    await message.waitFor();
    expect(await date.inputValue()).toBe('31/02/2026');
    expect(await date.getAttribute('aria-invalid')).toBe('true');
    await dialog()
      .getByLabel(/^Category/)
      .fill('Date check');
    await dialog()
      .getByLabel(/^Amount/)
      .fill('10.00');
    // Ctrl+S saves from anywhere in the form: refused on the field, the dialog stays.
    await dialog()
      .getByLabel(/^Amount/)
      .press('Control+s');
    await message.waitFor();
    expect(await date.inputValue()).toBe('31/02/2026');
    expect(await dialog().isVisible()).toBe(true);
    expect(await count()).toBe(before);

    await date.fill('28/02/2026');
    await date.press('Tab');
    await message.waitFor({ state: 'hidden' });
    expect(await date.inputValue()).toBe('28 Feb 2026');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    expect(await count()).toBe(before);

    // The box and its message at a desk and on a phone, in both themes (the switch is outside the dialog).
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 844 });
      for (const t of ['light', 'dark'] as const) {
        await theme(t);
        await page.getByRole('button', { name: 'New Expense' }).click();
        await date.fill('31/02/2026');
        await date.press('Tab');
        await message.waitFor();
        await page.screenshot({ path: join(SHOTS, `dates-invalid-expense-date-${width}-${t}.png`) });
        await page.keyboard.press('Escape');
        await dialog().waitFor({ state: 'hidden' });
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 120_000);

  it('As known at: a day-first 24-hour moment typed, Enter applies it, the report equals the API’s then', async () => {
    const end = new Date().toISOString().slice(0, 10);
    const start = `${end.slice(0, 8)}01`;
    const range = `startDate=${start}&endDate=${end}&city_id=${city.id}`;
    // The moment T to the second, safely after what was recorded before and before what follows.
    await new Promise((r) => setTimeout(r, 1100));
    const T = new Date(Math.floor(Date.now() / 1000) * 1000);
    await new Promise((r) => setTimeout(r, 1100));
    const expense = await api('POST', '/transactions/expenses', {
      expense_date: `${end}T00:00:00.000Z`,
      city_id: city.id,
      category: 'Keyed after T',
      amount: '77.70',
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: collector.id,
      remarks: 'as known at check',
    });
    await app.syncToHead();
    const expenses = (rows: Array<{ type: string; amount: string }>) =>
      rows.filter((r) => r.type === 'Expense').reduce((s, r) => addDecimal(s, r.amount, 2), '0.00');
    const incomes = (rows: Array<{ type: string; amount: string }>) =>
      rows.filter((r) => r.type === 'Income').reduce((s, r) => addDecimal(s, r.amount, 2), '0.00');
    const now = await api('GET', `/reports/daywise-report?${range}`);
    const then = await api(
      'GET',
      `/reports/daywise-report?${range}&knownAt=${encodeURIComponent(T.toISOString())}`,
    );
    expect(now.some((r: { record: { id: string } }) => r.record.id === expense.id)).toBe(true);
    expect(then.some((r: { record: { id: string } }) => r.record.id === expense.id)).toBe(false);

    await page.goto(url(`/financials/daywise-report?tab=${city.id}&startDate=${start}&endDate=${end}`));
    const table = page.getByRole('table', { name: 'Day-wise report' });
    const totalRow = table.getByRole('row').filter({ hasText: /^Total/ });
    await expect.poll(() => totalRow.textContent()).toContain(formatAmount(expenses(now)));

    // Keyboard only: open the bar, Tab to As known at, type the moment, Enter.
    const toggle = page.getByRole('button', { name: 'Time travel' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const asOf = page.getByLabel('As of', { exact: true });
    await asOf.waitFor();
    await asOf.focus();
    await page.keyboard.press('Tab');
    const knownAt = page.getByLabel('As known at', { exact: true });
    expect(await knownAt.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.getByText('24-hour time, Asia/').first().textContent()).toMatch(/UTC\+05:30\)$/);
    const clock = wallClock(T);
    await page.keyboard.type(clock.typed);
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('knownAt')).toBe(T.toISOString());
    expect(await knownAt.inputValue()).toBe(clock.shown);
    await page.getByText(`The books as recorded at ${clock.shown}.`).waitFor();
    // The figures as known then: the API's, without the expense keyed after T.
    await expect.poll(() => totalRow.textContent()).toContain(formatAmount(expenses(then)));
    expect(await table.getByRole('row').filter({ hasText: 'Keyed after T' }).count()).toBe(0);
    expect(await totalRow.textContent()).toContain(formatAmount(incomes(then)));

    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 844 });
      for (const t of ['light', 'dark'] as const) {
        await theme(t);
        await page.getByRole('region', { name: 'Time travel' }).scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SHOTS, `dates-known-at-${width}-${t}.png`) });
      }
    }
    // A moment typed wrong stays with its message; the report stays as applied.
    await knownAt.fill('11/25/2026 2:30 PM');
    await knownAt.press('Enter');
    await page.getByText('11/25/2026 2:30 PM is not a moment', { exact: false }).waitFor();
    expect(new URL(page.url()).searchParams.get('knownAt')).toBe(T.toISOString());
    for (const t of ['light', 'dark'] as const) {
      await theme(t);
      await page.screenshot({ path: join(SHOTS, `dates-known-at-wrong-390-${t}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 120_000);

  it('a list filter keeps a wrong day with its message and the list its last day (Activity Log)', async () => {
    await page.goto(url('/settings/activity-log?startDate=2026-01-01'));
    const from = page.getByLabel('From Date', { exact: true });
    await from.waitFor();
    expect(await from.inputValue()).toBe('1 Jan 2026');
    await from.fill('30/02/2026');
    await from.press('Enter');
    const message = page.getByText('30/02/2026 is not a date: Feb 2026 has 28 days.');
    await message.waitFor();
    expect(await from.inputValue()).toBe('30/02/2026');
    expect(new URL(page.url()).searchParams.get('startDate')).toBe('2026-01-01');
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 844 });
      for (const t of ['light', 'dark'] as const) {
        await theme(t);
        await message.scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SHOTS, `dates-activity-log-filter-${width}-${t}.png`) });
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await from.fill('2/1/2026');
    await from.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('startDate')).toBe('2026-01-02');
    expect(await from.inputValue()).toBe('2 Jan 2026');
    await message.waitFor({ state: 'hidden' });
  }, 120_000);

  it('Balances as of on a master list: a wrong day kept with its message, the balances as they were', async () => {
    await page.goto(url('/masters/funders'));
    const asOf = page.getByLabel('Balances as of', { exact: true });
    await asOf.waitFor();
    await asOf.fill('31/04/2026');
    await asOf.press('Tab');
    const message = page.getByText('31/04/2026 is not a date: Apr 2026 has 30 days.');
    await message.waitFor();
    expect(await asOf.inputValue()).toBe('31/04/2026');
    expect(new URL(page.url()).searchParams.get('asOf')).toBeNull();
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 844 });
      for (const t of ['light', 'dark'] as const) {
        await theme(t);
        await page.screenshot({ path: join(SHOTS, `dates-balances-as-of-${width}-${t}.png`) });
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);
});
