import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';
import { openSignedIn } from './browser.ts';

/**
 * Settings > Close the books (issue #30), as an Admin drives it: close October; a purchase
 * dated 15 Oct is refused in the preview and on Save, the message on its date field; October
 * rows have Edit and Delete disabled with the reason; an adjustment dated in November that
 * refers to the October purchase is saved from its row's Adjust and shows in the ledger as the
 * API has it; a reopening with a reason shows in the Activity Log.
 */
const FRONTENDS = dirname(dirname(fileURLToPath(import.meta.url)));
const SHOTS = join(dirname(FRONTENDS), 'test-results', 'screenshots');
const CLOSED = 'The books are closed up to 31 Oct 2026.';

let app: TestApp;
let browser: Awaited<ReturnType<typeof openSignedIn>>;
let page: Page;
const ids: Record<string, string> = {};

const dialog = () => page.getByRole('dialog');
const row = (text: string) => page.getByRole('row').filter({ hasText: text });
const head = async () =>
  ((await (await fetch(`${app.bahi.url}/api/ready`)).json()) as { eventStore: { headPosition: string } })
    .eventStore.headPosition;

async function api(method: string, path: string, body?: unknown) {
  const r = await app.call(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

async function pick(scope: Locator, label: string, name: string) {
  const box = scope.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(name.slice(0, 3));
  await page.getByRole('option', { name: new RegExp(`^${name}`) }).click();
}

async function openSettings(title: string) {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const group = nav.getByRole('button', { name: 'Settings' });
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
  await nav.getByRole('link', { name: title, exact: true }).click();
  await page.getByRole('heading', { name: title, exact: true }).waitFor();
}

async function shots(name: string) {
  // The app starts dark (as in verify.e2e.test.ts); the switch turns it light, then dark again.
  for (const theme of ['dark', 'light'] as const) {
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: width > 900 ? 900 : 844 });
      await page.screenshot({ path: join(SHOTS, `books-${name}-${width}-${theme}.png`), fullPage: true });
    }
    await page.getByRole('switch', { name: 'Dark mode' }).click();
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  app = await openTestApp({ env: () => ({ BAHI_FRONTENDS_DIR: FRONTENDS }) });
  ids.city = (await api('POST', '/masters/cities', { name: 'Mumbai', currency_name: 'INR', rate: 1 })).id;
  ids.funder = (await api('POST', '/masters/funders', { name: 'Dev', city_id: ids.city })).id;
  ids.godown = (await api('POST', '/masters/godowns', { name: 'Bhiwandi' })).id;
  ids.product = (await api('POST', '/masters/products', { name: 'Cumin' })).id;
  const purchase = (date: string, rate: number) =>
    api('POST', '/transactions/purchases', {
      type: 'Godown',
      purchase_date: date,
      city_id: ids.city,
      funder_id: ids.funder,
      product_id: ids.product,
      godown_id: ids.godown,
      rate,
      quantity: 10,
    });
  ids.october = (await purchase('2026-10-10', 101)).id;
  await purchase('2026-11-10', 111);
  await app.syncToHead();
  browser = await openSignedIn(app);
  page = browser.page;
  await page.setViewportSize({ width: 1366, height: 900 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('closing the books in Chromium', () => {
  it('closes October in Settings; the current close is the API’s', async () => {
    await openSettings('Close the books');
    await page.getByText('The books are open.').waitFor();
    await page.getByRole('textbox', { name: 'Close up to' }).fill('31 Oct 2026');
    await page.getByRole('button', { name: 'Close the books', exact: true }).click();
    await page.getByText(CLOSED).first().waitFor();
    const close = await api('GET', '/books/close');
    expect(close.closed_up_to).toBe('2026-10-31');
    await page.getByText(`Closed by ${close.by.name}`).waitFor();
    await shots('closed');
  }, 60_000);

  it('refuses a 15 Oct purchase in the preview and on Save, on the date field', async () => {
    await page.goto(`${app.bahi.url}/transactions/purchases`);
    await page.getByRole('heading', { name: 'Purchases', exact: true }).waitFor();
    await row('101.0000').first().waitFor();
    await page.getByRole('button', { name: 'New Purchase' }).click();
    await dialog().getByRole('textbox', { name: 'Purchase Date' }).fill('15 Oct 2026');
    await pick(dialog(), 'Funder', 'Dev');
    await dialog().getByLabel('Product').selectOption({ label: 'Cumin' });
    await pick(dialog(), 'Destination Godown', 'Bhiwandi');
    await dialog().getByLabel('Rate').fill('100');
    await dialog().getByLabel('Quantity').fill('5');
    // The preview is the server's dry run: the same answer as Save.
    const preview = dialog().getByRole('region', { name: 'Preview' });
    await expect.poll(() => preview.textContent(), { timeout: 10_000 }).toContain(CLOSED);
    const before = await head();
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    const date = dialog().getByRole('textbox', { name: 'Purchase Date' });
    await expect.poll(() => date.getAttribute('aria-invalid')).toBe('true');
    await dialog().getByText(CLOSED).first().waitFor();
    expect(await head()).toBe(before);
    await page.screenshot({ path: join(SHOTS, 'books-refused-purchase-1366-dark.png') });
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'hidden' });
  }, 60_000);

  it('disables Edit and Delete on October rows, with the reason; November rows stay open', async () => {
    const october = row('101.0000').first();
    for (const name of ['Edit purchase', 'Delete purchase']) {
      const button = october.getByRole('button', { name });
      expect(await button.getAttribute('aria-disabled')).toBe('true');
      const described = await button.evaluate((b) =>
        (b.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
      // Fluent renders the description tooltip on hover: hover, then read it.
      if (!described.includes(CLOSED)) {
        await button.hover();
        await page.getByRole('tooltip').filter({ hasText: CLOSED }).waitFor();
      }
      const november = row('111.0000').first().getByRole('button', { name });
      expect(await november.getAttribute('aria-disabled')).not.toBe('true');
      expect(await november.isEnabled()).toBe(true);
    }
    await row('101.0000').first().getByRole('button', { name: 'Edit purchase' }).hover();
    await page.getByRole('tooltip').filter({ hasText: CLOSED }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'books-rows-disabled-1366-dark.png') });
  }, 60_000);

  it('adjusts the October purchase with a November one from its row, by keyboard; the ledger says so, as the API', async () => {
    const adjust = () => row('101.0000').first().getByRole('button', { name: 'Adjust purchase' });
    const words = 'Adjusts Purchase of 10 Oct 2026';
    // November rows are open: they have no Adjust.
    expect(await row('111.0000').first().getByRole('button', { name: 'Adjust purchase' }).count()).toBe(0);
    // The closed row with its Adjust, and the form it opens, at both widths in both themes.
    for (const theme of ['dark', 'light'] as const) {
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: width > 900 ? 900 : 844 });
        // The row may be drawn anew right after the width changes (table or cards) or the list
        // settles: scroll to the row that stands, not to one React has just replaced.
        await vi.waitFor(() => adjust().scrollIntoViewIfNeeded({ timeout: 2_000 }), {
          timeout: 10_000,
          interval: 100,
        });
        await page.screenshot({
          path: join(SHOTS, `books-adjust-row-${width}-${theme}.png`),
          fullPage: true,
        });
        await adjust().focus();
        await page.keyboard.press('Enter');
        await dialog().getByText(words).waitFor();
        await page.screenshot({
          path: join(SHOTS, `books-adjust-form-${width}-${theme}.png`),
          fullPage: true,
        });
        await dialog().getByRole('button', { name: 'Cancel' }).click();
        await dialog().waitFor({ state: 'hidden' });
      }
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.getByRole('switch', { name: 'Dark mode' }).click();
    }
    // The reference can be cleared: the entry is then an ordinary one.
    await adjust().focus();
    await page.keyboard.press('Enter');
    await dialog().getByRole('button', { name: 'Not an adjustment' }).click();
    expect(await dialog().getByText(words).count()).toBe(0);
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'hidden' });

    // The adjustment: November, the October purchase's values as a start, 2 more at 103.
    await adjust().focus();
    await page.keyboard.press('Enter');
    await dialog().getByText(words).waitFor();
    const date = dialog().getByRole('textbox', { name: 'Purchase Date' });
    await date.fill('20 Nov 2026');
    await dialog().getByLabel('Rate').fill('103');
    await dialog().getByLabel('Quantity').fill('2');
    const preview = dialog().getByRole('region', { name: 'Preview' });
    await expect.poll(() => preview.textContent(), { timeout: 10_000 }).toContain('206.00');
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    await dialog().waitFor({ state: 'hidden' });
    await row('103.0000').first().waitFor();

    const purchases = await api('GET', `/transactions/purchases?city_id=${ids.city}&limit=50`);
    const saved = purchases.data.find((p: { rate: string }) => p.rate.startsWith('103'));
    expect(saved.purchase_date.slice(0, 10)).toBe('2026-11-20');
    expect(saved.adjusts).toEqual({ id: ids.october, kind: 'Purchase', date: '2026-10-10' });

    // The funder's ledger: the line's Particulars on screen are the API's.
    await app.syncToHead();
    const ledger = await api('GET', `/reports/ledger/Funder/${ids.funder}`);
    const line = ledger.transactions.find((l: { particulars: string }) => l.particulars.includes(words));
    expect(line.particulars).toBe(`Purchase: 2.0000 Cumin from Dev. ${words}`);
    await page.goto(`${app.bahi.url}/reports/ledger/Funder/${ids.funder}`);
    const table = page.getByRole('table', { name: 'Ledger of Dev' });
    const cell = table.getByRole('row').filter({ hasText: words });
    await cell.waitFor();
    expect(await cell.textContent()).toContain(line.particulars);
    expect(await cell.textContent()).toContain('20 Nov 2026');
    await shots('adjust-ledger');
    await page.goto(`${app.bahi.url}/transactions/purchases`);
    await row('103.0000').first().waitFor();
  }, 120_000);

  it('reopens with a reason, shown in the Activity Log; the October row opens again', async () => {
    await openSettings('Close the books');
    await page.getByRole('textbox', { name: 'Reason' }).fill('Late invoice from Dev');
    await page.getByRole('button', { name: 'Reopen', exact: true }).click();
    await page.getByText('The books are open.').first().waitFor();
    await page.getByText(/because: Late invoice from Dev/).waitFor();
    expect((await api('GET', '/books/close')).closed_up_to).toBeNull();
    await openSettings('Activity Log');
    await page.getByText('Reopened the books (open now) because: Late invoice from Dev').waitFor();
    await page.getByText('Closed the books up to 31 Oct 2026').waitFor();
    await page.screenshot({ path: join(SHOTS, 'books-activity-log-1366-dark.png') });
    await page.goto(`${app.bahi.url}/transactions/purchases`);
    const edit = row('101.0000').first().getByRole('button', { name: 'Edit purchase' });
    await edit.waitFor();
    await expect.poll(() => edit.getAttribute('aria-disabled')).not.toBe('true');
  }, 60_000);
});
