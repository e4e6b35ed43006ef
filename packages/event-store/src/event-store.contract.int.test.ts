import { createPgliteSqlClient, createPgSqlClient } from '@bahi/sql-client';
import { PGlite } from '@electric-sql/pglite';
import { describe, it } from 'vitest';
import { withTestDatabase } from '../../../test/postgres.ts';
import { eventStoreContract } from './contract.ts';
import { createEventStoreDbEventStore } from './esdb/esdb-event-store.ts';
import { createPostgresEventStore } from './postgres/postgres-event-store.ts';

eventStoreContract({
  name: 'pglite',
  async create() {
    const sql = createPgliteSqlClient(new PGlite());
    const store = await createPostgresEventStore(sql, { pollIntervalMs: 100 });
    return {
      store,
      async dispose() {
        await store.close();
        await sql.close();
      },
    };
  },
});

if (process.env.DATABASE_URL) {
  eventStoreContract({
    name: 'postgres',
    async create() {
      const db = await withTestDatabase('es_contract');
      const sql = createPgSqlClient({ connectionString: db.url });
      const store = await createPostgresEventStore(sql, { pollIntervalMs: 100 });
      return {
        store,
        async dispose() {
          await store.close();
          await sql.close();
          await db.drop();
        },
      };
    },
  });
} else {
  describe('event store contract [postgres]', () => {
    it.skip('skipped: DATABASE_URL is not set (CI sets it)', () => {});
  });
  console.log('event store contract [postgres] skipped: DATABASE_URL is not set');
}

if (process.env.ESDB_URL) {
  const url = process.env.ESDB_URL;
  eventStoreContract({
    name: 'eventstoredb',
    async create() {
      const store = await createEventStoreDbEventStore(url);
      return { store, dispose: () => store.close() };
    },
  });
} else {
  describe('event store contract [eventstoredb]', () => {
    it.skip('skipped: ESDB_URL is not set (no EventStoreDB server on this machine)', () => {});
  });
  console.log(
    'event store contract [eventstoredb] skipped: ESDB_URL is not set (no EventStoreDB server here)',
  );
}
