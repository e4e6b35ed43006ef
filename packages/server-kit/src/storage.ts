import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createEventStoreDbEventStore, createPostgresEventStore, type EventStore } from '@bahi/event-store';
import { openReadDb, type ReadDb } from '@bahi/read-db';
import { createPgliteSqlClient, createPgSqlClient, type SqlClient } from '@bahi/sql-client';

export interface Storage {
  sql: SqlClient;
  eventStore: EventStore;
  readDb: ReadDb;
  close(): Promise<void>;
}

async function assemble(sql: SqlClient, eventStore: () => Promise<EventStore>): Promise<Storage> {
  try {
    const store = await eventStore();
    const readDb = await openReadDb(sql);
    return {
      sql,
      eventStore: store,
      readDb,
      async close() {
        await store.close();
        await readDb.destroy();
        await sql.close();
      },
    };
  } catch (error) {
    await sql.close().catch(() => {});
    throw error;
  }
}

/** Standalone: one embedded PGlite under dataDir holds the event store and the read models. */
export async function openEmbeddedStorage(options: {
  dataDir: string;
  pollIntervalMs?: number;
}): Promise<Storage> {
  // Loaded here, not at the top: the production image runs the distributed services only and
  // carries no PGlite (scripts/build-services.ts, --image), so nothing else may need it.
  let PGlite: typeof import('@electric-sql/pglite').PGlite;
  try {
    ({ PGlite } = await import('@electric-sql/pglite'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error(
      'PGlite is not installed here (the production image carries none): set DATABASE_URL to a Postgres, or run the standalone app from a clone (npm ci)',
    );
  }
  await mkdir(options.dataDir, { recursive: true });
  const open = async () => {
    const sql = createPgliteSqlClient(await PGlite.create(options.dataDir));
    return assemble(sql, () =>
      createPostgresEventStore(sql, { pollIntervalMs: options.pollIntervalMs ?? 500 }),
    );
  };
  if (!existsSync(join(options.dataDir, 'PG_VERSION'))) {
    // A new data directory: its initdb and first migrations run in an instance of their own,
    // closed at once. A WebAssembly memory only grows, and they grow PGlite's by hundreds of MB
    // that the running app would otherwise keep for good (a first start held 843 MB, a restart
    // 408; issue #28).
    await (await open()).close();
  }
  return open();
}

/** Distributed: read models on Postgres; the event store there too, or on EventStoreDB when esdbUrl is set. */
export async function openServerStorage(options: {
  databaseUrl: string;
  esdbUrl?: string | undefined;
  poolSize?: number;
  applicationName: string;
  pollIntervalMs?: number;
  /** Repeated reads as named statements (the query service; see the sql client). */
  namedReads?: boolean;
}): Promise<Storage> {
  const sql = createPgSqlClient({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 10,
    applicationName: options.applicationName,
    namedReads: options.namedReads ?? false,
  });
  return assemble(sql, () =>
    options.esdbUrl
      ? createEventStoreDbEventStore(options.esdbUrl)
      : createPostgresEventStore(sql, { pollIntervalMs: options.pollIntervalMs ?? 500 }),
  );
}
