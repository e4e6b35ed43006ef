import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount } from '../../packages/ui/src/format.ts';
import { addDecimal } from '../../packages/ui/src/screen/decimal-text.ts';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';
import { openSignedIn } from './browser.ts';
import { scriptsLoaded } from './budget.ts';

/**
 * Expenses, Other Incomes and Collector Transfers driven as staff drive them, on a fresh business
 * set up through the API. Worked by hand (Dubai: AED at 22.6543 INR; Karachi: PKR at 0.3 INR):
 *   Rashid (Dubai) opens with 5,000.00 AED; Imran (Karachi) with 0.00 PKR
 *   expense 'Office rent' 1,250.50 AED paid by Rashid           Rashid 3,749.50 AED
 *   income 'Commission' 2,000.00 PKR received by Imran          Imran 2,000.00 PKR
 *   transfer Rashid -> Imran: rate 22.6543 / 0.3 = 75.5143 (4 places, half away from zero),
 *     1,000.00 AED sent, 50.00 charge: (1000 - 50) x 75.5143 = 71,738.585 -> 71,738.59 PKR
 *                                                               Rashid 2,749.50 AED
 *                                                               Imran 73,738.59 PKR
 */
const FRONTENDS = dirname(dirname(fileURLToPath(import.meta.url)));
const SHOTS = join(dirname(FRONTENDS), 'test-results', 'screenshots');

let app: TestApp;
let browser: Awaited<ReturnType<typeof openSignedIn>>;
let page: Page;
const ids: Record<string, string> = {};

const url = (path: string) => `${app.bahi.url}${path}`;
const heading = (name: string) => page.getByRole('heading', { name, exact: true });
const dialog = () => page.getByRole('dialog');
const row = (text: string) => page.getByRole('row').filter({ hasText: text });

async function api(method: string, path: string, body?: unknown) {
  const r = await app.call(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

/** A collector's current balance as the API gives it: opening balance + movements. */
async function balance(name: string): Promise<string> {
  const list = await api('GET', `/masters/collectors?search=${encodeURIComponent(name)}`);
  const c = list.data.find((p: { name: string }) => p.name === name);
  return addDecimal(c.opening_balance, c.balance.amount, 2);
}

/** Opens a transactions screen through the drawer, as a person does. */
async function open(link: string, title: string) {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const group = nav.getByRole('button', { name: 'Transactions' });
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
  await nav.getByRole('link', { name: link, exact: true }).click();
  await heading(title).waitFor();
  await page.getByRole('table', { name: title }).waitFor();
}

async function pick(scope: Locator, label: string, name: string) {
  const box = scope.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(name.slice(0, 5));
  await page.getByRole('option', { name: new RegExp(`^${name}`) }).click();
}

async function saveDialog() {
  await dialog().getByRole('button', { name: 'Save', exact: true }).click();
  await dialog().waitFor({ state: 'hidden' });
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  app = await openTestApp({ env: () => ({ BAHI_FRONTENDS_DIR: FRONTENDS }) });
  ids.dubai = (
    await api('POST', '/masters/cities', { name: 'Dubai', currency_name: 'AED', rate: '22.6543' })
  ).id;
  ids.karachi = (
    await api('POST', '/masters/cities', { name: 'Karachi', currency_name: 'PKR', rate: '0.3' })
  ).id;
  ids.rashid = (
    await api('POST', '/masters/collectors', {
      name: 'Rashid Dubai',
      city_id: ids.dubai,
      opening_balance: '5000',
    })
  ).id;
  ids.imran = (await api('POST', '/masters/collectors', { name: 'Imran Karachi', city_id: ids.karachi })).id;
  await api('POST', '/masters/godowns', { name: 'Bhiwandi', opening_balance: '10000' });
  // Without the idle prefetch: the budget test measures the scripts the first screen loads.
  browser = await openSignedIn(app, { prefetch: false });
  page = browser.page;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the transactions remote’s cash screens in Chromium', () => {
  it('loads the first screen within the remote budget, and the dialog only when it opens', async () => {
    // From the shell's dashboard (loaded already), as the shell e2e measures: what Expenses adds.
    const first = await scriptsLoaded(page, async () => {
      await page.evaluate(() => {
        window.history.pushState({}, '', '/transactions/expenses');
        window.dispatchEvent(new PopStateEvent('popstate'));
      });
      await heading('Expenses').waitFor();
      await page.getByRole('tab', { name: 'Dubai' }).waitFor();
      await page.getByRole('table', { name: 'Expenses' }).waitFor();
    });
    console.log(`transactions first screen (Expenses): ${first.kb.toFixed(1)} kB gzip`);
    expect(first.urls.some((u) => u.includes('/remotes/transactions/'))).toBe(true);
    expect(first.kb).toBeLessThanOrEqual(150);
    const dialogLoad = await scriptsLoaded(page, async () => {
      await page.getByRole('button', { name: 'New Expense' }).click();
      await dialog().getByLabel('Category').waitFor();
    });
    console.log(`New Expense dialog on opening: +${dialogLoad.kb.toFixed(1)} kB gzip`);
    expect(dialogLoad.kb).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
  });

  it('records an expense paid by a collector of the tab’s city', async () => {
    await open('Expenses', 'Expenses');
    const headers = await page
      .getByRole('table', { name: 'Expenses' })
      .getByRole('columnheader')
      .allTextContents();
    expect(headers).toEqual(['Date', 'Category', 'Amount', 'Paid From', 'Remarks']);
    await page.getByRole('tab', { name: 'Dubai' }).click();
    await expect.poll(() => page.url()).toContain(`tab=${ids.dubai}`);
    await page.getByRole('button', { name: 'New Expense' }).click();
    await dialog().getByText('Dubai (AED)').waitFor();
    await dialog().getByLabel('Category').fill('Office rent');
    await pick(dialog(), 'Paid From (Collector)', 'Rashid Dubai');
    await dialog().getByLabel('Amount').fill('1250.50');
    await dialog().getByLabel('Remarks').fill('November');
    await saveDialog();
    await page.getByText('Expense recorded successfully!').waitFor();
    await expect
      .poll(() => row('Office rent').first().textContent(), { timeout: 10_000 })
      .toContain('1,250.50 AED');
    expect(await row('Office rent').first().textContent()).toContain('Rashid Dubai (Collector)');
    expect(await balance('Rashid Dubai')).toBe('3749.50');
  });

  it('records an other income received by a collector of Karachi', async () => {
    await open('Incomes', 'Other Incomes');
    await page.getByRole('tab', { name: 'Karachi' }).click();
    await expect.poll(() => page.url()).toContain(`tab=${ids.karachi}`);
    await page.getByRole('button', { name: 'New Income' }).click();
    await dialog().getByText('Karachi (PKR)').waitFor();
    await dialog().getByLabel('Category').fill('Commission');
    await pick(dialog(), 'Received By (Collector)', 'Imran Karachi');
    await dialog().getByLabel('Amount').fill('2000');
    await saveDialog();
    await expect
      .poll(() => row('Commission').first().textContent(), { timeout: 10_000 })
      .toContain('2,000.00 PKR');
    expect(await row('Commission').first().textContent()).toContain('Imran Karachi (Collector)');
    expect(await balance('Imran Karachi')).toBe('2000.00');
    // The category filter narrows the list after the debounce; the URL keeps it.
    await page.getByLabel('Category').fill('no such category');
    await page.getByText('No incomes found.').waitFor();
    expect(page.url()).toContain('category=no+such+category');
  });

  it('records a transfer between two cities with the rate worked out from the cities', async () => {
    await open('Transfers', 'Collector Transfers');
    await page.getByRole('button', { name: 'New Transfer' }).click();
    await pick(dialog(), 'From Collector', 'Rashid Dubai');
    await pick(dialog(), 'To Collector', 'Imran Karachi');
    await expect.poll(() => dialog().getByLabel('Rate').inputValue()).toBe('75.5143');
    await dialog().getByLabel('Amount to Send').fill('1000');
    await dialog().getByLabel('Transfer Charge').fill('50');
    await dialog().getByText('Estimated amount received: 71,738.59 PKR').waitFor();
    await dialog().getByLabel('Remarks').fill('Hawala');
    await saveDialog();
    await page.getByText('Transfer recorded successfully!').waitFor();
    await expect
      .poll(() => row('Hawala').first().textContent(), { timeout: 10_000 })
      .toContain('71,738.59 PKR');
    const cells = await row('Hawala').first().getByRole('cell').allTextContents();
    expect(cells.slice(1)).toEqual([
      'Rashid Dubai (Dubai)',
      'Imran Karachi (Karachi)',
      '1,000.00 AED',
      '50.00 AED',
      '× 75.5143',
      '71,738.59 PKR',
      'Hawala',
    ]);
    expect(await balance('Rashid Dubai')).toBe('2749.50');
    expect(await balance('Imran Karachi')).toBe('73738.59');
    expect(`${formatAmount('73738.59')} PKR`).toBe('73,738.59 PKR');
    // Filtered by the receiving collector, the transfer stays; by a day before it, it goes.
    await page.getByRole('combobox', { name: 'To Collector' }).click();
    await page.getByRole('combobox', { name: 'To Collector' }).fill('Imran');
    await page.getByRole('option', { name: /^Imran Karachi/ }).click();
    await expect.poll(() => page.url()).toContain(`to_collector_id=${ids.imran}`);
    await row('Hawala').first().waitFor();
  });

  it('shows a Viewer no New Expense, and the server refuses the Viewer’s expense', async () => {
    await api('POST', '/masters/users', {
      name: 'Vera Viewer',
      email: 'vera@bahi.test',
      password: 'viewer-pass',
      role: 'Viewer',
    });
    const token = await app.login('vera@bahi.test', 'viewer-pass');
    const refused = await app.call(
      'POST',
      '/transactions/expenses',
      {
        city_id: ids.dubai,
        expense_date: new Date().toISOString(),
        category: 'Sneaky',
        amount: '1',
        paid_from_entity_type: 'Collector',
        paid_from_entity_id: ids.rashid,
      },
      token,
    );
    expect(refused.status).toBe(403);
    const adminToken = await page.evaluate(() => localStorage.getItem('bahi.token'));
    await page.evaluate((t) => localStorage.setItem('bahi.token', t), token);
    await page.goto(url(`/transactions/expenses?tab=${ids.dubai}`));
    await heading('Expenses').waitFor();
    await row('Office rent').first().waitFor();
    expect(await page.getByRole('button', { name: 'New Expense' }).count()).toBe(0);
    // The balance is untouched by the refusal.
    expect(await balance('Rashid Dubai')).toBe('2749.50');
    await page.evaluate((t) => localStorage.setItem('bahi.token', t ?? ''), adminToken);
    await page.goto(url('/transactions/expenses'));
    await page.getByRole('button', { name: 'New Expense' }).waitFor();
  });

  it('takes screenshots of the three screens and New Transfer in both themes, at 1366 and 390 px', async () => {
    for (const theme of ['dark', 'light'] as const) {
      if (theme === 'light') await page.getByRole('switch', { name: 'Dark mode' }).click();
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: 900 });
        for (const [screen, text] of [
          ['expenses', 'Office rent'],
          ['incomes', 'Commission'],
          ['transfers', 'Hawala'],
        ] as const) {
          const tab =
            screen === 'incomes' ? `?tab=${ids.karachi}` : screen === 'expenses' ? `?tab=${ids.dubai}` : '';
          await page.goto(url(`/transactions/${screen}${tab}`));
          await row(text).first().waitFor();
          await page.screenshot({ path: join(SHOTS, `transactions-${screen}-${width}-${theme}.png`) });
        }
        await page.getByRole('button', { name: 'New Transfer' }).click();
        await pick(dialog(), 'From Collector', 'Rashid Dubai');
        await pick(dialog(), 'To Collector', 'Imran Karachi');
        await dialog().getByLabel('Amount to Send').fill('1000');
        await dialog()
          .getByText(/Estimated amount received/)
          .waitFor();
        await page.screenshot({ path: join(SHOTS, `transactions-new-transfer-${width}-${theme}.png`) });
        await page.keyboard.press('Escape');
        await dialog().waitFor({ state: 'hidden' });
      }
    }
    await page.getByRole('switch', { name: 'Dark mode' }).click();
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 180_000);
});
