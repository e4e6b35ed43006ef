import { REPORT_SENDS_STREAM } from '@bahi/contracts';

/** A WhatsApp send as recorded in the log (ReportSendRecorded), read by the outbox and the query side. */
export interface SendRecord {
  job_id: string;
  report: string;
  params: Record<string, string>;
  recipient: string;
  transport: 'cloud-api' | 'outbox';
  /** `sent`: an Admin marked an outbox send as sent by hand (the command side records it). */
  status: 'accepted' | 'outbox' | 'failed' | 'sent';
  message_id: string | null;
  error: string | null;
  file_name: string;
  sha256: string;
  bytes: number;
  read_position: string;
  read_at: string;
  requested_by: string;
}

export const SENDS_STREAM = REPORT_SENDS_STREAM;
