import { api } from '@bahi/ui';
import { keepPreviousData, type Page, queryOptions, useQuery } from '@bahi/ui/screen';
import type { RecordListState } from '../../shared/record-list-page.tsx';
import type { CustomFieldValue } from '../../shared/transaction-api.ts';

type Named = { id: string; name: string | null };

/** A sale as GET /transactions/sales answers it (spec section 3). */
export interface Sale {
  id: string;
  sale_date: string;
  agent_id: string;
  agent: Named;
  product_id: string;
  product: Named;
  godown_id: string;
  godown: Named;
  rate: string;
  quantity: string;
  returned_quantity: string;
  remaining: string;
  total: string;
  clearing_charge: string;
  customFieldValues: CustomFieldValue[];
}

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
      api.get<{ average_rate: string; quantity: string }>(
        '/reports/stock/average-purchase-rate',
        { product_id: productId, godown_id: godownId },
        signal,
      ),
    enabled: !!productId && !!godownId,
  });
