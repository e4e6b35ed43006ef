import { BOOKS_STREAM, booksCloseAnswer } from '@bahi/contracts';
import { signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import type { QueryDeps } from './deps.ts';

/**
 * GET /api/books/close (every role: the lists disable Edit and Delete on closed rows): the
 * close as the log has it, folded from the `books` stream as the command side's guard reads it
 * (a handful of events; no read model to lag behind a close just made).
 */
export async function registerBooksRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/books/close',
    {
      schema: {
        summary: 'The date the books are closed up to, who closed them and when',
        tags: ['books'],
        response: { 200: booksCloseAnswer },
      },
    },
    async (request) => {
      signedIn(request);
      const last = (await deps.eventStore.readStream(BOOKS_STREAM)).at(-1);
      if (!last) return { closed_up_to: null, by: null, at: null, reason: null };
      const data = last.data as { up_to: string | null; reason?: string };
      const userId = last.metadata.userId;
      const user = userId
        ? await deps.readDb
            .selectFrom('users')
            .select(['id', 'name'])
            .where('id', '=', userId)
            .executeTakeFirst()
        : undefined;
      return {
        closed_up_to: data.up_to,
        by: user ?? null,
        at: last.metadata.recordedAt,
        reason: last.type === 'BooksReopened' ? (data.reason ?? null) : null,
      };
    },
  );
}
