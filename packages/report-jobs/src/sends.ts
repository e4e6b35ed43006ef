import { type EventData, REPORT_SENDS_STREAM } from '@bahi/contracts';

/** A WhatsApp send as recorded in the log: the data of its `ReportSendRecorded` event. */
export type SendRecord = EventData<'ReportSendRecorded'>;

export const SENDS_STREAM = REPORT_SENDS_STREAM;
