import { api } from '@bahi/ui';
import { queryOptions } from '@bahi/ui/screen';

/** One send's latest record (a `ReportSendRecorded` of the `report-sends` stream). */
export interface OutboxEntry {
  job_id: string;
  report: string;
  params: Record<string, string>;
  recipient: string;
  transport: 'cloud-api' | 'outbox';
  status: 'accepted' | 'outbox' | 'failed';
  message_id: string | null;
  error: string | null;
  file_name: string;
  sha256: string;
  bytes: number;
  read_position: string;
  read_at: string;
  requested_by: string;
  recorded_at: string;
  /** The file, with the session's token (`download`). */
  link: string;
}

/** GET /reports/whatsapp/outbox (Admins): every send's latest record, newest first. */
export const outboxQuery = () =>
  queryOptions({
    queryKey: ['settings', 'whatsapp-outbox'],
    queryFn: ({ signal }) => api.get<{ data: OutboxEntry[] }>('/reports/whatsapp/outbox', undefined, signal),
  });
