import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';
import { expectInView, openSignedIn, PHONE } from './browser.ts';

/**
 * The operator's screens (issue #18), as an Admin drives them: Settings > System finds a planted
 * difference in the live read models with a compare-only rebuild, shows its report, and repairs
 * it with 'Rebuild and swap'; Settings > WhatsApp outbox lists a send made without a WhatsApp
 * transport, opens its file, and tries Send now (which keeps it in the outbox and says why).
 */
const FRONTENDS = dirname(dirname(fileURLToPath(import.meta.url)));
const SHOTS = join(dirname(FRONTENDS), 'test-results', 'screenshots');

let app: TestApp;
let browser: Awaited<ReturnType<typeof openSignedIn>>;
let page: Page;

const url = (path: string) => `${app.bahi.url}${path}`;

async function api(method: string, path: string, body?: unknown) {
  const r = await app.call(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

/** Asks for a rebuild through the API and waits for the projector to finish it. */
async function rebuildThroughApi(body: { projections?: string[]; swap: boolean }) {
  const { id } = await api('POST', '/admin/projections/rebuild', body);
  for (let i = 0; i < 600; i++) {
    const status = await api('GET', '/admin/projections');
    const r = status.rebuilds.find((x: { id: string }) => x.id === id);
    if (r?.status === 'done' || r?.status === 'failed') return r;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error('the rebuild did not finish');
}

let victim: { account: string; position: string; line: number };
let productId = '';

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  app = await openTestApp({ env: () => ({ BAHI_FRONTENDS_DIR: FRONTENDS }) });
  const city = (await api('POST', '/masters/cities', { name: 'Pune', currency_name: 'INR', rate: 1 })).id;
  productId = (await api('POST', '/masters/products', { name: 'Cumin' })).id;
  const collector = (await api('POST', '/masters/collectors', { name: 'Kabir', city_id: city })).id;
  for (const amount of ['100.25', '250.00'])
    await api('POST', '/transactions/expenses', {
      amount,
      expense_date: '2026-11-01',
      category: 'Rent',
      remarks: 'before the damage',
      city_id: city,
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: collector,
    });
  await app.syncToHead();
  await api('GET', '/masters/products');
  browser = await openSignedIn(app);
  page = browser.page;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('Settings > System in Chromium', () => {
  it('finds planted damage with a compare-only rebuild, reports it, and repairs it with Rebuild and swap', async () => {
    // Damage the live read models behind the app's back: one journal line's amount, one product.
    const db = app.bahi.readDb;
    const line = await db
      .selectFrom('journal')
      .select(['position', 'line', 'account', 'amount'])
      .where('amount', '>', '0')
      .orderBy('position')
      .executeTakeFirstOrThrow();
    victim = { account: line.account, position: String(line.position), line: Number(line.line) };
    await db
      .updateTable('journal')
      .set({ amount: '999999.99' })
      .where('position', '=', line.position)
      .where('line', '=', line.line)
      .execute();
    await db.deleteFrom('products').where('id', '=', productId).execute();

    await page.goto(url('/settings/system'));
    await page.getByRole('heading', { name: 'System', exact: true }).waitFor();
    const projections = page.getByRole('table', { name: 'Projections' });
    await projections
      .getByRole('row', { name: /journal/ })
      .first()
      .waitFor();
    expect(
      await projections
        .getByRole('row', { name: /masters/ })
        .first()
        .textContent(),
    ).toMatch(/Running/);

    // Keyboard: the checkboxes, the mode and the button are reachable and work with Space.
    await page.getByRole('checkbox', { name: 'Select journal' }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('checkbox', { name: 'Select masters' }).check();
    await page.getByRole('radio', { name: 'Compare only' }).check();
    await page.getByRole('button', { name: 'Compare only: 2 selected' }).click();

    const report = page.getByRole('region', { name: 'Comparison report' });
    await report.waitFor({ timeout: 60_000 });
    expect(await report.textContent()).toContain('Differences found');
    expect(await report.textContent()).toContain('Compared only');
    const tables = report.getByRole('table', { name: 'Differing tables of masters' });
    expect(await tables.textContent()).toContain('products');
    const journalTables = report.getByRole('table', { name: 'Differing tables of journal' });
    expect(await journalTables.textContent()).toContain('journal');
    const accounts = report.getByRole('table', { name: 'Differing accounts of journal' });
    expect(await accounts.textContent()).toContain(victim.account);
    await page.setViewportSize({ width: 1366, height: 1900 });
    await page.screenshot({ path: join(SHOTS, 'system-report-1366-dark.png') });
    await page.setViewportSize({ width: 1280, height: 800 });

    // A swap replaces the live read models: it asks first, and Cancel sends nothing.
    await report.getByRole('button', { name: 'Rebuild and swap' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Rebuild and swap?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await report.textContent()).toContain('Compared only');
    await report.getByRole('button', { name: 'Rebuild and swap' }).click();
    await confirm.getByText(/will be rebuilt from the event log/).waitFor();
    await confirm.getByRole('button', { name: 'Rebuild and swap' }).click();
    const latest = page.getByRole('region', { name: 'Latest rebuild' });
    await latest
      .getByText(/^Rebuild and swap of (journal, masters|masters, journal), asked for by/)
      .waitFor();
    await latest
      .getByText('The rebuilt tables were swapped in: the live read models are now the rebuilt ones.')
      .waitFor({ timeout: 60_000 });
    await page.getByRole('region', { name: 'Earlier rebuilds' }).waitFor();

    // Afterwards the live read models are identical to a fresh rebuild (asked through the API).
    const check = await rebuildThroughApi({ projections: ['journal', 'masters'], swap: false });
    expect(check.status).toBe('done');
    expect(check.report.identical).toBe(true);
    const products = (await api('GET', '/masters/products?limit=-1')).data;
    expect(products.map((p: { id: string }) => p.id)).toContain(productId);
  }, 180_000);
});

describe('Settings > WhatsApp outbox in Chromium', () => {
  it('lists a send made without WhatsApp settings, opens its file, marks it sent; newest first', async () => {
    const sent = await api('POST', '/reports/whatsapp', {
      recipientNumber: '+91 98765 43210',
      reportName: 'stock',
      data: {},
    });
    expect(sent.message).toBe(
      'The report was put in the WhatsApp outbox for +919876543210; an Admin sends it from Settings > WhatsApp outbox.',
    );

    await page.goto(url('/'));
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('link', { name: 'WhatsApp outbox' }).click();
    await page.getByRole('heading', { name: 'WhatsApp outbox', exact: true }).waitFor();
    const table = page.getByRole('table', { name: 'WhatsApp outbox' });
    const row = table.getByRole('row', { name: /\+919876543210/ });
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain('Stock');
    expect(text).toContain('In outbox');
    const users = (await api('GET', '/masters/users?limit=-1')).data;
    const admin = users.find((u: { email: string }) => u.email === app.bahi.config.BAHI_ADMIN_EMAIL);
    expect(text).toContain(admin.name);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: /^Open file / }).click(),
    ]);
    const body = await readFile((await download.path())!);
    expect(body.subarray(0, 5).toString()).toBe('%PDF-');

    // Sent by hand: marked so after a confirmation, recorded through the command side.
    await row.getByRole('button', { name: 'Mark sent to +919876543210' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Mark sent' }).click();
    await row.getByText('Sent by hand').waitFor();
    const outbox = (await api('GET', '/reports/whatsapp/outbox')).data;
    expect(outbox[0]).toMatchObject({ recipient: '+919876543210', status: 'sent', recorded_by: admin.id });

    // A second send, newest first, still in the outbox (for the screenshots).
    await api('POST', '/reports/whatsapp', {
      recipientNumber: '+447700900123',
      reportName: 'balances',
      data: {},
    });
    await page.reload();
    await table.getByRole('row', { name: /\+447700900123/ }).waitFor();
    const rows = await table.getByRole('row').allTextContents();
    expect(rows[1]).toContain('+447700900123');
    expect(rows[1]).toContain('In outbox');
    expect(rows[2]).toContain('+919876543210');

    // Send now: the server has no WhatsApp settings, so it stays in the outbox and says why.
    const second = table.getByRole('row', { name: /\+447700900123/ });
    await second.getByRole('button', { name: 'Send now to +447700900123' }).click();
    await page
      .getByText(
        'The report to +447700900123 stays in the outbox: WhatsApp is not set up on this server, so it was not sent. Open the file and send it by hand.',
      )
      .waitFor();
    await second.getByText(/WhatsApp is not set up on this server/).waitFor();
    expect(await second.textContent()).toContain('In outbox');
    const after = (await api('GET', '/reports/whatsapp/outbox')).data;
    expect(after).toHaveLength(2);
    expect(after[0]).toMatchObject({
      recipient: '+447700900123',
      status: 'outbox',
      recorded_by: admin.id,
      error: expect.stringContaining('WhatsApp is not set up on this server'),
    });
  }, 120_000);

  it('on a phone (390 x 844) the first projection’s status and the outbox row’s Send now are in view, no sideways scroll', async () => {
    await page.setViewportSize(PHONE);
    try {
      const [first] = (await api('GET', '/admin/projections')).projections as {
        name: string;
        status: string;
      }[];
      await page.goto(url('/settings/system'));
      // The first data row (the header row stays for screen readers, hidden), as the API orders them.
      const row = page.getByRole('table', { name: 'Projections' }).getByRole('row').nth(1);
      await row.getByText(first!.name, { exact: true }).waitFor();
      const status = row.locator('[data-figure="status"]');
      await status.waitFor();
      await status.scrollIntoViewIfNeeded();
      expectInView(await status.boundingBox());
      const labels = { running: 'Running', failed: 'Stopped', paused: 'Paused' } as Record<string, string>;
      expect(await status.locator('dt').textContent()).toBe('Status');
      expect(await status.locator('dd').textContent()).toBe(labels[first!.status]);
      for (const key of ['lag', 'position'])
        expectInView(await row.locator(`[data-figure="${key}"]`).boundingBox());
      // The table is no wider than the screen: nothing to scroll sideways for.
      const table = await page.getByRole('table', { name: 'Projections' }).boundingBox();
      expect(table!.x + table!.width).toBeLessThanOrEqual(PHONE.width);

      await page.goto(url('/settings/whatsapp-outbox'));
      const send = page.getByRole('button', { name: 'Send now to +447700900123' });
      await send.waitFor();
      await send.scrollIntoViewIfNeeded();
      expectInView(await send.boundingBox());
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  }, 60_000);

  it('the dashboard chart’s value axis is labelled, from 0 to the power of ten above the API’s largest amount', async () => {
    const summary = await api('GET', '/reports/dashboard-summary');
    const cents = (text: string) => {
      const [whole = '0', fraction = ''] = text.replace(/^-/, '').split('.');
      return BigInt(whole) * 100n + BigInt(`${fraction}00`.slice(0, 2));
    };
    const amounts = (summary.dailyIncomeExpense as { income: string; expense: string }[]).flatMap((d) => [
      cents(d.income),
      cents(d.expense),
    ]);
    const largest = amounts.reduce((a, b) => (a > b ? a : b), 0n);
    expect(largest).toBeGreaterThan(0n);
    await page.goto(url('/'));
    const axis = page
      .getByRole('figure', { name: 'Income vs. expense for each of the last 30 days' })
      .locator('[data-axis="value"] text');
    await axis.first().waitFor();
    const ticks = await axis.evaluateAll((els) =>
      els.map((e) => ({ label: e.textContent, value: e.getAttribute('data-tick') })),
    );
    expect(ticks[0]).toEqual({ label: '0', value: '0' });
    expect(ticks.length).toBeGreaterThan(2);
    const top = BigInt(ticks.at(-1)!.value!) * 100n;
    const below = BigInt(ticks.at(-2)!.value!) * 100n;
    expect(top >= largest && below < largest).toBe(true);
    expect(ticks.map((t) => t.label)).toContain('100');
  }, 60_000);

  it('takes screenshots of both screens in both themes, at 1366 and 390 px', async () => {
    for (const theme of ['dark', 'light'] as const) {
      if (theme === 'light') await page.getByRole('switch', { name: 'Dark mode' }).click();
      for (const width of [1366, 390]) {
        // Tall enough for the projections and the latest rebuild's report (the page scrolls inside).
        await page.setViewportSize({ width, height: width > 900 ? 1500 : 2600 });
        await page.goto(url('/settings/system'));
        await page
          .getByRole('table', { name: 'Projections' })
          .getByRole('row', { name: /journal/ })
          .waitFor();
        await page.getByRole('region', { name: 'Latest rebuild' }).waitFor();
        await page.screenshot({ path: join(SHOTS, `system-${width}-${theme}.png`) });
        await page.setViewportSize({ width, height: 900 });
        await page.getByRole('button', { name: 'Rebuild and swap: all' }).click();
        const confirm = page.getByRole('alertdialog', { name: 'Rebuild and swap?' });
        await confirm.getByRole('button', { name: 'Cancel' }).waitFor();
        await page.screenshot({ path: join(SHOTS, `system-confirm-swap-${width}-${theme}.png`) });
        await confirm.getByRole('button', { name: 'Cancel' }).click();
        await confirm.waitFor({ state: 'hidden' });
        await page.setViewportSize({ width, height: 900 });
        await page.goto(url('/settings/whatsapp-outbox'));
        await page.getByRole('row', { name: /\+919876543210/ }).waitFor();
        await page.screenshot({ path: join(SHOTS, `whatsapp-outbox-${width}-${theme}.png`) });
        // Tall enough on a phone for the chart under the four cards (the page scrolls inside).
        await page.setViewportSize({ width, height: width > 900 ? 900 : 1500 });
        await page.goto(url('/'));
        await page.locator('[data-axis="value"]').waitFor();
        await page.screenshot({ path: join(SHOTS, `dashboard-chart-${width}-${theme}.png`) });
      }
    }
    await page.getByRole('switch', { name: 'Dark mode' }).click();
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 120_000);
});
