import { type Running, startDistributedService } from '@bahi/server-kit';
import { registerCommandRoutes } from './routes.ts';

/** The command service as its own process. */
export function startCommandService(env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  return startDistributedService({
    service: 'command',
    defaultPort: 3001,
    env,
    async setup({ storage, app }) {
      await registerCommandRoutes(app, storage);
      return undefined;
    },
  });
}
