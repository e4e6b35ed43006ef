import { HttpError } from '@bahi/server-kit';
import type { FastifyRequest } from 'fastify';

/** The header of a dry run (dry-run.ts): read by idempotency.ts too, so it has no dependencies. */
export const DRY_RUN_HEADER = 'x-bahi-dry-run';

const DRY_RUN_PREFIX = '/api/transactions/';
/** Only transaction writes can be dry-run. */
export const dryRunnable = (method: string, url: string) =>
  (method === 'POST' || method === 'PUT') && url.startsWith(DRY_RUN_PREFIX);

/** True for `X-Bahi-Dry-Run: true`; absent or `false` is a write; anything else is a 400. */
export function isDryRun(request: FastifyRequest): boolean {
  const header = request.headers[DRY_RUN_HEADER];
  if (header === undefined) return false;
  const value = typeof header === 'string' ? header.trim().toLowerCase() : '';
  if (value === 'true') return true;
  if (value === 'false') return false;
  const msg = 'X-Bahi-Dry-Run must be true or false';
  throw new HttpError(400, `${msg}.`, [{ msg, path: 'X-Bahi-Dry-Run' }]);
}
