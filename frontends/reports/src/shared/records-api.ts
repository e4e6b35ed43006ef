import { api } from '@bahi/ui';
import { queryOptions } from '@bahi/ui/screen';

/** One change of a record, from the activity log. */
export interface RecordChange {
  id: string;
  action_type: 'CREATE' | 'UPDATE' | 'DELETE';
  model_name: string;
  user: { id: string; name: string } | null;
  old_data: Record<string, unknown> | null;
  new_data: Record<string, unknown> | null;
  created_at: string;
}

/** GET /reports/records/{type}/{id}: a record as last known, whether deleted, and its history. */
export interface RecordHistory {
  type: string;
  id: string;
  data: Record<string, unknown> | null;
  deleted: boolean;
  history: RecordChange[];
  names: Record<string, string>;
}

export const recordQuery = (type: string, id: string) =>
  queryOptions({
    queryKey: ['reports', 'record', type, id],
    queryFn: ({ signal }) => api.get<RecordHistory>(`/reports/records/${type}/${id}`, undefined, signal),
  });
