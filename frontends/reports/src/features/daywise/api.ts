import { api } from '@bahi/ui';
import { keepPreviousData, queryOptions } from '@bahi/ui/screen';

/** A day-wise row (spec section 3): INR at the record's own rate, and the amount as entered. */
export interface DaywiseRow {
  date: string;
  category: string;
  remarks: string | null;
  type: 'Income' | 'Expense';
  amount: string;
  amount_entered?: string;
  currency?: string;
  record?: { type: string; id: string };
}

export interface DaywiseParams {
  startDate: string;
  endDate: string;
  city_id: string;
  category?: string;
  asOf?: string;
  knownAt?: string;
}

/** GET /reports/daywise-report: fetched only with both dates and a city (spec section 5). */
export const daywiseQuery = (params: DaywiseParams) =>
  queryOptions({
    queryKey: ['reports', 'daywise', params],
    queryFn: ({ signal }) => api.get<DaywiseRow[]>('/reports/daywise-report', { ...params }, signal),
    placeholderData: keepPreviousData,
    enabled: !!(params.startDate && params.endDate && params.city_id),
    staleTime: params.knownAt ? Number.POSITIVE_INFINITY : 0,
  });
