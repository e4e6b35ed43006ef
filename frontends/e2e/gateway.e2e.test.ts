import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';
import { type Gateway, nginxAvailable, startGateway } from '../../test/gateway.ts';
import { waitFor } from '../../test/processes.ts';
import { openBrowser } from './browser.ts';

const FRONTENDS = dirname(dirname(fileURLToPath(import.meta.url)));
if (!nginxAvailable) console.log('gateway.e2e.test: skipped, nginx is not installed');

/**
 * Distributed mode's front door: the real nginx gateway config serving the built frontends
 * from FRONTENDS_ROOT and proxying /api (the standalone app stands in for command and query).
 */
describe.skipIf(!nginxAvailable)('the frontends through the nginx gateway', () => {
  let app: TestApp;
  let started: Gateway | undefined;
  let gateway: string;
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let page: Page;

  beforeAll(async () => {
    app = await openTestApp();
    const api = `127.0.0.1:${new URL(app.bahi.url).port}`;
    // The real template, rendered and run as the gateway tests do (test/gateway.ts).
    started = await startGateway({ commandUpstream: api, queryUpstream: api, frontendsRoot: FRONTENDS });
    gateway = started.url;
    await waitFor(
      'gateway',
      async () => ((await fetch(`${gateway}/api/health`).catch(() => null))?.ok ? true : undefined),
      10_000,
    );
    browser = await openBrowser();
    page = browser.page;
    page.setDefaultTimeout(10_000);
  });

  afterAll(async () => {
    await browser?.close();
    await started?.stop();
    await app?.close();
  });

  it('signs in, loads a remote from /remotes/<name>/ and hears the live stream', async () => {
    const remoteFiles: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/remotes/transactions/'))
        remoteFiles.push(`${r.status()} ${new URL(r.url()).pathname}`);
    });
    await page.goto(`${gateway}/transactions/purchases`);
    await page.waitForURL('**/login');
    await page.getByLabel('Email').fill(app.bahi.config.BAHI_ADMIN_EMAIL);
    await page.getByLabel('Password').fill(app.bahi.config.BAHI_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('heading', { name: 'Purchases', exact: true }).waitFor();
    expect(remoteFiles).toContain('200 /remotes/transactions/mf-manifest.json');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await page.getByText('System created a User').waitFor();
    // A write by someone else reaches the dashboard over the gateway's SSE location.
    await app.call('POST', '/masters/cities', { name: 'Kabul', currency_name: 'AFN', rate: '1.25' });
    await page.getByText('Administrator created a City').waitFor();
  });

  it('keeps the dashboard live across a restart of the app behind it (the gateway answers 502 meanwhile)', async () => {
    const cities = () => page.getByText('Administrator created a City').count();
    expect(await cities()).toBe(1);
    // While the app is down nginx answers the stream's reconnection with a 502, and the browser
    // gives up on it: the shell opens a new stream after its backoff.
    await app.restart();
    await app.call('POST', '/masters/cities', { name: 'Herat', currency_name: 'AFN', rate: '1.25' });
    await expect.poll(cities, { timeout: 30_000 }).toBe(2);
    expect(page.url()).toBe(`${gateway}/`);
  }, 60_000);
});
