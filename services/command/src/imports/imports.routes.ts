import {
  IMPORT_MAX_BYTES,
  IMPORT_PROGRESS_HEADER,
  type ImportKind,
  importCommitAnswer,
  importParams,
  importPreview,
  importTemplateParams,
  importUploadQuery,
} from '@bahi/contracts';
import { HttpError, requireWriter, signedIn, writerOnly, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CommandDeps } from '../deps.ts';
import { requestMeta } from '../request-meta.ts';
import { transactionMasters } from './books.ts';
import { IMPORT_SPECS } from './columns.ts';
import { commitImport, currentCities, getImport, uploadImport } from './imports.ts';
import { registerImportLifecycleRoutes } from './lifecycle.routes.ts';
import { migrateImports } from './store.ts';
import { csvTemplate, xlsxTemplate } from './templates.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const FILE_TYPES = [
  XLSX,
  'text/csv',
  'application/csv',
  'application/octet-stream',
  'application/vnd.ms-excel',
];
const tags = ['imports'];
const message = z.object({
  message: z.string(),
  errors: z.array(z.object({ msg: z.string(), path: z.string() })).optional(),
});
const megabytes = IMPORT_MAX_BYTES / 1024 / 1024;

/** Larger than the limit by its Content-Length: refused before a byte of it is read. */
async function refuseLarge(request: FastifyRequest): Promise<void> {
  const length = Number(request.headers['content-length'] ?? 0);
  if (length > IMPORT_MAX_BYTES)
    throw new HttpError(413, `The file is larger than ${megabytes} MB. Split it into smaller files.`, [
      { msg: `The file can be at most ${megabytes} MB`, path: 'file' },
    ]);
}

/** Importing masters from XLSX or CSV (issue #31), Admin and Manager: upload and preview, commit, templates. */
export async function registerImportRoutes(app: FastifyInstance, deps: CommandDeps): Promise<void> {
  await migrateImports(deps.sql);
  // The file is the body, as it is (no multipart): XLSX or CSV bytes.
  for (const type of FILE_TYPES)
    if (!app.hasContentTypeParser(type))
      app.addContentTypeParser(
        type,
        { parseAs: 'buffer', bodyLimit: IMPORT_MAX_BYTES },
        (_request, body, done) => done(null, body),
      );
  const api = app.withTypeProvider<ZodTypeProvider>();
  const adminOrManager = writerOnly('masters');

  api.post(
    '/api/imports',
    {
      bodyLimit: IMPORT_MAX_BYTES,
      onRequest: refuseLarge,
      preValidation: adminOrManager,
      schema: {
        summary: 'Upload a spreadsheet to import, and check every row (nothing is recorded)',
        description: `The body is the file itself: an XLSX workbook (rows on the sheet named after the kind, e.g. "Funders" or "Purchases") or a CSV in UTF-8, with the template's header row. Kinds: the masters (cities, products, funders, agents, collectors, godowns) and the transactions (purchases, sales, payments, expenses, incomes). Each row is checked as the API checks one create request (for a transaction: names looked up where the API takes ids, the route's request schema, its decider with the godowns' stock and the period close); the answer is the preview (GET /api/imports/{id}), with, for transactions, the accounts and stock the file would move. At most ${megabytes} MB (413) and 20000 rows (400).`,
        tags,
        querystring: importUploadQuery,
        consumes: [XLSX, 'text/csv', 'application/octet-stream'],
        body: z
          .custom<Buffer>((v) => Buffer.isBuffer(v), 'The body must be the file (XLSX or CSV)')
          .meta({
            type: 'string',
            format: 'binary',
          }),
        response: { 201: importPreview, 400: message, 413: message },
      },
    },
    async (request, reply) => {
      const preview = await uploadImport(deps, {
        kind: request.query.kind as ImportKind,
        fileName: request.query.file_name,
        bytes: request.body as Buffer,
        userId: signedIn(request).id,
      });
      return reply.status(201).send(preview);
    },
  );

  api.get(
    '/api/imports/:id',
    {
      schema: {
        summary: 'An import: each row with its outcome and errors, and what a valid file would record',
        tags,
        params: importParams,
        response: { 200: importPreview, 404: message },
      },
    },
    async (request) => {
      requireWriter(request, 'masters');
      return getImport(deps, request.params.id);
    },
  );

  api.post(
    '/api/imports/:id/commit',
    {
      preValidation: adminOrManager,
      schema: {
        summary: 'Record every row of a checked import, all or none',
        description: `Checks the stored file again against the books as they stand, then appends every record and the import in one transaction. 409 when the same file (by SHA-256) was already imported, or when a row no longer passes. With the header \`${IMPORT_PROGRESS_HEADER}\` (a random UUID), GET /api/imports/progress?key= tells how far it has come while it runs.`,
        tags,
        params: importParams,
        response: { 200: importCommitAnswer, 404: message, 409: message },
      },
    },
    async (request) => {
      const key = request.headers[IMPORT_PROGRESS_HEADER];
      const progressKey =
        typeof key === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key)
          ? key
          : undefined;
      return commitImport(deps, request.params.id, requestMeta(request), progressKey, request.user?.name);
    },
  );

  registerImportLifecycleRoutes(app, deps);

  api.get(
    '/api/imports/templates/:file',
    {
      schema: {
        summary: 'The template of an import kind, as XLSX (columns, rules, an example, the cities) or CSV',
        tags,
        params: importTemplateParams,
        response: {
          200: {
            description: 'The template',
            content: {
              [XLSX]: { schema: z.string().meta({ format: 'binary' }) },
              'text/csv': { schema: z.string().meta({ format: 'binary' }) },
            },
          },
        },
      },
    },
    async (request, reply) => {
      requireWriter(request, 'masters');
      const [kind, format] = request.params.file.split('.') as [ImportKind, 'xlsx' | 'csv'];
      // A transaction kind's template names the masters (XLSX) and has a column per custom field.
      const masters = IMPORT_SPECS[kind].master ? undefined : await transactionMasters(deps);
      const body =
        format === 'xlsx'
          ? await xlsxTemplate(kind, masters?.cities ?? (await currentCities(deps)), masters)
          : csvTemplate(kind, masters?.fieldDefinitions);
      return reply
        .type(format === 'xlsx' ? XLSX : 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="bahi-${kind}-template.${format}"`)
        .send(body as never);
    },
  );
}
