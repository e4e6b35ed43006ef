import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

export const REMOTES = ['masters', 'transactions', 'reports'] as const;

// The file served may be the precompressed copy (x.js.br, x.js.gz).
const NO_CACHE = /(^|\/)(index\.html|mf-manifest\.json|remoteEntry\.js)(\.br|\.gz)?$/;

/**
 * Serves the built frontends: the shell (host) at /, each remote under /remotes/<name>/, each
 * asset as its precompressed brotli or gzip copy when the browser accepts one.
 * Page paths without a file fall back to the shell's index.html (client-side routes).
 * Before the frontends are built, a placeholder page says what is running.
 */
export async function registerFrontends(
  app: FastifyInstance,
  frontendsDir: string,
): Promise<{ pageFallback: (reply: FastifyReply) => Promise<unknown>; built: boolean }> {
  const shellDist = resolve(frontendsDir, 'shell', 'dist');
  const built = existsSync(join(shellDist, 'index.html'));
  const setHeaders = (reply: FastifyReply, path: string) => {
    reply.header('Cache-Control', NO_CACHE.test(path) ? 'no-cache' : 'public, max-age=31536000, immutable');
  };
  if (built) {
    await app.register(fastifyStatic, {
      root: shellDist,
      prefix: '/',
      wildcard: true,
      preCompressed: true,
      setHeaders,
    });
  }
  for (const remote of REMOTES) {
    const dist = resolve(frontendsDir, remote, 'dist');
    if (!existsSync(dist)) continue;
    await app.register(fastifyStatic, {
      root: dist,
      prefix: `/remotes/${remote}/`,
      decorateReply: false,
      wildcard: true,
      // The build writes brotli and gzip copies beside each asset (frontends/build.ts): sent as
      // they are to a browser that accepts them, with Vary: Accept-Encoding.
      preCompressed: true,
      setHeaders,
    });
  }
  const indexHtml = built ? await readFile(join(shellDist, 'index.html'), 'utf8') : placeholderPage();
  return {
    built,
    async pageFallback(reply) {
      // A missing asset (a path with a file extension) is a 404, not the page.
      const path = reply.request.url.split('?')[0] ?? '/';
      if (/\.[a-z0-9]+$/i.test(path)) return reply.status(404).type('text/plain').send('Not found');
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
    },
  };
}

function placeholderPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bahi</title>
<style>
  :root { color-scheme: dark; font-family: system-ui, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #1f1f1f; color: #f0f0f0; }
  main { max-width: 34rem; padding: 2rem; border: 1px solid #3d3d3d; border-radius: 8px; background: #292929; }
  h1 { margin-top: 0; font-weight: 600; }
  a { color: #6cb8f6; }
  code { background: #1f1f1f; padding: 0 .3em; border-radius: 4px; }
</style>
</head>
<body>
<main>
  <h1>Bahi is running</h1>
  <p>The server, its embedded database and the API are up. The web screens have not been built into
  <code>frontends/*/dist</code> yet, so this page stands in for them.</p>
  <p>API health: <a href="/api/health">/api/health</a> &middot; readiness: <a href="/api/ready">/api/ready</a></p>
</main>
</body>
</html>`;
}
