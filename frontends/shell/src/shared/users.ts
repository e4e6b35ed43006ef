import { api, type User } from '@bahi/ui';
import { type Page, queryOptions } from '@bahi/ui/screen';

/** Every user (the same key as the Activity Log's user filter), to name who asked for something. */
export const allUsersQuery = () =>
  queryOptions({
    queryKey: ['settings', 'users', 'all'],
    queryFn: ({ signal }) => api.get<Page<User>>('/masters/users', { limit: -1 }, signal).then((p) => p.data),
  });

/** A user's name by id, while the users load or for a deleted one: the fallback. */
export function nameOf(users: User[] | undefined, id: string | null | undefined, fallback = 'Unknown user') {
  if (!id) return fallback;
  return users?.find((u) => u.id === id)?.name ?? fallback;
}
