/**
 * Builds the shell and the remotes with rsbuild, one after the other (the machines have 2
 * cores), skipping the build when the sources have not changed since the last one. Prints the
 * bundle budget: the gzip size of the JavaScript each first screen loads.
 *
 *   tsx frontends/build.ts            build what is stale
 *   tsx frontends/build.ts --force    build everything
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ROOT = dirname(fileURLToPath(import.meta.url));
const REPO = dirname(ROOT);
export const FRONTENDS = ['shell', 'masters', 'transactions', 'reports'] as const;
export const BUDGET_KB = { shell: 250, remote: 150 } as const;
const STAMP = '.bahi-build.json';
const RSBUILD = join(REPO, 'node_modules', '@rsbuild', 'core', 'bin', 'rsbuild.js');

async function* files(dir: string): AsyncGenerator<string> {
  if (!existsSync(dir)) return;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

/** A hash of everything a frontend's build reads from this repository. */
async function inputsHash(name: string): Promise<string> {
  const hash = createHash('sha256');
  const inputs = [
    join(ROOT, name, 'src'),
    join(ROOT, name, 'rsbuild.config.ts'),
    join(ROOT, name, 'package.json'),
    join(ROOT, 'rsbuild.shared.ts'),
    join(ROOT, 'build.ts'),
    join(REPO, 'packages', 'ui', 'src'),
    join(REPO, 'packages', 'ui', 'package.json'),
    join(REPO, 'packages', 'contracts', 'src'),
    join(REPO, 'package-lock.json'),
  ];
  for (const input of inputs) {
    if (!existsSync(input)) continue;
    const list: string[] = [];
    if ((await stat(input)).isDirectory()) for await (const f of files(input)) list.push(f);
    else list.push(input);
    for (const file of list.sort()) {
      if (/\.(test)\.tsx?$/.test(file) || /\.(dom|unit|int|e2e)\.test\./.test(file)) continue;
      hash
        .update(relative(REPO, file))
        .update('\0')
        .update(await readFile(file))
        .update('\0');
    }
  }
  return hash.digest('hex');
}

async function isFresh(name: string, hash: string): Promise<boolean> {
  try {
    const stamp = JSON.parse(await readFile(join(ROOT, name, 'dist', STAMP), 'utf8')) as { hash: string };
    return stamp.hash === hash;
  } catch {
    return false;
  }
}

/** What is worth compressing: text the browser fetches. */
const COMPRESSIBLE = /\.(js|css|html|json|svg|map|txt)$/;

/**
 * Brotli and gzip copies of every text asset beside it (`x.js.br`, `x.js.gz`), made once at
 * build time at the highest levels, so the standalone server sends them as they are
 * (@fastify/static `preCompressed`) instead of 782 kB of uncompressed JavaScript.
 */
async function precompress(dist: string): Promise<void> {
  for await (const file of files(dist)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const body = await readFile(file);
    if (body.length < 512) continue;
    await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
    await writeFile(
      `${file}.br`,
      brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    );
  }
}

const gzipKb = async (file: string) => gzipSync(await readFile(file), { level: 9 }).length / 1024;

async function jsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const f of files(dir)) if (f.endsWith('.js')) out.push(f);
  return out;
}

/**
 * Sizes from the build's own records. Every frontend: all JavaScript it emitted (an upper
 * bound: it includes screens opened later and, in a remote, fallback copies of shared modules
 * the shell provides). A remote's first screen: its remoteEntry.js and the chunks of its
 * exposed ./routes. The shell's first page is measured in a real browser by the e2e test
 * (frontends/e2e/shell.e2e.test.ts), which asserts the budget.
 */
async function sizes(name: string): Promise<{ emitted: number; firstScreen?: number }> {
  const dist = join(ROOT, name, 'dist');
  let emitted = 0;
  for (const f of await jsFiles(dist)) emitted += await gzipKb(f);
  if (name === 'shell') return { emitted };
  const stats = JSON.parse(await readFile(join(dist, 'mf-stats.json'), 'utf8')) as {
    metaData: { remoteEntry: { name: string; path: string } };
    exposes: { assets: { js: { sync: string[] } } }[];
  };
  const first = new Set([join(stats.metaData.remoteEntry.path, stats.metaData.remoteEntry.name)]);
  for (const e of stats.exposes) for (const f of e.assets.js.sync) first.add(f);
  let firstScreen = 0;
  for (const f of first) if (existsSync(join(dist, f))) firstScreen += await gzipKb(join(dist, f));
  return { emitted, firstScreen };
}

export async function buildFrontends(options: { force?: boolean; quiet?: boolean } = {}): Promise<void> {
  const log = options.quiet ? () => {} : (s: string) => console.log(s);
  for (const name of FRONTENDS) {
    const cwd = join(ROOT, name);
    const hash = await inputsHash(name);
    if (!options.force && (await isFresh(name, hash))) {
      log(`frontends: ${name} is up to date`);
      continue;
    }
    const started = Date.now();
    // Plain node, never under tsx: tsx's keepNames would leak __name() into the module
    // federation runtime code the plugin inlines from Function#toString. NODE_ENV is
    // production even when vitest (NODE_ENV=test) asks for the build.
    const run = spawnSync(process.execPath, [RSBUILD, 'build', '--log-level', 'warn'], {
      cwd,
      stdio: options.quiet ? 'pipe' : 'inherit',
      env: { ...process.env, NODE_OPTIONS: '', NODE_ENV: 'production' },
    });
    if (run.status !== 0) {
      throw new Error(`frontends: building ${name} failed\n${run.stdout ?? ''}${run.stderr ?? ''}`);
    }
    await precompress(join(cwd, 'dist'));
    await writeFile(join(cwd, 'dist', STAMP), JSON.stringify({ hash, builtAt: new Date().toISOString() }));
    log(`frontends: built ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  log('frontends: bundle budget (JavaScript, gzip)');
  for (const name of FRONTENDS) {
    const { emitted, firstScreen } = await sizes(name);
    const first =
      firstScreen === undefined
        ? `first page measured by the e2e test (budget ${BUDGET_KB.shell} kB)`
        : `first screen ${firstScreen.toFixed(1)} kB (budget ${BUDGET_KB.remote} kB) ${firstScreen <= BUDGET_KB.remote ? 'ok' : 'OVER BUDGET'}`;
    log(`  ${name.padEnd(13)} emitted ${emitted.toFixed(1).padStart(6)} kB; ${first}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildFrontends({ force: process.argv.includes('--force') });
}
