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
 * Settings > Import (issue #31) as an Admin drives it in Chromium: the funders template
 * downloaded, 50 funders in 3 cities with opening balances written into it (a few rows wrong),
 * uploaded: the wrong rows flagged on their cells and nothing written; fixed and uploaded again:
 * the preview shows the balances; committed: the funders list and their ledgers show them, the
 * activity log names the import; the same file committed again is refused as already imported;
 * then the import undone from the list of past imports: the funders gone from the list and the
 * API alike, the activity log naming the undo.
 */
const FRONTENDS = dirname(dirname(fileURLToPath(import.meta.url)));
const SHOTS = join(dirname(FRONTENDS), 'test-results', 'screenshots');
const CITIES = [
  ['Kabul', 'AFN', '1.25'],
  ['Mumbai', 'INR', '1'],
  ['Karachi', 'PKR', '0.3'],
] as const;

let app: TestApp;
let browser: Awaited<ReturnType<typeof openSignedIn>>;
let page: Page;
let dir: string;
let template: Buffer;

async function api(method: string, path: string, body?: unknown) {
  const r = await app.call(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

/** Funder i: its city by turn and an opening balance of i thousand and i paise, Indian-grouped. */
const funder = (i: number) => ({
  name: `Funder ${String(i).padStart(2, '0')}`,
  city: CITIES[i % 3]![0],
  balance: `${i * 1000}.${String(i).padStart(2, '0')}`,
});
const grouped = (balance: string) => {
  const [int = '', frac = ''] = balance.split('.');
  const last3 = int.slice(-3);
  const rest = int.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `${rest ? `${rest},` : ''}${last3}.${frac}`;
};

/** The downloaded template with 50 funders on its Funders sheet; `wrong` changes some cells. */
async function filled(wrong: (sheet: ExcelJS.Worksheet) => void = () => {}): Promise<string> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as unknown as ArrayBuffer);
  const sheet = wb.getWorksheet('Funders')!;
  const header = (sheet.getRow(1).values as string[]).slice(1);
  for (let i = 1; i <= 50; i++) {
    const f = funder(i);
    const row = sheet.getRow(i + 1);
    row.getCell(header.indexOf('Name') + 1).value = f.name;
    row.getCell(header.indexOf('City') + 1).value = f.city;
    row.getCell(header.indexOf('Opening Balance') + 1).value = i % 2 ? grouped(f.balance) : `₹ ${f.balance}`;
    row.getCell(header.indexOf('Joining Date') + 1).value = '01/04/2026';
  }
  wrong(sheet);
  const path = join(dir, `funders-${Date.now()}.xlsx`);
  await writeFile(path, Buffer.from(await wb.xlsx.writeBuffer()));
  return path;
}

async function shots(name: string) {
  // The app starts dark (as in verify.e2e.test.ts); the switch turns it light, then dark again.
  for (const theme of ['dark', 'light'] as const) {
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: width > 900 ? 900 : 844 });
      // The page scrolls inside the layout: the preview brought into view, on a phone too.
      await page.getByRole('region', { name: 'Preview' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, `import-${name}-${width}-${theme}.png`), fullPage: true });
    }
    await page.getByRole('switch', { name: 'Dark mode' }).click();
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

const funderList = async () =>
  (await api('GET', '/masters/funders?limit=-1')).data as Array<{
    id: string;
    name: string;
    opening_balance: string;
  }>;

async function upload(path: string) {
  await page.locator('input[type="file"]').setInputFiles(path);
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  dir = await mkdtemp(join(tmpdir(), 'bahi-import-'));
  app = await openTestApp({ env: () => ({ BAHI_FRONTENDS_DIR: FRONTENDS }) });
  for (const [name, currency_name, rate] of CITIES)
    await api('POST', '/masters/cities', { name, currency_name, rate });
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

describe('importing funders in Chromium', () => {
  let fixedPath: string;

  it('downloads the funders template from Settings > Import', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    const group = nav.getByRole('button', { name: 'Settings' });
    if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
    await nav.getByRole('link', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Import', exact: true }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download Excel template' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('bahi-funders-template.xlsx');
    template = await readFile((await download.path())!);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(template as unknown as ArrayBuffer);
    expect(wb.worksheets.map((s) => s.name)).toEqual(['Funders', 'Rules', 'Example', 'Cities']);
    expect(wb.getWorksheet('Cities')!.getColumn(1).values.slice(2)).toEqual(['Kabul', 'Karachi', 'Mumbai']);
  }, 60_000);

  it('flags the wrong rows on their cells, writes nothing, and keeps Commit disabled', async () => {
    const path = await filled((sheet) => {
      sheet.getCell('B5').value = 'Atlantis'; // row 5: no such city
      sheet.getCell('C9').value = 'twelve'; // row 9: not a number
      sheet.getCell('A14').value = '  '; // row 14: no name
      sheet.getCell('D20').value = '31/02/2026'; // row 20: no such day
    });
    await upload(path);
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('50 rows: 46 ready, 4 wrong').waitFor();
    await preview.getByText('Not ready', { exact: true }).waitFor();
    await preview.getByRole('switch', { name: 'Only wrong rows' }).click();
    const notes = preview.getByRole('note');
    await expect.poll(() => notes.count()).toBe(4);
    const texts = await notes.allTextContents();
    expect(texts[0]).toMatch(/^B5: No city is named "Atlantis"/);
    expect(texts[1]).toBe('C9: Opening balance must be a number');
    expect(texts[2]).toBe('A14: Name is required');
    expect(texts[3]).toMatch(/^Cell D20: "31\/02\/2026" is not a date/);
    for (const cell of ['B5', 'C9', 'A14', 'D20']) await preview.locator(`[data-cell="${cell}"]`).waitFor();
    expect(await preview.getByRole('button', { name: /^Commit/ }).isDisabled()).toBe(true);
    // Nothing was written: no funder, no event but the cities'.
    expect(await funderList()).toEqual([]);
    await shots('errors');
  }, 90_000);

  it('previews the opening balances of the fixed file, commits it, and the lists and ledgers show them', async () => {
    fixedPath = await filled();
    await upload(fixedPath);
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('50 rows: 50 ready, 0 wrong').waitFor();
    const effect = preview.getByRole('region', { name: 'Effect on the books' });
    // Funders 3, 6, ... 48 are in Kabul (AFN): 16 of them.
    await effect.getByText(/^AFN: 16 funders, /).waitFor();
    await preview.getByText('0.00 → 1,000.01').waitFor();
    await shots('valid');
    await preview.getByRole('button', { name: 'Commit 50 funders' }).click();
    await preview
      .getByRole('status')
      .getByText(/^Imported 50 funders from funders-\d+\.xlsx by /)
      .waitFor();

    await app.syncToHead();
    const list = await funderList();
    expect(list).toHaveLength(50);
    for (let i = 1; i <= 50; i++) {
      const f = funder(i);
      const row = list.find((r) => r.name === f.name);
      expect(row, f.name).toBeDefined();
      expect(row!.opening_balance).toBe(f.balance);
      const ledger = await api('GET', `/reports/ledger/Funder/${row!.id}`);
      expect(ledger.openingBalance, f.name).toBe(f.balance);
      expect(ledger.entity.currency).toBe(CITIES.find((c) => c[0] === f.city)![1]);
    }

    // The funders list and a ledger in the browser.
    await page.goto(`${app.bahi.url}/masters/funders`);
    await page.getByRole('heading', { name: 'Funders', exact: true }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Funder 07' }).first().waitFor();
    const seven = list.find((r) => r.name === 'Funder 07')!;
    await page.goto(`${app.bahi.url}/reports/ledger/Funder/${seven.id}`);
    await page.getByText('Opening Balance').first().waitFor();
    await page.getByText('7,000.07').first().waitFor();

    // The activity log names the import, its file and who imported it.
    const log = await api('GET', '/logs?modelName=Import');
    expect(log.data).toHaveLength(1);
    expect(log.data[0].new_data.file_name).toMatch(/^funders-\d+\.xlsx$/);
    await page.goto(`${app.bahi.url}/settings/activity-log?modelName=Import`);
    const me = (await api('GET', '/auth/profile')).name;
    await page.getByText(`Imported from ${log.data[0].new_data.file_name} by ${me}`).waitFor();
  }, 120_000);

  it('refuses the same file a second time as already imported', async () => {
    await page.goto(`${app.bahi.url}/settings/import`);
    await page.getByRole('heading', { name: 'Import', exact: true }).waitFor();
    await upload(fixedPath);
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText(/This file was already imported/).waitFor();
    expect(await preview.getByRole('button', { name: /^Commit/ }).isDisabled()).toBe(true);
    const id = new URL(page.url()).searchParams.get('id')!;
    const again = await app.call('POST', `/imports/${id}/commit`);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('already imported');
    await app.syncToHead();
    expect(await funderList()).toHaveLength(50);
  }, 60_000);

  it('undoes the import from the past imports, after confirming: the funders list as before it', async () => {
    await page.goto(`${app.bahi.url}/settings/import`);
    const history = page.getByRole('region', { name: 'Past imports' });
    const fileName = fixedPath.split('/').at(-1)!;
    // The history as the API lists it: every upload, newest first, the committed one the only one to undo.
    const listed = (await api('GET', '/imports?limit=10')).data as Array<{
      file_name: string;
      status: string;
    }>;
    expect(listed.filter((r) => r.status === 'committed').map((r) => r.file_name)).toEqual([fileName]);
    await history.getByRole('button', { name: `Undo import ${fileName}` }).waitFor();
    expect(await history.getByRole('button', { name: /^Undo import/ }).count()).toBe(1);
    await history.getByRole('button', { name: `Undo import ${fileName}` }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Undo import?' });
    await dialog.getByText(`Every record imported from ${fileName} (50 funders) will be reversed`).waitFor();
    await page.screenshot({ path: join(SHOTS, 'import-undo-confirm-1366-dark.png') });
    await dialog.getByRole('button', { name: 'Undo import' }).click();
    await page.getByText(`Undid the import of ${fileName}: 50 funders reversed.`).waitFor();
    await history.getByText('Undone', { exact: true }).waitFor();
    expect(await history.getByRole('button', { name: /^Undo import/ }).count()).toBe(0);

    // The list against the API: the same files in the same order, the undone one marked so.
    const after = (await api('GET', '/imports?limit=10')).data as Array<{
      file_name: string;
      status: string;
    }>;
    // The file uploaded twice: its second upload (refused as already imported), then the undone commit.
    expect(after.filter((r) => r.file_name === fileName).map((r) => r.status)).toEqual(['invalid', 'undone']);
    // Row by row (the file's name is on two rows: its refused second upload and the undone commit).
    const shown = (await history.getByRole('row').allInnerTexts()).slice(1);
    expect(shown).toHaveLength(after.length);
    for (const [i, text] of shown.entries()) expect(text).toContain(after[i]!.file_name);
    expect(shown.findIndex((text) => text.includes('Undone'))).toBe(
      after.findIndex((r) => r.status === 'undone'),
    );

    // Undone twice: refused.
    const id = (await api('GET', '/imports?limit=10')).data.find(
      (r: { file_name: string; status: string }) => r.file_name === fileName && r.status === 'undone',
    ).id;
    const twice = await app.call('POST', `/imports/${id}/undo`);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toContain('already undone');

    for (const theme of ['dark', 'light'] as const) {
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: width > 900 ? 900 : 844 });
        await history.scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SHOTS, `import-history-${width}-${theme}.png`), fullPage: true });
      }
      await page.getByRole('switch', { name: 'Dark mode' }).click();
    }
    await page.setViewportSize({ width: 1366, height: 900 });

    // The funders: none left, in the API and on the screen; the activity log names the undo.
    await app.syncToHead();
    expect(await funderList()).toHaveLength(0);
    await page.goto(`${app.bahi.url}/masters/funders`);
    await page.getByRole('heading', { name: 'Funders', exact: true }).waitFor();
    await page
      .getByText(/No funders/i)
      .first()
      .waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'Funder 07' }).count()).toBe(0);
    await page.goto(`${app.bahi.url}/settings/activity-log?modelName=Import`);
    const me = (await api('GET', '/auth/profile')).name;
    await page.getByText(`Undo of import ${fileName} by ${me}`).waitFor();
  }, 120_000);
});
