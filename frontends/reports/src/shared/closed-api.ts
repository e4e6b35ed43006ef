import type { ClosedPeriodAnswer, ClosedPeriodParams } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { queryOptions } from '@bahi/ui/screen';

/**
 * GET /books/closed (issue #30, reports as closed): the close a report as of `asOf` (as
 * recorded at `knownAt`) falls under, and whether its figures still stand. Under 'reports', so
 * a write that restates them refreshes it; the live stream's 'books' events refresh
 * ['reports', 'closed'] too (a close or a reopening).
 */
export const closedQuery = (params: ClosedPeriodParams & { asOf: string }) =>
  queryOptions({
    queryKey: ['reports', 'closed', params],
    queryFn: ({ signal }) => api.get<ClosedPeriodAnswer>('/books/closed', params, signal),
    enabled: !!params.asOf,
  });
