import { api } from '@bahi/ui';
import { keepPreviousData, type Page, queryOptions, useQuery } from '@bahi/ui/screen';
import type { RecordListState } from '../../shared/record-list-page.tsx';
import type { CustomFieldValue } from '../../shared/transaction-api.ts';

type Named = { id: string; name: string | null } | null;

/** A purchase as GET /transactions/purchases answers it (spec section 3). */
export interface Purchase {
  id: string;
  type: 'Godown' | 'Direct';
  purchase_date: string;
  city_id: string;
  funder_id: string;
  funder: Named;
  product_id: string;
  product: Named;
  godown_id: string | null;
  godown: Named;
  collector_id: string | null;
  collector: Named;
  agent_id: string | null;
  agent: Named;
  rate: string;
  quantity: string;
  returned_quantity: string;
  remaining: string;
  total: string;
  paid_amount: string;
  commission: string;
  customFieldValues: CustomFieldValue[];
}

export const purchasesQuery = (params: { page: number; limit: number; city_id: string }) =>
  queryOptions({
    queryKey: ['transactions', 'purchases', params],
    queryFn: ({ signal }) => api.get<Page<Purchase>>('/transactions/purchases', params, signal),
    placeholderData: keepPreviousData,
    enabled: !!params.city_id,
  });

export const usePurchasesPage = (list: RecordListState, cityId: string) =>
  useQuery(purchasesQuery({ page: list.page, limit: list.pageSize, city_id: cityId }));
