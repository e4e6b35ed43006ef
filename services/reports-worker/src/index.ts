export { startReportsWorkerService } from './service.ts';
export { type ReportsWorker, startReportsWorker } from './worker.ts';
