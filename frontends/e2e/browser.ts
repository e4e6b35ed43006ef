import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM = process.env.BAHI_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Debian's Chromium, headless, with a throwaway profile (TOOLCHAIN.md). `prefetch: false` turns
 * the shell's idle prefetch of the remotes off (its switch, docs/frontend.md): for the budget
 * tests, which measure what a screen needs by the scripts it loads.
 */
export async function openBrowser(options: { prefetch?: boolean } = {}): Promise<{
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'bahi-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    // No transitions half-way through in screenshots (the app honours reduced motion).
    reducedMotion: 'reduce',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  if (options.prefetch === false) await context.addInitScript(PREFETCH_OFF);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The shell's prefetch switch (frontends/shell/src/app/prefetch.ts), set before the app starts. */
const PREFETCH_OFF = `try { localStorage.setItem('bahi.prefetch', 'off'); } catch {}`;

/** Chromium on the app, signed in as its first Admin, on the dashboard (a 15 s wait per step). */
export async function openSignedIn(
  app: { bahi: { url: string; config: { BAHI_ADMIN_EMAIL: string; BAHI_ADMIN_PASSWORD: string } } },
  options: { prefetch?: boolean } = {},
): Promise<Awaited<ReturnType<typeof openBrowser>>> {
  const browser = await openBrowser(options);
  const { page } = browser;
  page.setDefaultTimeout(15_000);
  await page.goto(`${app.bahi.url}/login`);
  await page.getByLabel('Email').fill(app.bahi.config.BAHI_ADMIN_EMAIL);
  await page.getByLabel('Password').fill(app.bahi.config.BAHI_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
  return browser;
}

/** A phone's viewport, as the 390 px tests use it. */
export const PHONE = { width: 390, height: 844 };

/** Wholly inside the viewport (a phone's by default): nothing to scroll sideways or down for. */
export function expectInView(
  box: { x: number; y: number; width: number; height: number } | null,
  viewport: { width: number; height: number } = PHONE,
): void {
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
}

/**
 * Full-page screenshots at 1366 and 390 px in both themes, named `{prefix}-{width}-{theme}.png`:
 * the app starts dark; the shell's switch turns it light, then dark again.
 */
export async function themedShots(page: Page, prefix: string): Promise<void> {
  for (const theme of ['dark', 'light'] as const) {
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: width > 900 ? 900 : PHONE.height });
      await page.screenshot({ path: `${prefix}-${width}-${theme}.png`, fullPage: true });
    }
    await page.getByRole('switch', { name: 'Dark mode' }).click();
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}
