import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';
import { openSignedIn } from './browser.ts';

/**
 * Settings > Import with the transaction kinds (issue #31) in Chromium. Purchases: a file naming
 * the masters by name uploaded, a wrong row flagged on its cell; fixed, the preview shows each
 * account before and after and the stock moved (the figures the API's preview has); committed,
 * the funder's ledger shows the balance the preview promised and, on screen, each imported line
 * ending in "Imported from <file> by <user>"; the purchases list shows the lot number (a custom
 * field of purchases) the file gave. Expenses: the template downloaded
 * from the screen and filled, a wrong row flagged, the fixed file previewed and committed, and
 * the expenses list as the API gives it holds the rows.
 */
const FRONTENDS = dirname(dirname(fileURLToPath(import.meta.url)));
const SHOTS = join(dirname(FRONTENDS), 'test-results', 'screenshots');
const HEADER = [
  'Type',
  'Purchase Date',
  'City',
  'Funder',
  'Product',
  'Godown',
  'Agent',
  'Collector',
  'Rate',
  'Quantity',
  'Lot number',
];

let app: TestApp;
let browser: Awaited<ReturnType<typeof openSignedIn>>;
let page: Page;
let dir: string;
const ids: Record<string, string> = {};

async function api(method: string, path: string, body?: unknown) {
  const r = await app.call(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

/** A workbook with `rows` under the header on `sheet`: a new one, or the downloaded template. */
async function file(
  rows: ExcelJS.CellValue[][],
  { sheet = 'Purchases', template }: { sheet?: string; template?: Buffer } = {},
): Promise<string> {
  const wb = new ExcelJS.Workbook();
  if (template) await wb.xlsx.load(template as unknown as ArrayBuffer);
  else wb.addWorksheet(sheet).addRow(HEADER);
  for (const row of rows) wb.getWorksheet(sheet)!.addRow(row);
  const path = join(dir, `${sheet.toLowerCase()}-${Date.now()}.xlsx`);
  await writeFile(path, Buffer.from(await wb.xlsx.writeBuffer()));
  return path;
}

async function shots(name: string, kind = 'purchases') {
  for (const theme of ['dark', 'light'] as const) {
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: width > 900 ? 900 : 844 });
      await page.getByRole('region', { name: 'Preview' }).scrollIntoViewIfNeeded();
      // The screen scrolls inside the shell, never the page itself: a phone table's hidden header
      // once made the page 3,364 px tall, blank below the screen.
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBe(
        await page.evaluate(() => window.innerHeight),
      );
      await page.screenshot({
        path: join(SHOTS, `import-${kind}-${name}-${width}-${theme}.png`),
        fullPage: true,
      });
    }
    await page.getByRole('switch', { name: 'Dark mode' }).click();
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  dir = await mkdtemp(join(tmpdir(), 'bahi-import-purchases-'));
  app = await openTestApp({ env: () => ({ BAHI_FRONTENDS_DIR: FRONTENDS }) });
  ids.Kabul = (
    await api('POST', '/masters/cities', { name: 'Kabul', currency_name: 'AFN', rate: '1.25' })
  ).id;
  ids.Cumin = (await api('POST', '/masters/products', { name: 'Cumin' })).id;
  ids.Bhiwandi = (await api('POST', '/masters/godowns', { name: 'Bhiwandi' })).id;
  ids.Rahim = (
    await api('POST', '/masters/funders', { name: 'Haji Rahim', city_id: ids.Kabul, opening_balance: '500' })
  ).id;
  await api('POST', '/masters/agents', { name: 'Bilal', city_id: ids.Kabul });
  ids.Imran = (await api('POST', '/masters/collectors', { name: 'Imran', city_id: ids.Kabul })).id;
  // A custom field of purchases: the template gets its column, the rows carry its values.
  await api('POST', '/masters/custom-fields', {
    name: 'Lot number',
    type: 'TEXT',
    is_required: false,
    entity_types: ['Purchase'],
  });
  await app.syncToHead();
  browser = await openSignedIn(app);
  page = browser.page;
  await page.setViewportSize({ width: 1366, height: 900 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('importing purchases in Chromium', () => {
  it('flags a wrong row, previews the accounts and stock of the fixed file, and commits it', async () => {
    await page.goto(`${app.bahi.url}/settings/import`);
    await page.getByRole('heading', { name: 'Import', exact: true }).waitFor();
    await page.getByLabel('What to import').selectOption({ label: 'Purchases' });
    const good: ExcelJS.CellValue[][] = [
      [
        'Godown',
        '01/04/2026',
        'Kabul',
        'Haji Rahim',
        'Cumin',
        'Bhiwandi',
        null,
        null,
        '100.50',
        '10',
        'LOT-7',
      ],
      ['Direct', '02/04/2026', 'Kabul', 'Haji Rahim', 'Cumin', null, 'Bilal', null, '20', '5', null],
    ];
    await page
      .locator('input[type="file"]')
      .setInputFiles(
        await file([
          ...good,
          ['Godown', '03/04/2026', 'Kabul', 'Nobody', 'Cumin', 'Bhiwandi', null, null, '1', '1'],
        ]),
      );
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('3 rows: 2 ready, 1 wrong').waitFor();
    // The upload joins the past imports at once (the list is not left as the page first read it).
    const history = page.getByRole('region', { name: 'Past imports' });
    await history
      .getByRole('row')
      .filter({ hasText: /purchases-\d+\.xlsx/ })
      .first()
      .waitFor();
    await preview.getByRole('switch', { name: 'Only wrong rows' }).click();
    const note = preview.getByRole('note');
    await expect.poll(() => note.count()).toBe(1);
    expect(await note.textContent()).toMatch(/^D4: No funder of Kabul is named "Nobody"/);
    expect(await preview.getByRole('button', { name: /^Commit/ }).isDisabled()).toBe(true);

    await page.locator('input[type="file"]').setInputFiles(await file(good));
    await preview.getByText('2 rows: 2 ready, 0 wrong').waitFor();
    const id = new URL(page.url()).searchParams.get('id')!;
    const byApi = (await api('GET', `/imports/${id}`)).effect;
    const rahim = byApi.accounts.find((l: { name: string }) => l.name === 'Haji Rahim');
    // 100.50 x 10 + 20 x 5 = 1,105.00 AFN on top of the 500.00 opening balance.
    expect(rahim).toMatchObject({ before: '500.00', after: '1605.00' });
    const effect = preview.getByRole('region', { name: 'Effect on the books' });
    await effect.getByText('AFN: 2 purchases, 1,105.00 in all').waitFor();
    const accounts = effect.getByRole('table', { name: 'Accounts before and after' });
    const row = accounts.getByRole('row').filter({ hasText: 'Haji Rahim' });
    await row.getByText('500.00', { exact: true }).waitFor();
    await row.getByText('1,605.00', { exact: true }).waitFor();
    const stock = effect
      .getByRole('table', { name: 'Stock moved' })
      .getByRole('row')
      .filter({ hasText: 'Bhiwandi' });
    await stock.getByText('10.0000', { exact: true }).first().waitFor();
    await shots('valid');

    await preview.getByRole('button', { name: 'Commit 2 purchases' }).click();
    await preview
      .getByRole('status')
      .getByText(/^Imported 2 purchases from purchases-\d+\.xlsx by /)
      .waitFor();
    await app.syncToHead();
    const ledger = await api('GET', `/reports/ledger/Funder/${ids.Rahim}`);
    expect(ledger.closingBalance).toBe('1605.00');

    // The funder's ledger says where each purchase came from and who brought it in, as the API does.
    const { name } = await api('GET', '/auth/profile');
    const imported = new RegExp(
      `^Purchase: 10\\.0000 Cumin from Haji Rahim\\. Imported from purchases-\\d+\\.xlsx by ${name}$`,
    );
    expect(ledger.transactions.map((l: { particulars: string }) => l.particulars)).toContainEqual(
      expect.stringMatching(imported),
    );
    await page.goto(`${app.bahi.url}/reports/ledger/Funder/${ids.Rahim}`);
    await page.getByText(imported).first().waitFor();
    for (const theme of ['dark', 'light'] as const) {
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: width > 900 ? 900 : 844 });
        await page.getByText(imported).first().waitFor();
        await page.screenshot({ path: join(SHOTS, `import-purchases-ledger-${width}-${theme}.png`) });
      }
      await page.getByRole('switch', { name: 'Dark mode' }).click();
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    // The purchases list's expanded row shows the imported lot number.
    await page.goto(`${app.bahi.url}/transactions/purchases`);
    const godownRow = page.getByRole('row').filter({ hasText: '1,005.00' }).first();
    await godownRow.getByRole('button', { name: 'Expand row' }).click();
    await page.getByText('Lot number:').waitFor();
    expect(await page.getByText('LOT-7').count()).toBe(1);
  }, 180_000);

  it('imports expenses: the template from the screen filled, a wrong row flagged, the fixed file committed', async () => {
    await page.goto(`${app.bahi.url}/settings/import`);
    await page.getByLabel('What to import').selectOption({ label: 'Expenses' });
    await page.getByText('and the cities, collectors and godowns in Bahi to look names up').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download Excel template' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('bahi-expenses-template.xlsx');
    const template = await readFile((await download.path())!);
    const check = new ExcelJS.Workbook();
    await check.xlsx.load(template as unknown as ArrayBuffer);
    expect((check.getWorksheet('Expenses')!.getRow(1).values as unknown[]).slice(1)).toEqual([
      'Expense Date',
      'City',
      'Category',
      'Amount',
      'Paid From Type',
      'Paid From',
      'Remarks',
    ]);
    const good: ExcelJS.CellValue[][] = [
      ['05/04/2026', 'Kabul', 'Rent', '1,200.50', 'Collector', 'Imran', 'April rent'],
      [46118, 'Kabul ', 'Freight', '₹ 1,00,000', 'Godown', 'Bhiwandi', null],
    ];
    const opts = { sheet: 'Expenses', template };
    await page
      .locator('input[type="file"]')
      .setInputFiles(
        await file([...good, ['06/04/2026', 'Kabul', 'Rent', '10', 'Collector', 'Nobody']], opts),
      );
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('3 rows: 2 ready, 1 wrong').waitFor();
    const note = preview.getByRole('note');
    await expect.poll(() => note.count()).toBe(1);
    expect(await note.textContent()).toMatch(/^F4: No collector of Kabul is named "Nobody"/);
    await shots('wrong', 'expenses');

    await page.locator('input[type="file"]').setInputFiles(await file(good, opts));
    await preview.getByText('2 rows: 2 ready, 0 wrong').waitFor();
    const effect = preview.getByRole('region', { name: 'Effect on the books' });
    await effect.getByText('AFN: 1 expense, 1,200.50 in all').waitFor();
    await effect
      .getByText('INR: 1 expense, 1,00,000.00 in all')
      .or(effect.getByText('INR: 1 expense, 100,000.00 in all'))
      .waitFor();
    const imran = effect
      .getByRole('table', { name: 'Accounts before and after' })
      .getByRole('row')
      .filter({ hasText: 'Imran' });
    await imran.getByText('-1,200.50', { exact: true }).waitFor();
    await shots('valid', 'expenses');

    await preview.getByRole('button', { name: 'Commit 2 expenses' }).click();
    await preview
      .getByRole('status')
      .getByText(/^Imported 2 expenses from expenses-\d+\.xlsx by /)
      .waitFor();
    await app.syncToHead();
    const list = await api('GET', `/transactions/expenses?city_id=${ids.Kabul}&limit=50`);
    const rows = JSON.stringify(list);
    expect(rows).toContain('1200.50');
    expect(rows).toContain('100000.00');
    expect(rows).toContain('April rent');
    // The screen's link opens the list the API answered from.
    await preview.getByRole('link', { name: 'Open Expenses' }).click();
    await page.getByText('April rent').first().waitFor();
  }, 180_000);
});
