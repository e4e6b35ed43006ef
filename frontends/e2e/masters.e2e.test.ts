import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount, formatQuantity } from '../../packages/ui/src/format.ts';
import { addDecimal } from '../../packages/ui/src/screen/decimal-text.ts';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';
import { openSignedIn } from './browser.ts';

/**
 * The masters remote driven as staff drive it (labels, roles, keyboard), on the demo business,
 * each figure on the screen checked against the API. Worked by hand (Sharjah: AED at 22.5 INR):
 *   purchase 10 Cumin @ 100 AED from Zara into Bhiwandi II    Zara owed 1,000 + opening 1,000
 *   sale 5 @ 150 AED to Arif from Bhiwandi II, clearing 200     Arif owes 750; clearing 200 INR
 *   pay Zara 2,250 INR from Bhiwandi II (INR mode)              Zara 2,000 - 100 = 1,900
 *   pay Zara 300 AED by Kabir (Currency mode, keyboard only)    Zara 1,600; Kabir -300
 *   receive 250 AED from Arif by Kabir                          Arif 500; Kabir -50
 *   salary Advance 1,000 AED, Kabir paying himself ('Self')     Kabir -1,050
 *   salary Advance 2,500 refused: 2,000 left                    nothing changes
 *   salary Full: 2,000 AED, read-only                            Kabir -3,050
 *   clearing of Bhiwandi II paid by Jebel Ali II: 200 INR       clearing 0; Jebel Ali II -200
 */
const FRONTENDS = dirname(dirname(fileURLToPath(import.meta.url)));
const SHOTS = join(dirname(FRONTENDS), 'test-results', 'screenshots');
const SCREENS = ['cities', 'products', 'funders', 'agents', 'collectors', 'godowns'] as const;

let app: TestApp;
let browser: Awaited<ReturnType<typeof openSignedIn>>;
let page: Page;
const ids: Record<string, string> = {};

const url = (path: string) => `${app.bahi.url}${path}`;
const heading = (name: string) => page.getByRole('heading', { name, exact: true });
const dialog = () => page.getByRole('dialog');
const row = (name: string) => page.getByRole('row').filter({ hasText: name });
const cell = (name: string, index: number) => row(name).first().getByRole('cell').nth(index);
/** The last position written: unchanged when a save was refused. */
const head = async () =>
  ((await (await fetch(url('/api/ready'))).json()) as { eventStore: { headPosition: string } }).eventStore
    .headPosition;

async function api(method: string, path: string, body?: unknown) {
  const r = await app.call(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

/** Opens a master screen through the drawer, as a person does. */
async function open(title: string) {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const group = nav.getByRole('button', { name: 'Masters' });
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
  await nav.getByRole('link', { name: title, exact: true }).click();
  await heading(title).waitFor();
  await page.getByRole('table', { name: title }).waitFor();
}

/**
 * Picks a party in a picker: types part of the name, then chooses it from the server's list
 * (`shown`: how the option names it, 'Self' for the collector being paid).
 */
async function pick(scope: Locator, label: string, name: string, shown = name) {
  const box = scope.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(name.slice(0, 4));
  await page.getByRole('option', { name: new RegExp(`^${shown}`) }).click();
}

async function saveDialog(button: string) {
  await dialog().getByRole('button', { name: button, exact: true }).click();
  await dialog().waitFor({ state: 'hidden' });
}

/** The current balance the API gives a party, as the screen must show it. */
async function apiBalance(kind: string, name: string, currency: string): Promise<string> {
  await app.syncToHead(); // the browser wrote it: read after everything written so far
  const list = await api('GET', `/masters/${kind}?search=${encodeURIComponent(name)}`);
  const party = list.data.find((p: { name: string }) => p.name === name);
  return `${formatAmount(addDecimal(party.opening_balance, party.balance.amount, 2))} ${currency}`;
}

/** The screen's row shows `expected` (waiting for the refresh), and the API agrees. */
async function expectBalance(kind: string, name: string, expected: string, currency: string) {
  await expect.poll(() => row(name).first().textContent(), { timeout: 10_000 }).toContain(expected);
  expect(await apiBalance(kind, name, currency)).toBe(expected);
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  app = await openTestApp({ env: () => ({ BAHI_FRONTENDS_DIR: FRONTENDS, BAHI_DEMO: '1' }) });
  browser = await openSignedIn(app);
  page = browser.page;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the masters remote in Chromium', () => {
  it('renders every master screen from the demo business, with its columns', async () => {
    const columns: Record<(typeof SCREENS)[number], string[]> = {
      cities: ['City Name', 'Currency Name', 'Rate', 'Actions'],
      products: ['Name', 'Actions'],
      funders: ['Name', 'City', 'Phone', 'Opening Balance', 'Current Balance', 'Actions'],
      agents: ['Name', 'City', 'Phone', 'Opening Balance', 'Current Balance', 'Actions'],
      collectors: ['Name', 'City', 'Phone', 'Salary', 'Opening Balance', 'Current Balance', 'Actions'],
      godowns: ['Name', 'Stock', 'Clearing Balance', 'Current Balance', 'Phone', 'Actions'],
    };
    for (const screen of SCREENS) {
      const title = screen[0]!.toUpperCase() + screen.slice(1);
      await open(title);
      const headers = await page
        .getByRole('table', { name: title })
        .getByRole('columnheader')
        .allTextContents();
      expect(headers.filter(Boolean)).toEqual(columns[screen]);
      expect(await page.getByRole('table', { name: title }).getByRole('row').count()).toBeGreaterThan(1);
    }
    // A godown lists its stock as 'product: quantity' and its clearing balance, as the API has them.
    const godowns = await api('GET', '/masters/godowns');
    const first = godowns.data[0];
    const cells = await row(first.name).first().textContent();
    expect(cells).toContain(`${first.stock[0].product_name}: ${formatQuantity(first.stock[0].quantity)}`);
    expect(await cell(first.name, 2).textContent()).toBe(`${formatAmount(first.clearing_balance)} INR`);
    // Search narrows the list after the debounce, and the URL keeps it; nothing found says so.
    await page.getByLabel('Search by name or phone').fill('no such godown');
    await page.getByText('No godowns found.').waitFor();
    expect(page.url()).toContain('search=no+such+godown');
  });

  it('creates a city, a funder and a collector through their dialogs', async () => {
    await open('Cities');
    await page.getByRole('button', { name: 'New City' }).click();
    // The server's rules, checked before sending: nothing typed, three messages on their fields.
    await dialog().getByRole('button', { name: 'Save' }).click();
    await dialog().getByText('City name is required').waitFor();
    await dialog().getByLabel('City Name').fill('Sharjah');
    await dialog().getByLabel('Currency Name').fill('AED');
    // Only an exact decimal is taken: letters and a fifth decimal never reach the field.
    await dialog().getByLabel('Rate').pressSequentially('22.50001x');
    expect(await dialog().getByLabel('Rate').inputValue()).toBe('22.5000');
    await saveDialog('Save');
    await page.getByText('City created successfully!').waitFor();
    await page.getByLabel('Search by name').fill('Sharjah');
    await expect.poll(() => row('Sharjah').first().textContent()).toContain('22.5000');

    await open('Funders');
    await page.getByRole('button', { name: 'New Funder' }).click();
    await dialog().getByLabel('Name').fill('Zara Funds');
    await dialog().getByLabel('City').selectOption({ label: 'Sharjah (AED)' });
    await dialog().getByLabel('Opening Balance').fill('1000');
    await saveDialog('Save');
    await expectBalance('funders', 'Zara Funds', '1,000.00 AED', 'AED');

    await open('Collectors');
    await page.getByRole('button', { name: 'New Collector' }).click();
    await dialog().getByLabel('Name').fill('Kabir Sharjah');
    await dialog().getByLabel('City').selectOption({ label: 'Sharjah (AED)' });
    await dialog().getByLabel('Salary per Month').fill('3000');
    await saveDialog('Save');
    await expectBalance('collectors', 'Kabir Sharjah', '0.00 AED', 'AED');

    // What the transactions remote will key: set up through the API.
    const cities = await api('GET', '/masters/cities?limit=-1');
    ids.sharjah = cities.data.find((c: { name: string }) => c.name === 'Sharjah').id;
    ids.zara = (await api('GET', '/masters/funders?search=Zara')).data[0].id;
    ids.kabir = (await api('GET', '/masters/collectors?search=Kabir%20Sharjah')).data[0].id;
    ids.arif = (await api('POST', '/masters/agents', { name: 'Arif Sharjah', city_id: ids.sharjah })).id;
    ids.bhiwandi = (
      await api('POST', '/masters/godowns', { name: 'Bhiwandi II', opening_balance: 50000 })
    ).id;
    ids.jebel = (await api('POST', '/masters/godowns', { name: 'Jebel Ali II' })).id;
    ids.cumin = (await api('POST', '/masters/products', { name: 'Cumin II' })).id;
    const today = new Date().toISOString().slice(0, 10);
    await api('POST', '/transactions/purchases', {
      type: 'Godown',
      purchase_date: today,
      city_id: ids.sharjah,
      funder_id: ids.zara,
      product_id: ids.cumin,
      godown_id: ids.bhiwandi,
      rate: 100,
      quantity: 10,
    });
    await api('POST', '/transactions/sales', {
      sale_date: today,
      agent_id: ids.arif,
      product_id: ids.cumin,
      godown_id: ids.bhiwandi,
      rate: 150,
      quantity: 5,
      clearing_charge: 200,
    });
  });

  it('pays a funder in INR through a godown, then in Currency through a collector by keyboard alone', async () => {
    await open('Funders');
    await page.getByLabel('Search by name or phone').fill('Zara');
    await expectBalance('funders', 'Zara Funds', '2,000.00 AED', 'AED');

    await page.getByRole('button', { name: 'Pay Zara Funds' }).click();
    await dialog().getByText('Pay Zara Funds').waitFor();
    // Sharjah keeps AED: the payment starts in Currency mode, through a collector.
    expect(await dialog().getByRole('radio', { name: 'Currency (AED)' }).isChecked()).toBe(true);
    await dialog().getByRole('radio', { name: 'INR' }).check();
    await pick(dialog(), 'Godown', 'Bhiwandi II');
    await dialog().getByLabel('Amount').fill('2250');
    await saveDialog('Pay');
    // 2,250 INR at 22.5 is 100 AED off what Zara is owed.
    await expectBalance('funders', 'Zara Funds', '1,900.00 AED', 'AED');

    // The keyboard alone: open from the row, Enter from field to field, pick, Ctrl+S to save.
    await page.getByRole('button', { name: 'Pay Zara Funds' }).focus();
    await page.keyboard.press('Enter');
    await dialog().getByText('Pay Zara Funds').waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('name')))
      .toBe('payment_date');
    await page.keyboard.press('Enter'); // to the payment mode
    await page.keyboard.press('Enter'); // to the collector
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
    await page.keyboard.type('Kabir Sh');
    await page.getByRole('option', { name: /^Kabir Sharjah/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter'); // chooses
    await page.keyboard.press('Enter'); // to the amount
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('amount');
    await page.keyboard.type('300');
    await page.keyboard.press('Control+s');
    await dialog().waitFor({ state: 'hidden' });
    // Focus goes back to the button that opened the dialog.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Pay Zara Funds');
    await expectBalance('funders', 'Zara Funds', '1,600.00 AED', 'AED');
    await open('Collectors');
    await page.getByLabel('Search by name or phone').fill('Kabir Sharjah');
    await expectBalance('collectors', 'Kabir Sharjah', '-300.00 AED', 'AED');
  });

  it('receives from an agent through a collector', async () => {
    await open('Agents');
    await page.getByLabel('Search by name or phone').fill('Arif Sharjah');
    await expectBalance('agents', 'Arif Sharjah', '750.00 AED', 'AED');
    await page.getByRole('button', { name: 'Receive Arif Sharjah' }).click();
    await pick(dialog(), 'Collector', 'Kabir Sharjah');
    await dialog().getByLabel('Amount').fill('250');
    await saveDialog('Receive');
    await expectBalance('agents', 'Arif Sharjah', '500.00 AED', 'AED');
  });

  it('pays a salary in advance, refuses one above what is left on the amount field, then pays the rest in full', async () => {
    await open('Collectors');
    await page.getByLabel('Search by name or phone').fill('Kabir Sharjah');
    await expectBalance('collectors', 'Kabir Sharjah', '-50.00 AED', 'AED');

    await page.getByRole('button', { name: 'Pay Salary Kabir Sharjah' }).click();
    await dialog().getByRole('radio', { name: 'Advance' }).check();
    // The one being paid is 'Self' among the city's collectors.
    await pick(dialog(), 'Paid From (Collector)', 'Kabir Sharjah', 'Self');
    await dialog().getByLabel('Amount').fill('1000');
    await saveDialog('Pay Salary');
    await expectBalance('collectors', 'Kabir Sharjah', '-1,050.00 AED', 'AED');

    await page.getByRole('button', { name: 'Pay Salary Kabir Sharjah' }).click();
    await dialog().getByRole('radio', { name: 'Advance' }).check();
    await pick(dialog(), 'Paid From (Collector)', 'Kabir Sharjah', 'Self');
    const amount = dialog().getByLabel('Amount');
    await amount.fill('2500');
    const before = await head();
    await dialog().getByRole('button', { name: 'Pay Salary', exact: true }).click();
    // Refused by the server: the dialog stays open with its message on the amount field.
    await expect.poll(() => amount.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await amount.getAttribute('aria-describedby')) ?? '';
    const message = await page.locator(`[id="${describedBy.split(' ')[0]}"]`).textContent();
    expect(message).toMatch(/^Only 2,?000\.00 of the salary of Kabir Sharjah for \d\d\/\d{4} is left to pay/);
    expect(await dialog().isVisible()).toBe(true);
    expect(await head()).toBe(before);

    // Full: the amount is what is left, read-only.
    await dialog().getByRole('radio', { name: 'Full' }).check();
    await expect.poll(() => amount.inputValue()).toBe('2000.00');
    expect(await amount.getAttribute('readonly')).not.toBeNull();
    await saveDialog('Pay Salary');
    await expectBalance('collectors', 'Kabir Sharjah', '-3,050.00 AED', 'AED');
  });

  it('pays a godown’s clearing from another godown, starting at its clearing balance', async () => {
    await open('Godowns');
    await page.getByLabel('Search by name or phone').fill(' II');
    await expect.poll(() => cell('Bhiwandi II', 2).textContent()).toBe('200.00 INR');
    expect(await cell('Bhiwandi II', 1).textContent()).toBe('Cumin II: 5.0000');
    await page.getByRole('button', { name: 'Pay Clearing Bhiwandi II' }).click();
    expect(await dialog().getByLabel('Amount').inputValue()).toBe('200.00');
    const confirm = dialog().getByRole('button', { name: 'Pay Clearing', exact: true });
    expect(await confirm.isDisabled()).toBe(true); // no paying godown yet
    await pick(dialog(), 'Paying Godown', 'Jebel Ali II');
    expect(await confirm.isDisabled()).toBe(false);
    await saveDialog('Pay Clearing');
    await expect.poll(() => cell('Bhiwandi II', 2).textContent()).toBe('0.00 INR');
    const bhiwandi = (await api('GET', '/masters/godowns?search=Bhiwandi%20II')).data[0];
    expect(bhiwandi.clearing_balance).toBe('0.00');
    await expectBalance('godowns', 'Bhiwandi II', '47,750.00 INR', 'INR');
    await expectBalance('godowns', 'Jebel Ali II', '-200.00 INR', 'INR');
  });

  it('shows balances as of a date, and refreshes by itself when anyone writes', async () => {
    await open('Funders');
    await page.getByLabel('Search by name or phone').fill('Zara');
    await expectBalance('funders', 'Zara Funds', '1,600.00 AED', 'AED');
    // Everything above was dated today: as of yesterday Zara had only the opening balance.
    const yesterday = new Date(Date.now() - 86_400_000);
    await page.getByLabel('Balances as of', { exact: true }).fill(yesterday.toISOString().slice(0, 10));
    await page.getByLabel('Balances as of', { exact: true }).press('Tab');
    await expect.poll(() => row('Zara Funds').first().textContent()).toContain('1,000.00 AED');
    expect(page.url()).toContain(`asOf=${yesterday.toISOString().slice(0, 10)}`);
    await page.getByRole('button', { name: "Show today's balances" }).click();
    await expect.poll(() => row('Zara Funds').first().textContent()).toContain('1,600.00 AED');
    // Someone else pays Zara 100 AED: the open list shows it without a reload.
    await api('POST', '/transactions/payments', {
      related_entity_type: 'Funder',
      related_entity_id: ids.zara,
      payment_date: new Date().toISOString(),
      amount: 100,
      payment_mode: 'Currency',
      collector_id: ids.kabir,
    });
    await expect
      .poll(() => row('Zara Funds').first().textContent(), { timeout: 10_000 })
      .toContain('1,500.00 AED');
  });

  it('shows a master still referred to as the server refuses it', async () => {
    await open('Products');
    await page.getByLabel('Search by name').fill('Cumin II');
    await row('Cumin II').first().waitFor();
    await page.getByRole('button', { name: 'Delete Cumin II' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    const alert = page.getByRole('alert').first();
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Cumin II/);
    await row('Cumin II').first().waitFor();
  });

  it('takes screenshots of every master screen in both themes, at 1366 and 390 px', async () => {
    for (const theme of ['dark', 'light'] as const) {
      if (theme === 'light') await page.getByRole('switch', { name: 'Dark mode' }).click();
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: 900 });
        for (const screen of SCREENS) {
          await page.goto(url(`/masters/${screen}`));
          await page.getByRole('table').first().waitFor();
          await page.getByRole('row').nth(1).waitFor();
          await page.screenshot({ path: join(SHOTS, `masters-${screen}-${width}-${theme}.png`) });
        }
        await page.goto(url('/masters/collectors?search=Kabir+Sharjah'));
        await page.getByRole('button', { name: 'Pay Salary Kabir Sharjah' }).click();
        await dialog().getByLabel('Amount').waitFor();
        await page.screenshot({ path: join(SHOTS, `masters-pay-salary-${width}-${theme}.png`) });
        await page.keyboard.press('Escape');
        await dialog().waitFor({ state: 'hidden' });
      }
    }
    await page.getByRole('switch', { name: 'Dark mode' }).click();
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 180_000);
});
