import { api } from '@bahi/ui';
import { keepPreviousData, type Page, queryOptions, useQuery } from '@bahi/ui/screen';
import type { ListState } from '../../shared/master-page.tsx';

export interface Product {
  id: string;
  name: string;
}

export const productsPageQuery = (params: { page: number; limit: number; search: string }) =>
  queryOptions({
    queryKey: ['masters', 'products', 'page', params],
    queryFn: ({ signal }) => api.get<Page<Product>>('/masters/products', params, signal),
    placeholderData: keepPreviousData,
  });

export const useProductsPage = (list: ListState) =>
  useQuery(productsPageQuery({ page: list.page, limit: list.pageSize, search: list.filters.search }));
