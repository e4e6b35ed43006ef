import { api } from '@bahi/ui';
import { type City, keepPreviousData, type Page, queryOptions, useQuery } from '@bahi/ui/screen';
import type { ListState } from '../../shared/master-page.tsx';

export const citiesPageQuery = (params: { page: number; limit: number; search: string }) =>
  queryOptions({
    queryKey: ['masters', 'cities', 'page', params],
    queryFn: ({ signal }) => api.get<Page<City>>('/masters/cities', params, signal),
    placeholderData: keepPreviousData,
  });

export const useCitiesPage = (list: ListState) =>
  useQuery(citiesPageQuery({ page: list.page, limit: list.pageSize, search: list.filters.search }));
