import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';
import { freePort, waitFor } from '../../test/processes.ts';
import { openBrowser } from './browser.ts';

const NGINX = '/usr/sbin/nginx';
const FRONTENDS = dirname(dirname(fileURLToPath(import.meta.url)));
const TEMPLATE = join(dirname(FRONTENDS), 'deploy', 'gateway', 'bahi.conf.template');
if (!existsSync(NGINX)) console.log(`gateway.e2e.test: skipped, ${NGINX} is not installed`);

/**
 * Distributed mode's front door: the real nginx gateway config serving the built frontends
 * from FRONTENDS_ROOT and proxying /api (the standalone app stands in for command and query).
 */
describe.skipIf(!existsSync(NGINX))('the frontends through the nginx gateway', () => {
  let app: TestApp;
  let dir: string;
  let nginx: ChildProcess;
  let gateway: string;
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let page: Page;

  beforeAll(async () => {
    app = await openTestApp();
    dir = await mkdtemp(join(tmpdir(), 'bahi-gw-e2e-'));
    const api = `127.0.0.1:${new URL(app.bahi.url).port}`;
    const port = await freePort();
    gateway = `http://127.0.0.1:${port}`;
    const vars: Record<string, string> = {
      COMMAND_UPSTREAM: api,
      QUERY_UPSTREAM: api,
      FRONTENDS_ROOT: FRONTENDS,
      GATEWAY_PORT: `127.0.0.1:${port}`,
    };
    const rendered = (await readFile(TEMPLATE, 'utf8')).replace(
      /\$\{([A-Z_]+)\}/g,
      (m, n: string) => vars[n] ?? m,
    );
    const t = (name: string) => join(dir, name);
    await writeFile(t('bahi.conf'), rendered);
    await writeFile(
      t('nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        `pid ${t('nginx.pid')};`,
        `error_log ${t('error.log')} warn;`,
        'events { worker_connections 256; }',
        'http {',
        '  include /etc/nginx/mime.types;',
        '  default_type application/octet-stream;',
        `  client_body_temp_path ${t('client_body')};`,
        `  proxy_temp_path ${t('proxy')};`,
        `  fastcgi_temp_path ${t('fastcgi')};`,
        `  uwsgi_temp_path ${t('uwsgi')};`,
        `  scgi_temp_path ${t('scgi')};`,
        '  access_log off;',
        `  include ${t('bahi.conf')};`,
        '}',
      ].join('\n'),
    );
    nginx = spawn(NGINX, ['-p', dir, '-c', t('nginx.conf'), '-e', t('error.log')], { stdio: 'inherit' });
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
    nginx?.kill('SIGTERM');
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
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
