import type { CashParams, PaymentRow } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { isoDay, keepPreviousData, type Page, queryOptions } from '@bahi/ui/screen';

// A row of GET /reports/payments, typed by the route's response schema (issue #19).
export type { PaymentRow };

export type PaymentFilters = {
  city_id: string;
  /** 'Funder', 'Agent' or '' (All). */
  related_entity_type: string;
  /** 'YYYY-MM-DD' or '' */
  startDate: string;
  endDate: string;
};

/** The filters as the API takes them (the report and its files): dates as full ISO timestamps. */
export const paymentFilters = (f: PaymentFilters): CashParams => ({
  city_id: f.city_id,
  related_entity_type: f.related_entity_type,
  startDate: f.startDate ? isoDay(f.startDate) : '',
  endDate: f.endDate ? isoDay(f.endDate) : '',
});

export const paymentsQuery = (params: PaymentFilters & { page: number; limit: number }) =>
  queryOptions({
    queryKey: ['reports', 'payments', params],
    queryFn: ({ signal }) =>
      api.get<Page<PaymentRow>>(
        '/reports/payments',
        { page: params.page, limit: params.limit, ...paymentFilters(params) } satisfies CashParams,
        signal,
      ),
    placeholderData: keepPreviousData,
    // A city's payments: nothing is asked until the tabs have chosen one.
    enabled: !!params.city_id,
  });
