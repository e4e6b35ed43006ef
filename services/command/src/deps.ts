import type { EventStore } from '@bahi/event-store';
import type { ReadDb } from '@bahi/read-db';
import {
  createTokenService,
  type LicenseService,
  type SignedInUser,
  type TokenService,
} from '@bahi/server-kit';
import type { SqlClient } from '@bahi/sql-client';
import { type Credentials, openCredentials } from './auth/credentials.ts';
import { createLoginLimiter, type LoginLimiter } from './auth/login-limiter.ts';
import { loadUser } from './auth/users.ts';
import { type Idempotency, openIdempotency } from './idempotency.ts';

export interface CommandDeps {
  eventStore: EventStore;
  readDb: ReadDb;
  sql: SqlClient;
  tokens: TokenService;
  credentials: Credentials;
  limiter: LoginLimiter;
  license: LicenseService;
  idempotency: Idempotency;
}

export async function createCommandDeps(
  storage: { eventStore: EventStore; readDb: ReadDb; sql: SqlClient },
  options: { jwtSecret: string; license: LicenseService; limiter?: LoginLimiter },
): Promise<CommandDeps> {
  return {
    ...storage,
    license: options.license,
    tokens: createTokenService({ secret: options.jwtSecret }),
    credentials: await openCredentials(storage.sql),
    limiter: options.limiter ?? createLoginLimiter({}),
    idempotency: await openIdempotency(storage.sql),
  };
}

/** The user lookup the authentication hook uses on every request: fresh from the user's stream. */
export function loadSignedInUser(deps: Pick<CommandDeps, 'eventStore'>) {
  return async (id: string): Promise<(SignedInUser & { is_active: boolean }) | undefined> => {
    const user = await loadUser(deps.eventStore, id);
    return (
      user && { id: user.id, name: user.name, email: user.email, role: user.role, is_active: user.is_active }
    );
  };
}

/** Let through by the authentication hook: sign-in, health, and the event stream (it checks its session cookie itself). */
export const PUBLIC_API_PATHS: ReadonlySet<string> = new Set([
  '/api/auth/login',
  '/api/health',
  '/api/ready',
  '/api/events',
]);
