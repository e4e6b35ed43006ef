import { runMain } from '@bahi/server-kit';
import { startReportsWorkerService } from './service.ts';

runMain('bahi reports-worker', () => startReportsWorkerService());
