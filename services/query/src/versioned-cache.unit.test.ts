import { describe, expect, it } from 'vitest';
import { VersionedCache } from './versioned-cache.ts';

describe('values remembered per projection version', () => {
  it('counts again whenever the version the page was read at is not the one remembered', async () => {
    const cache = new VersionedCache<number>(2);
    let counted = 0;
    const at = (version: string | null, count: number) => async () => {
      counted++;
      return { value: count, version };
    };
    expect(await cache.get('sales karachi', '10 t1', at('10 t1', 7))).toBe(7);
    expect(await cache.get('sales karachi', '10 t1', at('10 t1', 99))).toBe(7);
    expect(counted).toBe(1);
    // The projection moved on (or a rebuild swapped its tables in at the same position).
    expect(await cache.get('sales karachi', '12 t2', at('12 t2', 8))).toBe(8);
    expect(await cache.get('sales karachi', '10 t3', at('10 t3', 6))).toBe(6);
    // An empty page carries no version: counted every time.
    expect(await cache.get('sales karachi', undefined, at('10 t3', 6))).toBe(6);
    expect(counted).toBe(4);
    // Filters are kept apart, and the cache stays bounded.
    expect(await cache.get('sales lahore', '10 t3', at('10 t3', 3))).toBe(3);
    expect(await cache.get('sales quetta', '10 t3', at('10 t3', 2))).toBe(2);
    expect(await cache.get('sales karachi', '10 t3', at('10 t3', 6))).toBe(6);
    expect(counted).toBe(7);
    // A count without a version (no checkpoint yet) is not remembered.
    expect(await cache.get('purchases', null, at(null, 1))).toBe(1);
    expect(await cache.get('purchases', null, at(null, 1))).toBe(1);
    expect(counted).toBe(9);
  });
});
