import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';

const FRONTENDS = dirname(dirname(fileURLToPath(import.meta.url)));

/** The built file a script URL was served from: /remotes/<name>/x from <name>/dist, the rest from shell/dist. */
export function distFile(url: string): string | undefined {
  const path = new URL(url).pathname;
  const remote = /^\/remotes\/([a-z]+)\/(.+)$/.exec(path);
  const file = remote
    ? join(FRONTENDS, remote[1] ?? '', 'dist', remote[2] ?? '')
    : join(FRONTENDS, 'shell', 'dist', path);
  return existsSync(file) ? file : undefined;
}

/** Records the scripts a page loads (cached or not) while `action` runs; gzip kB of their built files. */
export async function scriptsLoaded(
  page: Page,
  action: () => Promise<void>,
): Promise<{ kb: number; urls: string[] }> {
  const urls = new Set<string>();
  const onRequest = (r: { resourceType(): string; url(): string }) => {
    if (r.resourceType() === 'script' || r.url().endsWith('.js')) urls.add(r.url());
  };
  page.on('request', onRequest);
  try {
    await action();
  } finally {
    page.off('request', onRequest);
  }
  let bytes = 0;
  for (const url of urls) {
    const file = distFile(url);
    if (file) bytes += gzipSync(readFileSync(file), { level: 9 }).length;
  }
  return { kb: bytes / 1024, urls: [...urls] };
}
