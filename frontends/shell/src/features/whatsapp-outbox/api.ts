import type { EventData } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { queryOptions } from '@bahi/ui/screen';

/** One send's latest record (a `ReportSendRecorded` of the `report-sends` stream). */
export interface OutboxEntry extends EventData<'ReportSendRecorded'> {
  recorded_at: string;
  /** Who recorded the latest record: the requester, or the Admin who marked it sent. */
  recorded_by?: string | null;
  /** The file, with the session's token (`download`). */
  link: string;
}

/** GET /reports/whatsapp/outbox (Admins): every send's latest record, newest first. */
export const outboxQuery = () =>
  queryOptions({
    queryKey: ['settings', 'whatsapp-outbox'],
    queryFn: ({ signal }) => api.get<{ data: OutboxEntry[] }>('/reports/whatsapp/outbox', undefined, signal),
  });

/** POST /reports/whatsapp/outbox/{jobId}/sent (command side): an Admin sent it by hand. */
export const markSent = (jobId: string) =>
  api.post<{ jobId: string; message: string; position: string }>(
    `/reports/whatsapp/outbox/${encodeURIComponent(jobId)}/sent`,
  );
