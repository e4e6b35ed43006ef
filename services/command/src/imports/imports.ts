import { createHash, randomUUID } from 'node:crypto';
import {
  IMPORT_MAX_ROWS,
  type ImportCommitAnswer,
  type ImportKind,
  type ImportList,
  type ImportListQuery,
  type ImportPreview,
  importStreamId,
} from '@bahi/contracts';
import { conflict } from '@bahi/domain';
import { WrongExpectedVersionError } from '@bahi/event-store';
import { waitForProjections } from '@bahi/read-db';
import { appendToLog, HttpError, type LogEvent } from '@bahi/server-kit';
import type { SqlQueryable } from '@bahi/sql-client';
import { closedUpTo } from '../books-close.ts';
import type { CommandDeps } from '../deps.ts';
import type { RequestMeta } from '../execute.ts';
import { writeScopes } from '../write-scope.ts';
import { bookFacts, booksEffect, requireRefs, transactionMasters } from './books.ts';
import { type CheckResult, type CityLookup, checkSheet, emptyCheck } from './check.ts';
import { IMPORT_SPECS } from './columns.ts';
import { withProgress } from './progress.ts';
import { isZip, type ReadResult, readCsv, readXlsx } from './read-file.ts';
import {
  type CommittedStream,
  committedWithSha,
  findUpload,
  insertUpload,
  listUploads,
  markCommitted,
  type StoredPreview,
  type StoredUpload,
} from './store.ts';

/** The cities a row may name, as the read side has them once it has caught up with the log. */
export async function currentCities(deps: CommandDeps): Promise<CityLookup[]> {
  await waitForProjections(deps.readDb, ['masters'], await deps.eventStore.headPosition());
  return deps.readDb
    .selectFrom('cities')
    .select(['id', 'name', 'currency_name'])
    .where('deleted', '=', false)
    .orderBy('name')
    .execute();
}

async function readFile(
  bytes: Buffer,
  fileName: string,
  sheet: string,
): Promise<{ format: 'xlsx' | 'csv'; read: ReadResult }> {
  if (isZip(bytes)) return { format: 'xlsx', read: await readXlsx(bytes, sheet) };
  if (/\.xlsx?$/i.test(fileName) || bytes.subarray(0, 8).equals(Buffer.from('d0cf11e0a1b11ae1', 'hex')))
    return {
      format: 'xlsx',
      read: {
        ok: false,
        message:
          /\.xls$/i.test(fileName) || bytes.subarray(0, 4).equals(Buffer.from('d0cf11e0', 'hex'))
            ? 'This is an old Excel file (.xls). Save it as an Excel Workbook (.xlsx) or as CSV UTF-8, and upload that.'
            : 'The file is named .xlsx but is not an Excel workbook. Save it from Excel as .xlsx or as CSV UTF-8.',
      },
    };
  return { format: 'csv', read: readCsv(bytes) };
}

/**
 * The file read and every row checked against the books as they stand. `closedUpTo`: given by
 * the commit, the close as it read it under the books' lock (the commit needs no effect on the
 * accounts, so it does not wait for the journal); the preview reads it without one, as a dry run.
 */
async function check(
  deps: CommandDeps,
  kind: ImportKind,
  bytes: Buffer,
  fileName: string,
  closedUpTo?: string | null,
) {
  const spec = IMPORT_SPECS[kind];
  const { format, read } = await readFile(bytes, fileName, spec.sheet);
  let checked: CheckResult = emptyCheck();
  if (read.ok && spec.master)
    checked = await checkSheet(read.sheet, spec, { cities: await currentCities(deps) });
  else if (read.ok) {
    const masters = await transactionMasters(deps);
    checked = await checkSheet(read.sheet, spec, masters, await bookFacts(deps, spec, masters, closedUpTo));
    if (checked.effect && closedUpTo === undefined) await booksEffect(deps, checked);
  }
  if (!read.ok) checked.fileErrors.push(fileError(read.message));
  return { format, checked };
}

const fileError = (msg: string) => ({ cell: null, column: null, row: 0, field: null, header: null, msg });

const toPreview = (
  kind: ImportKind,
  fileName: string,
  sha256: string,
  format: 'xlsx' | 'csv',
  checked: CheckResult,
): StoredPreview => {
  const invalid = checked.rows.filter((r) => r.outcome === 'error').length;
  return {
    kind,
    file_name: fileName,
    sha256,
    format,
    status: checked.fileErrors.length > 0 || invalid > 0 || checked.rows.length === 0 ? 'invalid' : 'valid',
    columns: checked.columns,
    rows_total: checked.rows.length,
    rows_valid: checked.rows.length - invalid,
    rows_invalid: invalid,
    file_errors: checked.fileErrors,
    rows: checked.rows,
    effect: checked.fileErrors.length === 0 ? checked.effect : null,
  };
};

/** POST /api/imports: the file read and every row checked; the upload and its preview stored, nothing else. */
export async function uploadImport(
  deps: CommandDeps,
  input: { kind: ImportKind; fileName: string; bytes: Buffer; userId: string | null },
): Promise<ImportPreview> {
  if (input.bytes.length === 0)
    throw new HttpError(400, 'The file is empty.', [{ msg: 'The file is empty', path: 'file' }]);
  const sha256 = createHash('sha256').update(input.bytes).digest('hex');
  const { format, checked } = await check(deps, input.kind, input.bytes, input.fileName);
  if (checked.rows.length > IMPORT_MAX_ROWS || checked.fileErrors.some((e) => e.msg.includes('at most'))) {
    const msg = `One import takes at most ${IMPORT_MAX_ROWS} rows; split the file`;
    throw new HttpError(400, `The file has too many rows. ${msg}.`, [{ msg, path: 'file' }]);
  }
  const earlier = await committedWithSha(deps.sql, sha256);
  if (earlier)
    checked.fileErrors.unshift({
      cell: null,
      column: null,
      row: 0,
      field: null,
      header: null,
      msg: `This file was already imported (as "${earlier.file_name}" at ${earlier.committed_at}): importing it again would record every row twice.`,
    });
  const id = randomUUID();
  const preview = toPreview(input.kind, input.fileName, sha256, format, checked);
  await insertUpload(deps.sql, {
    id,
    kind: input.kind,
    file_name: input.fileName,
    format,
    sha256,
    content: input.bytes,
    user_id: input.userId,
    preview,
  });
  return describe(deps, (await findUpload(deps.sql, id))!);
}

async function userName(deps: CommandDeps, id: string | null) {
  if (!id) return null;
  const user = await deps.readDb
    .selectFrom('users')
    .select(['id', 'name'])
    .where('id', '=', id)
    .executeTakeFirst();
  return user ? { id: user.id, name: user.name } : { id, name: 'System/Deleted User' };
}

async function describe(deps: CommandDeps, upload: StoredUpload): Promise<ImportPreview> {
  const committed = upload.committed_at !== null;
  const { effect } = upload.preview;
  return {
    ...upload.preview,
    // Previews stored before transactions could be imported have no accounts or stock.
    effect: effect ? { ...effect, accounts: effect.accounts ?? [], stock: effect.stock ?? [] } : null,
    id: upload.id,
    status: upload.undone_at ? 'undone' : committed ? 'committed' : upload.preview.status,
    created_at: upload.created_at,
    uploaded_by: await userName(deps, upload.user_id),
    committed: committed
      ? {
          at: upload.committed_at!,
          position: upload.committed_position ?? '0',
          events: upload.committed_events ?? 0,
          by: await userName(deps, upload.committed_by),
        }
      : null,
    undone: upload.undone_at
      ? {
          at: upload.undone_at,
          position: upload.undone_position ?? '0',
          events: upload.undone_events ?? 0,
          by: await userName(deps, upload.undone_by),
        }
      : null,
  };
}

/** GET /api/imports: the uploads, newest first, with who uploaded, committed and undid each. */
export async function listImports(deps: CommandDeps, query: ImportListQuery): Promise<ImportList> {
  const { total, rows } = await listUploads(deps.sql, query.page, query.limit);
  const ids = [...new Set(rows.flatMap((r) => [r.user_id, r.committed_by, r.undone_by]))].filter(
    (id): id is string => Boolean(id),
  );
  const users = new Map<string, string>(
    ids.length
      ? (await deps.readDb.selectFrom('users').select(['id', 'name']).where('id', 'in', ids).execute()).map(
          (u) => [u.id, u.name],
        )
      : [],
  );
  const who = (id: string | null) => (id ? { id, name: users.get(id) ?? 'System/Deleted User' } : null);
  return {
    totalItems: total,
    data: rows.map((r) => ({
      id: r.id,
      kind: r.kind as ImportKind,
      file_name: r.file_name,
      status: r.undone_at ? 'undone' : r.committed_at ? 'committed' : r.preview_status,
      rows_total: r.rows_total,
      created_at: r.created_at,
      uploaded_by: who(r.user_id),
      committed: r.committed_at ? { at: r.committed_at, by: who(r.committed_by) } : null,
      undone: r.undone_at ? { at: r.undone_at, by: who(r.undone_by) } : null,
    })),
  };
}

/** GET /api/imports/{id}. */
export async function getImport(deps: CommandDeps, id: string): Promise<ImportPreview> {
  const upload = await findUpload(deps.sql, id);
  if (!upload) throw new HttpError(404, 'There is no such import.');
  return describe(deps, upload);
}

const alreadyImported = (fileName: string, at: string) =>
  new HttpError(
    409,
    `This file was already imported (as "${fileName}" at ${at}). Nothing was imported again.`,
    [{ msg: 'This file was already imported', path: 'file' }],
  );

/**
 * POST /api/imports/{id}/commit: the stored file checked again against the books as they stand
 * (a city deleted since the preview refuses the commit), then every record's events and the
 * file's ImportCommitted appended in ONE database transaction: all rows or none, whatever stops
 * the process part-way (docs/decisions.md, "Importing: one transaction").
 */
export async function commitImport(
  deps: CommandDeps,
  id: string,
  meta: RequestMeta,
  progressKey?: string,
  userName?: string,
): Promise<ImportCommitAnswer> {
  const upload = await findUpload(deps.sql, id);
  if (!upload) throw new HttpError(404, 'There is no such import.');
  if (upload.committed_at && !upload.undone_at) throw alreadyImported(upload.file_name, upload.committed_at);
  if (upload.undone_at)
    throw new HttpError(
      409,
      `This import was undone at ${upload.undone_at}. To import the file again, upload it again.`,
    );
  const earlier = await committedWithSha(deps.sql, upload.sha256);
  if (earlier) throw alreadyImported(earlier.file_name, earlier.committed_at);
  if (deps.eventStore.kind === 'eventstoredb')
    throw new HttpError(
      409,
      'Importing needs the Postgres event store (one transaction for the whole file); this server runs on EventStoreDB.',
    );
  return withProgress(deps.sql, upload.id, progressKey, upload.preview.rows_valid, (report) =>
    commitChecked(deps, upload, meta, report, userName),
  );
}

async function commitChecked(
  deps: CommandDeps,
  upload: StoredUpload,
  meta: RequestMeta,
  report: (state: 'checking' | 'recording', done: number) => Promise<void>,
  userName: string | undefined,
): Promise<ImportCommitAnswer> {
  const kind = upload.kind as ImportKind;
  // A transaction kind reads the close under the books' shared lock, held until the request
  // ends, as every dated write does: a close waits for this commit, or went first and refuses it.
  const closed = IMPORT_SPECS[kind].master
    ? undefined
    : await closedUpTo(deps.eventStore, writeScopes.getStore());
  const { checked } = await check(deps, kind, upload.content, upload.file_name, closed);
  // Each master a row names must still exist (and a party be of the row's city), read from its
  // stream under a shared lock held until the request ends, as the API's handlers read it: a
  // delete of it waits for this commit.
  await requireRefs(deps, checked);
  const preview = toPreview(kind, upload.file_name, upload.sha256, upload.format, checked);
  if (preview.status !== 'valid') {
    const errors = [...preview.file_errors, ...preview.rows.flatMap((r) => r.errors)].slice(0, 50);
    throw new HttpError(
      409,
      'The file no longer passes its checks against the books as they stand: upload it again to see why.',
      errors.map((e) => ({ msg: e.cell ? `${e.cell}: ${e.msg}` : e.msg, path: e.field ?? 'file' })),
    );
  }
  const metadata = {
    userId: meta.userId,
    correlationId: meta.correlationId,
    causationId: meta.causationId,
    importId: upload.id,
    importFile: upload.file_name,
    ...(userName ? { importBy: userName } : {}),
  };
  // The file's stream: new, or ending in the undo of an earlier import of the same bytes.
  const fileStream = importStreamId(upload.sha256);
  const history = await deps.eventStore.readStream(fileStream);
  const lastOfFile = history.at(-1);
  if (lastOfFile && lastOfFile.type !== 'ImportUndone')
    throw alreadyImported(upload.file_name, 'an earlier commit');
  let events = 0;
  await report('recording', 0);
  const position = await deps.sql.transaction(async (tx) => {
    // The file's own stream first: a second commit of the same bytes stops here, before any row.
    try {
      await appendToLog(
        deps.eventStore,
        fileStream,
        [
          {
            type: 'ImportCommitted',
            data: {
              id: upload.id,
              kind,
              file_name: upload.file_name,
              sha256: upload.sha256,
              records: checked.records.length,
            },
            metadata,
          },
        ],
        lastOfFile ? lastOfFile.streamVersion : 'no_stream',
        { via: tx },
      );
    } catch (error) {
      if (error instanceof WrongExpectedVersionError)
        throw alreadyImported(upload.file_name, 'an earlier commit');
      throw error;
    }
    const { last, appended, streams } = await appendRecords(deps, tx, checked, metadata, report);
    events = appended;
    await markCommitted(tx, upload.id, meta.userId, last.toString(), events + 1, streams);
    return last;
  });
  return {
    id: upload.id,
    position: position.toString(),
    records: checked.records.length,
    events: events + 1,
  };
}

/** Events per append: a godown's stream takes a file's rows in a few appends, not one per row. */
const CHUNK = 1_000;

/**
 * Every record's events appended on the commit's transaction, stream by stream in the file's
 * order, each stream at the version the check read it at: a write another request made to one
 * of them since answers 409 and the whole transaction is rolled back.
 */
async function appendRecords(
  deps: CommandDeps,
  tx: SqlQueryable,
  checked: CheckResult,
  metadata: NonNullable<LogEvent['metadata']>,
  report: (state: 'recording', done: number) => Promise<void>,
): Promise<{ last: bigint; appended: number; streams: CommittedStream[] }> {
  // Each stream's events, and after how many of them each of its records is complete.
  const byStream = new Map<string, { events: LogEvent[]; recordEnds: number[] }>();
  for (const record of checked.records) {
    const list = byStream.get(record.streamId) ?? { events: [], recordEnds: [] };
    for (const event of record.events) list.events.push({ ...event, metadata });
    list.recordEnds.push(list.events.length);
    byStream.set(record.streamId, list);
  }
  let last = 0n;
  let appended = 0;
  let recordsDone = 0;
  const streams: CommittedStream[] = [];
  for (const [streamId, list] of byStream) {
    const before: bigint | 'no_stream' = checked.expected.get(streamId) ?? 'no_stream';
    let expected = before;
    let recorded = 0;
    for (let i = 0; i < list.events.length; i += CHUNK) {
      const chunk = list.events.slice(i, i + CHUNK);
      try {
        const result = await appendToLog(deps.eventStore, streamId, chunk, expected, { via: tx });
        expected = result.nextExpectedVersion;
        last = result.position;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        throw conflict(
          'Someone recorded something on a godown this file records on while it was being committed. Nothing was imported: commit it again.',
        );
      }
      appended += chunk.length;
      const complete = list.recordEnds.filter((end) => end <= i + chunk.length).length;
      recordsDone += complete - recorded;
      recorded = complete;
      await report('recording', recordsDone);
    }
    streams.push({
      stream: streamId,
      from: (before === 'no_stream' ? 0n : before + 1n).toString(),
      to: expected.toString(),
    });
  }
  return { last, appended, streams };
}
