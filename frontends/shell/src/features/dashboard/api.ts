import { api } from '@bahi/ui';
import type { ActivityEntry } from '../../shared/activity.ts';

export type { ActivityEntry };

export interface DashboardSummary {
  totalFunderBalance: string;
  totalAgentBalance: string;
  totalCollectorBalance: string;
  totalGodownBalance: string;
  dailyIncomeExpense: { day: string; income: string; expense: string }[];
}

export const fetchSummary = () => api.get<DashboardSummary>('/reports/dashboard-summary');
export const fetchRecentActivity = () => api.get<ActivityEntry[]>('/logs/recent');
