export { eventStoreEffects, memoryEffects, SENDS_STREAM, type SendRecord } from './effects.ts';
export type { ReportJob, Requester } from './jobs.ts';
export { processReportJob, renderFile } from './process.ts';
export { DEFAULT_PREFIX, DEFAULT_QUEUE } from './queues.ts';
export {
  FORMATS,
  REPORT_NAMES,
  type ReportFormat,
  type ReportName,
  type ReportSource,
  toDocument,
} from './render/document.ts';
export { renderPdf } from './render/pdf.ts';
export { renderXlsx } from './render/xlsx.ts';
export { connectReports, type InProcessReports, inProcessReports, type Reports, runJob } from './reports.ts';
export { startReportsWorkerService } from './service.ts';
export type { StoredFile } from './store.ts';
export { parseRecipient } from './whatsapp.ts';
export { type ReportsWorker, startReportsWorker } from './worker.ts';
