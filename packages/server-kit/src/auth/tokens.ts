import type { Role } from '@bahi/contracts';
import { errors, jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  userId: string;
  role: Role;
}

const ISSUER = 'bahi';
const AUDIENCE = 'bahi-api';
const ALGORITHM = 'HS256';

export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
}

/**
 * Signed session tokens: HS256 only (the allowlist refuses 'none' and key-confusion
 * tricks), with issuer, audience and expiry checked. The role in a token is a hint for the
 * UI; every request re-reads the user, so a deactivated user's token stops working at once.
 */
export function createTokenService(options: { secret: string; ttlSeconds?: number; now?: () => Date }) {
  const key = new TextEncoder().encode(options.secret);
  const ttl = options.ttlSeconds ?? 8 * 3600;
  const now = options.now ?? (() => new Date());
  return {
    ttlSeconds: ttl,
    async sign(claims: TokenClaims): Promise<string> {
      const issuedAt = Math.floor(now().getTime() / 1000);
      return new SignJWT({ role: claims.role })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttl)
        .sign(key);
    },
    async verify(token: string): Promise<TokenClaims> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: AUDIENCE,
          requiredClaims: ['exp', 'sub'],
          currentDate: now(),
        });
        return { userId: payload.sub!, role: payload.role as Role };
      } catch (error) {
        if (error instanceof errors.JWTExpired)
          throw new InvalidTokenError('Your session has expired. Please sign in again.');
        throw new InvalidTokenError('You are not signed in.');
      }
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
