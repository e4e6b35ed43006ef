import { describe, expect, it } from 'vitest';
import { withTestDatabase } from '../../../test/postgres.ts';
import { createPgSqlClient } from './pg-sql-client.ts';

describe.skipIf(!process.env.DATABASE_URL)('pg sql client: named statements', () => {
  it('names a read the second time it runs, and runs it unnamed once its table changed shape', async () => {
    const db = await withTestDatabase('sqlclient');
    const sql = createPgSqlClient({ connectionString: db.url, max: 1, namedReads: true });
    try {
      await sql.exec('CREATE TABLE t (id int PRIMARY KEY, name text); INSERT INTO t VALUES (1, $$a$$)');
      const read = 'SELECT * FROM t WHERE id = $1';
      const prepared = async (statement: string) =>
        (
          await sql.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1',
            [statement],
          )
        ).rows[0]!.n;
      expect((await sql.query(read, [1])).rows).toEqual([{ id: 1, name: 'a' }]);
      expect(await prepared(read)).toBe(0); // seen once: not named
      expect((await sql.query(read, [1])).rows).toEqual([{ id: 1, name: 'a' }]);
      expect((await sql.query(read, [1])).rows).toEqual([{ id: 1, name: 'a' }]);
      expect(await prepared(read)).toBe(1);
      // Off unless asked for: a plain client runs every statement unnamed.
      const plain = createPgSqlClient({ connectionString: db.url, max: 1 });
      for (let i = 0; i < 3; i++) await plain.query(read, [1]);
      const { rows } = await plain.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_prepared_statements',
      );
      await plain.close();
      expect(rows[0]!.n).toBe(0);
      // Writes and one-off statements stay unnamed.
      const write = 'UPDATE t SET name = $1 WHERE id = 1';
      for (let i = 0; i < 2; i++) await sql.query(write, ['b']);
      expect(await prepared(write)).toBe(0);
      const inTransaction = 'SELECT * FROM t WHERE id <> $1';
      for (let i = 0; i < 2; i++) await sql.query(inTransaction, [0]);
      expect(await prepared(inTransaction)).toBe(1);
      // Another process migrates the table: the named statements' plans no longer fit.
      const other = createPgSqlClient({ connectionString: db.url, max: 1 });
      await other.exec('ALTER TABLE t ADD COLUMN note text');
      await other.close();
      // Inside a transaction the failure aborts it, and that failure is the error reported.
      await expect(sql.transaction((tx) => tx.query(inTransaction, [0]))).rejects.toThrow(
        /cached plan must not change result type/,
      );
      expect((await sql.query(inTransaction, [0])).rows).toEqual([{ id: 1, name: 'b', note: null }]);
      expect((await sql.query(read, [1])).rows).toEqual([{ id: 1, name: 'b', note: null }]);
      expect((await sql.query(read, [1])).rows).toEqual([{ id: 1, name: 'b', note: null }]);
    } finally {
      await sql.close();
      await db.drop();
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)('pg sql client: the server ends a connection', () => {
  it('survives a held session and a transaction losing their connection, and goes on', async () => {
    const db = await withTestDatabase('sqlclientlost');
    const sql = createPgSqlClient({ connectionString: db.url, max: 2, maxSessions: 1 });
    const killer = createPgSqlClient({ connectionString: db.url, max: 1 });
    const lost: unknown[] = [];
    const onUncaught = (error: unknown) => lost.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const pidOf = async (q: { query: typeof sql.query }) =>
        (await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const terminate = (pid: number) => killer.query('SELECT pg_terminate_backend($1)', [pid]);
      // A session held (as by a write holding its locks), its backend ended under it.
      const session = await sql.openSession!();
      await terminate(await pidOf(session));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expect(session.query('SELECT 1')).rejects.toThrow();
      session.release(new Error('connection lost'));
      // A transaction whose backend is ended while it runs.
      await expect(
        sql.transaction(async (tx) => {
          await terminate(await pidOf(tx));
          await new Promise((resolve) => setTimeout(resolve, 200));
          await tx.query('SELECT 1');
        }),
      ).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(lost).toEqual([]);
      // And the client goes on with new connections.
      const again = await sql.openSession!();
      expect((await again.query<{ n: number }>('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
      again.release();
      expect((await sql.query<{ n: number }>('SELECT 2 AS n')).rows).toEqual([{ n: 2 }]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await killer.close();
      await sql.close();
      await db.drop();
    }
  });
});
