import { createHash, randomUUID } from 'node:crypto';
import {
  IMPORT_MAX_ROWS,
  type ImportCommitAnswer,
  type ImportKind,
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
import { isZip, type ReadResult, readCsv, readXlsx } from './read-file.ts';
import {
  committedWithSha,
  findUpload,
  insertUpload,
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
    const facts = await bookFacts(deps, spec, closedUpTo);
    if (typeof facts === 'string') checked.fileErrors.push(fileError(facts));
    else {
      checked = await checkSheet(read.sheet, spec, await transactionMasters(deps), facts);
      if (checked.effect && closedUpTo === undefined) await booksEffect(deps, checked);
    }
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
    status: committed ? 'committed' : upload.preview.status,
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
): Promise<ImportCommitAnswer> {
  const upload = await findUpload(deps.sql, id);
  if (!upload) throw new HttpError(404, 'There is no such import.');
  if (upload.committed_at) throw alreadyImported(upload.file_name, upload.committed_at);
  const earlier = await committedWithSha(deps.sql, upload.sha256);
  if (earlier) throw alreadyImported(earlier.file_name, earlier.committed_at);
  if (deps.eventStore.kind === 'eventstoredb')
    throw new HttpError(
      409,
      'Importing needs the Postgres event store (one transaction for the whole file); this server runs on EventStoreDB.',
    );
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
  };
  let events = 0;
  const position = await deps.sql.transaction(async (tx) => {
    // The file's own stream first: a second commit of the same bytes stops here, before any row.
    try {
      await appendToLog(
        deps.eventStore,
        importStreamId(upload.sha256),
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
        'no_stream',
        { via: tx },
      );
    } catch (error) {
      if (error instanceof WrongExpectedVersionError)
        throw alreadyImported(upload.file_name, 'an earlier commit');
      throw error;
    }
    const { last, appended } = await appendRecords(deps, tx, checked, metadata);
    events = appended;
    await markCommitted(tx, upload.id, meta.userId, last.toString(), events + 1);
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
): Promise<{ last: bigint; appended: number }> {
  const byStream = new Map<string, LogEvent[]>();
  for (const record of checked.records) {
    const list = byStream.get(record.streamId) ?? [];
    for (const event of record.events) list.push({ ...event, metadata });
    byStream.set(record.streamId, list);
  }
  let last = 0n;
  let appended = 0;
  for (const [streamId, list] of byStream) {
    let expected: bigint | 'no_stream' = checked.expected.get(streamId) ?? 'no_stream';
    for (let i = 0; i < list.length; i += CHUNK) {
      const chunk = list.slice(i, i + CHUNK);
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
    }
  }
  return { last, appended };
}
