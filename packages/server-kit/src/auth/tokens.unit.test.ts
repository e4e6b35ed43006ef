import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenService, InvalidTokenError } from './tokens.ts';

const secret = 'a-secret-of-at-least-thirty-two-characters';

describe('token service', () => {
  it('remembers a verified token only until it expires', async () => {
    let clock = new Date('2026-11-21T10:00:00.000Z');
    const tokens = createTokenService({ secret, ttlSeconds: 60, now: () => clock });
    const token = await tokens.sign({ userId: 'u1', role: 'Admin' });
    expect(await tokens.verify(token)).toMatchObject({ userId: 'u1', role: 'Admin' });
    // Remembered: the same answer, and still valid in the token's last second.
    clock = new Date('2026-11-21T10:00:59.999Z');
    expect(await tokens.verify(token)).toMatchObject({ userId: 'u1', role: 'Admin' });
    // At its exp second the remembered answer is gone and jose says why.
    clock = new Date('2026-11-21T10:01:00.000Z');
    await expect(tokens.verify(token)).rejects.toThrow('Your session has expired. Please sign in again.');
    // A fresh service (nothing remembered) agrees.
    const fresh = createTokenService({ secret, ttlSeconds: 60, now: () => clock, remember: 0 });
    await expect(fresh.verify(token)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('never remembers a token that failed: a forged one is refused every time', async () => {
    const tokens = createTokenService({ secret });
    const forged = await new SignJWT({ role: 'Admin' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setIssuer('bahi')
      .setAudience('bahi-api')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-of-thirty-two-characters!'));
    for (let i = 0; i < 2; i++) await expect(tokens.verify(forged)).rejects.toThrow('You are not signed in.');
    const good = await tokens.sign({ userId: 'u1', role: 'Admin' });
    expect(await tokens.verify(good)).toMatchObject({ userId: 'u1', role: 'Admin' });
    // Same claims, different signature: not the remembered good token.
    const [header, payload] = good.split('.');
    await expect(tokens.verify(`${header}.${payload}.${forged.split('.')[2]}`)).rejects.toThrow(
      'You are not signed in.',
    );
  });
});
