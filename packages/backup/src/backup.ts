import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import {
  CHAIN_GENESIS,
  chainHash,
  eventStoreMigrations,
  readChainedRows,
  sealedChainAt,
} from '@bahi/event-store';
import type { SqlClient } from '@bahi/sql-client';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  type BackupCredential,
  type BackupEventLine,
  type BackupHeader,
  type BackupManifest,
  CHAIN_SPEC,
  credentialsHash,
  toChained,
} from './format.ts';

export const EVENT_STORE_SCHEMA_VERSION = Math.max(...eventStoreMigrations.map((m) => m.version));

// The event store's own rule for rows that are final (docs/event-store.md): below the oldest
// running transaction nothing can commit any more, so a visible row at position p proves every
// position below p is settled.
const VISIBLE = 'transaction_id < pg_snapshot_xmin(pg_current_snapshot())';

/**
 * The position a backup is consistent at: the highest final position now. Every event at or
 * below it is committed (or never will be) and nothing can arrive below it later, so reading
 * by position up to it gives the same log however long the reading takes, without holding a
 * transaction open (a long one would hold back every live reader of the log).
 */
export async function consistentHead(sql: SqlClient): Promise<bigint> {
  const { rows } = await sql.query<{ head: string | null }>(
    `SELECT max(global_position)::text AS head FROM es.events WHERE ${VISIBLE}`,
  );
  return BigInt(rows[0]?.head ?? '0');
}

export async function readCredentials(sql: SqlClient): Promise<BackupCredential[]> {
  const { rows } = await sql.query<{ present: boolean }>(
    "SELECT to_regclass('auth.credentials') IS NOT NULL AS present",
  );
  if (!rows[0]?.present) return [];
  return (
    await sql.query<BackupCredential & Record<string, unknown>>(
      `SELECT user_id::text AS "userId", password_hash AS "passwordHash",
              to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "updatedAt"
         FROM auth.credentials ORDER BY user_id`,
    )
  ).rows;
}

/** A file name for a backup taken now at a head: sorts by time. */
export function backupFileName(now: Date, head: bigint): string {
  return `bahi-backup-${now
    .toISOString()
    .replaceAll(':', '-')
    .replace(/\.\d+Z$/, 'Z')}-p${head}.ndjson.gz`;
}

export const manifestPathOf = (file: string) => `${file}.manifest.json`;

/**
 * Writes the event log to `file` (gzip'd NDJSON, see format.ts) while the app goes on writing:
 * the events up to the head taken at the start, read in batches by position. Written to a
 * temporary name and renamed when complete, with its manifest next to it.
 */
export async function takeBackup(
  sql: SqlClient,
  /** The file, or how to name it from the head and the time the backup starts. */
  to: string | ((head: bigint, startedAt: Date) => string),
  options: { batchSize?: number; now?: () => Date; onProgress?: (events: number, head: bigint) => void } = {},
): Promise<BackupManifest> {
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? 2000;
  const head = await consistentHead(sql);
  const started = now();
  const createdAt = started.toISOString();
  const file = typeof to === 'string' ? to : to(head, started);
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    schemaVersion: EVENT_STORE_SCHEMA_VERSION,
    source: sql.kind,
    createdAt,
    headPosition: head.toString(),
    chain: { algorithm: 'sha256', genesis: CHAIN_GENESIS, spec: CHAIN_SPEC },
  };
  let events = 0;
  let hash = CHAIN_GENESIS;
  async function* content(): AsyncGenerator<string> {
    yield `${JSON.stringify(header)}\n`;
    let after = 0n;
    for (;;) {
      const rows = await readChainedRows(sql, after, head, batchSize);
      if (rows.length === 0) break;
      let text = '';
      for (const row of rows) {
        const line: Omit<BackupEventLine, 'hash'> = {
          position: row.position,
          id: row.id,
          streamId: row.stream_id,
          streamVersion: row.version,
          type: row.type,
          data: row.data,
          metadata: row.metadata,
        };
        hash = chainHash(hash, toChained({ ...line, hash: '' }));
        text += `${JSON.stringify({ ...line, hash })}\n`;
      }
      events += rows.length;
      after = BigInt(rows.at(-1)!.position);
      options.onProgress?.(events, head);
      yield text;
    }
    // The password hashes (outside the log): without them nobody could sign in to restored books.
    const credentials = await readCredentials(sql);
    for (const credential of credentials) yield `${JSON.stringify({ credential })}\n`;
    // The seal's hash at the head (issue #30): equal to chainHead unless the log was altered
    // after it was sealed, before this backup read it.
    const sealed = await sealedChainAt(sql, head);
    manifestDraft = {
      file: basename(file),
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      schemaVersion: EVENT_STORE_SCHEMA_VERSION,
      source: sql.kind,
      createdAt,
      completedAt: now().toISOString(),
      events,
      headPosition: head.toString(),
      chainHead: hash,
      sealedChainHead: sealed?.hash ?? null,
      credentials: credentials.length,
      credentialsHash: credentialsHash(credentials),
    };
    yield `${JSON.stringify({ manifest: manifestDraft })}\n`;
  }
  let manifestDraft: Omit<BackupManifest, 'bytes'> | undefined;
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  try {
    await pipeline(Readable.from(content()), createGzip(), createWriteStream(partial));
    const manifest: BackupManifest = { ...manifestDraft!, bytes: (await stat(partial)).size };
    await rename(partial, file);
    await writeFile(manifestPathOf(file), `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
