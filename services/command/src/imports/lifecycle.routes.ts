import {
  IMPORT_PROGRESS_HEADER,
  importList,
  importListQuery,
  importParams,
  importProgress,
  importProgressQuery,
  importUndoAnswer,
} from '@bahi/contracts';
import { HttpError, requireWriter, writerOnly, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { CommandDeps } from '../deps.ts';
import { requestMeta } from '../request-meta.ts';
import { listImports } from './imports.ts';
import { progressByKey } from './progress.ts';
import { undoImport } from './undo.ts';

const tags = ['imports'];
const message = z.object({
  message: z.string(),
  errors: z.array(z.object({ msg: z.string(), path: z.string() })).optional(),
});

/** What follows a commit (issue #31): the list of past imports, a running commit's progress, the undo. */
export function registerImportLifecycleRoutes(app: FastifyInstance, deps: CommandDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const adminOrManager = writerOnly('masters');

  api.get(
    '/api/imports',
    {
      schema: {
        summary: 'The uploads, newest first: file, kind, rows, who and when, and whether committed or undone',
        tags,
        querystring: importListQuery,
        response: { 200: importList },
      },
    },
    async (request) => {
      requireWriter(request, 'masters');
      return listImports(deps, request.query);
    },
  );

  api.get(
    '/api/imports/progress',
    {
      schema: {
        summary: 'How far a running commit has come: records recorded of the total',
        description: `While a commit sent with the header \`${IMPORT_PROGRESS_HEADER}\` (a random UUID the client made) runs, \`checking\` (the file checked again), then \`recording\` with \`done\` of \`total\` records appended. The key is the capability: no session is asked for, and the copy running the commit answers from its memory, without the database (the commit holds its records in one transaction until the end; on PGlite that transaction holds the one connection). On Postgres, a copy of the command service not running the commit answers from \`imports.commit_progress\`, which the running copy keeps (at each change of state and every 1/50th of the records) on a connection outside the commit's transaction. 404 when no commit with that key runs (not begun, or ended).`,
        tags,
        querystring: importProgressQuery,
        response: { 200: importProgress, 400: message, 404: message },
      },
    },
    async (request) => {
      const progress = await progressByKey(deps.sql, request.query.key);
      if (!progress) throw new HttpError(404, 'No commit with this key is running (not begun, or ended).');
      return progress;
    },
  );

  api.post(
    '/api/imports/:id/undo',
    {
      preValidation: adminOrManager,
      schema: {
        summary: 'Undo a committed import as a whole, by reversal',
        description:
          'Every record the import created is reversed by the events its own delete appends (a master deleted, a purchase deleted with its postings and stock reversed), all in one transaction with `ImportUndone`, each carrying the import id and `importUndo` in its metadata. 409, naming the first record concerned, while a record has a later reference (an edit or another event later in its stream, a record that names it, a sale of stock an imported purchase brought in) or the books are closed over one of its dates; 409 when already undone or never committed. The same file may be imported again afterwards.',
        tags,
        params: importParams,
        response: { 200: importUndoAnswer, 404: message, 409: message },
      },
    },
    async (request) => undoImport(deps, request.params.id, requestMeta(request)),
  );
}
