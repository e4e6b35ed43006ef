import type { RebuildReport } from '@bahi/contracts';
import { type EventStore, storeSeals } from '@bahi/event-store';
import { rebuildProjections } from '@bahi/projections';
import type { ReadDb } from '@bahi/read-db';
import type { SqlClient } from '@bahi/sql-client';
import { EVENT_STORE_SCHEMA_VERSION } from './backup.ts';
import { type BackupManifest, BackupRefused, readBackup } from './format.ts';

export interface RestoreResult {
  manifest: BackupManifest;
  /** The rebuild of every read model from the restored log. */
  rebuild: RebuildReport;
}

/**
 * Loads a backup into an empty event store (server Postgres or PGlite) and rebuilds the read
 * models from it. The whole load is one transaction: the chain is verified while the events
 * go in, and a damaged file (or anything else that fails) rolls it all back, leaving the store
 * as empty as it was. Positions, event ids and stream versions are kept.
 */
export async function restoreBackup(
  storage: { sql: SqlClient; eventStore: EventStore; readDb: ReadDb },
  file: string,
  options: { onProgress?: (step: string) => void } = {},
): Promise<RestoreResult> {
  const { sql } = storage;
  const read = await readBackup(file);
  if (read.header.schemaVersion > EVENT_STORE_SCHEMA_VERSION)
    throw new BackupRefused(
      `The backup was taken from a newer Bahi (event store schema ${read.header.schemaVersion}; this one has ${EVENT_STORE_SCHEMA_VERSION}). Restore it with that version or later.`,
    );
  const manifest = await sql.transaction(async (tx) => {
    // Appends wait for the restore to finish; readers are not blocked.
    await tx.query('LOCK TABLE es.events, es.streams, es.chain IN EXCLUSIVE MODE');
    const { rows } = await tx.query<{ events: string }>(
      'SELECT (SELECT count(*) FROM es.events)::text AS events',
    );
    if (rows[0]!.events !== '0')
      throw new BackupRefused(
        `The store is not empty (${rows[0]!.events} events): a backup is restored only into an empty one (a new database, or a new BAHI_DATA_DIR never started). Nothing is restored.`,
      );
    let loaded = 0;
    for await (const batch of read.events) {
      await tx.query(
        `INSERT INTO es.events (global_position, transaction_id, event_id, stream_id, stream_version, type, data, metadata)
         OVERRIDING SYSTEM VALUE
         SELECT (x->>'position')::bigint, pg_current_xact_id(), (x->>'id')::uuid, x->>'streamId',
                (x->>'streamVersion')::bigint, x->>'type', x->'data', x->'metadata'
           FROM jsonb_array_elements($1::jsonb) AS x`,
        [JSON.stringify(batch.map(({ hash: _hash, ...event }) => event))],
      );
      // The file's hashes are verified against the chain as they are read: they are the seal.
      await storeSeals(tx, batch);
      loaded += batch.length;
      options.onProgress?.(`loaded ${loaded} events (to position ${batch.at(-1)!.position})`);
    }
    const checked = read.manifest();
    if (read.credentials.length > 0) {
      const { rows: table } = await tx.query<{ present: boolean }>(
        "SELECT to_regclass('auth.credentials') IS NOT NULL AS present",
      );
      if (!table[0]?.present)
        throw new Error(
          'restore: the sign-in credentials table (auth.credentials) is not there; open the credentials first',
        );
      await tx.query(
        `INSERT INTO auth.credentials (user_id, password_hash, updated_at)
         SELECT (x->>'userId')::uuid, x->>'passwordHash', (x->>'updatedAt')::timestamptz
           FROM jsonb_array_elements($1::jsonb) AS x
         ON CONFLICT (user_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = EXCLUDED.updated_at`,
        [JSON.stringify(read.credentials)],
      );
    }
    await tx.query(
      'INSERT INTO es.streams (stream_id, version) SELECT stream_id, max(stream_version) FROM es.events GROUP BY stream_id',
    );
    // Appends after the restore continue above the restored head.
    await tx.query(`SELECT setval(pg_get_serial_sequence('es.events', 'global_position'), $1::bigint, $2)`, [
      checked.headPosition === '0' ? '1' : checked.headPosition,
      checked.headPosition !== '0',
    ]);
    return checked;
  });
  options.onProgress?.(`loaded ${manifest.events} events, chain verified; rebuilding the read models`);
  const rebuild = await rebuildProjections({
    eventStore: storage.eventStore,
    readDb: storage.readDb,
    swap: true,
    requestedBy: 'restore',
    liveWaitMs: 0,
  });
  return { manifest, rebuild };
}
