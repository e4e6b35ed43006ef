import type { OutboxEntry, OutboxSendNow, WhatsappOutbox } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { queryOptions } from '@bahi/ui/screen';

// One send's latest record (a `ReportSendRecorded` of the `report-sends` stream), who recorded
// it and its file's link: the route's response schema (issue #19).
export type { OutboxEntry };

/** GET /reports/whatsapp/outbox (Admins): every send's latest record, newest first. */
export const outboxQuery = () =>
  queryOptions({
    queryKey: ['settings', 'whatsapp-outbox'],
    queryFn: ({ signal }) => api.get<WhatsappOutbox>('/reports/whatsapp/outbox', undefined, signal),
  });

/** POST /reports/whatsapp/outbox/{jobId}/sent (command side): an Admin sent it by hand. */
export const markSent = (jobId: string) =>
  api.post<{ jobId: string; message: string; position: string }>(
    `/reports/whatsapp/outbox/${encodeURIComponent(jobId)}/sent`,
  );

/**
 * POST /reports/whatsapp/outbox/{jobId}/send (query side, through the reports worker): Send now.
 * `accepted`: sent; `outbox`: stays in the outbox (no WhatsApp transport), the message says why;
 * `queued`: still going, its row changes when done.
 */
export const sendNow = (jobId: string) =>
  api.post<OutboxSendNow>(`/reports/whatsapp/outbox/${encodeURIComponent(jobId)}/send`);
