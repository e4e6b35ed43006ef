import { parseEvent } from '@bahi/contracts';
import { masterStreamId } from '@bahi/domain';
import type { EventStore } from '@bahi/event-store';
import type { ReadDb } from '@bahi/read-db';
import { type AuthUser, createTokenService, type LicenseService, type TokenService } from '@bahi/server-kit';
import type { SqlClient } from '@bahi/sql-client';
import { type Credentials, openCredentials } from './auth/credentials.ts';
import { createLoginLimiter, type LoginLimiter, type LoginLimits } from './auth/login-limiter.ts';
import { userDecider } from './auth/users.ts';
import { type Idempotency, openIdempotency } from './idempotency.ts';
import { lockManagerFor } from './write-scope.ts';

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
  options: { jwtSecret: string; license: LicenseService; limits?: LoginLimits },
): Promise<CommandDeps> {
  return {
    ...storage,
    license: options.license,
    tokens: createTokenService({ secret: options.jwtSecret }),
    credentials: await openCredentials(storage.sql),
    limiter: await createLoginLimiter(storage.sql, options.limits),
    idempotency: await openIdempotency(storage.sql, lockManagerFor(storage.sql)),
  };
}

/**
 * The user lookup the authentication hook uses on every request: fresh from the user's stream,
 * with when the password last changed (a token issued before it no longer works).
 */
export function loadSignedInUser(deps: Pick<CommandDeps, 'eventStore'>) {
  return async (id: string): Promise<AuthUser | undefined> => {
    const recorded = await deps.eventStore.readStream(masterStreamId('User', id));
    let state = userDecider.initialState();
    let passwordChangedAt: number | undefined;
    for (const event of recorded) {
      state = userDecider.evolve(state, parseEvent(event.type, event.data));
      if (event.type === 'UserPasswordChanged') passwordChangedAt = Date.parse(event.metadata.recordedAt);
    }
    if (state.status !== 'active') return undefined;
    const user = state.data;
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      is_active: user.is_active,
      ...(passwordChangedAt !== undefined && Number.isFinite(passwordChangedAt)
        ? { password_changed_at: passwordChangedAt }
        : {}),
    };
  };
}

/**
 * Let through by the authentication hook: sign-in, health, the event stream (it checks its
 * session cookie itself) and a commit's progress (its random key is the capability: imports/progress.ts).
 */
export const PUBLIC_API_PATHS: ReadonlySet<string> = new Set([
  '/api/auth/login',
  '/api/health',
  '/api/ready',
  '/api/events',
  '/api/imports/progress',
]);
