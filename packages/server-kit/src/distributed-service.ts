import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ConfigError, type DistributedEnv, distributedEnvSchema, loadConfig } from './config.ts';
import { type ReadinessCheck, registerHealthRoutes } from './health.ts';
import { closeApp, createHttpApp } from './http-app.ts';
import type { Running } from './main-runner.ts';
import { openServerStorage, type Storage } from './storage.ts';

export interface ServiceParts {
  /** Readiness checks beyond the event store and read database (Redis, say). */
  checks?: ReadinessCheck[];
  stop?(): Promise<void>;
}

export interface ServiceContext {
  config: DistributedEnv & { PORT: number };
  storage: Storage;
  app: FastifyInstance;
}

/**
 * One service of the distributed deployment as its own process: validated configuration,
 * Postgres (and EventStoreDB when ESDB_URL is set), an HTTP app with /api/health and
 * /api/ready, and whatever the service adds in setup.
 */
export async function startDistributedService(options: {
  service: string;
  defaultPort: number;
  env?: NodeJS.ProcessEnv;
  /** Its repeated reads as named statements on Postgres (the query service). */
  namedReads?: boolean;
  /** Extra variables this service requires, checked before anything connects. */
  require?: Array<keyof DistributedEnv>;
  setup(context: ServiceContext): Promise<ServiceParts | undefined>;
}): Promise<Running> {
  const schema = distributedEnvSchema.extend({
    PORT: z.coerce
      .number({ error: 'must be a port number' })
      .int()
      .min(1, 'must be between 1 and 65535')
      .max(65535, 'must be between 1 and 65535')
      .default(options.defaultPort),
  });
  const config = loadConfig(schema, options.env ?? process.env);
  for (const variable of options.require ?? []) {
    if (config[variable] === undefined) {
      throw new ConfigError([{ variable, message: `is required by the ${options.service} service` }]);
    }
  }
  const storage = await openServerStorage({
    databaseUrl: config.DATABASE_URL,
    esdbUrl: config.ESDB_URL,
    poolSize: config.BAHI_DB_POOL_SIZE,
    applicationName: `bahi-${options.service}`,
    pollIntervalMs: config.BAHI_SUBSCRIPTION_POLL_MS,
    namedReads: options.namedReads ?? false,
  });
  const app = createHttpApp({
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.BAHI_TRUSTED_PROXIES,
    contractPeer: config.BAHI_CONTRACT_PEER_URL,
  });
  let parts: ServiceParts | undefined;
  try {
    parts = await options.setup({ config, storage, app });
    registerHealthRoutes(app, { service: options.service, ...storage, extraChecks: parts?.checks ?? [] });
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    await parts?.stop?.().catch(() => {});
    await app.close().catch(() => {});
    await storage.close().catch(() => {});
    throw error;
  }
  return {
    async stop() {
      await closeApp(app);
      await parts?.stop?.();
      await storage.close();
    },
  };
}
