import {
  followLicense,
  licenseFromConfig,
  type Running,
  registerAuthentication,
  registerLicenseGate,
  startDistributedService,
} from '@bahi/server-kit';
import { bootstrapFirstAdmin } from './auth/bootstrap.ts';
import { createCommandDeps, loadSignedInUser, PUBLIC_API_PATHS } from './deps.ts';
import { watchLicense } from './notifications/license-watch.ts';
import { registerCommandRoutes } from './routes.ts';

/** The command service as its own process: it needs the JWT secret and the first Admin's sign-in. */
export function startCommandService(env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  return startDistributedService({
    service: 'command',
    // Every write reads the same few statements again (its streams, the head position, the
    // checkpoints): prepared once per connection, Postgres spent ~30% less CPU per write
    // (bench/command-mix, docs/benchmarks.md).
    namedReads: true,
    defaultPort: 3001,
    env,
    require: ['BAHI_JWT_SECRET', 'BAHI_ADMIN_EMAIL', 'BAHI_ADMIN_PASSWORD'],
    async setup({ storage, app, config }) {
      const license = await licenseFromConfig(config);
      const deps = await createCommandDeps(storage, { jwtSecret: config.BAHI_JWT_SECRET!, license });
      await bootstrapFirstAdmin(deps, {
        email: config.BAHI_ADMIN_EMAIL!,
        password: config.BAHI_ADMIN_PASSWORD!,
      });
      registerAuthentication(app, {
        tokens: deps.tokens,
        loadUser: loadSignedInUser(deps),
        publicPaths: PUBLIC_API_PATHS,
      });
      registerLicenseGate(app, license);
      await registerCommandRoutes(app, deps);
      const watch = watchLicense(deps);
      await watch.check();
      // A Retry License Check answered by another copy reaches this one through the log.
      const follow = await followLicense(storage.eventStore, license, {
        onError: (error) => app.log.warn({ err: error }, 'license follow: reading the log failed'),
      });
      return {
        stop: async () => {
          follow.stop();
          watch.stop();
        },
      };
    },
  });
}
