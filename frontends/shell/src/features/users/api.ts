import { api, type User } from '@bahi/ui';
import { keepPreviousData, type Page, queryOptions } from '@bahi/ui/screen';

export const usersQuery = (params: { page: number; limit: number }) =>
  queryOptions({
    queryKey: ['settings', 'users', params],
    queryFn: ({ signal }) => api.get<Page<User>>('/masters/users', params, signal),
    placeholderData: keepPreviousData,
  });
