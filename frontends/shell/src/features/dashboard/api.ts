import { api } from '@bahi/ui';

export interface DashboardSummary {
  totalFunderBalance: string;
  totalAgentBalance: string;
  totalCollectorBalance: string;
  totalGodownBalance: string;
  dailyIncomeExpense: { day: string; income: string; expense: string }[];
}

export interface ActivityEntry {
  id: string;
  action_type: 'CREATE' | 'UPDATE' | 'DELETE' | string;
  model_name: string;
  record_id: string;
  user: { id: string; name: string } | null;
  old_data: Record<string, unknown> | null;
  new_data: Record<string, unknown> | null;
  created_at: string;
}

export const fetchSummary = () => api.get<DashboardSummary>('/reports/dashboard-summary');
export const fetchRecentActivity = () => api.get<ActivityEntry[]>('/logs/recent');
