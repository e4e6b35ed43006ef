import { describe, expect, it } from 'vitest';
import { createLoginLimiter } from './login-limiter.ts';

describe('the login limiter', () => {
  it('stops an account after its failures, for the rest of the window, and forgets them on success', () => {
    let now = 0;
    const limiter = createLoginLimiter({ perAccount: 3, perAddress: 100, windowMs: 60_000, now: () => now });
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfterMs('a@x', '1.1.1.1')).toBe(0);
      limiter.failed('a@x', `10.0.0.${i}`); // from any address
    }
    expect(limiter.retryAfterMs('a@x', '9.9.9.9')).toBe(60_000);
    now = 30_000;
    expect(limiter.retryAfterMs('a@x', '9.9.9.9')).toBe(30_000);
    now = 60_001;
    expect(limiter.retryAfterMs('a@x', '9.9.9.9')).toBe(0); // the window slid past them
    limiter.failed('a@x', '1.1.1.1');
    limiter.succeeded('a@x');
    expect(limiter.retryAfterMs('a@x', '1.1.1.1')).toBe(0);
  });

  it('stops an address that tries many accounts', () => {
    const now = 0;
    const limiter = createLoginLimiter({ perAccount: 3, perAddress: 5, windowMs: 60_000, now: () => now });
    for (let i = 0; i < 5; i++) limiter.failed(`user${i}@x`, '6.6.6.6');
    expect(limiter.retryAfterMs('fresh@x', '6.6.6.6')).toBe(60_000);
    expect(limiter.retryAfterMs('fresh@x', '7.7.7.7')).toBe(0);
  });
});
