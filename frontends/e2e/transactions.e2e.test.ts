import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDecimal } from '../../packages/ui/src/screen/decimal-text.ts';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';
import { openSignedIn } from './browser.ts';

/**
 * Purchases, sales, returns and a bulk sale keyed through the UI of the transactions remote, on a
 * fresh app (Mumbai keeps INR at rate 1), each figure checked against the API. Worked by hand:
 *   P1 Godown purchase: Dev, 50 Cumin @ 100 into Bhiwandi, 1,000 paid by Mohan    Dev 4,000; Mohan -1,000
 *   P2 Direct purchase (keyboard only): Dev, 10 @ 80 to Mehta, commission 50       Dev 4,800; Mehta 850
 *   P1 edited to @ 110                                                             Dev 5,300; stock 50 @ 110
 *   S1 sale: Arif, 20 @ 150 from Bhiwandi, clearing 100; profit (150-110) x 20     Arif 3,000; stock 30
 *   a sale of 100 is refused (not enough stock); nothing changes
 *   return of 5 of P1 (at 110)                                                     Dev 4,750; stock 25
 *   return of 2 of S1                                                              Arif 2,700; stock 27
 *   bulk sale: Arif 2 @ 160, Mehta 3 @ 170, Arif 1 @ 150 (clearing 10)             Arif 3,170; Mehta 1,360; stock 21
 *   Mehta's bulk row deleted                                                       Mehta 850; stock 24
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
const head = async () =>
  ((await (await fetch(url('/api/ready'))).json()) as { eventStore: { headPosition: string } }).eventStore
    .headPosition;

async function api(method: string, path: string, body?: unknown) {
  const r = await app.call(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

/** A party's current balance by the API: opening balance plus movements. */
async function balance(kind: string, name: string): Promise<string> {
  await app.syncToHead(); // the browser wrote it: read after everything written so far
  const p = (await api('GET', `/masters/${kind}?search=${encodeURIComponent(name)}`)).data[0];
  return addDecimal(p.opening_balance, p.balance.amount, 2);
}
async function stock(): Promise<string> {
  await app.syncToHead();
  const s = await api('GET', '/reports/stock');
  return s.Bhiwandi?.find((r: { product_name: string }) => r.product_name === 'Cumin')?.quantity ?? '0';
}

async function pick(scope: Locator, label: string, name: string) {
  const box = scope.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(name.slice(0, 3));
  await page.getByRole('option', { name: new RegExp(`^${name}`) }).click();
}

async function open(title: string) {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const group = nav.getByRole('button', { name: 'Transactions' });
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
  await nav.getByRole('link', { name: title, exact: true }).click();
  await heading(title).waitFor();
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  app = await openTestApp({ env: () => ({ BAHI_FRONTENDS_DIR: FRONTENDS }) });
  ids.mumbai = (await api('POST', '/masters/cities', { name: 'Mumbai', currency_name: 'INR', rate: 1 })).id;
  ids.dev = (await api('POST', '/masters/funders', { name: 'Dev', city_id: ids.mumbai })).id;
  ids.mehta = (await api('POST', '/masters/agents', { name: 'Mehta', city_id: ids.mumbai })).id;
  ids.arif = (await api('POST', '/masters/agents', { name: 'Arif', city_id: ids.mumbai })).id;
  ids.mohan = (await api('POST', '/masters/collectors', { name: 'Mohan', city_id: ids.mumbai })).id;
  ids.bhiwandi = (await api('POST', '/masters/godowns', { name: 'Bhiwandi' })).id;
  ids.cumin = (await api('POST', '/masters/products', { name: 'Cumin' })).id;
  ids.truck = (
    await api('POST', '/masters/custom-fields', {
      name: 'Truck No',
      type: 'TEXT',
      is_required: true,
      entity_types: ['Purchase'],
    })
  ).id;
  browser = await openSignedIn(app);
  page = browser.page;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the transactions remote in Chromium', () => {
  it('records a Godown purchase with a required custom field, refused on that field until it is filled', async () => {
    await open('Purchases');
    await page.getByRole('tab', { name: 'Mumbai' }).waitFor();
    await page.getByText('No purchases found.').waitFor();
    await page.getByRole('button', { name: 'New Purchase' }).click();
    await pick(dialog(), 'Funder', 'Dev');
    await dialog().getByLabel('Product').selectOption({ label: 'Cumin' });
    await pick(dialog(), 'Destination Godown', 'Bhiwandi');
    await dialog().getByLabel('Rate').fill('100');
    await dialog().getByLabel('Quantity').fill('50');
    await expect
      .poll(() =>
        dialog()
          .getByText(/^Total:/)
          .textContent(),
      )
      .toBe('Total: 5,000.00 INR');
    await dialog().getByLabel('Paid Amount').fill('1000');
    await pick(dialog(), 'Collector (who paid)', 'Mohan');
    const before = await head();
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    // The server checks custom fields: its refusal lands on the field; nothing is written.
    const truck = dialog().getByLabel('Truck No');
    await expect.poll(() => truck.getAttribute('aria-invalid')).toBe('true');
    await dialog().getByText('Truck No is required').waitFor();
    expect(await head()).toBe(before);
    await truck.fill('MH-01');
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    await dialog().waitFor({ state: 'hidden' });
    await row('Dev').first().waitFor();
    expect(await row('Dev').first().textContent()).toContain('5,000.00');
    expect(await balance('funders', 'Dev')).toBe('4000.00');
    expect(await balance('collectors', 'Mohan')).toBe('-1000.00');
    // The expanded row shows the collector and the custom field value.
    await row('Dev').first().getByRole('button', { name: 'Expand row' }).click();
    await page.getByText('Truck No:').waitFor();
    expect(await page.getByText('MH-01').count()).toBe(1);
  });

  it('keys a Direct purchase with the keyboard alone, from the list to the saved row', async () => {
    await page.getByRole('button', { name: 'New Purchase' }).focus();
    await page.keyboard.press('Enter');
    await dialog().getByText('New Purchase').waitFor();
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('name'));
    await expect.poll(focused).toBe('type');
    await page.keyboard.press('ArrowRight'); // Direct
    await page.keyboard.press('Enter'); // to the date
    await page.keyboard.press('Enter'); // to the city (Mumbai, the tab's)
    await page.keyboard.press('Enter'); // to the funder
    expect(await focused()).toBe('funder_id');
    await page.keyboard.type('Dev');
    await page.getByRole('option', { name: /^Dev/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter'); // to the product
    expect(await focused()).toBe('product_id');
    await page.keyboard.type('Cumin');
    await page.keyboard.press('Enter'); // to the agent
    expect(await focused()).toBe('agent_id');
    await page.keyboard.type('Meh');
    await page.getByRole('option', { name: /^Mehta/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter'); // to the rate
    await page.keyboard.type('80');
    await page.keyboard.press('Enter');
    await page.keyboard.type('10');
    await page.keyboard.press('Enter'); // to the paid amount (0)
    await page.keyboard.press('Enter'); // to the collector (none)
    await page.keyboard.press('Enter'); // to the commission
    expect(await focused()).toBe('commission');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('50');
    await page.keyboard.press('Enter'); // to the truck number
    await page.keyboard.type('MH-02');
    await page.keyboard.press('Enter'); // the last field: saves
    await dialog().waitFor({ state: 'hidden' });
    await row('Direct').first().waitFor();
    expect(await balance('funders', 'Dev')).toBe('4800.00');
    expect(await balance('agents', 'Mehta')).toBe('850.00');
  });

  it('edits the Godown purchase’s rate', async () => {
    const godownRow = row('Godown').filter({ hasText: 'Bhiwandi' }).first();
    await godownRow.getByRole('button', { name: 'Edit purchase' }).click();
    expect(await dialog().getByRole('radio', { name: 'Direct' }).isDisabled()).toBe(true);
    await dialog().getByLabel('Rate').fill('110');
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    await dialog().waitFor({ state: 'hidden' });
    await expect.poll(() => godownRow.textContent()).toContain('5,500.00');
    expect(await balance('funders', 'Dev')).toBe('5300.00');
    // Duplicate as new: a New Purchase that starts from the row's values.
    await godownRow.getByRole('button', { name: 'Duplicate purchase as new' }).click();
    await dialog().getByText('New Purchase').waitFor();
    expect(await dialog().getByLabel('Rate').inputValue()).toBe('110.0000');
    expect(await dialog().getByRole('combobox', { name: 'Funder' }).inputValue()).toBe('Dev');
    expect(await dialog().getByRole('radio', { name: 'Godown' }).isChecked()).toBe(true);
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'hidden' });
  });

  it('sells with a clearing charge and a profit preview; refuses a sale above stock in the dialog', async () => {
    await open('Sales');
    await page.getByRole('button', { name: 'New Sale' }).click();
    await pick(dialog(), 'Agent', 'Arif');
    await dialog().getByLabel('Product').selectOption({ label: 'Cumin' });
    await pick(dialog(), 'From Godown', 'Bhiwandi');
    await dialog().getByLabel('Sale Rate').fill('150');
    await dialog().getByLabel('Quantity').fill('100');
    await dialog().getByText('Average purchase rate: 110.0000 INR').waitFor();
    await dialog().getByText('Estimated profit: 4,000.00 INR').waitFor();
    // The preview is the server's dry run: the refusal shows before Save is pressed.
    const previewPanel = dialog().getByRole('region', { name: 'Preview' });
    await expect.poll(() => previewPanel.textContent(), { timeout: 10_000 }).toMatch(/stock/i);
    const before = await head();
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    const alert = dialog().getByRole('alert').first();
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/stock/i);
    expect(await head()).toBe(before);
    await dialog().getByLabel('Quantity').fill('20');
    await dialog().getByText('Estimated profit: 800.00 INR').waitFor();
    // What the save will post, and each balance before and after: nothing written yet.
    await expect.poll(() => previewPanel.textContent(), { timeout: 10_000 }).toContain('0.00 → 3,000.00 INR');
    expect(await previewPanel.textContent()).toContain('Stock Bhiwandi / Cumin: 50.0000 → 30.0000');
    expect(await head()).toBe(before);
    await dialog().getByLabel('Clearing Charge').fill('100');
    // Save and New: saved, and the dialog stays with the date and godown for the next entry.
    await dialog().getByRole('button', { name: 'Save and New' }).click();
    await page.getByText('Sale created successfully!').waitFor();
    await expect.poll(() => dialog().getByLabel('Quantity').inputValue()).toBe('');
    expect(await dialog().getByRole('combobox', { name: 'From Godown' }).inputValue()).toBe('Bhiwandi');
    expect(await dialog().getByRole('combobox', { name: 'Agent' }).inputValue()).toBe('');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'hidden' });
    await expect.poll(() => row('Arif').first().textContent()).toContain('3,000.00');
    expect(await balance('agents', 'Arif')).toBe('3000.00');
    expect(await stock()).toBe('30.0000');
    const godown = (await api('GET', '/masters/godowns?search=Bhiwandi')).data[0];
    expect(godown.clearing_balance).toBe('100.00');
  });

  it('returns part of a purchase and of a sale, capped at what remains', async () => {
    await open('Purchases');
    const godownRow = row('Godown').filter({ hasText: 'Bhiwandi' }).first();
    await godownRow.getByRole('button', { name: 'Return purchase' }).click();
    const quantity = dialog().getByLabel('Return Quantity');
    const confirm = dialog().getByRole('button', { name: 'Return', exact: true });
    expect(await confirm.isDisabled()).toBe(true);
    await quantity.fill('60'); // above the 50 that remain: reset to the maximum
    await expect.poll(() => quantity.inputValue()).toBe('50.0000');
    await quantity.fill('5');
    await confirm.click();
    await dialog().waitFor({ state: 'hidden' });
    await expect.poll(() => godownRow.textContent()).toContain('45.0000');
    expect(await balance('funders', 'Dev')).toBe('4750.00');

    await open('Sales');
    await row('Arif').first().getByRole('button', { name: 'Return sale' }).click();
    await dialog().getByLabel('Return Quantity').fill('2');
    await dialog().getByRole('button', { name: 'Return', exact: true }).click();
    await dialog().waitFor({ state: 'hidden' });
    await expect.poll(() => row('Arif').first().textContent()).toContain('18.0000');
    expect(await balance('agents', 'Arif')).toBe('2700.00');
    expect(await stock()).toBe('27.0000');
  });

  it('records a bulk sale of three rows keyed like a spreadsheet, then deletes one of its sales', async () => {
    await open('Bulk Sale');
    await page.getByRole('button', { name: 'Save Sales' }).click();
    await page.getByText('Please select a Godown and a Product.').waitFor();
    await pick(page.locator('form'), 'Godown', 'Bhiwandi');
    await page.getByLabel('Product').selectOption({ label: 'Cumin' });
    await page.getByRole('button', { name: 'Save Sales' }).click();
    await page.getByText('Please add at least one valid sale row.').waitFor();
    const rows: [string, string, string, string][] = [
      ['Arif', '2', '160', ''],
      ['Mehta', '3', '170', ''],
      ['Arif', '1', '150', '10'],
    ];
    for (const [i, [agent, quantity, rate, clearing]] of rows.entries()) {
      const agentBox = page.getByRole('combobox', { name: `Agent (row ${i + 1})` });
      await agentBox.focus();
      await page.keyboard.type(agent.slice(0, 3));
      await page
        .getByRole('listbox', { name: `Agent (row ${i + 1})` })
        .getByRole('option', { name: new RegExp(`^${agent}`) })
        .waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      await page.keyboard.type(quantity);
      await page.keyboard.press('Enter');
      await page.keyboard.type(rate);
      await page.keyboard.press('Enter');
      await page.keyboard.type(clearing);
      // Enter on the last cell of the last row adds a row, except after the last one we want.
      if (i < rows.length - 1) await page.keyboard.press('Enter');
    }
    expect(await page.getByTestId('bulk-row').count()).toBe(3);
    // The last remaining row cannot be deleted; here three rows can.
    expect(await page.getByRole('button', { name: 'Remove row 1' }).isDisabled()).toBe(false);
    // Saved from the keyboard, as the rows were keyed.
    await page.keyboard.press('Control+s');
    await page.getByText('3 sales processed successfully!').waitFor();
    await expect.poll(() => page.getByTestId('bulk-row').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Remove row 1' }).isDisabled()).toBe(true);
    expect(await balance('agents', 'Arif')).toBe('3170.00');
    expect(await balance('agents', 'Mehta')).toBe('1360.00');
    expect(await stock()).toBe('21.0000');

    await open('Sales');
    const mehtaSale = row('Mehta').first();
    await mehtaSale.getByRole('button', { name: 'Delete sale' }).click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain('reverses all its financial and stock entries');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Sale deleted successfully!').waitFor();
    await expect.poll(() => row('Mehta').count()).toBe(0);
    expect(await balance('agents', 'Mehta')).toBe('850.00');
    expect(await stock()).toBe('24.0000');
    // The ledger agrees with the list: Dev's closing balance is the worked figure.
    const ledger = await api('GET', `/reports/ledger/Funder/${ids.dev}`);
    expect(ledger.closingBalance).toBe('4750.00');
  });

  it('takes screenshots in both themes at 1366 and 390 px', async () => {
    for (const theme of ['dark', 'light'] as const) {
      if (theme === 'light') await page.getByRole('switch', { name: 'Dark mode' }).click();
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: 900 });
        for (const screen of ['purchases', 'sales', 'bulk-sale']) {
          await page.goto(url(`/transactions/${screen}`));
          await page.getByRole('heading').first().waitFor();
          await page.waitForTimeout(300);
          await page.screenshot({ path: join(SHOTS, `transactions-${screen}-${width}-${theme}.png`) });
        }
        await page.goto(url('/transactions/sales'));
        await page.getByRole('button', { name: 'New Sale' }).click();
        await dialog().getByLabel('Sale Rate').waitFor();
        await page.screenshot({ path: join(SHOTS, `transactions-new-sale-${width}-${theme}.png`) });
        await page.keyboard.press('Escape');
        await dialog().waitFor({ state: 'hidden' });
      }
    }
    await page.getByRole('switch', { name: 'Dark mode' }).click();
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 180_000);

  it('shows a Viewer no create, edit or delete, and the server refuses the call', async () => {
    await api('POST', '/masters/users', {
      name: 'Vera Viewer',
      email: 'vera@bahi.test',
      password: 'vera-pass-1',
      role: 'Viewer',
    });
    const token = await app.login('vera@bahi.test', 'vera-pass-1');
    const refused = await app.call(
      'POST',
      '/transactions/sales',
      {
        sale_date: new Date().toISOString(),
        agent_id: ids.arif,
        product_id: ids.cumin,
        godown_id: ids.bhiwandi,
        rate: 1,
        quantity: 1,
      },
      token,
    );
    expect(refused.status).toBe(403);
    await page.getByRole('button', { name: /^User menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByLabel('Email').fill('vera@bahi.test');
    await page.getByLabel('Password').fill('vera-pass-1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    await page.goto(url('/transactions/sales'));
    await row('Arif').first().waitFor();
    expect(await page.getByRole('button', { name: 'New Sale' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete sale' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Edit sale' }).count()).toBe(0);
  });
});
