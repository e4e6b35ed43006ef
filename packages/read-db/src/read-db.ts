import type { SqlClient } from '@bahi/sql-client';
import { Kysely, Migrator } from 'kysely';
import { sqlClientDialect } from './dialect.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './tables.ts';

export type ReadDb = Kysely<Database>;

/** The read database on a SqlClient, migrated to the latest schema. */
export async function openReadDb(sql: SqlClient): Promise<ReadDb> {
  const db = new Kysely<Database>({ dialect: sqlClientDialect(sql) });
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Read-db migration ${failed} failed: ${(error as Error).message ?? String(error)}`);
  }
  return db;
}

/** Each projection's checkpoint, for readiness and status. */
export async function readCheckpoints(db: ReadDb) {
  const rows = await db.selectFrom('projection_checkpoints').selectAll().orderBy('name').execute();
  return rows.map((row) => ({
    name: row.name,
    position: BigInt(row.position),
    status: row.status,
    error: row.error,
    updatedAt: new Date(row.updated_at).toISOString(),
  }));
}
