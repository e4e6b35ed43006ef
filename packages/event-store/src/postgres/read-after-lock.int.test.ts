import { randomUUID } from 'node:crypto';
import { createPgSqlClient, type SqlClient } from '@bahi/sql-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTestDatabase } from '../../../../test/postgres.ts';
import {
  createPostgresEventStore,
  type PostgresEventStore,
  readStreamAfterSharedLock,
} from './postgres-event-store.ts';

const url = process.env.DATABASE_URL;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const KEY = 'hashtextextended($1, 0)';

/**
 * readStreamAfterSharedLock: the lock and the read in one round trip must still read what
 * committed while the lock was waited for (a master deleted by a holder of the exclusive lock),
 * and leave the shared lock held on the connection.
 */
describe.skipIf(!url)('a stream read after a shared session lock', () => {
  let db: Awaited<ReturnType<typeof withTestDatabase>>;
  let sql: SqlClient;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await withTestDatabase('es_read_after_lock');
    sql = createPgSqlClient({ connectionString: db.url, max: 4 });
    store = await createPostgresEventStore(sql);
  });
  afterAll(async () => {
    await store?.close();
    await sql?.close();
    await db?.drop();
  });

  it('waits for the exclusive holder and reads what it committed before letting go', async () => {
    const stream = `master-${randomUUID()}`;
    const lock = `bahi.master:${randomUUID()}`;
    await store.append(stream, [{ type: 'Created', data: {} }], 'no_stream');
    const holder = await sql.openSession!();
    const reader = await sql.openSession!();
    try {
      await holder.query(`SELECT pg_advisory_lock(${KEY})`, [lock]);
      let done = false;
      const read = readStreamAfterSharedLock(reader, lock, stream).finally(() => {
        done = true;
      });
      await sleep(200);
      expect(done).toBe(false); // waiting for the exclusive lock
      // Committed while the reader waits, then the lock goes: the read must see it.
      await store.append(stream, [{ type: 'Deleted', data: {} }], 0n);
      await holder.query(`SELECT pg_advisory_unlock(${KEY})`, [lock]);
      expect((await read).map((e) => e.type)).toEqual(['Created', 'Deleted']);
      const { rows } = await reader.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks
          WHERE locktype = 'advisory' AND mode = 'ShareLock' AND pid = pg_backend_pid()`,
      );
      expect(rows[0]!.n).toBe(1);
      // Held: an exclusive taker must wait now.
      const { rows: tried } = await holder.query<{ ok: boolean }>(
        `SELECT pg_try_advisory_lock(${KEY}) AS ok`,
        [lock],
      );
      expect(tried[0]!.ok).toBe(false);
    } finally {
      await reader.query('SELECT pg_advisory_unlock_all()');
      await holder.query('SELECT pg_advisory_unlock_all()');
      reader.release();
      holder.release();
    }
  });

  it('reads from a version on, in order, like readStream', async () => {
    const stream = `s-${randomUUID()}`;
    await store.append(
      stream,
      [0, 1, 2].map((n) => ({ type: 'E', data: { n } })),
      'no_stream',
    );
    const session = await sql.openSession!();
    try {
      const all = await readStreamAfterSharedLock(session, 'bahi.x', stream);
      expect(all).toEqual(await store.readStream(stream));
      const later = await readStreamAfterSharedLock(session, 'bahi.x', stream, { fromVersion: 1n });
      expect(later.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
    } finally {
      await session.query('SELECT pg_advisory_unlock_all()');
      session.release();
    }
  });
});
