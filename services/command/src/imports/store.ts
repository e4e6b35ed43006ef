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
  {
    version: 2,
    name: 'undo',
    // What the commit appended, stream by stream (what an undo reverses), and the undo itself.
    sql: `ALTER TABLE imports.uploads ADD COLUMN committed_streams jsonb;
ALTER TABLE imports.uploads ADD COLUMN undone_at timestamptz;
ALTER TABLE imports.uploads ADD COLUMN undone_by uuid;
ALTER TABLE imports.uploads ADD COLUMN undone_position text;
ALTER TABLE imports.uploads ADD COLUMN undone_events integer;
CREATE INDEX uploads_created ON imports.uploads (created_at DESC);`,
  },
  {
    version: 3,
    name: 'commit progress',
    // A running commit's progress for the other copies of the command service (progress.ts);
    // unlogged: it is worth nothing after a crash, and written only while a commit runs.
    sql: `CREATE UNLOGGED TABLE imports.commit_progress (
  key text PRIMARY KEY,
  id uuid NOT NULL,
  state text NOT NULL,
  done integer NOT NULL,
  total integer NOT NULL,
  updated_at timestamptz NOT NULL
);`,
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
  /** Each stream the commit appended to, with the versions of its first and last event there. */
  committed_streams: CommittedStream[] | null;
  undone_at: string | null;
  undone_by: string | null;
  undone_position: string | null;
  undone_events: number | null;
}

/** The events of one stream an import appended: versions `from` to `to` (decimal text). */
export interface CommittedStream {
  stream: string;
  from: string;
  to: string;
}

/** The preview as computed at upload, without what the GET adds (names, the commit). */
export type StoredPreview = Omit<ImportPreview, 'committed' | 'undone' | 'uploaded_by' | 'created_at' | 'id'>;

export async function insertUpload(
  sql: SqlQueryable,
  upload: Pick<
    StoredUpload,
    'id' | 'kind' | 'file_name' | 'format' | 'sha256' | 'content' | 'user_id' | 'preview'
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
            committed_by::text AS committed_by, committed_position, committed_events, committed_streams,
            to_char(undone_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS undone_at,
            undone_by::text AS undone_by, undone_position, undone_events
       FROM imports.uploads WHERE id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return undefined;
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
  return {
    ...(row as unknown as StoredUpload),
    content: Buffer.from(String(row.content), 'base64'),
    preview: json(row.preview),
    committed_streams: row.committed_streams === null ? null : json(row.committed_streams),
    committed_events: row.committed_events === null ? null : Number(row.committed_events),
    undone_events: row.undone_events === null ? null : Number(row.undone_events),
  };
}

/** Marks an upload committed: inside the commit's own transaction, with its appends. */
export async function markCommitted(
  tx: SqlQueryable,
  id: string,
  by: string | null,
  position: string,
  events: number,
  streams: readonly CommittedStream[],
): Promise<void> {
  await tx.query(
    `UPDATE imports.uploads SET committed_at = now(), committed_by = $2, committed_position = $3, committed_events = $4,
            committed_streams = $5::jsonb
      WHERE id = $1`,
    [id, by, position, events, JSON.stringify(streams)],
  );
}

/**
 * Marks a committed upload undone: inside the undo's own transaction, with its appends. False
 * when it was not committed or is undone already (another undo went first).
 */
export async function markUndone(
  tx: SqlQueryable,
  id: string,
  by: string | null,
  position: string,
  events: number,
): Promise<boolean> {
  const { rowCount } = await tx.query(
    `UPDATE imports.uploads SET undone_at = now(), undone_by = $2, undone_position = $3, undone_events = $4
      WHERE id = $1 AND committed_at IS NOT NULL AND undone_at IS NULL`,
    [id, by, position, events],
  );
  return rowCount === 1;
}

/** A page of uploads, newest first, without their files and rows. */
export async function listUploads(
  sql: SqlQueryable,
  page: number,
  limit: number,
): Promise<{ total: number; rows: ListedUpload[] }> {
  const at = (column: string) =>
    `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${column}`;
  const [{ rows }, count] = await Promise.all([
    sql.query<ListedUpload & { rows_total: number | string }>(
      `SELECT id::text AS id, kind, file_name, user_id::text AS user_id, committed_by::text AS committed_by,
              undone_by::text AS undone_by, preview->>'status' AS preview_status,
              (preview->>'rows_total')::int AS rows_total,
              ${at('created_at')}, ${at('committed_at')}, ${at('undone_at')}
         FROM imports.uploads ORDER BY created_at DESC, id LIMIT $1 OFFSET $2`,
      limit === -1 ? [null, 0] : [limit, (page - 1) * limit],
    ),
    sql.query<{ n: string }>('SELECT count(*)::text AS n FROM imports.uploads'),
  ]);
  return {
    total: Number(count.rows[0]!.n),
    rows: rows.map((r) => ({ ...r, rows_total: Number(r.rows_total) })),
  };
}

export type ListedUpload = {
  id: string;
  kind: string;
  file_name: string;
  user_id: string | null;
  committed_by: string | null;
  undone_by: string | null;
  preview_status: 'valid' | 'invalid';
  rows_total: number;
  created_at: string;
  committed_at: string | null;
  undone_at: string | null;
};

/** The upload of this file that was committed and stands (not undone), if one does (the same bytes, by SHA-256). */
export async function committedWithSha(
  sql: SqlQueryable,
  sha256: string,
): Promise<{ id: string; file_name: string; committed_at: string } | undefined> {
  const { rows } = await sql.query<{ id: string; file_name: string; committed_at: string }>(
    `SELECT id::text AS id, file_name, to_char(committed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS committed_at
       FROM imports.uploads WHERE sha256 = $1 AND committed_at IS NOT NULL AND undone_at IS NULL LIMIT 1`,
    [sha256],
  );
  return rows[0];
}
