import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createEventStoreDbEventStore, createPostgresEventStore, type EventStore } from '@bahi/event-store';
import { openReadDb, type ReadDb } from '@bahi/read-db';
import { createPgliteSqlClient, createPgSqlClient, type SqlClient } from '@bahi/sql-client';
import {
  copyTemplate,
  defaultTemplateCache,
  ensureTemplate,
  makeAside,
  removeDebris,
} from './pglite-template.ts';

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
  /**
   * Where a new data directory's template is kept (pglite-template.ts); by default the user's
   * cache directory. false: a new data directory runs initdb and the migrations itself.
   */
  templateCache?: string | false;
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
  const open = async (dir: string) => {
    const sql = createPgliteSqlClient(await PGlite.create(dir));
    return assemble(sql, () =>
      createPostgresEventStore(sql, { pollIntervalMs: options.pollIntervalMs ?? 500 }),
    );
  };
  // initdb and the first migrations run in an instance of their own, closed at once: a
  // WebAssembly memory only grows, and they grow PGlite's by hundreds of MB that the running app
  // would otherwise keep for good (a first start held 843 MB, a restart 408; issue #28).
  const initialise = async (dir: string) => {
    await mkdir(dir, { recursive: true });
    await (await open(dir)).close();
  };
  let fromTemplate = false;
  if (!existsSync(join(options.dataDir, 'PG_VERSION'))) {
    await removeDebris(options.dataDir);
    const empty = (await readdir(options.dataDir).catch(() => [])).length === 0;
    const template =
      empty && options.templateCache !== false
        ? await ensureTemplate(options.templateCache ?? defaultTemplateCache(), initialise).catch(
            () => undefined, // no cache to be had (a read-only home): made in place below
          )
        : undefined;
    // A template pruned by another process meanwhile: made in place instead.
    if (template)
      fromTemplate = await copyTemplate(template, options.dataDir).then(
        () => true,
        () => false,
      );
    if (fromTemplate) {
      // copied whole
    } else if (empty) await makeAside(options.dataDir, initialise);
    else await initialise(options.dataDir); // a directory with other files in it: as before
  }
  const storage = await open(options.dataDir);
  if (fromTemplate) {
    await storage.sql.transaction(async (tx) => {
      // The migrations were applied when the template was made; the record says when this
      // directory was (as a first start without the template would), a few ms apart as they ran.
      await tx.query(
        'UPDATE es.schema_migrations SET applied_at = applied_at + (now() - (SELECT min(applied_at) FROM es.schema_migrations))',
      );
      await tx.query(
        `UPDATE kysely_migration SET timestamp = to_char((timestamp::timestamptz + (now() - (SELECT min(timestamp::timestamptz) FROM kysely_migration))) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      );
    });
  }
  return storage;
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
