import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Each test makes several PGlite clusters (initdb is seconds of CPU each on a busy machine).
const SLOW = { timeout: 600_000 };

import { pgliteTemplateKey } from './pglite-template.ts';
import { openEmbeddedStorage, type Storage } from './storage.ts';

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});
const tempRoot = async () => {
  const root = await mkdtemp(join(tmpdir(), 'bahi-template-'));
  roots.push(root);
  return root;
};

/** Everything a new data directory holds: its schemas' tables, columns, indexes, functions, and every row. */
async function contents(storage: Storage) {
  const q = async (text: string) => (await storage.sql.query(text)).rows;
  const user = `NOT IN ('pg_catalog', 'information_schema', 'pg_toast')`;
  const tables = await q(
    `SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema ${user} ORDER BY 1, 2`,
  );
  const rows: Record<string, unknown[]> = {};
  for (const t of tables as Array<{ table_schema: string; table_name: string }>) {
    const name = `"${t.table_schema}"."${t.table_name}"`;
    // When a migration ran is when this directory was made: compared apart, below.
    rows[name] = (await q(`SELECT * FROM ${name}`))
      .map(({ applied_at: _a, timestamp: _t, ...rest }) => JSON.stringify(rest))
      .sort();
  }
  return {
    tables,
    rows,
    columns: await q(
      `SELECT table_schema, table_name, column_name, data_type, column_default, is_nullable
         FROM information_schema.columns WHERE table_schema ${user} ORDER BY 1, 2, ordinal_position`,
    ),
    indexes: await q(
      `SELECT schemaname, indexname, indexdef FROM pg_indexes WHERE schemaname ${user} ORDER BY 1, 2`,
    ),
    constraints: await q(
      `SELECT conrelid::regclass::text AS rel, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE connamespace::regnamespace::text ${user} ORDER BY 1, 2`,
    ),
    functions: await q(
      `SELECT p.oid::regprocedure::text AS fn, md5(p.prosrc) AS body FROM pg_proc p
         JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname ${user} ORDER BY 1`,
    ),
    sequences: await q(
      `SELECT schemaname, sequencename, last_value FROM pg_sequences WHERE schemaname ${user} ORDER BY 1, 2`,
    ),
  };
}

async function migrationTimes(storage: Storage) {
  const es = await storage.sql.query<{ applied_at: Date }>('SELECT applied_at FROM es.schema_migrations');
  const kysely = await storage.sql.query<{ timestamp: string }>('SELECT timestamp FROM kysely_migration');
  return [...es.rows.map((r) => new Date(r.applied_at)), ...kysely.rows.map((r) => new Date(r.timestamp))];
}

describe('a new data directory from the PGlite template (issue #28)', SLOW, () => {
  it('holds exactly what initdb and the migrations make, and records the migrations as applied when it was made', async () => {
    const root = await tempRoot();
    const cache = join(root, 'cache');
    const plain = await openEmbeddedStorage({ dataDir: join(root, 'plain'), templateCache: false });
    const expected = await contents(plain);
    await plain.close();
    expect(existsSync(cache)).toBe(false);

    // The first new directory makes the template; the second is a copy of it.
    const firstCopy = await openEmbeddedStorage({ dataDir: join(root, 'first'), templateCache: cache });
    expect(await contents(firstCopy)).toEqual(expected);
    await firstCopy.close();
    expect(await readdir(cache)).toEqual([`pglite-${pgliteTemplateKey()}`]);

    const madeAfter = Date.now();
    await new Promise((r) => setTimeout(r, 50));
    const dataDir = join(root, 'second');
    await mkdir(dataDir); // an empty directory is a new one too
    const copy = await openEmbeddedStorage({ dataDir, templateCache: cache });
    expect(expected.tables.length).toBeGreaterThan(20);
    expect(await contents(copy)).toEqual(expected);
    const times = await migrationTimes(copy);
    expect(times.length).toBeGreaterThan(20);
    for (const t of times) expect(t.getTime()).toBeGreaterThanOrEqual(madeAfter);
    // It is a database of its own: a write there is not in the template.
    await copy.sql.query(`INSERT INTO es.streams (stream_id, version) VALUES ('only-here', 1)`);
    await copy.close();
    const third = await openEmbeddedStorage({ dataDir: join(root, 'third'), templateCache: cache });
    expect(await contents(third)).toEqual(expected);
    await third.close();

    // Restarting a templated directory migrates nothing and keeps its write.
    const again = await openEmbeddedStorage({ dataDir, templateCache: cache });
    const { rows } = await again.sql.query(`SELECT version FROM es.streams WHERE stream_id = 'only-here'`);
    expect(rows).toHaveLength(1);
    await again.close();
  });

  it('a template made for other migrations is not used', async () => {
    const root = await tempRoot();
    const cache = join(root, 'cache');
    // A template under another key (as the migrations were before a change) holds nothing valid.
    await mkdir(join(cache, 'pglite-0123456789abcdef0123456789abcdef'), { recursive: true });
    const storage = await openEmbeddedStorage({ dataDir: join(root, 'data'), templateCache: cache });
    const { rows } = await storage.sql.query('SELECT count(*)::int AS n FROM es.schema_migrations');
    expect((rows[0] as { n: number }).n).toBeGreaterThan(0);
    await storage.close();
    expect((await readdir(cache)).sort()).toEqual(
      ['pglite-0123456789abcdef0123456789abcdef', `pglite-${pgliteTemplateKey()}`].sort(),
    );
  });

  /**
   * A process killed while it makes the template, and one killed while it copies it into a new
   * data directory: the next start finds no half-made template or directory and starts whole.
   */
  it.each([
    ['making the template', 'cache'],
    ['copying it into the data directory', 'data'],
  ] as const)('a start killed while %s leaves nothing broken', async (_what, where) => {
    const root = await tempRoot();
    const cache = join(root, 'cache');
    const dataDir = join(root, 'data', 'pglite');
    if (where === 'data') {
      const warm = await openEmbeddedStorage({ dataDir: join(root, 'warm'), templateCache: cache });
      await warm.close();
    }
    const storageModule = join(import.meta.dirname, 'storage.ts');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { openEmbeddedStorage } = await import(${JSON.stringify(storageModule)});
         await openEmbeddedStorage({ dataDir: ${JSON.stringify(dataDir)}, templateCache: ${JSON.stringify(cache)} });
         process.stdout.write('opened');`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let opened = false;
    child.stdout.on('data', () => {
      opened = true;
    });
    const exited = new Promise((r) => child.on('exit', r));
    // Killed once its aside copy exists (what it is making, not yet renamed into place).
    const watched = where === 'cache' ? cache : join(root, 'data');
    const asidePrefix = where === 'cache' ? 'pglite-' : 'pglite.new-';
    for (;;) {
      const entries = await readdir(watched).catch(() => [] as string[]);
      if (entries.some((e) => e.startsWith(asidePrefix) && e.includes('.new-'))) break;
      if (opened || child.exitCode !== null) throw new Error('the child finished before it could be killed');
      await new Promise((r) => setTimeout(r, 2));
    }
    child.kill('SIGKILL');
    await exited;
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(false); // nothing half-made in place
    if (where === 'cache') expect(existsSync(join(cache, `pglite-${pgliteTemplateKey()}`))).toBe(false);

    const storage = await openEmbeddedStorage({ dataDir, templateCache: cache });
    const plain = await openEmbeddedStorage({ dataDir: join(root, 'plain'), templateCache: false });
    expect(await contents(storage)).toEqual(await contents(plain));
    await plain.close();
    await storage.close();
    // The killed process's debris is gone.
    expect((await readdir(cache)).filter((e) => e.includes('.new-'))).toEqual([]);
    expect((await readdir(join(root, 'data'))).filter((e) => e.includes('.new-'))).toEqual([]);
  });
});
