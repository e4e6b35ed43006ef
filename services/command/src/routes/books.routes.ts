import { BOOKS_STREAM, booksWriteAnswer, closeBooksInput, reopenBooksInput } from '@bahi/contracts';
import { booksDecider } from '@bahi/domain';
import { writerOnly, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { BOOKS_LOCK } from '../books-close.ts';
import type { CommandDeps } from '../deps.ts';
import { execute } from '../execute.ts';
import { requestMeta } from '../request-meta.ts';
import { holdExclusive } from '../write-scope.ts';

/**
 * The period close (issue #30; Admin): close the books up to a date, reopen them with a
 * reason. Each holds the books' lock exclusive until it has answered, so no write that read
 * the close before it is still between its check and its append (books-close.ts).
 */
export async function registerBooksRoutes(app: FastifyInstance, deps: CommandDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/books/close',
    {
      preValidation: writerOnly('books'),
      schema: {
        summary: 'Close the books up to a date (Admin): nothing dated on or before it can be written',
        tags: ['books'],
        body: closeBooksInput,
        response: { 200: booksWriteAnswer },
      },
    },
    async (request) => {
      await holdExclusive(BOOKS_LOCK);
      const { up_to } = request.body;
      const { position } = await execute(deps.eventStore, requestMeta(request), BOOKS_STREAM, booksDecider, {
        type: 'Close',
        upTo: up_to,
      });
      return { closed_up_to: up_to, position: position.toString() };
    },
  );

  api.post(
    '/api/books/reopen',
    {
      preValidation: writerOnly('books'),
      schema: {
        summary: 'Reopen the books (Admin), with a reason; optionally keep them closed up to an earlier date',
        tags: ['books'],
        body: reopenBooksInput,
        response: { 200: booksWriteAnswer },
      },
    },
    async (request) => {
      await holdExclusive(BOOKS_LOCK);
      const { reason, up_to } = request.body;
      const { position } = await execute(deps.eventStore, requestMeta(request), BOOKS_STREAM, booksDecider, {
        type: 'Reopen',
        reason,
        upTo: up_to,
      });
      return { closed_up_to: up_to, position: position.toString() };
    },
  );
}
