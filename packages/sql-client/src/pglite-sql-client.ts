import type { PGlite } from '@electric-sql/pglite';
import { Mutex } from './mutex.ts';
import { isCopyFromStdin, type SqlClient, type SqlQueryable, type SqlRow } from './sql-client.ts';

/**
 * PGlite is one Postgres backend with one connection. Every statement and every
 * transaction goes through one mutex, so a statement from another part of the process
 * can never land inside somebody else's open transaction.
 */
export function createPgliteSqlClient(db: PGlite, options: { closeDb?: boolean } = {}): SqlClient {
  const mutex = new Mutex();
  const raw: SqlQueryable = {
    query: async <R extends SqlRow>(sql: string, params: readonly unknown[] = []) => {
      const result = await db.query<R>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
    },
    exec: async (sql: string) => {
      await db.exec(sql);
    },
    copyIn: async (sql: string, data: string) => {
      // PGlite has no STDIN: COPY reads the data from a blob the query brings.
      if (!isCopyFromStdin(sql)) throw new Error(`copyIn: not a COPY ... FROM STDIN: ${sql}`);
      await db.query(sql.replace(/FROM STDIN$/, "FROM '/dev/blob'"), [], { blob: new Blob([data]) });
    },
  };
  return {
    kind: 'pglite',
    query: (sql, params) => mutex.run(() => raw.query(sql, params)),
    exec: (sql) => mutex.run(() => raw.exec(sql)),
    copyIn: (sql, data) => mutex.run(() => raw.copyIn(sql, data)),
    withConnection: (fn) => mutex.run(() => fn(raw)),
    transaction: (fn) =>
      mutex.run(async () => {
        await db.exec('BEGIN');
        try {
          const result = await fn(raw);
          await db.exec('COMMIT');
          return result;
        } catch (error) {
          await db.exec('ROLLBACK');
          throw error;
        }
      }),
    async listen(channel, onNotify) {
      const unsubscribe = await db.listen(channel, onNotify);
      return async () => {
        await unsubscribe();
      };
    },
    async close() {
      if (options.closeDb ?? true) await db.close();
    },
  };
}
