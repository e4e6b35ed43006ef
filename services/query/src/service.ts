import { connectReports } from '@bahi/report-jobs';
import {
  createTokenService,
  followLicense,
  licenseFromConfig,
  ReadinessProblem,
  type Running,
  registerAuthentication,
  registerLicenseGate,
  startDistributedService,
  watchReportQueue,
} from '@bahi/server-kit';
import { registerQueryRoutes } from './routes.ts';
import { loadUserFromLog } from './users.ts';

/** The query service as its own process: it checks the same tokens and license as the command side. */
export function startQueryService(env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  return startDistributedService({
    service: 'query',
    defaultPort: 3002,
    // The same list and report queries over and over: Postgres plans each once per connection.
    namedReads: true,
    env,
    require: ['BAHI_JWT_SECRET'],
    async setup({ storage, app, config }) {
      const license = await licenseFromConfig(config);
      const tokens = createTokenService({ secret: config.BAHI_JWT_SECRET! });
      const loadUser = loadUserFromLog(storage.eventStore);
      registerAuthentication(app, {
        tokens,
        loadUser,
        // The event stream authenticates itself (from the session cookie).
        publicPaths: new Set(['/api/health', '/api/ready', '/api/events']),
      });
      registerLicenseGate(app, license);
      // Report downloads and WhatsApp sends are jobs for the reports worker, over Redis.
      const reports = config.REDIS_URL
        ? connectReports(config.REDIS_URL, { failFast: true, prefix: config.BAHI_QUEUE_PREFIX })
        : undefined;
      await registerQueryRoutes(app, {
        ...storage,
        license,
        tokens,
        loadUser,
        reports,
        maxOpenStreams: config.BAHI_MAX_STREAMS,
      });
      // A Retry License Check answered by a command copy reaches this process through the log.
      const follow = await followLicense(storage.eventStore, license, {
        onError: (error) => app.log.warn({ err: error }, 'license follow: reading the log failed'),
      });
      // bahi_report_queue_jobs on /metrics: the queue's counts, read when scraped.
      const unwatchQueue = reports
        ? watchReportQueue(() => reports.queue.queue.getJobCounts('waiting', 'active', 'delayed', 'failed'))
        : undefined;
      return {
        checks: reports
          ? [
              { name: 'redis', check: async () => void (await reports.redis.ping()) },
              {
                // Reads go on without a worker; report files and WhatsApp sends answer 503 at once.
                name: 'reportsWorker',
                optional: true,
                check: async () => {
                  if ((await reports.queue.workers()) === 0)
                    throw new ReadinessProblem(
                      'no reports worker is running: report files and WhatsApp sends are refused',
                    );
                },
              },
            ]
          : [
              {
                name: 'reportsWorker',
                optional: true,
                check: async () => {
                  throw new ReadinessProblem(
                    'no report queue is configured: report files and WhatsApp sends are refused',
                  );
                },
              },
            ],
        stop: async () => {
          follow.stop();
          unwatchQueue?.();
          await reports?.close();
        },
      };
    },
  });
}
