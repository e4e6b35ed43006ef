import { registerErrorMapping } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import type { CommandDeps } from './deps.ts';
import { domainErrorToHttp } from './domain-errors.ts';
import { aroundDryRuns } from './dry-run.ts';
import { registerImportRoutes } from './imports/imports.routes.ts';
import { registerAuthRoutes } from './routes/auth.routes.ts';
import { registerBooksRoutes } from './routes/books.routes.ts';
import { registerCashRoutes } from './routes/cash.routes.ts';
import { registerMasterRoutes } from './routes/masters.routes.ts';
import { registerNotificationRoutes } from './routes/notifications.routes.ts';
import { registerProjectionRoutes } from './routes/projections.routes.ts';
import { registerReportSendRoutes } from './routes/report-sends.routes.ts';
import { registerTransactionRoutes } from './routes/transactions.routes.ts';
import { registerUserRoutes } from './routes/users.routes.ts';

export type { CommandDeps } from './deps.ts';

/**
 * The command side's /api routes: every non-GET call. The same function serves the command
 * process and the standalone process; the process registers authentication once.
 */
export async function registerCommandRoutes(app: FastifyInstance, deps: CommandDeps): Promise<void> {
  registerErrorMapping(app, domainErrorToHttp);
  // Every transaction write can be a dry run (dry-run.ts); every write takes an
  // Idempotency-Key (idempotency.ts).
  await aroundDryRuns(app, deps, () =>
    deps.idempotency.around(app, async () => {
      await registerAuthRoutes(app, deps);
      await registerUserRoutes(app, deps);
      await registerMasterRoutes(app, deps);
      await registerTransactionRoutes(app, deps);
      await registerCashRoutes(app, deps);
      await registerNotificationRoutes(app, deps);
      await registerProjectionRoutes(app, deps);
      await registerReportSendRoutes(app, deps);
      await registerBooksRoutes(app, deps);
      await registerImportRoutes(app, deps);
    }),
  );
}
