import { api, type User } from '@bahi/ui';
import { isoDay, keepPreviousData, type Page, queryOptions } from '@bahi/ui/screen';
import type { ActivityEntry } from '../../shared/activity.ts';

export interface LogFilters {
  userId: string;
  actionType: string;
  modelName: string;
  startDate: string;
  endDate: string;
}

/** GET /logs: one page of the activity log; empty filters are left out (spec section 7). */
export const activityLogQuery = (page: number, limit: number, f: LogFilters) =>
  queryOptions({
    queryKey: ['settings', 'activity-log', { page, limit, ...f }],
    queryFn: ({ signal }) =>
      api.get<Page<ActivityEntry>>(
        '/logs',
        {
          page,
          limit,
          userId: f.userId,
          actionType: f.actionType,
          modelName: f.modelName,
          // Full ISO timestamps (spec section 7) that keep the chosen calendar day in any time zone.
          startDate: f.startDate ? isoDay(f.startDate) : '',
          endDate: f.endDate ? isoDay(f.endDate) : '',
        },
        signal,
      ),
    placeholderData: keepPreviousData,
  });

/** Every user, for the User filter. */
export const userChoicesQuery = () =>
  queryOptions({
    queryKey: ['settings', 'users', 'all'],
    queryFn: ({ signal }) => api.get<Page<User>>('/masters/users', { limit: -1 }, signal).then((p) => p.data),
  });
