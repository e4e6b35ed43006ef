import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sqlClientOf } from '@bahi/read-db';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';
import { openSignedIn } from './browser.ts';

/**
 * Settings > System, "Verify the books" (issue #30), as an Admin drives it: intact up to the head
 * of the log; then, after one byte of one event is changed in the database behind the app's
 * back, broken at that event's position.
 */
const FRONTENDS = dirname(dirname(fileURLToPath(import.meta.url)));
const SHOTS = join(dirname(FRONTENDS), 'test-results', 'screenshots');

let app: TestApp;
let browser: Awaited<ReturnType<typeof openSignedIn>>;
let page: Page;
let expensePosition = '';

async function api(method: string, path: string, body?: unknown) {
  const r = await app.call(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  app = await openTestApp({ env: () => ({ BAHI_FRONTENDS_DIR: FRONTENDS }) });
  const city = (await api('POST', '/masters/cities', { name: 'Pune', currency_name: 'INR', rate: 1 })).id;
  const collector = (await api('POST', '/masters/collectors', { name: 'Kabir', city_id: city })).id;
  for (const amount of ['100.25', '250.00']) {
    const made = await api('POST', '/transactions/expenses', {
      amount,
      expense_date: '2026-11-01',
      category: 'Rent',
      city_id: city,
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: collector,
    });
    expensePosition ||= made.position;
  }
  await api('POST', '/masters/products', { name: 'Cumin' });
  await app.syncToHead();
  browser = await openSignedIn(app);
  page = browser.page;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function verifyOnScreen(width: number, theme: string, name: string) {
  await page.setViewportSize({ width, height: width > 900 ? 900 : 1100 });
  await page.goto(`${app.bahi.url}/settings/system`);
  const region = page.getByRole('region', { name: 'Verify the books' });
  await region.scrollIntoViewIfNeeded();
  await region.getByRole('button', { name: 'Verify the books' }).click();
  const title = region.locator('.fui-MessageBarTitle');
  await title.waitFor();
  await region.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, `system-verify-${name}-${width}-${theme}.png`) });
  return { region, title: await title.textContent() };
}

describe('Settings > System, Verify the books, in Chromium', () => {
  it('says intact up to the head, then names the event changed in the database', async () => {
    const head = (await api('GET', '/admin/projections')).head as string;
    for (const theme of ['dark', 'light'] as const) {
      for (const width of [1366, 390]) {
        const { region, title } = await verifyOnScreen(width, theme, 'intact');
        expect(title).toBe(`Intact up to position ${head}`);
        // The figures are the API's.
        const answer = await api('GET', '/admin/verify');
        expect(await region.textContent()).toContain(`${answer.checked} of ${answer.total} events`);
        expect(await region.textContent()).toContain(answer.chainHead);
      }
      if (theme === 'dark') await page.getByRole('switch', { name: 'Dark mode' }).click();
    }

    // One byte of the first expense's data, changed directly in the database.
    const sql = sqlClientOf(app.bahi.readDb)!;
    const { rows } = await sql.query<{ text: string }>(
      'SELECT data::text AS text FROM es.events WHERE global_position = $1::bigint',
      [expensePosition],
    );
    const changed = rows[0]!.text.replace('100.25', '100.26'); // the first occurrence: one byte
    expect(changed).not.toBe(rows[0]!.text);
    await sql.query('UPDATE es.events SET data = $1::jsonb WHERE global_position = $2::bigint', [
      changed,
      expensePosition,
    ]);
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [1366, 390]) {
        const { region, title } = await verifyOnScreen(width, theme, 'broken');
        expect(title).toBe(`Broken at position ${expensePosition}`);
        const answer = await api('GET', '/admin/verify');
        expect(answer.broken.position).toBe(expensePosition);
        const text = await region.textContent();
        expect(text).toContain(answer.broken.stored);
        expect(text).toContain(answer.broken.recomputed);
        expect(text).toContain(`Nothing from position ${expensePosition} on can be trusted`);
      }
      if (theme === 'light') await page.getByRole('switch', { name: 'Dark mode' }).click();
    }
  }, 180_000);
});
