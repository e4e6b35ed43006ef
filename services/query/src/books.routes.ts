import {
  BOOKS_STREAM,
  booksCloseAnswer,
  closedFiguresAnswer,
  closedPeriodAnswer,
  closedPeriodQuery,
} from '@bahi/contracts';
import { signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CLOSE_READS,
  closeAt,
  closeCovering,
  closeNow,
  closesOf,
  describeClose,
  readBooks,
  storedFigures,
} from './books-figures.ts';
import type { QueryDeps } from './deps.ts';
import { readAfterClientPosition } from './reads.ts';

/**
 * GET /api/books/close (every role: the lists disable Edit and Delete on closed rows): the
 * close as the log has it, folded from the `books` stream as the command side's guard reads it
 * (a handful of events; no read model to lag behind a close just made).
 */
export async function registerBooksRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  /**
   * The figures of the latest close, stored as soon as this close is read (the Settings screen
   * reads it right after closing, every list on opening). Best effort and without waiting:
   * read models not there yet leave it to the next reader; the figures are the same whoever
   * stores them.
   */
  const recorded = new Set<bigint>();
  const recordFigures = async (position: bigint) => {
    if (recorded.has(position)) return;
    try {
      const close = closesOf(await readBooks(deps)).find((c) => c.position === position);
      if (close) await storedFigures(deps, close, 0);
      recorded.add(position);
    } catch (error) {
      app.log.debug({ err: error, position: position.toString() }, 'close figures not stored yet');
    }
  };
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
      if (last.type === 'BooksClosed') await recordFigures(last.position);
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

  /**
   * Reports as closed (issue #30): the figures a close recorded (stored by the first reader,
   * books-figures.ts) and how they stand now: `now.same` false after a reopening and a
   * restatement. A reproduction of the Balances and stock reports as of the close date gives
   * the same canonical JSON, so the same digest, while they stand.
   */
  api.get(
    '/api/books/closes/:position/figures',
    {
      schema: {
        summary: 'The figures recorded at a close of the books, their digest, and whether they still stand',
        tags: ['books'],
        params: z.object({ position: z.string().describe("The close's log position") }),
        response: { 200: closedFiguresAnswer },
      },
    },
    async (request) => {
      signedIn(request);
      await readAfterClientPosition(deps, request, CLOSE_READS);
      const books = await readBooks(deps);
      const close = closeAt(closesOf(books), request.params.position);
      const stored = await storedFigures(deps, close);
      return {
        close: await describeClose(deps, close, stored),
        figures: JSON.parse(stored.figures),
        now: await closeNow(deps, books, close, stored.digest, undefined),
      };
    },
  );

  /**
   * Whether a report as of `asOf` (as recorded at `knownAt`) reads a closed period: the close
   * it falls under (when, by whom, its digest) and how its figures stand then. The Balances
   * and Stock screens show it ("Closed on 1 Nov 2026 by Asha").
   */
  api.get(
    '/api/books/closed',
    {
      schema: {
        summary: 'The close a report as of a date falls under, if any, and whether its figures still stand',
        tags: ['books'],
        querystring: closedPeriodQuery,
        response: { 200: closedPeriodAnswer },
      },
    },
    async (request) => {
      signedIn(request);
      const { asOf, knownAt } = request.query;
      if (!asOf) return { close: null }; // the books as they stand today reach into the open period
      await readAfterClientPosition(deps, request, CLOSE_READS);
      const books = await readBooks(deps);
      const close = closeCovering(closesOf(books), asOf, knownAt);
      if (!close) return { close: null };
      const stored = await storedFigures(deps, close);
      return {
        close: {
          ...(await describeClose(deps, close, stored)),
          now: await closeNow(deps, books, close, stored.digest, knownAt),
        },
      };
    },
  );
}
