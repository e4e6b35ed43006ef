import { createHash } from 'node:crypto';
import type { EventStore } from '@bahi/event-store';
import { type Requester, SENDS_STREAM, type SendRecord } from '@bahi/report-jobs';
import { appendToLog } from '@bahi/server-kit';

export { SENDS_STREAM, type SendRecord };

/** A uuid derived from a name: the same notice or record appended twice is stored once. */
export function nameUuid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((Number.parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface Notice {
  /** Names the notice: the same key is one notification however often it is raised. */
  key: string;
  audience: Requester['role'];
  type: 'info' | 'warning' | 'success' | 'error';
  title: string;
  message: string;
  link: string | null;
}

/** The worker's side effects, as events in the log (the notification projection and live stream follow). */
export interface Effects {
  notify(notice: Notice, userId: string | null): Promise<void>;
  /**
   * `attempt`: the job that made the record, and who asked for it, when that is not the send's
   * own first job (Send now): its record is another event, recorded by the Admin who asked.
   */
  recordSend(record: SendRecord, attempt?: { jobId: string; userId: string }): Promise<void>;
}

export function eventStoreEffects(store: EventStore): Effects {
  const metadata = (userId: string | null, correlationId: string) => ({
    userId,
    correlationId,
    causationId: null,
  });
  return {
    async notify(notice, userId) {
      const id = nameUuid(`report-notice:${notice.key}`);
      const { key, ...rest } = notice;
      await appendToLog(
        store,
        'notifications-reports',
        [{ id, type: 'NotificationRaised', data: { id, ...rest }, metadata: metadata(userId, key) }],
        'any',
      );
    },
    async recordSend(record, attempt) {
      await appendToLog(
        store,
        SENDS_STREAM,
        [
          {
            id: nameUuid(`report-send:${attempt?.jobId ?? record.job_id}:${record.status}`),
            type: 'ReportSendRecorded',
            data: record,
            metadata: metadata(attempt?.userId ?? record.requested_by, record.job_id),
          },
        ],
        'any',
      );
    },
  };
}

/** Effects that only remember (tests, and a worker run without an event store). */
export function memoryEffects(): Effects & { notices: Notice[]; sends: SendRecord[] } {
  const notices: Notice[] = [];
  const sends: SendRecord[] = [];
  const recorded = new Set<string>();
  return {
    notices,
    sends,
    async notify(notice) {
      if (!notices.some((n) => n.key === notice.key)) notices.push(notice);
    },
    async recordSend(record, attempt) {
      // One record per job and status, as the event ids above make it.
      const id = `${attempt?.jobId ?? record.job_id}:${record.status}`;
      if (recorded.has(id)) return;
      recorded.add(id);
      sends.push(record);
    },
  };
}
