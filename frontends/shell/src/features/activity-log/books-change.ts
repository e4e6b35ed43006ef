import { formatBusinessDate } from '@bahi/contracts/books-words';

/**
 * A close or reopening of the books in the activity log's words (issue #30): "Closed the books
 * up to 31 Oct 2026", "Reopened the books (open now) because: <reason>".
 */
export function booksChange(data: Record<string, unknown> | null): string {
  const closed = data?.closed as { up_to?: string } | undefined;
  if (closed?.up_to) return `Closed the books up to ${formatBusinessDate(closed.up_to)}`;
  const reopened = data?.reopened as { up_to?: string | null; reason?: string } | undefined;
  if (reopened) {
    const now = reopened.up_to ? `closed up to ${formatBusinessDate(reopened.up_to)} now` : 'open now';
    return `Reopened the books (${now}) because: ${reopened.reason ?? ''}`;
  }
  return 'The books';
}
