import type { CashbookParams, CashbookRow } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { keepPreviousData, partiesQuery, queryOptions } from '@bahi/ui/screen';

// A cashbook line (spec section 3), typed by the report's contract (issue #19).
// GET /reports/cashbook-report's query string, the route's own schema's input.
export type { CashbookParams, CashbookRow };

/** GET /reports/cashbook-report: fetched only with both dates (spec section 5) and an entity. */
export const cashbookQuery = (params: CashbookParams) =>
  queryOptions({
    queryKey: ['reports', 'cashbook', params],
    queryFn: ({ signal }) => api.get<CashbookRow[]>('/reports/cashbook-report', { ...params }, signal),
    placeholderData: keepPreviousData,
    enabled: !!(params.startDate && params.endDate && params.entity_type && params.entity_id),
    staleTime: params.knownAt ? Number.POSITIVE_INFINITY : 0,
  });

/** The picker's groups: the city's collectors, and every godown. */
export const cityCollectorsQuery = (cityId: string) => ({
  ...partiesQuery('Collector', { limit: -1, city_id: cityId }),
  enabled: !!cityId,
});
export const allGodownsQuery = () => partiesQuery('Godown', { limit: -1 });
