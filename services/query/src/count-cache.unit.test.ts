import { describe, expect, it } from 'vitest';
import { CountCache } from './count-cache.ts';

describe('remembered list counts', () => {
  it('counts again whenever the version the page was read at is not the one remembered', async () => {
    const cache = new CountCache(2);
    let counted = 0;
    const at = (version: string | null, count: number) => async () => {
      counted++;
      return { count, version };
    };
    expect(await cache.count('sales karachi', '10 t1', at('10 t1', 7))).toBe(7);
    expect(await cache.count('sales karachi', '10 t1', at('10 t1', 99))).toBe(7);
    expect(counted).toBe(1);
    // The projection moved on (or a rebuild swapped its tables in at the same position).
    expect(await cache.count('sales karachi', '12 t2', at('12 t2', 8))).toBe(8);
    expect(await cache.count('sales karachi', '10 t3', at('10 t3', 6))).toBe(6);
    // An empty page carries no version: counted every time.
    expect(await cache.count('sales karachi', undefined, at('10 t3', 6))).toBe(6);
    expect(counted).toBe(4);
    // Filters are kept apart, and the cache stays bounded.
    expect(await cache.count('sales lahore', '10 t3', at('10 t3', 3))).toBe(3);
    expect(await cache.count('sales quetta', '10 t3', at('10 t3', 2))).toBe(2);
    expect(await cache.count('sales karachi', '10 t3', at('10 t3', 6))).toBe(6);
    expect(counted).toBe(7);
    // A count without a version (no checkpoint yet) is not remembered.
    expect(await cache.count('purchases', null, at(null, 1))).toBe(1);
    expect(await cache.count('purchases', null, at(null, 1))).toBe(1);
    expect(counted).toBe(9);
  });
});
