import { seedBusiness } from '@bahi/command';
import { commandTestApp } from '@bahi/command/testing';
import { createPostgresEventStore } from '@bahi/event-store';
import { type Projector, type ProjectorLog, startProjector } from '@bahi/projections';
import { openReadDb, type ReadDb } from '@bahi/read-db';
import { createPgSqlClient, type SqlClient } from '@bahi/sql-client';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { withTestDatabase } from '../../../test/postgres.ts';
import { waitFor } from '../../../test/processes.ts';

const describeOnPostgres = process.env.DATABASE_URL ? describe : describe.skip;
if (!process.env.DATABASE_URL)
  console.warn('journal-words-rebuild.int.test: DATABASE_URL is not set; skipped');

const oldestHasWords = async (readDb: ReadDb) =>
  (
    await sql<{ has: boolean }>`
      SELECT j.words IS NOT NULL AND EXISTS (SELECT 1 FROM journal_words w WHERE w.position = j.position) AS has
        FROM journal j ORDER BY j.position LIMIT 1`.execute(readDb)
  ).rows[0]?.has;

/** A journal as the code before each words migration wrote it. */
const before = {
  'journal_words (2026-11-26)': async (readDb: ReadDb) => {
    await readDb.deleteFrom('journal_words').execute();
    await readDb.updateTable('journal').set({ words: null }).execute();
  },
  'the words on each line (2026-11-28)': async (readDb: ReadDb) => {
    await readDb.updateTable('journal').set({ words: null }).execute();
  },
};

describeOnPostgres('a journal built before journal_words is rebuilt at start-up [postgres]', () => {
  let db: Awaited<ReturnType<typeof withTestDatabase>> | undefined;
  let client: SqlClient | undefined;
  let readDb: ReadDb | undefined;
  let projector: Projector | undefined;
  afterAll(async () => {
    await projector?.stop();
    await readDb?.destroy();
    await client?.close();
    await db?.drop();
  });

  it.each(
    Object.keys(before) as Array<keyof typeof before>,
  )('a journal from before %s: the projector asks for a rebuild and swap of it, says why at info, and the words are there after', async (kind) => {
    await projector?.stop();
    projector = undefined;
    await readDb?.destroy();
    await client?.close();
    await db?.drop();
    db = await withTestDatabase('journal_words');
    const writer = await commandTestApp({ sql: createPgSqlClient({ connectionString: db.url }) });
    await seedBusiness(
      async (method, path, body) => {
        const res = await writer.call(method, path, writer.adminToken, body);
        return { status: res.statusCode, body: res.json() };
      },
      { days: 5, until: '2026-11-20' },
    );
    await writer.close();

    client = createPgSqlClient({ connectionString: db.url });
    const eventStore = await createPostgresEventStore(client, { pollIntervalMs: 20 });
    readDb = await openReadDb(client);
    const lines = Number(
      (
        await readDb
          .selectFrom('journal')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(lines).toBeGreaterThan(0);
    // As a journal written before the migration that added its words.
    await before[kind](readDb);
    expect(await oldestHasWords(readDb)).toBe(false);

    const said: Array<{ level: string; message: string; fields: Record<string, unknown> }> = [];
    const log = Object.fromEntries(
      (['debug', 'info', 'warn', 'error'] as const).map((level) => [
        level,
        (fields: Record<string, unknown>, message: string) => said.push({ level, message, fields }),
      ]),
    ) as unknown as ProjectorLog;
    projector = startProjector({ eventStore, readDb, log, rebuildPollMs: 50 });
    const rebuild = await waitFor(
      'the journal rebuild to finish',
      async () => {
        const row = await readDb!
          .selectFrom('projection_rebuilds')
          .select(['id', 'status', 'projections', 'swap', 'requested_by', 'error'])
          .executeTakeFirst();
        if (row?.status === 'failed') throw new Error(row.error ?? 'failed');
        return row?.status === 'done' ? row : undefined;
      },
      60_000,
    );
    expect(rebuild).toMatchObject({ projections: ['journal'], swap: true, requested_by: 'projector' });
    expect(await oldestHasWords(readDb)).toBe(true);
    const words = Number(
      (
        await readDb
          .selectFrom('journal_words')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(words).toBeGreaterThan(0);
    expect(said).toContainEqual(
      expect.objectContaining({
        level: 'info',
        fields: expect.objectContaining({ id: rebuild.id, reason: expect.stringMatching(/without words/) }),
      }),
    );
    await waitFor(
      'the finish line',
      async () => (said.some((s) => s.message === 'rebuild finished') ? true : undefined),
      5000,
    );
    expect(said.find((s) => s.message === 'rebuild finished')?.level).toBe('info');
    expect(said.filter((s) => s.message === 'rebuild progress').every((s) => s.level === 'debug')).toBe(true);

    // Started again on a journal with its words: nothing more is asked for.
    await projector.stop();
    said.length = 0;
    projector = startProjector({ eventStore, readDb, log, rebuildPollMs: 50 });
    await projector.stop(); // waits for its start-up checks
    projector = undefined;
    expect(await readDb.selectFrom('projection_rebuilds').select('status').execute()).toEqual([
      { status: 'done' },
    ]);
  }, 180_000);
});
