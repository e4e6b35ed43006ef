import type { ImportPreview } from '@bahi/contracts';
import { runSqlMigrations, type SqlClient, type SqlQueryable } from '@bahi/sql-client';

/**
 * The uploaded files and their previews (issue #31), in a schema of their own: the only thing an
 * upload or a preview writes. The file is kept as uploaded, so the commit reads and checks
 * exactly the bytes the preview showed (and their SHA-256 is the one recorded).
 */
const migrations = [
  {
    version: 1,
    name: 'uploads',
    sql: `CREATE TABLE imports.uploads (
  id uuid PRIMARY KEY,
  kind text NOT NULL,
  file_name text NOT NULL,
  format text NOT NULL,
  sha256 text NOT NULL,
  content text NOT NULL,
  user_id uuid,
  preview jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  committed_at timestamptz,
  committed_by uuid,
  committed_position text,
  committed_events integer
);
CREATE INDEX uploads_sha256 ON imports.uploads (sha256);`,
  },
];

export async function migrateImports(sql: SqlClient): Promise<void> {
  await runSqlMigrations(sql, { schema: 'imports', lockKey: 7_406_113_031, migrations });
}

export interface StoredUpload {
  id: string;
  kind: string;
  file_name: string;
  format: 'xlsx' | 'csv';
  sha256: string;
  content: Buffer;
  user_id: string | null;
  preview: StoredPreview;
  created_at: string;
  committed_at: string | null;
  committed_by: string | null;
  committed_position: string | null;
  committed_events: number | null;
}

/** The preview as computed at upload, without what the GET adds (names, the commit). */
export type StoredPreview = Omit<ImportPreview, 'committed' | 'uploaded_by' | 'created_at' | 'id'>;

export async function insertUpload(
  sql: SqlQueryable,
  upload: Omit<
    StoredUpload,
    'created_at' | 'committed_at' | 'committed_by' | 'committed_position' | 'committed_events'
  >,
): Promise<string> {
  const { rows } = await sql.query<{ created_at: string }>(
    `INSERT INTO imports.uploads (id, kind, file_name, format, sha256, content, user_id, preview)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb) RETURNING created_at::text AS created_at`,
    [
      upload.id,
      upload.kind,
      upload.file_name,
      upload.format,
      upload.sha256,
      upload.content.toString('base64'),
      upload.user_id,
      JSON.stringify(upload.preview),
    ],
  );
  return rows[0]!.created_at;
}

export async function findUpload(sql: SqlQueryable, id: string): Promise<StoredUpload | undefined> {
  const { rows } = await sql.query<Record<string, unknown>>(
    `SELECT id::text AS id, kind, file_name, format, sha256, content, user_id::text AS user_id, preview,
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
            to_char(committed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS committed_at,
            committed_by::text AS committed_by, committed_position, committed_events
       FROM imports.uploads WHERE id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return undefined;
  const preview = typeof row.preview === 'string' ? JSON.parse(row.preview) : row.preview;
  return {
    ...(row as unknown as StoredUpload),
    content: Buffer.from(String(row.content), 'base64'),
    preview,
    committed_events: row.committed_events === null ? null : Number(row.committed_events),
  };
}

/** Marks an upload committed: inside the commit's own transaction, with its appends. */
export async function markCommitted(
  tx: SqlQueryable,
  id: string,
  by: string | null,
  position: string,
  events: number,
): Promise<void> {
  await tx.query(
    `UPDATE imports.uploads SET committed_at = now(), committed_by = $2, committed_position = $3, committed_events = $4
      WHERE id = $1`,
    [id, by, position, events],
  );
}

/** The upload of this file that was committed, if one was (the same bytes, by SHA-256). */
export async function committedWithSha(
  sql: SqlQueryable,
  sha256: string,
): Promise<{ id: string; file_name: string; committed_at: string } | undefined> {
  const { rows } = await sql.query<{ id: string; file_name: string; committed_at: string }>(
    `SELECT id::text AS id, file_name, to_char(committed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS committed_at
       FROM imports.uploads WHERE sha256 = $1 AND committed_at IS NOT NULL LIMIT 1`,
    [sha256],
  );
  return rows[0];
}
