import type { ProductRow as Product } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { keepPreviousData, type Page, queryOptions, useQuery } from '@bahi/ui/screen';
import type { ListState } from '../../shared/master-page.tsx';

// A product as GET /masters/products lists it: the route's schema (issue #19).
export type { Product };

export const productsPageQuery = (params: { page: number; limit: number; search: string }) =>
  queryOptions({
    queryKey: ['masters', 'products', 'page', params],
    queryFn: ({ signal }) => api.get<Page<Product>>('/masters/products', params, signal),
    placeholderData: keepPreviousData,
  });

export const useProductsPage = (list: ListState) =>
  useQuery(productsPageQuery({ page: list.page, limit: list.pageSize, search: list.filters.search }));
