import { type ReadDb, sqlClientOf } from '@bahi/read-db';
import type { SqlSession } from '@bahi/sql-client';
import { sql } from 'kysely';

/**
 * Who runs a rebuild holds this for as long as its row says `running`: on Postgres a
 * session-level advisory lock on a connection of its own (Postgres lets it go when the process
 * or its connection dies), on PGlite a flag in the process (one process owns a data directory).
 * So a `running` row whose lock nobody holds was left by a crash, and any copy can tell at once.
 */
export interface RebuildLock {
  release(): Promise<void>;
}

/** pg_advisory_lock key of "a rebuild is running on this database" (advisory locks are per database). */
const REBUILD_LOCK = 7_406_113_101;
/** PGlite (or a read database of unknown kind): the databases this process runs a rebuild on. */
const heldHere = new WeakSet<object>();

const onPostgres = (readDb: ReadDb) => sqlClientOf(readDb)?.openSession !== undefined;
/** PGlite: every statement of the process goes through its one connection, in turn. */
export const sharesOneConnection = (readDb: ReadDb) => sqlClientOf(readDb)?.kind === 'pglite';
const inProcessKey = (readDb: ReadDb): object => sqlClientOf(readDb) ?? readDb;

/** The lock, or undefined when another rebuild holds it. */
export async function takeRebuildLock(readDb: ReadDb): Promise<RebuildLock | undefined> {
  const client = sqlClientOf(readDb);
  if (!client?.openSession) {
    const key = inProcessKey(readDb);
    if (heldHere.has(key)) return undefined;
    heldHere.add(key);
    return { release: async () => void heldHere.delete(key) };
  }
  const session: SqlSession = await client.openSession();
  try {
    // A recovery check holds the key for a moment (recoverInterruptedRebuilds): try a few times.
    for (let attempt = 0; attempt < 5; attempt++) {
      const { rows } = await session.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
        REBUILD_LOCK,
      ]);
      if (rows[0]?.ok) {
        let released = false;
        return {
          async release() {
            if (released) return;
            released = true;
            try {
              await session.query('SELECT pg_advisory_unlock($1)', [REBUILD_LOCK]);
              session.release();
            } catch (error) {
              session.release(error as Error); // closing the connection lets the lock go too
            }
          },
        };
      }
      await new Promise((r) => setTimeout(r, 20 + attempt * 30));
    }
    session.release();
    return undefined;
  } catch (error) {
    session.release(error as Error);
    throw error;
  }
}

const SCHEMA_OF_A_REBUILD = /^(rebuild|retired)_[0-9a-f]{12}$/;
export const rebuildSchemas = (id: string) => {
  const suffix = id.replaceAll('-', '').slice(0, 12);
  return { shadow: `rebuild_${suffix}`, retired: `retired_${suffix}` };
};

/**
 * Rebuilds left `running` by a process that stopped (nobody holds the lock) are marked failed,
 * and every shadow and retired schema no running rebuild owns is dropped. Returns the rebuilds
 * and schemas it cleaned up. Cheap when there is nothing to do: any copy may call it any time.
 */
export async function recoverInterruptedRebuilds(
  readDb: ReadDb,
): Promise<{ rebuilds: string[]; schemas: string[] }> {
  const postgres = onPostgres(readDb);
  if (!postgres && heldHere.has(inProcessKey(readDb))) return { rebuilds: [], schemas: [] };
  return readDb.transaction().execute(async (tx) => {
    if (postgres) {
      // Taken only if no rebuild's owner holds it; let go at the end of this transaction.
      const { rows } = await sql<{
        free: boolean;
      }>`SELECT pg_try_advisory_xact_lock(${REBUILD_LOCK}) AS free`.execute(tx);
      if (!rows[0]?.free) return { rebuilds: [], schemas: [] };
    }
    const failed = await tx
      .updateTable('projection_rebuilds')
      .set({
        status: 'failed',
        error: 'interrupted: the process running it stopped before it finished',
        updated_at: new Date(),
      })
      .where('status', '=', 'running')
      .returning('id')
      .execute();
    const { rows } = await sql<{ name: string }>`
      SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'rebuild\\_%' OR nspname LIKE 'retired\\_%'`.execute(
      tx,
    );
    const schemas = rows.map((r) => r.name).filter((name) => SCHEMA_OF_A_REBUILD.test(name));
    for (const schema of schemas) await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(tx);
    return { rebuilds: failed.map((r) => r.id), schemas };
  });
}
