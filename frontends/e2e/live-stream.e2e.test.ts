import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';
import { openSignedIn } from './browser.ts';

/**
 * The live stream across a server restart (issue #25): the screen a clerk keeps open follows
 * what is written after the server came back, without a reload.
 */
const FRONTENDS = dirname(dirname(fileURLToPath(import.meta.url)));

let app: TestApp;
let browser: Awaited<ReturnType<typeof openSignedIn>>;
let page: Page;
let mumbai: string;

async function api(method: string, path: string, body?: unknown) {
  const r = await app.call(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

/** The funders the list on screen shows, by name (its first cell). */
const namesOnScreen = () =>
  page
    .getByRole('table', { name: 'Funders' })
    .getByRole('row')
    .evaluateAll((rows) => rows.map((r) => r.querySelector('td')?.textContent?.trim() ?? ''));

beforeAll(async () => {
  app = await openTestApp({ env: () => ({ BAHI_FRONTENDS_DIR: FRONTENDS }) });
  mumbai = (await api('POST', '/masters/cities', { name: 'Mumbai', currency_name: 'INR', rate: 1 })).id;
  await api('POST', '/masters/funders', { name: 'Before Restart', city_id: mumbai });
  browser = await openSignedIn(app);
  page = browser.page;
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the live stream in Chromium', () => {
  it('keeps a list live across a server restart: writes after it show without a reload', async () => {
    await page.goto(`${app.bahi.url}/masters/funders`);
    await page.getByRole('table', { name: 'Funders' }).getByText('Before Restart').waitFor();
    // The stream is live before the restart: a write shows by itself.
    await api('POST', '/masters/funders', { name: 'Live Before', city_id: mumbai });
    await expect.poll(namesOnScreen, { timeout: 15_000 }).toContain('Live Before');
    // Nothing reloads the page from here on: a mark on its window would be gone after one.
    await page.evaluate(() => {
      (window as unknown as { bahiNoReload: boolean }).bahiNoReload = true;
    });

    // The server stops (its streams end) and starts again on the same data and port.
    await app.restart();
    // One write as soon as it is back, perhaps before the page reconnects, one after a while:
    // both show, the first by the replay or the refetch on reconnecting, the second live.
    await api('POST', '/masters/funders', { name: 'Right After Restart', city_id: mumbai });
    await expect.poll(namesOnScreen, { timeout: 10_000 }).toContain('Right After Restart');
    await api('POST', '/masters/funders', { name: 'Later After Restart', city_id: mumbai });
    await expect.poll(namesOnScreen, { timeout: 10_000 }).toContain('Later After Restart');

    expect(await page.evaluate(() => (window as unknown as { bahiNoReload?: boolean }).bahiNoReload)).toBe(
      true,
    );
    expect(page.url()).toBe(`${app.bahi.url}/masters/funders`);
  }, 90_000);
});
