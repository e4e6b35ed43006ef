import { resolve } from 'node:path';
import {
  bootstrapFirstAdmin,
  type Call,
  createCommandDeps,
  loadSignedInUser,
  PUBLIC_API_PATHS,
  registerCommandRoutes,
  SCALES,
  seedScale,
  watchLicense,
} from '@bahi/command';
import type { EventStore } from '@bahi/event-store';
import { startProjector } from '@bahi/projections';
import { registerQueryRoutes } from '@bahi/query';
import { connectReports, type InProcessReports, inProcessReports } from '@bahi/report-jobs';
import { startReportsWorker } from '@bahi/reports-worker';
import {
  appendToLog,
  closeApp,
  createHttpApp,
  licenseFromConfig,
  loadConfig,
  openEmbeddedStorage,
  type Running,
  registerAuthentication,
  registerHealthRoutes,
  registerLicenseGate,
  type StandaloneEnv,
  type Storage,
  standaloneEnvSchema,
} from '@bahi/server-kit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { registerBackups } from './backups.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { ensureDevelopmentLicense } from './dev-license.ts';
import { registerFrontends } from './frontends.ts';
import { loadOrCreateSecrets } from './secrets.ts';

export interface Standalone extends Running {
  url: string;
  /** The event store it runs on (tests plant events in it; operators use the CLI). */
  eventStore: EventStore;
  /** Its read models (tests damage a live row to see a rebuild find and repair it). */
  readDb: Storage['readDb'];
  /** Every method and path it answers (tests walk them all). */
  /** Every route registered, with its schema (issue #19: the contract test checks each has one). */
  routes: readonly { method: string; url: string; schema?: unknown }[];
  config: StandaloneEnv;
  license: {
    isValid: boolean;
    reason: string | null;
    createdDevelopmentLicense?: { expiresAt: string; dir: string };
  };
  /** Set when this start loaded the demo business (BAHI_DEMO=1). */
  demo?: { writes: number } | undefined;
}

/**
 * BAHI_DEMO=1: the small demo business, once, on a store that has none yet (the
 * system-demo stream marks it), written through the same routes a person uses.
 */
async function loadDemo(app: FastifyInstance, eventStore: EventStore, config: StandaloneEnv) {
  if ((await eventStore.readStream('system-demo', { maxCount: 1 })).length > 0) return undefined;
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: config.BAHI_ADMIN_EMAIL, password: config.BAHI_ADMIN_PASSWORD },
  });
  const token = (login.json() as { token: string }).token;
  const call: Call = async (method, path, body) => {
    const res = await app.inject({
      method,
      url: path,
      headers: { authorization: `Bearer ${token}` },
      payload: body as object,
    });
    return { status: res.statusCode, body: res.json() };
  };
  const result = await seedScale(call, SCALES.small, new Date().toISOString().slice(0, 10));
  await appendToLog(
    eventStore,
    'system-demo',
    [{ type: 'DemoLoaded', data: { writes: result.writes } }],
    'no_stream',
  );
  return result;
}

export interface StandaloneOptions {
  logger?: boolean;
  /** Tests: the same app on other storage (a server Postgres) instead of the embedded one. */
  storage?: () => Promise<Storage>;
  /**
   * Tests: report jobs on BullMQ over this Redis (under their own key prefix), the queue and
   * worker of distributed mode, instead of the in-process queue.
   */
  reportsRedis?: { url: string; prefix: string };
}

/** Every route the app registers from now on, with its schema (the contract tests read them). */
function collectRoutes(app: FastifyInstance) {
  const routes: { method: string; url: string; schema?: unknown }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, schema: route.schema });
  });
  return routes;
}

/**
 * `npm start`: the whole of Bahi in one process on one port: the command, query,
 * projector and reports-worker parts on an embedded PGlite under BAHI_DATA_DIR, and the
 * built frontends. Stopping and starting again reuses the same data.
 */
export async function startStandalone(
  env: NodeJS.ProcessEnv = process.env,
  options: StandaloneOptions = {},
): Promise<Standalone> {
  const config = loadConfig(standaloneEnvSchema, env);
  const dataDir = resolve(config.BAHI_DATA_DIR);
  const lock = await lockDataDir(dataDir);
  const stops: Array<() => Promise<unknown>> = [() => lock.release()];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
  };
  try {
    const storage = options.storage
      ? await options.storage()
      : await openEmbeddedStorage({
          dataDir: resolve(dataDir, 'pglite'),
          pollIntervalMs: config.BAHI_SUBSCRIPTION_POLL_MS,
        });
    stops.push(() => storage.close());

    let pageFallback: ((reply: FastifyReply) => Promise<unknown>) | undefined;
    const app = createHttpApp({
      logLevel: config.LOG_LEVEL,
      trustedProxies: config.BAHI_TRUSTED_PROXIES,
      fastify: options.logger === false ? { logger: false } : {},
      pageFallback: (_request, reply) => pageFallback!(reply),
    });
    stops.push(() => closeApp(app));
    const routes = collectRoutes(app);

    const frontends = await registerFrontends(app, resolve(config.BAHI_FRONTENDS_DIR));
    pageFallback = frontends.pageFallback;
    const secrets = await loadOrCreateSecrets(dataDir);
    const licenseSetup = await ensureDevelopmentLicense(dataDir, config);
    const license = await licenseFromConfig(licenseSetup.files);
    const commandDeps = await createCommandDeps(storage, { jwtSecret: secrets.jwtSecret, license });
    await bootstrapFirstAdmin(commandDeps, {
      email: config.BAHI_ADMIN_EMAIL,
      password: config.BAHI_ADMIN_PASSWORD,
    });
    registerAuthentication(app, {
      tokens: commandDeps.tokens,
      loadUser: loadSignedInUser(commandDeps),
      publicPaths: PUBLIC_API_PATHS,
    });
    registerLicenseGate(app, license);
    await registerCommandRoutes(app, commandDeps);
    // Report jobs on an in-process queue: the same job code the distributed worker runs on BullMQ.
    const redis = options.reportsRedis;
    const reports = redis
      ? connectReports(redis.url, { failFast: true, prefix: redis.prefix })
      : inProcessReports();
    if (redis) stops.push(() => reports.close());
    await registerQueryRoutes(app, {
      ...storage,
      license,
      tokens: commandDeps.tokens,
      loadUser: loadSignedInUser(commandDeps),
      reports,
      maxOpenStreams: config.BAHI_MAX_STREAMS,
    });
    const watch = watchLicense(commandDeps);
    stops.push(async () => watch.stop());
    const worker = startReportsWorker({
      ...(redis ? { redisUrl: redis.url, prefix: redis.prefix } : { inProcess: reports as InProcessReports }),
      eventStore: storage.eventStore,
      env,
      warn: (message, fields) => app.log.warn(fields, message),
    });
    stops.push(() => worker.stop());
    registerHealthRoutes(app, { service: 'standalone', ...storage });
    const backups = registerBackups(app, {
      storage,
      config,
      log: (message, error) => app.log.error({ err: error }, message),
    });
    stops.push(() => backups.stop());

    const projector = startProjector({
      ...storage,
      log: app.log,
      rebuildBatchSize: config.BAHI_REBUILD_BATCH_SIZE,
    });
    stops.push(() => projector.stop());

    await appendToLog(
      storage.eventStore,
      'system-standalone',
      [{ type: 'StandaloneStarted', data: { pid: process.pid, frontendsBuilt: frontends.built } }],
      'any',
    );

    await watch.check().catch((error) => app.log.error({ err: error }, 'license check failed'));
    let demo: { writes: number } | undefined;
    if (config.BAHI_DEMO === '1') demo = await loadDemo(app, storage.eventStore, config);
    const address = await app.listen({ port: config.PORT, host: config.HOST });
    const port = new URL(address).port;
    const url = `http://localhost:${port}`;
    const info = license.current();
    return {
      url,
      eventStore: storage.eventStore,
      readDb: storage.readDb,
      routes,
      config,
      demo,
      license: {
        isValid: info.isValid,
        reason: info.reason,
        ...(licenseSetup.created ? { createdDevelopmentLicense: licenseSetup.created } : {}),
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
