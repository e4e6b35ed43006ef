import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount } from '../../packages/ui/src/format.ts';
import { addDecimal, subtractDecimal } from '../../packages/ui/src/screen/decimal-text.ts';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';
import { openSignedIn } from './browser.ts';

/**
 * A clerk's entry flow (issue #25, items 1 to 4), by keyboard and labels alone, on a fresh app:
 * Mumbai keeps INR at rate 1, Dubai AED at 22.5; funder Dev and agent Nadia of Mumbai, agent
 * Omar of Dubai, godown Bhiwandi, product Cumin, and an optional custom field "Lot number".
 *   P1 Godown purchase: Dev, 1 Cumin @ 300 into Bhiwandi (Save and New)    Dev 300
 *   P2 the next one, same dialog: Dev, 3 @ 300 (Save and New, then Esc)    Dev 1,200
 *   S1 on the Dubai tab: Nadia of Mumbai, 1 @ 400 from Bhiwandi            Nadia 400
 */
const FRONTENDS = dirname(dirname(fileURLToPath(import.meta.url)));
const SHOTS = process.env.BAHI_SHOTS_DIR ?? join(dirname(FRONTENDS), 'test-results', 'screenshots');

let app: TestApp;
let browser: Awaited<ReturnType<typeof openSignedIn>>;
let page: Page;
const ids: Record<string, string> = {};

const url = (path: string) => `${app.bahi.url}${path}`;
const dialog = () => page.getByRole('dialog');
const preview = () => dialog().getByRole('region', { name: 'Preview' });
const focused = () => page.evaluate(() => document.activeElement?.getAttribute('name') ?? null);
const head = async () =>
  ((await (await fetch(url('/api/ready'))).json()) as { eventStore: { headPosition: string } }).eventStore
    .headPosition;

async function api(method: string, path: string, body?: unknown) {
  const r = await app.call(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

async function balance(kind: string, name: string): Promise<string> {
  await app.syncToHead();
  const p = (await api('GET', `/masters/${kind}?search=${encodeURIComponent(name)}`)).data[0];
  return addDecimal(p.opening_balance, p.balance.amount, 2);
}

/** The picker in focus: type, wait for the match, choose it with Enter; its list must stay shut. */
async function chooseByKeyboard(label: string, typed: string, option: RegExp) {
  expect(await focused()).toBeTruthy();
  await page.keyboard.type(typed);
  await page.getByRole('option', { name: option }).waitFor();
  await page.keyboard.press('ArrowDown'); // the one match
  await page.keyboard.press('Enter');
  const box = dialog().getByRole('combobox', { name: label });
  await expect.poll(() => box.getAttribute('aria-expanded')).toBe('false');
  await page.keyboard.press('Enter'); // on to the next field: the list does not reopen
  await expect.poll(() => page.getByRole('listbox').count()).toBe(0);
  expect(await box.getAttribute('aria-expanded')).toBe('false');
}

/** Tab (keyboard only) to a dialog button and press it. */
async function pressButton(name: string) {
  for (let i = 0; i < 12; i++) {
    const text = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    if (text === name) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`no ${name} button reached by Tab`);
}

/** The preview's line for an account, once the preview is of the values on screen. */
async function previewLine(name: string): Promise<string> {
  await expect.poll(() => preview().getAttribute('aria-busy'), { timeout: 10_000 }).toBe('false');
  const line = preview().getByRole('row').filter({ hasText: name });
  return (await line.textContent()) ?? '';
}

/** Keys one Godown purchase in the New Purchase dialog, from the focused funder to the last field. */
async function keyPurchase(rate: string, quantity: string, godownKept: boolean) {
  expect(await focused()).toBe('funder_id');
  await chooseByKeyboard('Funder', 'Dev', /^Dev/);
  expect(await focused()).toBe('product_id');
  await page.keyboard.type('Cumin');
  await page.keyboard.press('Enter');
  expect(await focused()).toBe('godown_id');
  if (godownKept) {
    expect(await dialog().getByRole('combobox', { name: 'Destination Godown' }).inputValue()).toBe(
      'Bhiwandi',
    );
    await page.keyboard.press('Enter');
  } else await chooseByKeyboard('Destination Godown', 'Bhi', /^Bhiwandi/);
  expect(await focused()).toBe('rate');
  await page.keyboard.type(rate);
  await page.keyboard.press('Enter');
  await page.keyboard.type(quantity);
  await page.keyboard.press('Enter'); // paid amount (0)
  await page.keyboard.press('Enter'); // collector (none)
  await page.keyboard.press('Enter'); // the optional lot number, left empty
  expect(await focused()).toBe(`custom_fields.${ids.lot}`);
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  app = await openTestApp({ env: () => ({ BAHI_FRONTENDS_DIR: FRONTENDS }) });
  ids.mumbai = (await api('POST', '/masters/cities', { name: 'Mumbai', currency_name: 'INR', rate: 1 })).id;
  ids.dubai = (await api('POST', '/masters/cities', { name: 'Dubai', currency_name: 'AED', rate: 22.5 })).id;
  ids.dev = (await api('POST', '/masters/funders', { name: 'Dev', city_id: ids.mumbai })).id;
  ids.nadia = (await api('POST', '/masters/agents', { name: 'Nadia', city_id: ids.mumbai })).id;
  ids.omar = (await api('POST', '/masters/agents', { name: 'Omar', city_id: ids.dubai })).id;
  ids.bhiwandi = (await api('POST', '/masters/godowns', { name: 'Bhiwandi' })).id;
  ids.cumin = (await api('POST', '/masters/products', { name: 'Cumin' })).id;
  ids.ravi = (
    await api('POST', '/masters/collectors', { name: 'Ravi', city_id: ids.mumbai, opening_balance: '5000' })
  ).id;
  ids.lot = (
    await api('POST', '/masters/custom-fields', {
      name: 'Lot number',
      type: 'TEXT',
      is_required: false,
      entity_types: ['Purchase', 'Sale'],
    })
  ).id;
  browser = await openSignedIn(app);
  page = browser.page;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('entry by keyboard (issue #25)', () => {
  it('flags every required field of an empty purchase on the first save, in words, and writes nothing', async () => {
    await page.goto(url('/transactions/purchases'));
    await page.getByRole('tab', { name: 'Mumbai' }).click(); // Dubai, the first city, is in view
    await page.getByRole('button', { name: 'New Purchase' }).click();
    await dialog().getByText('New Purchase').waitFor();
    const before = await head();
    await page.keyboard.press('Control+s');
    for (const [label, message] of [
      ['Funder', 'Choose a funder'],
      ['Product', 'Choose a product'],
      ['Destination Godown', 'Choose the destination godown'],
      ['Rate', 'Rate is required'],
      ['Quantity', 'Quantity is required'],
    ] as const) {
      // last(): 'Choose a product' is also the product list's empty choice, before the message.
      await dialog().getByText(message, { exact: true }).last().waitFor();
      // The label carries the required mark ('Funder *').
      expect(await dialog().getByLabel(label).getAttribute('aria-invalid'), label).toBe('true');
    }
    expect(
      await dialog()
        .getByText(/must be the id|Invalid input/)
        .count(),
    ).toBe(0);
    expect(await head()).toBe(before);
    await page.screenshot({ path: join(SHOTS, 'purchase-empty-save-1366-dark.png') });
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
  });

  it('keys a purchase, Save and New, keys the next with its own preview equal to what is saved, Esc closes', async () => {
    await page.getByRole('button', { name: 'New Purchase' }).focus();
    await page.keyboard.press('Enter');
    await dialog().getByText('New Purchase').waitFor();
    await expect.poll(focused).toBe('type');
    await page.keyboard.press('Enter'); // to the date
    await page.keyboard.press('Enter'); // to the city (Mumbai, the tab's)
    await page.keyboard.press('Enter'); // to the funder
    await keyPurchase('300', '1', false);
    expect(await previewLine('Dev')).toContain('300.00');
    await pressButton('Save and New');
    await page.getByText('Purchase created successfully!').first().waitFor();

    // A fresh entry: the date, city and godown kept, the rest empty, the focus on the funder.
    await expect.poll(focused).toBe('funder_id');
    expect(await dialog().getByLabel('Quantity').inputValue()).toBe('');
    expect(await dialog().getByLabel('Lot number').inputValue()).toBe('');
    expect(await preview().count()).toBe(0); // no preview of the last entry
    await keyPurchase('300', '3', true);
    expect(await dialog().getByText('Total: 900.00 INR').count()).toBe(1);
    const line = await previewLine('Dev');
    // The preview is of this entry: 900 credited to Dev, 300 before and 1,200 after.
    expect(line).toContain('900.00');
    expect(line).toContain('300.00 → 1,200.00 INR');
    expect(
      await dialog()
        .getByText(/Invalid input|expected string/)
        .count(),
    ).toBe(0);
    await pressButton('Save and New');
    await expect.poll(focused).toBe('funder_id');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });

    // What was saved is what the preview said: two purchases, 300 and 900, Dev at 1,200.
    expect(await balance('funders', 'Dev')).toBe('1200.00');
    const saved = (await api('GET', `/transactions/purchases?city_id=${ids.mumbai}`)).data as Array<{
      total: string;
    }>;
    expect(saved.map((p) => p.total).sort()).toEqual(['300.00', '900.00']);
  });

  it('pays with a godown chosen by Enter: the list stays shut over the amount; an empty Pay flags both', async () => {
    await page.goto(url('/masters/funders'));
    await page.getByRole('button', { name: 'Pay Dev' }).click();
    await dialog().getByText('Pay Dev').waitFor();
    await expect.poll(focused).toBeTruthy();
    const before = await head();
    await page.keyboard.press('Control+s');
    await dialog().getByText('Choose the godown that handles the cash', { exact: true }).waitFor();
    await dialog().getByText('Amount is required', { exact: true }).waitFor();
    expect(await head()).toBe(before);
    await dialog().getByRole('combobox', { name: 'Godown' }).focus();
    await page.keyboard.press('Control+a');
    await chooseByKeyboard('Godown', 'Bhi', /^Bhiwandi/);
    expect(await focused()).toBe('amount');
    await page.keyboard.type('100');
    expect(await page.getByRole('listbox').count()).toBe(0);
    expect(await dialog().getByLabel('Amount').inputValue()).toBe('100');
    await page.screenshot({ path: join(SHOTS, 'pay-1366-dark.png') });
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
  });

  it('finds an agent of another city on New Sale, says the city, and records the sale in it', async () => {
    await page.goto(url('/transactions/sales'));
    await page.getByRole('tab', { name: 'Dubai' }).click();
    await page.getByRole('button', { name: 'New Sale' }).click();
    await dialog().getByText('New Sale').waitFor();
    await dialog().getByRole('combobox', { name: 'Agent' }).focus();
    await chooseByKeyboard('Agent', 'Nad', /^Nadia \(Mumbai\)/);
    expect(await dialog().getByRole('combobox', { name: 'Agent' }).inputValue()).toBe('Nadia (Mumbai)');
    await dialog().getByText('A sale in Mumbai (INR)').waitFor();
    expect(await focused()).toBe('product_id');
    await page.keyboard.type('Cumin');
    await page.keyboard.press('Enter');
    await chooseByKeyboard('From Godown', 'Bhi', /^Bhiwandi/);
    await page.keyboard.type('400');
    await page.keyboard.press('Enter');
    await page.keyboard.type('1');
    expect(await previewLine('Nadia')).toContain('400.00');
    await page.keyboard.press('Control+s');
    await dialog().waitFor({ state: 'hidden' });
    expect(await balance('agents', 'Nadia')).toBe('400.00');
    const mumbai = (await api('GET', `/transactions/sales?city_id=${ids.mumbai}`)).data as Array<{
      agent: { name: string };
    }>;
    expect(mumbai.map((s) => s.agent.name)).toEqual(['Nadia']);
  });

  it('a session at the desk by keyboard alone: 20 purchases and 10 sales with Save and New, then 5 expenses; each saved once, as its preview said', async () => {
    const inr = (amount: string) => `${formatAmount(amount)} INR`;
    const count = async (path: string) =>
      ((await api('GET', `${path}?city_id=${ids.mumbai}&page=1&limit=100`)).data as unknown[]).length;

    // 20 purchases, one dialog: Save and New after each, the godown kept from the first.
    const purchasesBefore = await count('/transactions/purchases');
    let dev = await balance('funders', 'Dev');
    const purchaseTotals: string[] = [];
    await page.goto(url('/transactions/purchases'));
    await page.getByRole('tab', { name: 'Mumbai' }).click();
    await page.getByRole('button', { name: 'New Purchase' }).focus();
    await page.keyboard.press('Enter');
    await dialog().getByText('New Purchase').waitFor();
    await expect.poll(focused).toBe('type');
    for (const _ of ['date', 'city', 'funder']) await page.keyboard.press('Enter');
    for (let i = 1; i <= 20; i++) {
      const total = `${(100 + i) * 2}.00`;
      await keyPurchase(String(100 + i), '2', i > 1);
      const after = addDecimal(dev, total, 2);
      const line = await previewLine('Dev');
      expect(line, `purchase ${i}`).toContain(`${formatAmount(dev)} → ${inr(after)}`);
      await pressButton('Save and New');
      await expect.poll(focused).toBe('funder_id');
      expect(await preview().count()).toBe(0);
      purchaseTotals.push(total);
      dev = after;
    }
    expect(
      await dialog()
        .getByText(/Invalid input|expected string/)
        .count(),
    ).toBe(0);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    expect(await count('/transactions/purchases')).toBe(purchasesBefore + 20);
    expect(await balance('funders', 'Dev')).toBe(dev);
    const purchases = (await api('GET', `/transactions/purchases?city_id=${ids.mumbai}&page=1&limit=100`))
      .data as Array<{ total: string }>;
    for (const total of purchaseTotals)
      expect(purchases.filter((p) => p.total === total).length, `purchase of ${total}`).toBe(1);

    // 10 sales to Nadia, one dialog: the product and the godown kept after the first.
    const salesBefore = await count('/transactions/sales');
    let nadia = await balance('agents', 'Nadia');
    await page.goto(url('/transactions/sales'));
    await page.getByRole('tab', { name: 'Mumbai' }).click();
    await page.getByRole('button', { name: 'New Sale' }).focus();
    await page.keyboard.press('Enter');
    await dialog().getByText('New Sale').waitFor();
    await dialog().getByRole('combobox', { name: 'Agent' }).focus();
    for (let i = 1; i <= 10; i++) {
      const total = `${400 + i}.00`;
      await chooseByKeyboard('Agent', 'Nad', /^Nadia \(Mumbai\)/);
      expect(await focused()).toBe('product_id');
      if (i === 1) {
        await page.keyboard.type('Cumin');
        await page.keyboard.press('Enter');
        await chooseByKeyboard('From Godown', 'Bhi', /^Bhiwandi/);
      } else {
        expect(await dialog().getByRole('combobox', { name: 'From Godown' }).inputValue()).toBe('Bhiwandi');
        await page.keyboard.press('Enter'); // the product, kept
        await page.keyboard.press('Enter'); // the godown, kept
      }
      await page.keyboard.type(String(400 + i));
      await page.keyboard.press('Enter');
      await page.keyboard.type('1');
      const after = addDecimal(nadia, total, 2);
      expect(await previewLine('Nadia'), `sale ${i}`).toContain(`${formatAmount(nadia)} → ${inr(after)}`);
      await pressButton('Save and New');
      await expect.poll(focused).toBe('agent_id');
      nadia = after;
    }
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    expect(await count('/transactions/sales')).toBe(salesBefore + 10);
    expect(await balance('agents', 'Nadia')).toBe(nadia);

    // 5 expenses paid by Ravi, each in its own dialog (cash entries close on save).
    const expensesBefore = await count('/transactions/expenses');
    let ravi = await balance('collectors', 'Ravi');
    await page.goto(url('/transactions/expenses'));
    await page.getByRole('tab', { name: 'Mumbai' }).click();
    for (let i = 1; i <= 5; i++) {
      const amount = `${25 * i}.00`;
      await page.getByRole('button', { name: 'New Expense' }).focus();
      await page.keyboard.press('Enter');
      await dialog().getByText('Mumbai (INR)').waitFor();
      await dialog().getByLabel('Category').focus();
      await page.keyboard.type(`Tea ${i}`);
      await dialog().getByRole('combobox', { name: 'Paid From (Collector)' }).focus();
      await chooseByKeyboard('Paid From (Collector)', 'Rav', /^Ravi/);
      await dialog().getByLabel('Amount').focus();
      await page.keyboard.type(String(25 * i));
      const after = subtractDecimal(ravi, amount, 2);
      expect(await previewLine('Ravi'), `expense ${i}`).toContain(`${formatAmount(ravi)} → ${inr(after)}`);
      await page.keyboard.press('Control+s');
      await dialog().waitFor({ state: 'hidden' });
      ravi = after;
    }
    expect(await count('/transactions/expenses')).toBe(expensesBefore + 5);
    expect(await balance('collectors', 'Ravi')).toBe(ravi);
  }, 600_000);

  it('takes screenshots of the entry dialogs in both themes, at 1366 and 390 px', async () => {
    for (const theme of ['dark', 'light'] as const) {
      if (theme === 'light') await page.getByRole('switch', { name: 'Dark mode' }).click();
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(url('/transactions/purchases'));
        await page.getByRole('button', { name: 'New Purchase' }).click();
        await dialog().getByText('New Purchase').waitFor();
        await expect.poll(focused).toBeTruthy();
        await page.keyboard.press('Control+s');
        await dialog().getByText('Choose a funder', { exact: true }).waitFor();
        await page.screenshot({ path: join(SHOTS, `entry-purchase-errors-${width}-${theme}.png`) });
        await page.keyboard.press('Escape');
        await dialog().waitFor({ state: 'hidden' });

        await page.goto(url('/transactions/sales'));
        await page.getByRole('tab', { name: 'Dubai' }).click();
        await page.getByRole('button', { name: 'New Sale' }).click();
        await dialog().getByRole('combobox', { name: 'Agent' }).focus();
        await page.keyboard.type('a');
        await page.getByRole('option', { name: /^Nadia \(Mumbai\)/ }).waitFor();
        await page.getByRole('option', { name: /^Omar \(Dubai\)/ }).waitFor();
        await page.screenshot({ path: join(SHOTS, `entry-sale-agents-${width}-${theme}.png`) });
        await page.keyboard.press('Escape'); // the list
        await page.keyboard.press('Escape'); // the dialog
        await dialog().waitFor({ state: 'hidden' });

        await page.goto(url('/masters/funders'));
        await page.getByRole('button', { name: 'Pay Dev' }).click();
        await dialog().getByLabel('Amount').waitFor();
        await expect.poll(focused).toBeTruthy();
        await page.keyboard.press('Control+s');
        await dialog().getByText('Amount is required', { exact: true }).waitFor();
        await page.screenshot({ path: join(SHOTS, `entry-pay-errors-${width}-${theme}.png`) });
        await page.keyboard.press('Escape');
        await dialog().waitFor({ state: 'hidden' });
      }
    }
    await page.getByRole('switch', { name: 'Dark mode' }).click();
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 180_000);
});
