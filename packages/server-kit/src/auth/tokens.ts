import type { Role } from '@bahi/contracts';
import { errors, jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  userId: string;
  role: Role;
}

/** What verify answers: the claims, and when the token was issued (ms) to compare with a password change. */
export interface VerifiedToken extends TokenClaims {
  issuedAtMs: number;
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
export function createTokenService(options: {
  secret: string;
  ttlSeconds?: number;
  now?: () => Date;
  /** How many verified tokens to remember (0: verify every time). */
  remember?: number;
}) {
  const key = new TextEncoder().encode(options.secret);
  const ttl = options.ttlSeconds ?? 8 * 3600;
  const now = options.now ?? (() => new Date());
  const remember = options.remember ?? 10_000;
  // A token's signature, issuer and audience never change: once verified, only its expiry
  // needs checking again (an HMAC check through WebCrypto is ~50 us of every request's CPU).
  const verified = new Map<string, { claims: VerifiedToken; expiresAt: number }>();
  return {
    ttlSeconds: ttl,
    async sign(claims: TokenClaims): Promise<string> {
      const issuedAtMs = now().getTime();
      const issuedAt = Math.floor(issuedAtMs / 1000);
      // iat is in seconds; iat_ms lets a password change end a token issued earlier the same second.
      return new SignJWT({ role: claims.role, iat_ms: issuedAtMs })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttl)
        .sign(key);
    },
    async verify(token: string): Promise<VerifiedToken> {
      const at = now();
      const known = verified.get(token);
      if (known) {
        if (at.getTime() < known.expiresAt) return known.claims;
        verified.delete(token);
      }
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: AUDIENCE,
          requiredClaims: ['exp', 'sub'],
          currentDate: at,
        });
        const issuedAtMs =
          typeof payload.iat_ms === 'number' && Number.isFinite(payload.iat_ms)
            ? payload.iat_ms
            : (payload.iat ?? 0) * 1000;
        const claims = { userId: payload.sub!, role: payload.role as Role, issuedAtMs };
        if (remember > 0) {
          if (verified.size >= remember) verified.clear();
          // jose refuses a token from the second of its exp on; so does a remembered one.
          verified.set(token, { claims, expiresAt: payload.exp! * 1000 });
        }
        return claims;
      } catch (error) {
        if (error instanceof errors.JWTExpired)
          throw new InvalidTokenError('Your session has expired. Please sign in again.');
        throw new InvalidTokenError('You are not signed in.');
      }
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
