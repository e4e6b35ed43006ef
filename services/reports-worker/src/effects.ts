import { createHash } from 'node:crypto';
import type { EventStore } from '@bahi/event-store';
import { type Requester, SENDS_STREAM, type SendRecord } from '@bahi/report-jobs';

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
  recordSend(record: SendRecord): Promise<void>;
}

export function eventStoreEffects(store: EventStore): Effects {
  const metadata = (userId: string | null, correlationId: string) => ({
    userId,
    correlationId,
    causationId: null,
    schemaVersion: 1,
  });
  return {
    async notify(notice, userId) {
      const id = nameUuid(`report-notice:${notice.key}`);
      const { key, ...rest } = notice;
      await store.append(
        'notifications-reports',
        [{ id, type: 'NotificationRaised', data: { id, ...rest }, metadata: metadata(userId, key) }],
        'any',
      );
    },
    async recordSend(record) {
      await store.append(
        SENDS_STREAM,
        [
          {
            id: nameUuid(`report-send:${record.job_id}:${record.status}`),
            type: 'ReportSendRecorded',
            data: record,
            metadata: metadata(record.requested_by, record.job_id),
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
  return {
    notices,
    sends,
    async notify(notice) {
      if (!notices.some((n) => n.key === notice.key)) notices.push(notice);
    },
    async recordSend(record) {
      if (!sends.some((s) => s.job_id === record.job_id && s.status === record.status)) sends.push(record);
    },
  };
}
