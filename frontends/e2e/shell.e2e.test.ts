import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LicenseClaims } from '@bahi/contracts';
import { generateLicenseKeys, issueLicense } from '@bahi/server-kit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount } from '../../packages/ui/src/format.ts';
import { openTestApp, type TestApp } from '../../services/standalone/src/testing/test-app.ts';
import { BUDGET_KB } from '../build.ts';
import { openBrowser, openSignedIn } from './browser.ts';
import { scriptsLoaded } from './budget.ts';

const FRONTENDS = dirname(dirname(fileURLToPath(import.meta.url)));
const RESULTS = join(dirname(FRONTENDS), 'test-results');
const SHOTS = join(RESULTS, 'screenshots');
const DAY = 86_400_000;
const THEMES = ['dark', 'light'] as const;

let app: TestApp;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let privateKey: string;
let licenseFile: string;

const license = (over: Partial<LicenseClaims>): Promise<string> =>
  issueLicense(privateKey, {
    status: 'Active',
    type: 'Standard',
    expires_at: new Date(Date.now() + 5 * DAY + 3_600_000).toISOString(),
    grace_period_days: 7,
    expiry_notification_days: 15,
    ...over,
  });

const url = (path: string) => `${app.bahi.url}${path}`;
const heading = (name: string) => page.getByRole('heading', { name, exact: true });

async function signIn(
  email = app.bahi.config.BAHI_ADMIN_EMAIL,
  password = app.bahi.config.BAHI_ADMIN_PASSWORD,
) {
  await page.goto(url('/login'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function shot(name: string, theme: string) {
  await page.screenshot({ path: join(SHOTS, `${name}-${theme}.png`), fullPage: false });
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  app = await openTestApp({
    prepare: async (dir) => {
      const keys = await generateLicenseKeys();
      privateKey = keys.privateKeyPem;
      licenseFile = join(dir, 'license.jws');
      await writeFile(join(dir, 'public.pem'), keys.publicKeyPem);
      // Expires in a little over 5 days, warned about from 15 days: the warning banner.
      await writeFile(licenseFile, await license({}));
    },
    env: (dir) => ({
      BAHI_FRONTENDS_DIR: FRONTENDS,
      BAHI_LICENSE_FILE: join(dir, 'license.jws'),
      BAHI_LICENSE_PUBLIC_KEY_FILE: join(dir, 'public.pem'),
    }),
  });
  // The budget tests measure the scripts each screen loads: without the idle prefetch, which
  // would have fetched them already (its own test below turns it on).
  browser = await openBrowser({ prefetch: false });
  page = browser.page;
  page.setDefaultTimeout(10_000);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the shell in Chromium', () => {
  it('signs in: a wrong password shows the server error, the right one opens the dashboard', async () => {
    await page.goto(url('/settings/users'));
    await page.waitForURL('**/login');
    await signIn(app.bahi.config.BAHI_ADMIN_EMAIL, 'not-the-password');
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain(
      'The email or password is not correct.',
    );
    await page.getByLabel('Password').fill(app.bahi.config.BAHI_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    // Back where the guard stopped us.
    await heading('User Management').waitFor();
    await page.goto(url('/'));
    await heading('Dashboard').waitFor();
    await page.getByText('Income vs. Expense (Last 30 Days)').waitFor();
    expect(await page.locator('[data-day]').count()).toBe(30);
    // Signed in, /login goes back to the dashboard.
    await page.goto(url('/login'));
    await heading('Dashboard').waitFor();
  });

  it('shows the license warning banner', async () => {
    const banner = page.getByTestId('license-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain(
      'License Warning: Your application license will expire in 6 day(s). Please contact support for renewal.',
    );
  });

  it('keeps the theme choice across a reload (dark by default)', async () => {
    const root = page.locator('[data-theme]').first();
    expect(await root.getAttribute('data-theme')).toBe('dark');
    await page.getByRole('switch', { name: 'Dark mode' }).click();
    expect(await root.getAttribute('data-theme')).toBe('light');
    await page.reload();
    await heading('Dashboard').waitFor();
    expect(await page.locator('[data-theme]').first().getAttribute('data-theme')).toBe('light');
    expect(await page.getByRole('switch', { name: 'Dark mode' }).isChecked()).toBe(false);
    await page.getByRole('switch', { name: 'Dark mode' }).click();
    expect(await page.locator('[data-theme]').first().getAttribute('data-theme')).toBe('dark');
  });

  it('marks a notification read from the bell', async () => {
    // The license watch raised 'License expiring' for Admins at start.
    const bell = page.getByRole('button', { name: 'Notifications, 1 unread' });
    await bell.click();
    const item = page.getByRole('button', { name: 'Unread: License expiring' });
    await item.waitFor();
    await item.click();
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    expect(await page.getByTestId('unread-badge').count()).toBe(0);
    await page.goto(url('/notifications'));
    await page.getByRole('button', { name: 'License expiring' }).waitFor();
  });

  it('creates and edits a user', async () => {
    await page.goto(url('/settings/users'));
    await heading('User Management').waitFor();
    await page.getByRole('button', { name: 'New User' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Add New User').waitFor();
    await dialog.getByText('Min. 6 characters required').waitFor();
    await dialog.getByLabel('Full Name').fill('Ravi Kumar');
    await dialog.getByLabel('Email').fill('ravi@bahi.test');
    await dialog.getByLabel('Role').selectOption('Manager');
    // A short password is refused on its field, with the reason (not 'The request is not valid.').
    await dialog.getByLabel('Password').fill('abc');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Password must be at least 6 characters').waitFor();
    expect(await dialog.getByText('The request is not valid.').count()).toBe(0);
    await dialog.getByLabel('Password').fill('ravi-pass-1');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const row = page.getByRole('row', { name: /Ravi Kumar/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Manager');
    expect(await row.textContent()).toContain('N/A');

    await page.getByRole('button', { name: 'Edit Ravi Kumar' }).click();
    await dialog.getByText('Edit User').waitFor();
    await dialog.getByText('Leave blank to keep current password').waitFor();
    await dialog.getByLabel('Full Name').fill('Ravi K. Sharma');
    await dialog.getByLabel('Phone').fill('+91 98000 00000');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const edited = page.getByRole('row', { name: /Ravi K\. Sharma/ });
    await edited.waitFor();
    expect(await edited.textContent()).toContain('+91 98000 00000');
    // The blank password was left out: the old one still signs in.
    await expect(app.login('ravi@bahi.test', 'ravi-pass-1')).resolves.toBeTruthy();
    // An Admin cannot delete their own row.
    expect(await page.getByRole('button', { name: 'You cannot delete yourself' }).isDisabled()).toBe(true);
  });

  it('creates a custom field with a SELECT options list', async () => {
    await page.goto(url('/settings/custom-fields'));
    await heading('Transaction Custom Fields').waitFor();
    await page.getByRole('button', { name: 'New Custom Field' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Field Name').fill('Truck Colour');
    await dialog.getByLabel('Field Type').selectOption('SELECT');
    const option = dialog.getByLabel('New option');
    await option.fill('Red');
    await option.press('Enter');
    await option.fill('Blue');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await option.fill('Red');
    await option.press('Enter');
    await option.fill('   ');
    await option.press('Enter');
    expect(await dialog.getByTestId('option-tag').allTextContents()).toEqual(['Red', 'Blue']);
    // Apply to Forms is required.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Choose at least one form').waitFor();
    await dialog.getByRole('checkbox', { name: 'Purchase', exact: true }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    const row = page.getByRole('row', { name: /Truck Colour/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Red, Blue');
    expect(await row.textContent()).toContain('Dropdown Select');
    const fields = await app.call('GET', '/masters/custom-fields');
    expect(fields.body).toEqual([
      expect.objectContaining({ name: 'Truck Colour', options: ['Red', 'Blue'] }),
    ]);
  });

  it('shows Retry when a remote fails to load, and recovers', async () => {
    await page.route('**/remotes/masters/**', (route) => route.abort());
    await page.goto(url('/masters/cities'));
    const retry = page.getByRole('button', { name: 'Retry' });
    await retry.waitFor();
    expect(await page.getByText('This part of Bahi could not be loaded').count()).toBe(1);
    await page.unroute('**/remotes/masters/**');
    await retry.click();
    await heading('Cities').waitFor();
    await page.getByRole('table', { name: 'Cities' }).waitFor();
  });

  it('stays within the bundle budget', async () => {
    // A fresh first page: the dashboard of a signed-in user.
    const shell = await scriptsLoaded(page, async () => {
      await page.goto('about:blank');
      await page.goto(url('/'));
      await page.getByText('Recent Activity').waitFor();
    });
    const remotes: Record<string, number> = {};
    for (const [remote, path, title] of [
      ['masters', '/masters/products', 'Products'],
      ['transactions', '/transactions/sales', 'Sales'],
      ['reports', '/reports/balances', 'Balances Report'],
    ] as const) {
      const loaded = await scriptsLoaded(page, async () => {
        await page.getByRole('navigation', { name: 'Main' }).waitFor();
        await page.evaluate((p) => {
          window.history.pushState({}, '', p);
          window.dispatchEvent(new PopStateEvent('popstate'));
        }, path);
        await heading(title).waitFor();
      });
      remotes[remote] = loaded.kb;
      expect(loaded.urls.some((u) => u.includes(`/remotes/${remote}/`))).toBe(true);
    }
    const figures = { shellFirstPageKb: shell.kb, remoteFirstScreenKb: remotes, budgetKb: BUDGET_KB };
    await writeFile(join(RESULTS, 'bundle-budget.json'), `${JSON.stringify(figures, null, 2)}\n`);
    console.log('bundle budget (gzip kB):', JSON.stringify(figures));
    expect(shell.kb).toBeLessThanOrEqual(BUDGET_KB.shell);
    for (const kb of Object.values(remotes)) expect(kb).toBeLessThanOrEqual(BUDGET_KB.remote);
  });

  it('fetches the screens ahead when idle after sign-in: opening Purchases then loads no script', async () => {
    const fresh = await openSignedIn(app);
    try {
      const p = fresh.page;
      // The shell marks the end of its prefetch (frontends/shell/src/app/prefetch.ts).
      await p.waitForFunction(() => performance.getEntriesByName('bahi:prefetch-done').length > 0, null, {
        timeout: 60_000,
      });
      const prefetched = (await p.evaluate(() =>
        performance.getEntriesByType('resource').map((e) => e.name),
      )) as string[];
      expect(prefetched.some((u) => u.includes('/remotes/transactions/'))).toBe(true);
      expect(prefetched.some((u) => u.includes('/remotes/reports/'))).toBe(true);
      const opened = await scriptsLoaded(p, async () => {
        const nav = p.getByRole('navigation', { name: 'Main' });
        await nav.getByRole('button', { name: 'Transactions', exact: true }).click();
        await nav.getByRole('link', { name: 'Purchases', exact: true }).click();
        await p.getByRole('heading', { name: 'Purchases', exact: true }).waitFor();
      });
      expect(opened.urls).toEqual([]);
      // From one remote's screen to another's, both loaded already: the other remote's screen,
      // not the first one's routes kept for it (its 404).
      await p
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: 'Reports', exact: true })
        .click();
      await p
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Balances', exact: true })
        .click();
      await p.getByRole('heading', { name: 'Balances Report', exact: true }).waitFor();
    } finally {
      await fresh.close();
    }
  });

  it('saves a screenshot of each shell screen in both themes, at 1366 and 390 px', async () => {
    const screens: [string, string, string][] = [
      ['dashboard', '/', 'Dashboard'],
      ['users', '/settings/users', 'User Management'],
      ['activity-log', '/settings/activity-log', 'Activity Log'],
      ['custom-fields', '/settings/custom-fields', 'Transaction Custom Fields'],
      ['notifications', '/notifications', 'Notifications'],
      ['profile', '/profile', 'My Profile'],
      ['remote-masters', '/masters/cities', 'Cities'],
      ['not-found', '/no/such/page', 'Page Not Found'],
    ];
    for (const theme of THEMES) {
      await page.evaluate((t) => localStorage.setItem('bahi.theme', t), theme);
      for (const [name, path, title] of screens) {
        await page.goto(url(path));
        await (name === 'not-found' ? page.getByText(title) : heading(title)).waitFor();
        // Lazily loaded parts are in: the banner's real message bar, the dashboard's chart.
        await page.getByRole('button', { name: 'Dismiss' }).waitFor();
        if (name === 'dashboard') await page.locator('[data-day]').first().waitFor();
        if (name === 'activity-log') {
          await page.getByRole('button', { name: 'Expand row' }).first().click();
          await page.getByText('Data After Change').first().waitFor();
        }
        await shot(name, theme);
        // The same screen as it is at 1366 px and on a phone (390 px).
        for (const [width, height] of [
          [1366, 900],
          [390, 844],
        ] as const) {
          await page.setViewportSize({ width, height });
          await page.waitForTimeout(150);
          await shot(`${name}-${width}`, theme);
        }
        await page.setViewportSize({ width: 1280, height: 800 });
        if (name === 'users' || name === 'custom-fields') {
          await page
            .getByRole('button', { name: name === 'users' ? 'New User' : 'New Custom Field' })
            .click();
          await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
          await page.getByRole('dialog').getByText('is required').first().waitFor();
          await shot(`${name}-dialog`, theme);
          await page.keyboard.press('Escape');
        }
      }
      // The sign-in page, then the session back.
      const token = await page.evaluate(() => localStorage.getItem('bahi.token'));
      await page.evaluate(() => localStorage.removeItem('bahi.token'));
      await page.goto(url('/login'));
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByText('Email is required').waitFor();
      await shot('login', theme);
      await page.evaluate((t) => localStorage.setItem('bahi.token', t ?? ''), token);
      await page.goto(url('/'));
      await heading('Dashboard').waitFor();
      await page.getByRole('button', { name: /^Notifications/ }).click();
      await page.getByText('View all notifications').waitFor();
      await shot('notification-popup', theme);
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(url('/'));
      await heading('Dashboard').waitFor();
      await shot('dashboard-390px', theme);
      await page.locator('[data-day]').first().waitFor();
      await page.getByRole('button', { name: 'Open navigation' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).waitFor();
      await shot('drawer-390px', theme);
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await page.evaluate(() => localStorage.setItem('bahi.theme', 'dark'));
  }, 180_000);

  it('on a phone (390 px) no two texts of a table row overlap, on every shell screen with a table', async () => {
    // Something in each table: an activity log entry and a custom field.
    await app.call('POST', '/masters/custom-fields', {
      name: 'Lorry number with a long name',
      type: 'SELECT',
      is_required: true,
      options: ['MH-04-AB-1234', 'GJ-05-CD-5678'],
      entity_types: ['Purchase', 'Sale', 'PurchaseReturn', 'SaleReturn'],
    });
    await app.syncToHead();
    await page.setViewportSize({ width: 390, height: 844 });
    const overlaps: string[] = [];
    for (const [path, title] of [
      ['/settings/users', 'User Management'],
      ['/settings/activity-log', 'Activity Log'],
      ['/settings/custom-fields', 'Transaction Custom Fields'],
    ] as const) {
      await page.goto(url(path));
      await heading(title).waitFor();
      await page.locator('main table tbody tr td').first().waitFor();
      // Every text's boxes, per cell; two boxes of different cells of one row must not intersect.
      const found = await page.evaluate(`(() => {
        const out = [];
        for (const tr of document.querySelectorAll('main table tr')) {
          const boxes = [];
          for (const cell of tr.children) {
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              if (!n.textContent.trim()) continue;
              const range = document.createRange();
              range.selectNodeContents(n);
              for (const b of range.getClientRects()) boxes.push({ cell, text: n.textContent.trim(), b });
            }
          }
          for (let i = 0; i < boxes.length; i++)
            for (let j = i + 1; j < boxes.length; j++) {
              const [x, y] = [boxes[i], boxes[j]];
              if (x.cell === y.cell) continue;
              const w = Math.min(x.b.right, y.b.right) - Math.max(x.b.left, y.b.left);
              const h = Math.min(x.b.bottom, y.b.bottom) - Math.max(x.b.top, y.b.top);
              if (w > 1 && h > 1) out.push(x.text + ' / ' + y.text);
            }
        }
        return out;
      })()`);
      for (const o of found as string[]) overlaps.push(`${path}: ${o}`);
      await shot(`${path.split('/').at(-1)}-390px`, 'dark');
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(overlaps).toEqual([]);
  });

  it('reads the chart’s figures for a day by keyboard focus, as the endpoint gives them', async () => {
    await page.goto(url('/'));
    await heading('Dashboard').waitFor();
    const summary = (await app.call('GET', '/reports/dashboard-summary')).body;
    const chart = page.getByRole('figure', { name: 'Income vs. expense for each of the last 30 days' });
    const days = chart.locator('[data-day]');
    await days.first().waitFor();
    // One tab stop: the last day; Home goes to the first, the arrows move day by day.
    await chart.locator('[data-day][tabindex="0"]').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    const day = summary.dailyIncomeExpense[1];
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-day'))).toBe(day.day);
    const tip = await page.getByRole('tooltip').textContent();
    expect(tip).toContain(`Income: ${formatAmount(day.income)} INR`);
    expect(tip).toContain(`Expense: ${formatAmount(day.expense)} INR`);
  });

  it('the standalone first page costs at most 250 kB on the wire (precompressed assets)', async () => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    let bytes = 0;
    const encodings = new Set<string>();
    const plain: string[] = [];
    cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => {
      bytes += e.encodedDataLength;
    });
    cdp.on(
      'Network.responseReceived',
      (e: { response: { url: string; headers: Record<string, string> } }) => {
        if (!e.response.url.endsWith('.js')) return;
        const encoding = e.response.headers['content-encoding'] ?? 'none';
        encodings.add(encoding);
        // The build leaves files under 512 bytes as they are: compressing them gains nothing.
        if (encoding === 'none' && Number(e.response.headers['content-length'] ?? 1e9) >= 512)
          plain.push(e.response.url);
      },
    );
    await cdp.send('Network.enable');
    await page.goto(url('/'));
    await heading('Dashboard').waitFor();
    await page.locator('[data-day]').first().waitFor();
    await page.waitForLoadState('networkidle');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
    await cdp.detach();
    console.log(
      `standalone first page on the wire: ${(bytes / 1024).toFixed(1)} kB (JS encodings: ${[...encodings]}; plain: ${plain})`,
    );
    expect(encodings.has('br')).toBe(true);
    expect(plain).toEqual([]);
    expect(bytes / 1024).toBeLessThanOrEqual(250);
  });

  it('follows the license live: invalid blocks the app, a good one lets it back in, Retry shows the expired banner', async () => {
    await page.goto(url('/'));
    await heading('Dashboard').waitFor();
    // Past its grace period: the server re-reads it and the live stream tells the page.
    await writeFile(
      licenseFile,
      await license({ status: 'Expired', expires_at: new Date(Date.now() - 20 * DAY).toISOString() }),
    );
    expect((await app.call('POST', '/auth/retry-license-check')).body.isValid).toBe(false);
    await page.getByText('License Invalid').waitFor();
    expect(await page.getByTestId('license-reason').textContent()).toContain('grace period ended');
    for (const theme of THEMES) {
      await page.evaluate((t) => localStorage.setItem('bahi.theme', t), theme);
      await page.reload();
      await page.getByText('License Invalid').waitFor();
      await shot('license-invalid', theme);
    }
    // A good license installed and checked elsewhere: the page hears it and lets the app in.
    await writeFile(licenseFile, await license({}));
    expect((await app.call('POST', '/auth/retry-license-check')).body.isValid).toBe(true);
    await heading('Dashboard').waitFor();
    // Invalid again (heard live), then the page's own button after a new license is installed:
    // expired two days ago, within its 7-day grace, so valid with the error banner.
    await writeFile(
      licenseFile,
      await license({ status: 'Expired', expires_at: new Date(Date.now() - 20 * DAY).toISOString() }),
    );
    await app.call('POST', '/auth/retry-license-check');
    await page.getByText('License Invalid').waitFor();
    const expires = Date.now() - 2 * DAY;
    await writeFile(
      licenseFile,
      await license({ status: 'Active', expires_at: new Date(expires).toISOString() }),
    );
    await page.getByRole('button', { name: 'Retry License Check' }).click();
    await heading('Dashboard').waitFor();
    const banner = page.getByTestId('license-banner');
    const graceEnd = new Date(expires + 7 * DAY).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
    });
    expect(await banner.textContent()).toContain(
      `License Expired: The license has expired and the system will not work after the grace period ends on ${graceEnd}.`,
    );
    await shot('license-expired-banner', 'light');
    await page.evaluate(() => localStorage.setItem('bahi.theme', 'dark'));
  });
});
