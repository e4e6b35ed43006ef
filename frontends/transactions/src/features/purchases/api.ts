import type { PurchaseRow as Purchase } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { keepPreviousData, type Page, queryOptions, useQuery } from '@bahi/ui/screen';
import type { RecordListState } from '../../shared/record-list-page.tsx';

// A purchase as GET /transactions/purchases answers it (spec section 3): the route's schema (issue #19).
export type { Purchase };

export const purchasesQuery = (params: { page: number; limit: number; city_id: string }) =>
  queryOptions({
    queryKey: ['transactions', 'purchases', params],
    queryFn: ({ signal }) => api.get<Page<Purchase>>('/transactions/purchases', params, signal),
    placeholderData: keepPreviousData,
    enabled: !!params.city_id,
  });

export const usePurchasesPage = (list: RecordListState, cityId: string) =>
  useQuery(purchasesQuery({ page: list.page, limit: list.pageSize, city_id: cityId }));
