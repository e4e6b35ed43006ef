import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { constants, cp, mkdir, readdir, rename, rm, rmdir, stat, utimes } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { eventStoreMigrations } from '@bahi/event-store';
import { migrations as readDbMigrations } from '@bahi/read-db';

/**
 * A new standalone data directory is a copy of a template: a PGlite cluster made once (initdb and
 * every migration of the event store and the read models, then closed), kept in a cache and keyed
 * by the hash of what made it (PGlite's version and the migrations' text). A first start copies
 * it instead of running initdb and the migrations again (seconds of CPU, and hundreds of MB of
 * WebAssembly memory that PGlite never gives back; issue #28). A change to any migration changes
 * the key, so a stale template is never used: the next new data directory makes a fresh one.
 *
 * Everything is made aside and renamed into place, so a crash part-way leaves no half-made
 * template and no half-made data directory: only `<name>.new-<pid>-<random>` debris, removed by
 * the next start once its process is gone.
 */

function pgliteVersion(): string {
  try {
    const require = createRequire(import.meta.url);
    const main = require.resolve('@electric-sql/pglite'); // .../pglite/dist/index.cjs
    return (
      JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8')) as { version: string }
    ).version;
  } catch {
    return 'unknown';
  }
}

/** The hash of everything that decides what a new data directory holds. */
export function pgliteTemplateKey(): string {
  const hash = createHash('sha256').update(`pglite ${pgliteVersion()}\0`);
  for (const m of eventStoreMigrations) hash.update(`es ${m.version} ${m.name}\0${m.sql}\0`);
  for (const [name, migration] of Object.entries(readDbMigrations).sort(([a], [b]) => (a < b ? -1 : 1))) {
    hash.update(`read-db ${name}\0${String(migration.up)}\0${String(migration.down ?? '')}\0`);
  }
  return hash.digest('hex').slice(0, 32);
}

/** Where templates are kept by default: the user's cache directory (never a shared /tmp). */
export function defaultTemplateCache(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'bahi', 'pglite-templates');
}

/** Whether a process of that id runs (EPERM: it does, as another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const asideName = (path: string) => `${path}.new-${process.pid}-${randomBytes(4).toString('hex')}`;

/**
 * Removes what a crashed process left beside `path` while making it (its `.new-<pid>-…` copies);
 * with `anyName`, whatever any crashed process was making in that directory (the template cache:
 * a process whose migrations hashed to another key made it).
 */
export async function removeDebris(path: string, anyName = false): Promise<void> {
  const dir = dirname(path);
  const entries = await readdir(dir).catch(() => [] as string[]);
  for (const entry of entries) {
    const made = /^(.*)\.new-(\d+)-[0-9a-f]+$/.exec(entry);
    if (!made || (!anyName && made[1] !== basename(path))) continue;
    const pid = Number(made[2]);
    if (processAlive(pid)) continue; // still being made (this process included)
    await rm(join(dir, entry), { recursive: true, force: true });
  }
}

/** Makes `path` with `make(aside)` on a directory beside it, then renames it into place whole. */
export async function makeAside(
  path: string,
  make: (aside: string) => Promise<void>,
  debrisOfAnyName = false,
): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await removeDebris(path, debrisOfAnyName);
  const aside = asideName(path);
  try {
    await make(aside);
    // An empty directory where the result goes (a first start's mkdir) is replaced; anything
    // else there is left alone and the rename fails.
    if (existsSync(path)) await rmdir(path);
    await rename(aside, path);
  } catch (error) {
    await rm(aside, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The template for the current migrations, made by `initialise` (initdb and migrations on an
 * empty directory, closed after) when the cache has none yet. Two processes making the same one
 * at once both succeed: the second rename fails and the first one's is used.
 */
export async function ensureTemplate(
  cacheDir: string,
  initialise: (dir: string) => Promise<void>,
): Promise<string> {
  const template = join(cacheDir, `pglite-${pgliteTemplateKey()}`);
  if (existsSync(join(template, 'PG_VERSION'))) {
    const now = new Date();
    await utimes(template, now, now).catch(() => {}); // in use: kept by the pruning below
    return template;
  }
  try {
    await makeAside(template, initialise, true);
  } catch (error) {
    if (!existsSync(join(template, 'PG_VERSION'))) throw error;
  }
  await prune(cacheDir);
  return template;
}

/**
 * Keeps the KEEP templates used last (each is 40 MB; a migration change makes a new one, and the
 * bundled app and the sources run through tsx hash the same migrations' code differently).
 */
const KEEP = 4;
async function prune(cacheDir: string): Promise<void> {
  const templates = [];
  for (const name of await readdir(cacheDir)) {
    if (!/^pglite-[0-9a-f]{32}$/.test(name)) continue;
    const info = await stat(join(cacheDir, name)).catch(() => undefined);
    if (info) templates.push({ name, used: info.mtimeMs });
  }
  templates.sort((a, b) => b.used - a.used);
  for (const { name } of templates.slice(KEEP)) {
    await rm(join(cacheDir, name), { recursive: true, force: true });
  }
}

/** A copy of the template at `dataDir` (missing or empty), made aside and renamed into place. */
export async function copyTemplate(template: string, dataDir: string): Promise<void> {
  await makeAside(dataDir, (aside) =>
    // Copy-on-write where the file system can (COPYFILE_FICLONE falls back to a plain copy).
    cp(template, aside, { recursive: true, mode: constants.COPYFILE_FICLONE, errorOnExist: true }),
  );
}
