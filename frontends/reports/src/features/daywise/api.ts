import type { DaywiseParams, DaywiseRow } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { keepPreviousData, queryOptions } from '@bahi/ui/screen';

// A day-wise row (spec section 3), typed by the report's contract (issue #19).
// GET /reports/daywise-report's query string, the route's own schema's input.
export type { DaywiseParams, DaywiseRow };

/** GET /reports/daywise-report: fetched only with both dates and a city (spec section 5). */
export const daywiseQuery = (params: DaywiseParams) =>
  queryOptions({
    queryKey: ['reports', 'daywise', params],
    queryFn: ({ signal }) => api.get<DaywiseRow[]>('/reports/daywise-report', { ...params }, signal),
    placeholderData: keepPreviousData,
    enabled: !!(params.startDate && params.endDate && params.city_id),
    staleTime: params.knownAt ? Number.POSITIVE_INFINITY : 0,
  });
