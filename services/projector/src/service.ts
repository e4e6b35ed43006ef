import { type Running, startDistributedService } from '@bahi/server-kit';
import { startProjector } from './projector.ts';

/** The projector as its own process: every projection, plus /api/health and /api/ready. */
export function startProjectorService(env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  return startDistributedService({
    service: 'projector',
    defaultPort: 3003,
    env,
    async setup({ storage, app }) {
      const projector = startProjector({ ...storage, log: (msg, fields) => app.log.error(fields, msg) });
      return { stop: () => projector.stop() };
    },
  });
}
