import type { SqlClient } from '@bahi/sql-client';
import { Kysely, Migrator } from 'kysely';
import { sqlClientDialect } from './dialect.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './tables.ts';

export type ReadDb = Kysely<Database>;

const clients = new WeakMap<ReadDb, SqlClient>();

/** The SQL client a read database runs on (what session-level work, such as a rebuild's lock, needs). */
export const sqlClientOf = (db: ReadDb): SqlClient | undefined => clients.get(db);

/** The read database on a SqlClient, migrated to the latest schema. */
export async function openReadDb(sql: SqlClient): Promise<ReadDb> {
  const db = new Kysely<Database>({ dialect: sqlClientDialect(sql) });
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Read-db migration ${failed} failed: ${(error as Error).message ?? String(error)}`);
  }
  clients.set(db, sql);
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

/** Each projection's position and how far it is behind the head of the log, for operators. */
export async function projectionStatus(db: ReadDb, head: bigint) {
  return (await readCheckpoints(db)).map((c) => ({
    name: c.name,
    position: c.position.toString(),
    lag: (head > c.position ? head - c.position : 0n).toString(),
    status: c.status,
    error: c.error,
    updatedAt: c.updatedAt,
  }));
}

export class ProjectionBehindError extends Error {
  override readonly name = 'ProjectionBehindError';
}

/**
 * Waits (bounded) until every named projection has applied the log up to `position`:
 * reading one's own writes. Throws ProjectionBehindError when the time runs out, or at
 * once when a projection has stopped after a failure.
 */
export async function waitForProjections(
  db: ReadDb,
  names: readonly string[],
  position: bigint,
  timeoutMs = 3000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await db
      .selectFrom('projection_checkpoints')
      .select(['name', 'position', 'status'])
      .where('name', 'in', [...names])
      .execute();
    const failed = rows.find((r) => r.status === 'failed');
    if (failed) throw new ProjectionBehindError(`The ${failed.name} read model is stopped after a failure.`);
    const ready = names.every((name) => {
      const row = rows.find((r) => r.name === name);
      return row !== undefined && BigInt(row.position) >= position;
    });
    if (ready || position === 0n) return;
    if (Date.now() > deadline)
      throw new ProjectionBehindError('The books are still being brought up to date.');
    await new Promise((r) => setTimeout(r, 15));
  }
}
