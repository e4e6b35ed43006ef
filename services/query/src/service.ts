import { type Running, startDistributedService } from '@bahi/server-kit';
import { registerQueryRoutes } from './routes.ts';

/** The query service as its own process. */
export function startQueryService(env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  return startDistributedService({
    service: 'query',
    defaultPort: 3002,
    env,
    async setup({ storage, app }) {
      await registerQueryRoutes(app, storage);
      return undefined;
    },
  });
}
