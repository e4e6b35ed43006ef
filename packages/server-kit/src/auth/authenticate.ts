import type { Role } from '@bahi/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTRACT_PATHS, HttpError, recordPublicPaths } from '../http-app.ts';
import { forbiddenMessage, mayWrite, type WriteArea } from './policy.ts';
import type { TokenService } from './tokens.ts';

export interface SignedInUser {
  id: string;
  name: string;
  email: string;
  role: Role;
}

/** A user as the authentication hook reads them: active or not, and when their password last changed (ms). */
export type AuthUser = SignedInUser & { is_active: boolean; password_changed_at?: number };

/** Why a token no longer opens anything, or undefined when it does. */
export function sessionRefusal(user: AuthUser | undefined, issuedAtMs: number): string | undefined {
  if (!user) return 'Your account no longer exists. Please contact an administrator.';
  if (!user.is_active) return 'Your account is inactive. Please contact an administrator.';
  if (user.password_changed_at !== undefined && issuedAtMs < user.password_changed_at)
    return 'Your password has changed. Please sign in again.';
  return undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: SignedInUser | null;
  }
}

/**
 * Every /api route but the public ones needs a valid token of a user who exists, is not
 * deleted and is active, read fresh on each request: deactivating or deleting a user
 * ends their sessions at once, and a password change ends every token issued before it.
 */
export function registerAuthentication(
  app: FastifyInstance,
  options: {
    tokens: TokenService;
    loadUser(id: string): Promise<AuthUser | undefined>;
    publicPaths: ReadonlySet<string>;
  },
): void {
  app.decorateRequest('user', null);
  recordPublicPaths(app, options.publicPaths);
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0] ?? '';
    if (!path.startsWith('/api/') || options.publicPaths.has(path) || CONTRACT_PATHS.has(path)) return;
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw new HttpError(401, 'You are not signed in.');
    // A token that does not verify is an InvalidTokenError: the error handler's 401.
    const claims = await options.tokens.verify(match[1]!);
    const user = await options.loadUser(claims.userId);
    const refusal = sessionRefusal(user, claims.issuedAtMs);
    if (refusal || !user) throw new HttpError(401, refusal ?? 'You are not signed in.');
    request.user = { id: user.id, name: user.name, email: user.email, role: user.role };
  });
}

/** The signed-in user, or 401 (for handlers behind registerAuthentication). */
export function signedIn(request: FastifyRequest): SignedInUser {
  if (!request.user) throw new HttpError(401, 'You are not signed in.');
  return request.user;
}

/** The signed-in user if their role may write in this area; 403 with a message otherwise. */
export function requireWriter(request: FastifyRequest, area: WriteArea): SignedInUser {
  const user = signedIn(request);
  if (!mayWrite(user.role, area)) throw new HttpError(403, forbiddenMessage(user.role, area));
  return user;
}

/**
 * The role check of a write route, as a preValidation hook: it answers 403 before the body is
 * validated, as the handlers' own check did before the body was parsed.
 */
export const writerOnly =
  (area: WriteArea) =>
  async (request: FastifyRequest): Promise<void> => {
    requireWriter(request, area);
  };
