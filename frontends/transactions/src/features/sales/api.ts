import type { AveragePurchaseRate, SaleRow as Sale } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { keepPreviousData, type Page, queryOptions, useQuery } from '@bahi/ui/screen';
import type { RecordListState } from '../../shared/record-list-page.tsx';

// A sale as GET /transactions/sales answers it (spec section 3): the route's schema (issue #19).
export type { Sale };

export const salesQuery = (params: { page: number; limit: number; city_id: string }) =>
  queryOptions({
    queryKey: ['transactions', 'sales', params],
    queryFn: ({ signal }) => api.get<Page<Sale>>('/transactions/sales', params, signal),
    placeholderData: keepPreviousData,
    enabled: !!params.city_id,
  });

export const useSalesPage = (list: RecordListState, cityId: string) =>
  useQuery(salesQuery({ page: list.page, limit: list.pageSize, city_id: cityId }));

/** The moving-average cost of a product in a godown, INR per unit (4 decimals). */
export const averageRateQuery = (productId: string, godownId: string) =>
  queryOptions({
    queryKey: ['reports', 'average-rate', { productId, godownId }],
    queryFn: ({ signal }) =>
      api.get<AveragePurchaseRate>(
        '/reports/stock/average-purchase-rate',
        { product_id: productId, godown_id: godownId },
        signal,
      ),
    enabled: !!productId && !!godownId,
  });
