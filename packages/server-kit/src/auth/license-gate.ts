import type { FastifyInstance } from 'fastify';
import { CONTRACT_PATHS, HttpError } from '../http-app.ts';
import type { LicenseService } from '../license.ts';

/** What still answers while the license is not valid: signing in and fixing the license. */
export const LICENSE_FREE_PATHS: ReadonlySet<string> = new Set([
  '/api/auth/login',
  '/api/auth/profile',
  '/api/auth/license-status',
  '/api/auth/retry-license-check',
  '/api/health',
  '/api/ready',
  // The License Invalid page listens here for license-updated.
  '/api/events',
]);

/** While the license is not valid, every other /api call answers 403 with the reason. */
export function registerLicenseGate(app: FastifyInstance, license: LicenseService): void {
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0] ?? '';
    if (!path.startsWith('/api/') || LICENSE_FREE_PATHS.has(path) || CONTRACT_PATHS.has(path)) return;
    const info = license.current();
    if (!info.isValid) throw new HttpError(403, info.reason ?? 'The license is not valid.');
  });
}
