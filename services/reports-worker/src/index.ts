export { eventStoreEffects, memoryEffects, SENDS_STREAM, type SendRecord } from './effects.ts';
export { processReportJob, renderFile } from './process.ts';
export { toDocument } from './render/document.ts';
export { renderPdf } from './render/pdf.ts';
export { renderXlsx } from './render/xlsx.ts';
export { startReportsWorkerService } from './service.ts';
export { type ReportsWorker, startReportsWorker } from './worker.ts';
