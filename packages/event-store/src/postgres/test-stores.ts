import { createPgliteSqlClient, createPgSqlClient, type SqlClient } from '@bahi/sql-client';
import { PGlite } from '@electric-sql/pglite';
import { withTestDatabase } from '../../../../test/postgres.ts';
import {
  createPostgresEventStore,
  type PostgresEventStore,
  type PostgresEventStoreOptions,
} from './postgres-event-store.ts';

/** A fresh store for one test, and how to throw it away. */
export interface TestStore {
  sql: SqlClient;
  store: PostgresEventStore;
  dispose(): Promise<void>;
}

/**
 * The Postgres adapter on both its databases, for `describe.each`: PGlite in memory always, a real
 * Postgres (a database of its own, dropped after) when DATABASE_URL is set.
 */
export function testStores(
  prefix: string,
  options: PostgresEventStoreOptions = {},
): Array<[string, () => Promise<TestStore>]> {
  const open = async (sql: SqlClient, drop?: () => Promise<void>): Promise<TestStore> => {
    const store = await createPostgresEventStore(sql, options);
    return {
      sql,
      store,
      dispose: async () => {
        await store.close();
        await sql.close();
        await drop?.();
      },
    };
  };
  const stores: Array<[string, () => Promise<TestStore>]> = [
    ['pglite', () => open(createPgliteSqlClient(new PGlite()))],
  ];
  if (process.env.DATABASE_URL)
    stores.push([
      'postgres',
      async () => {
        const db = await withTestDatabase(prefix);
        return open(createPgSqlClient({ connectionString: db.url }), db.drop);
      },
    ]);
  return stores;
}
