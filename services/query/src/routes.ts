import { licenseStatus } from '@bahi/contracts';
import { signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { registerBooksRoutes } from './books.routes.ts';
import { registerCashListRoutes } from './cash.routes.ts';
import type { QueryDeps } from './deps.ts';
import { registerEventStream, type StreamAuth } from './events.routes.ts';
import { registerLogRoutes } from './logs.routes.ts';
import { registerMasterListRoutes } from './masters.routes.ts';
import { registerNotificationListRoutes } from './notifications.routes.ts';
import { registerProjectionStatusRoutes } from './projections.routes.ts';
import { registerRecordRoutes } from './records.routes.ts';
import { type ReportFileDeps, registerReportFileRoutes } from './report-files.routes.ts';
import { registerReportRoutes } from './reports.routes.ts';
import { registerTransactionListRoutes } from './transactions.routes.ts';
import { registerVerifyRoutes } from './verify.routes.ts';

export type QueryDepsWithStream = QueryDeps & StreamAuth & ReportFileDeps;

/**
 * The query side's /api routes: every GET. The same function serves the query process and
 * the standalone process. Lists and reports arrive with the read-side issue.
 */
export async function registerQueryRoutes(app: FastifyInstance, deps: QueryDepsWithStream): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/auth/license-status',
    {
      schema: {
        summary: 'Whether the installed license is valid',
        tags: ['auth'],
        response: { 200: licenseStatus },
      },
    },
    async (request) => {
      signedIn(request);
      return deps.license.current();
    },
  );
  await registerMasterListRoutes(app, deps);
  await registerReportRoutes(app, deps);
  await registerRecordRoutes(app, deps);
  await registerTransactionListRoutes(app, deps);
  await registerCashListRoutes(app, deps);
  await registerLogRoutes(app, deps);
  await registerNotificationListRoutes(app, deps);
  await registerProjectionStatusRoutes(app, deps);
  await registerVerifyRoutes(app, deps);
  await registerBooksRoutes(app, deps);
  await registerReportFileRoutes(app, deps);
  await registerEventStream(app, deps);
}

export type { QueryDeps } from './deps.ts';
