import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.BAHI_CHROMIUM ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with a throwaway profile (TOOLCHAIN.md). */
export async function openBrowser(): Promise<{
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
