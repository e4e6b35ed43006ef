// What the Docker image would serve, without Docker: the Dockerfile's build step (the frontends,
// and /app as `scripts/build-services.ts --image` assembles it), its COPY lines into the final
// image, compose's one-shot `frontends` step that copies the frontends into the gateway's volume,
// and the real nginx gateway over that volume in front of the query service run from that /app
// alone (a directory with no node_modules above it: only what the image carries).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, nginxAvailable, startGateway } from './gateway.ts';
import { withTestDatabase } from './postgres.ts';
import { freePort, getJson, type Proc, run, waitFor } from './processes.ts';

const root = resolve(import.meta.dirname, '..');
const databaseUrl = process.env.DATABASE_URL;
const FRONTENDS = ['shell', 'masters', 'transactions', 'reports'];

/** The Dockerfile's stages, by name (the last one unnamed: the final image). */
function dockerfileStages(text: string): Map<string, string[]> {
  const stages = new Map<string, string[]>();
  let current: string[] = [];
  // Join continuation lines, drop comments.
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((l) => l.trim() && !l.trim().startsWith('#'));
  for (const line of lines) {
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) {
      current = [];
      stages.set(from[1] ?? 'final', current);
    } else current.push(line.trim());
  }
  return stages;
}

/** The shell command of compose's one-shot `frontends` service (a folded `>-` scalar). */
function composeFrontendsStep(text: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^ {2}frontends:\s*$/.test(l));
  const folded = lines.findIndex((l, i) => i > start && /^\s+- >-\s*$/.test(l));
  const body: string[] = [];
  for (const line of lines.slice(folded + 1)) {
    if (!/^ {8}\S/.test(line)) break;
    body.push(line.trim());
  }
  return body.join(' ').replaceAll('$$', '$');
}

/** .dockerignore patterns as regular expressions over repository-relative paths. */
function dockerignore(text: string): RegExp[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((pattern) => {
      const body = pattern
        .replace(/\/$/, '')
        .split('/')
        .map((part) =>
          part === '**'
            ? '(?:.*/)?'
            : `${part
                .replace(/[.+^${}()|[\]\\]/g, '\\$&')
                .replaceAll('*', '[^/]*')
                .replaceAll('?', '[^/]')}/`,
        )
        .join('')
        .replace(/\/$/, '')
        .replaceAll('(?:.*/)?/', '(?:.*/)?');
      return new RegExp(`^${body}(?:/.*)?$`);
    });
}

describe('the Docker build', () => {
  it('builds the frontends in a stage with the dev dependencies and copies every dist into the image', async () => {
    const stages = dockerfileStages(await readFile(join(root, 'Dockerfile'), 'utf8'));
    const build = stages.get('build') ?? [];
    expect(build).toContain('RUN npm ci --no-audit --no-fund'); // rsbuild is a devDependency
    expect(build.some((l) => l.startsWith('RUN npx tsx frontends/build.ts --force'))).toBe(true);
    const final = stages.get('final') ?? [];
    // No npm in the final stage: /app is the build stage's assembled app, bundles and all.
    expect(build.some((l) => l.includes('scripts/build-services.ts --image /src/image-app'))).toBe(true);
    expect(final).toContain('COPY --from=build /src/image-app/ ./');
    expect(final.some((l) => /\bnpm (ci|install)\b/.test(l))).toBe(false);
    // Report fonts are in that app (their files): the image needs no system font package.
    expect(final.some((l) => /apt-get install .*fonts-/.test(l))).toBe(false);
    for (const name of FRONTENDS) {
      expect(final).toContain(`COPY --from=build /src/frontends/${name}/dist ./frontends/${name}/dist`);
    }
    // Every stage on the one current LTS image the ARG names.
    const froms = [...(await readFile(join(root, 'Dockerfile'), 'utf8')).matchAll(/^FROM (\S+)/gm)];
    expect(froms.map((m) => /^\$\{NODE_IMAGE\}$/.test(m[1]!))).toEqual([true, true, true]);
    expect(await readFile(join(root, 'Dockerfile'), 'utf8')).toMatch(
      /^ARG NODE_IMAGE=node:(22|24)-bookworm-slim$/m,
    );
  });

  it('keeps every tracked file in the build context, and leaves out dependencies, builds and secrets', async () => {
    const patterns = dockerignore(await readFile(join(root, '.dockerignore'), 'utf8'));
    const ignored = (file: string) => patterns.some((p) => p.test(file));
    const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    expect(tracked.filter(ignored)).toEqual([]);
    for (const file of [
      'node_modules/x/index.js',
      'frontends/shell/node_modules/x.js',
      'frontends/shell/dist/index.html',
      'data/pgdata/PG_VERSION',
      '.env',
      'secrets/jwt_secret',
      'license/license.jws',
      'keys/private.pem',
    ]) {
      expect(ignored(file), file).toBe(true);
    }
  });
});

describe.skipIf(!nginxAvailable || !databaseUrl)('the image frontends behind the real gateway', () => {
  let dir = '';
  let db: Awaited<ReturnType<typeof withTestDatabase>> | undefined;
  let query: Proc | undefined;
  let gateway: Gateway | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bahi-image-'));
    await chmod(dir, 0o755); // nginx workers may run as another user
    // 1. The Dockerfile's build step: the frontends (without --force: frontends/build.ts reuses
    // fresh output) and the image's app, here into the temp directory (the image: /src/image-app).
    const imageApp = join(dir, 'image-app');
    for (const args of [['frontends/build.ts'], ['scripts/build-services.ts', '--image', imageApp]]) {
      const built = spawnSync('npx', ['tsx', ...args], { cwd: root, encoding: 'utf8', timeout: 300_000 });
      expect(built.status, `${args.join(' ')}\n${built.stdout}\n${built.stderr}`).toBe(0);
    }
    // 2. The final image's /app, per the Dockerfile's COPY --from=build lines.
    const app = join(dir, 'app');
    const stages = dockerfileStages(await readFile(join(root, 'Dockerfile'), 'utf8'));
    for (const line of stages.get('final') ?? []) {
      const copy = /^COPY --from=build \/src\/(\S+) \.\/(\S*)$/.exec(line);
      if (!copy) continue;
      const from = copy[1] === 'image-app/' ? imageApp : join(root, copy[1]!);
      await cp(from, join(app, copy[2]!), { recursive: true });
    }
    // 3. compose's one-shot `frontends` step, from /app into the gateway's volume.
    const volume = join(dir, 'srv', 'frontends');
    await mkdir(volume, { recursive: true });
    const step = composeFrontendsStep(await readFile(join(root, 'docker-compose.yml'), 'utf8'));
    expect(step).toContain('/srv/frontends');
    const copied = spawnSync('sh', ['-c', step.replaceAll('/srv/frontends', volume)], {
      cwd: app,
      encoding: 'utf8',
    });
    expect(copied.status, copied.stderr).toBe(0);
    execFileSync('chmod', ['-R', 'a+rX', dir]);

    // 4. The real query service (the JWT secret from a mounted-secret file, as compose gives it).
    db = await withTestDatabase('image');
    const secretFile = join(dir, 'jwt_secret');
    await writeFile(secretFile, 'a-test-secret-that-is-long-enough-for-hs256\n');
    const queryPort = await freePort();
    // As compose starts it: node on the image's bundle, from /app (nothing above it to load from).
    query = run(
      'node',
      ['services/query/dist/main.mjs'],
      {
        DATABASE_URL: db.url,
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        PORT: String(queryPort),
        HOST: '127.0.0.1',
        BAHI_DB_POOL_SIZE: '2',
        BAHI_JWT_SECRET_FILE: secretFile,
      },
      app,
    );
    await waitFor(
      'query health',
      async () =>
        (await getJson(`http://127.0.0.1:${queryPort}/api/health`)).status === 200 ? true : undefined,
      60_000,
    ).catch((error) => {
      throw new Error(`${(error as Error).message}\n${query?.output().slice(-3000)}`);
    });

    // 5. The gateway over the volume, as the compose gateway mounts it at FRONTENDS_ROOT.
    gateway = await startGateway({
      commandUpstream: `127.0.0.1:${await freePort()}`,
      queryUpstream: `127.0.0.1:${queryPort}`,
      frontendsRoot: volume,
    });
  }, 360_000);

  afterAll(async () => {
    await gateway?.stop();
    if (query) {
      query.signal('SIGTERM');
      await query.groupGone().catch(() => query?.signal('SIGKILL'));
    }
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves the shell at / and the scripts it loads', async () => {
    const res = await fetch(`${gateway!.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toBe(await readFile(join(root, 'frontends/shell/dist/index.html'), 'utf8'));
    expect(html).toContain('<div id="root"></div>');
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const script = await fetch(`${gateway!.url}${src}`);
      expect(script.status, src).toBe(200);
      expect(script.headers.get('content-type')).toMatch(/javascript/);
    }
    // A client-side route falls back to the shell.
    expect(await (await fetch(`${gateway!.url}/masters/cities`)).text()).toBe(html);
  });

  it.each(
    FRONTENDS.filter((n) => n !== 'shell'),
  )("serves the %s remote's mf-manifest.json and entry", async (name) => {
    const res = await fetch(`${gateway!.url}/remotes/${name}/mf-manifest.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const manifest = (await res.json()) as {
      name: string;
      metaData: { remoteEntry: { name: string; path: string } };
    };
    expect(manifest.name).toBe(name);
    const entry = [manifest.metaData.remoteEntry.path, manifest.metaData.remoteEntry.name]
      .filter(Boolean)
      .join('/');
    const script = await fetch(`${gateway!.url}/remotes/${name}/${entry}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
  });

  it('proxies /api/health to the query service', async () => {
    const res = await fetch(`${gateway!.url}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', service: 'query' });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
  });
});

if (!nginxAvailable || !databaseUrl)
  console.log('image-frontends test: gateway part skipped, needs /usr/sbin/nginx and DATABASE_URL');
