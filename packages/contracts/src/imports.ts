import { z } from 'zod';
import { paging } from './queries.ts';
import { pageOf, previewLine, previewStock } from './responses.ts';

/**
 * Bringing the books in (issue #31): a spreadsheet of masters uploaded, checked row by row as the
 * API would check each one, previewed, then committed all at once. The HTTP shapes of
 * /api/imports; the file itself is the request body (XLSX or CSV), not JSON.
 */
export const IMPORT_KINDS = [
  'funders',
  'cities',
  'products',
  'agents',
  'collectors',
  'godowns',
  'purchases',
  'sales',
  'payments',
  'expenses',
  'incomes',
] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** Limits of one upload: a larger body is a 413, more data rows a 400. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20_000;

export const importKind = z.enum(IMPORT_KINDS, {
  error: `Kind must be one of ${IMPORT_KINDS.join(', ')}`,
});

/** POST /api/imports?kind=funders&file_name=funders.xlsx, the file as the body. */
export const importUploadQuery = z.object({
  kind: importKind,
  file_name: z
    .string({ error: 'File name is required' })
    .trim()
    .min(1, 'File name is required')
    .max(200, 'File name can be at most 200 characters'),
});

export const importParams = z.object({
  id: z.uuid({ error: 'No such import' }).transform((v) => v.toLowerCase()),
});

export const importTemplateParams = z.object({
  file: z
    .string()
    .regex(
      new RegExp(`^(${IMPORT_KINDS.join('|')})\\.(xlsx|csv)$`),
      `The template is <kind>.xlsx or <kind>.csv, the kind one of ${IMPORT_KINDS.join(', ')}`,
    ),
});

/** A problem on one cell: its sheet column letter, its row number (as the sheet numbers it) and its field. */
export const importCellError = z.object({
  /** The cell as a spreadsheet names it, e.g. "C7"; null for a problem of the whole row. */
  cell: z.string().nullable(),
  column: z.string().nullable(),
  row: z.number().int(),
  /** The field of the API the column feeds (e.g. city_id for the City column). */
  field: z.string().nullable(),
  /** The column's header in the template. */
  header: z.string().nullable(),
  msg: z.string(),
});
export type ImportCellError = z.infer<typeof importCellError>;

export const importRow = z.object({
  row: z.number().int(),
  outcome: z.enum(['ok', 'error']),
  /** The row's cells as read (after trimming), by header. */
  values: z.record(z.string(), z.string()),
  errors: z.array(importCellError),
});
export type ImportRow = z.infer<typeof importRow>;

/**
 * What a valid file would do: each record's opening balance before and after, and totals per
 * currency (masters); for transactions (purchases), each account the rows post to with its
 * balance now and after, and the stock they move, as the dry run of one entry shows them.
 */
export const importEffectLine = z.object({
  row: z.number().int(),
  name: z.string(),
  city: z.string().nullable(),
  currency: z.string().nullable(),
  before: z.string(),
  after: z.string(),
});
export const importEffect = z.object({
  records: z.number().int(),
  opening_balances: z.array(importEffectLine),
  totals: z.array(
    z.object({
      currency: z.string(),
      records: z.number().int(),
      opening_balance: z.string(),
      /** Transactions: what the rows record in this currency (rate x quantity, or the amount). */
      amount: z.string().optional(),
    }),
  ),
  accounts: z.array(previewLine),
  stock: z.array(previewStock),
});

/** A commit or an undo: when, by whom, the position of its last event and how many it appended. */
const importAppend = z.object({
  at: z.string(),
  position: z.string(),
  events: z.number().int(),
  by: z.object({ id: z.string(), name: z.string() }).nullable(),
});

export const importPreview = z.object({
  id: z.uuid(),
  kind: importKind,
  file_name: z.string(),
  sha256: z.string(),
  format: z.enum(['xlsx', 'csv']),
  /** `undone`: committed, then undone as a whole by reversal (POST /api/imports/{id}/undo). */
  status: z.enum(['invalid', 'valid', 'committed', 'undone']),
  created_at: z.string(),
  uploaded_by: z.object({ id: z.string(), name: z.string() }).nullable(),
  columns: z.array(z.object({ header: z.string(), field: z.string(), letter: z.string() })),
  rows_total: z.number().int(),
  rows_valid: z.number().int(),
  rows_invalid: z.number().int(),
  /** Problems of the file as a whole (no such sheet, a missing column, too many rows). */
  file_errors: z.array(importCellError),
  rows: z.array(importRow),
  effect: importEffect.nullable(),
  committed: importAppend.nullable(),
  /** The undo of a committed import: when, by whom, the position of its last reversal. */
  undone: importAppend.nullable(),
});
export type ImportPreview = z.infer<typeof importPreview>;

export const importCommitAnswer = z.object({
  id: z.uuid(),
  position: z.string(),
  records: z.number().int(),
  events: z.number().int(),
});
export type ImportCommitAnswer = z.infer<typeof importCommitAnswer>;

/** POST /api/imports/{id}/undo: every record the import created, reversed in one transaction. */
export const importUndoAnswer = z.object({
  id: z.uuid(),
  position: z.string(),
  /** The records reversed and the events appended (their reversals and ImportUndone). */
  records: z.number().int(),
  events: z.number().int(),
});
export type ImportUndoAnswer = z.infer<typeof importUndoAnswer>;

/**
 * The key a client sends with a commit (header `X-Bahi-Progress-Key`, a random UUID it made) and
 * then polls GET /api/imports/progress?key= with. The key is the capability: the poll needs no
 * session, so it is answered without the database (which a PGlite commit holds until it ends).
 */
export const IMPORT_PROGRESS_HEADER = 'x-bahi-progress-key';
export const importProgressQuery = z.object({
  key: z.uuid({ error: 'key must be the UUID sent with the commit' }).transform((v) => v.toLowerCase()),
});

/** How far a running commit has come: `checking` the file again, then `recording` (`done` of `total` records). */
export const importProgress = z.object({
  id: z.uuid(),
  state: z.enum(['checking', 'recording']),
  done: z.number().int(),
  total: z.number().int(),
});
export type ImportProgress = z.infer<typeof importProgress>;

/** GET /api/imports: the past uploads, newest first, without their rows. */
export const importSummary = z.object({
  id: z.uuid(),
  kind: importKind,
  file_name: z.string(),
  status: importPreview.shape.status,
  rows_total: z.number().int(),
  created_at: z.string(),
  uploaded_by: z.object({ id: z.string(), name: z.string() }).nullable(),
  committed: z
    .object({ at: z.string(), by: z.object({ id: z.string(), name: z.string() }).nullable() })
    .nullable(),
  undone: z
    .object({ at: z.string(), by: z.object({ id: z.string(), name: z.string() }).nullable() })
    .nullable(),
});
export type ImportSummary = z.infer<typeof importSummary>;
export const importListQuery = z.object({ ...paging(10) });
export type ImportListQuery = z.infer<typeof importListQuery>;
export const importList = pageOf(importSummary);
export type ImportList = z.infer<typeof importList>;
