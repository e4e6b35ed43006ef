import { resolve } from 'node:path';
import { seedBusiness } from '@bahi/command';
import { commandTestApp } from '@bahi/command/testing';
import { RebuildRefused, requestRebuild } from '@bahi/projections';
import { openReadDb, type ReadDb } from '@bahi/read-db';
import { createPgSqlClient, type SqlClient } from '@bahi/sql-client';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { withTestDatabase } from '../../../test/postgres.ts';
import { freePort, type Proc, run, waitFor } from '../../../test/processes.ts';

const describeOnPostgres = process.env.DATABASE_URL ? describe : describe.skip;
if (!process.env.DATABASE_URL) console.warn('rebuild-crash.int.test: DATABASE_URL is not set; skipped');

const ROOT = resolve(import.meta.dirname, '../../..');

/** The schemas a rebuild writes its shadow tables to (and moves the replaced live ones to). */
const rebuildSchemas = async (readDb: ReadDb) =>
  (
    await sql<{ name: string }>`
      SELECT nspname AS name FROM pg_namespace WHERE nspname ~ '^(rebuild|retired)_[0-9a-f]{12}$'
       ORDER BY 1`.execute(readDb)
  ).rows.map((r) => r.name);

const rebuildRow = (readDb: ReadDb, id: string) =>
  readDb
    .selectFrom('projection_rebuilds')
    .select(['status', 'position', 'target', 'error'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describeOnPostgres('a rebuild whose projector process is killed with SIGKILL [postgres]', () => {
  let db: Awaited<ReturnType<typeof withTestDatabase>>;
  let client: SqlClient;
  let readDb: ReadDb;
  let port = 0;
  const procs: Proc[] = [];
  /** The projector as its own process; small rebuild batches, so a rebuild takes many steps. */
  const startProjector = () => {
    const proc = run(
      process.execPath,
      ['--import', 'tsx', 'services/projector/src/main.ts'],
      {
        DATABASE_URL: db.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        BAHI_SUBSCRIPTION_POLL_MS: '20',
        BAHI_REBUILD_BATCH_SIZE: '25',
      },
      ROOT,
    );
    procs.push(proc);
    return proc;
  };
  /** Asks for a rebuild of every projection and waits until it is part-way through its replay. */
  const rebuildUnderWay = async () => {
    const id = await requestRebuild(readDb, { requestedBy: 'test' });
    await waitFor(
      'the rebuild to be part-way',
      async () => {
        const row = await rebuildRow(readDb, id);
        expect(row.status).not.toMatch(/done|failed/);
        return row.status === 'running' && BigInt(row.position) > 0n ? true : undefined;
      },
      60_000,
    );
    return id;
  };
  const killed = async (proc: Proc) => {
    proc.signal('SIGKILL');
    await proc.exited;
    await proc.groupGone();
  };

  beforeAll(async () => {
    db = await withTestDatabase('rebuild_crash');
    const writer = await commandTestApp({ sql: createPgSqlClient({ connectionString: db.url }) });
    await seedBusiness(
      async (method, path, body) => {
        const res = await writer.call(method, path, writer.adminToken, body);
        return { status: res.statusCode, body: res.json() };
      },
      { days: 20, until: '2026-11-20' },
    );
    await writer.close();
    client = createPgSqlClient({ connectionString: db.url });
    readDb = await openReadDb(client);
    port = await freePort();
  }, 180_000);
  afterAll(async () => {
    for (const proc of procs) proc.signal('SIGKILL');
    await readDb?.destroy();
    await client?.close();
    await db?.drop();
  });

  it('while its owner runs it, a second rebuild is refused and the running one is left alone', async () => {
    const projector = startProjector();
    onTestFinished(() => projector.signal('SIGKILL'));
    const id = await rebuildUnderWay();
    await expect(requestRebuild(readDb, { requestedBy: 'test' })).rejects.toBeInstanceOf(RebuildRefused);
    expect((await rebuildRow(readDb, id)).status).toBe('running');
    await waitFor(
      'the rebuild to finish',
      async () => ((await rebuildRow(readDb, id)).status === 'done' ? true : undefined),
      120_000,
    );
    expect(await rebuildSchemas(readDb)).toEqual([]);
    await killed(projector);
  }, 180_000);

  it('killed mid-rebuild and started again: the rebuild is marked failed at start-up, its shadow tables dropped, and a new one runs at once', async () => {
    const first = startProjector();
    onTestFinished(() => first.signal('SIGKILL'));
    const id = await rebuildUnderWay();
    await killed(first);
    // The debris a crash leaves: the row still says running, the shadow tables are there.
    expect((await rebuildRow(readDb, id)).status).toBe('running');
    expect((await rebuildSchemas(readDb)).length).toBeGreaterThan(0);

    const second = startProjector();
    onTestFinished(() => second.signal('SIGKILL'));
    await waitFor(
      'the start-up to clean up',
      async () => ((await rebuildRow(readDb, id)).status === 'failed' ? true : undefined),
      30_000,
    );
    expect((await rebuildRow(readDb, id)).error).toMatch(/interrupted/);
    expect(await rebuildSchemas(readDb)).toEqual([]);
    // Logged just after the row is marked (the log may reach us a moment after the row does).
    await waitFor(
      'the start-up to say so in its log',
      async () => (/an interrupted rebuild is marked failed/.test(second.output()) ? true : undefined),
      10_000,
    );

    // Asked for straight away, not refused: the new process takes it up and finishes it.
    const next = await requestRebuild(readDb, { requestedBy: 'test' });
    await waitFor(
      'the new rebuild to finish',
      async () => {
        const row = await rebuildRow(readDb, next);
        expect(row.status).not.toBe('failed');
        return row.status === 'done' ? true : undefined;
      },
      120_000,
    );
    expect(await rebuildSchemas(readDb)).toEqual([]);
    expect(second.output()).toMatch(/"msg":"rebuild started"/);
    await waitFor(
      'the log line',
      async () => (/"msg":"rebuild finished"/.test(second.output()) ? true : undefined),
      5000,
    );
    await killed(second);
  }, 240_000);

  it('killed mid-rebuild and not started again: any other copy asking for a rebuild finds it interrupted at once', async () => {
    const projector = startProjector();
    onTestFinished(() => projector.signal('SIGKILL'));
    const id = await rebuildUnderWay();
    await killed(projector);
    expect((await rebuildRow(readDb, id)).status).toBe('running');
    // Postgres ends the killed process's sessions (and their locks) once it sees their sockets
    // close, within moments.
    await waitFor(
      'Postgres to end the killed sessions',
      async () => {
        const { rows } = await sql<{ held: number }>`
          SELECT count(*)::int AS held FROM pg_locks
           WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`.execute(
          readDb,
        );
        return rows[0]!.held === 0 ? true : undefined;
      },
      10_000,
    );
    // As the Admin API in the command service does: no wait for any time-out.
    const next = await requestRebuild(readDb, { requestedBy: 'test' });
    expect(await rebuildRow(readDb, id)).toMatchObject({ status: 'failed' });
    expect(await rebuildSchemas(readDb)).toEqual([]);
    expect((await rebuildRow(readDb, next)).status).toBe('requested');
  }, 180_000);
});
