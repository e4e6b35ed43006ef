import {
  createTokenService,
  licenseFromConfig,
  type Running,
  registerAuthentication,
  registerLicenseGate,
  startDistributedService,
} from '@bahi/server-kit';
import { registerQueryRoutes } from './routes.ts';
import { loadUserFromLog } from './users.ts';

/** The query service as its own process: it checks the same tokens and license as the command side. */
export function startQueryService(env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  return startDistributedService({
    service: 'query',
    defaultPort: 3002,
    env,
    require: ['BAHI_JWT_SECRET'],
    async setup({ storage, app, config }) {
      const license = await licenseFromConfig(config);
      registerAuthentication(app, {
        tokens: createTokenService({ secret: config.BAHI_JWT_SECRET! }),
        loadUser: loadUserFromLog(storage.eventStore),
        publicPaths: new Set(['/api/health', '/api/ready']),
      });
      registerLicenseGate(app, license);
      await registerQueryRoutes(app, { ...storage, license });
      return undefined;
    },
  });
}
