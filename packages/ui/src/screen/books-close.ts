import type { BooksCloseAnswer } from '@bahi/contracts';
import { booksClosedMessage } from '@bahi/contracts/books-words';
import { api } from '@bahi/ui';
import { queryOptions, useQuery } from '@tanstack/react-query';

/**
 * GET /books/close (issue #30): the date the books are closed up to. Its key starts with
 * 'books', which the live stream refreshes when the `books` stream changes (live-invalidation.ts).
 */
export const booksCloseQuery = () =>
  queryOptions({
    queryKey: ['books', 'close'],
    queryFn: ({ signal }) => api.get<BooksCloseAnswer>('/books/close', undefined, signal),
  });

/**
 * Why a record dated `date` cannot be edited or deleted ("The books are closed up to 31 Oct
 * 2026."), or null when it can: the same words the server answers with.
 */
export function useClosedReason(): (date: string) => string | null {
  const upTo = useQuery(booksCloseQuery()).data?.closed_up_to ?? null;
  return (date) => (upTo !== null && date.slice(0, 10) <= upTo ? booksClosedMessage(upTo) : null);
}

/** What an adjustment says of the record it corrects (issue #30), for remotes that show it. */
export { adjustedRecordWords, adjustsWords } from '@bahi/contracts/books-words';
