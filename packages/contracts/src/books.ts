import { z } from 'zod';
import { businessDate, optionalBusinessDate, requiredText } from './primitives.ts';
import { logPosition } from './responses.ts';

export * from './books-words.ts';

/**
 * The period close (issue #30): "the books are closed up to <date>". Nothing dated on or
 * before that date is written, changed or deleted, by any role, until an Admin reopens.
 */

/** POST /api/books/close: close the books up to this date (Admin). */
export const closeBooksInput = z.object({ up_to: businessDate('Close up to') });
export type CloseBooksInput = z.output<typeof closeBooksInput>;

/** POST /api/books/reopen: move the close back (Admin), with the reason the log keeps. */
export const reopenBooksInput = z.object({
  reason: requiredText('Reason', 500),
  /** The earlier date the books stay closed up to; left out: the books are open again. */
  up_to: optionalBusinessDate('Keep closed up to'),
});
export type ReopenBooksInput = z.output<typeof reopenBooksInput>;

/** GET /api/books/close: the close as it stands (every date null: the books are open). */
export const booksCloseAnswer = z.object({
  closed_up_to: z.string().nullable(),
  /** Who closed (or last reopened) and when. */
  by: z.object({ id: z.string(), name: z.string() }).nullable(),
  at: z.string().nullable(),
  /** The reason of the last reopening, when the last change was one. */
  reason: z.string().nullable(),
});
export type BooksCloseAnswer = z.output<typeof booksCloseAnswer>;

/** The activity log's record id for the books (one record: the close). */
export const BOOKS_RECORD_ID = '00000000-0000-4000-8000-00000000b00c';

/** What a close or a reopening answers: the date the books are now closed up to, and the log position. */
export const booksWriteAnswer = z.object({
  closed_up_to: z.string().nullable(),
  position: logPosition,
});
export type BooksWriteAnswer = z.output<typeof booksWriteAnswer>;
