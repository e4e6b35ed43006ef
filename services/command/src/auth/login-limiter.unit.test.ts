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

describe('the login limiter counts before the password is checked', () => {
  it('lets only perAccount attempts of a burst through, and a success takes its attempt back', () => {
    const limiter = createLoginLimiter({ perAccount: 5, perAddress: 30, windowMs: 60_000, now: () => 0 });
    // 100 attempts arrive before any password check has finished.
    const through = Array.from({ length: 100 }, () => limiter.attempt('a@x', '1.1.1.1')).filter(
      (w) => w === 0,
    );
    expect(through).toHaveLength(5);
    expect(limiter.attempt('a@x', '2.2.2.2')).toBe(60_000);
    const other = createLoginLimiter({ perAccount: 5, perAddress: 3, windowMs: 60_000, now: () => 0 });
    for (let i = 0; i < 10; i++) {
      expect(other.attempt(`u${i}@x`, '1.1.1.1')).toBe(0);
      other.succeeded(`u${i}@x`, '1.1.1.1'); // successes do not use up the address
    }
  });
});
