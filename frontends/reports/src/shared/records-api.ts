import type { RecordChange, RecordHistory } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { queryOptions } from '@bahi/ui/screen';

// GET /reports/records/{type}/{id} (a record as last known, whether deleted, and its history),
// typed by the route's response schema (issue #19).
export type { RecordChange, RecordHistory };

export const recordQuery = (type: string, id: string) =>
  queryOptions({
    queryKey: ['reports', 'record', type, id],
    queryFn: ({ signal }) => api.get<RecordHistory>(`/reports/records/${type}/${id}`, undefined, signal),
  });
