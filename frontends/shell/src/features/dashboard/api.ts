import type { DashboardSummary } from '@bahi/contracts';
import { api } from '@bahi/ui';
import type { ActivityEntry } from '../../shared/activity.ts';

// The summary's type is the route's response schema (issue #19): one contract for both sides.
export type { ActivityEntry, DashboardSummary };

export const fetchSummary = () => api.get<DashboardSummary>('/reports/dashboard-summary');
export const fetchRecentActivity = () => api.get<ActivityEntry[]>('/logs/recent');
