import { createPostgresEventStore } from '@bahi/event-store';
import { createPgliteSqlClient } from '@bahi/sql-client';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it, vi } from 'vitest';
import { loadUserFromLog } from './users.ts';

describe('the signed-in user, from the log', () => {
  it('is read again after the short cache ends, so a change reaches the query side within it', async () => {
    const store = await createPostgresEventStore(createPgliteSqlClient(new PGlite()));
    const user = { id: 'u1', name: 'Asha', email: 'asha@example.com', role: 'Admin', is_active: true };
    await store.append('user-u1', [{ type: 'UserCreated', data: user }], 'no_stream');
    let clock = 0;
    const reads = vi.spyOn(store, 'readStream');
    const load = loadUserFromLog(store, { cacheMs: 1000, now: () => clock });
    expect(await load('u1')).toMatchObject({ name: 'Asha', is_active: true });
    expect(await load('u1')).toMatchObject({ name: 'Asha' });
    expect(reads).toHaveBeenCalledTimes(1);

    await store.append('user-u1', [{ type: 'UserUpdated', data: { ...user, is_active: false } }], 'any');
    clock = 999;
    expect((await load('u1'))?.is_active).toBe(true); // still within the second
    clock = 1000;
    expect((await load('u1'))?.is_active).toBe(false);
    await store.append('user-u1', [{ type: 'UserDeleted', data: { id: 'u1' } }], 'any');
    clock = 2500;
    expect(await load('u1')).toBeUndefined();
    expect(await load('nobody')).toBeUndefined();
    expect(reads).toHaveBeenCalledTimes(4);
    // Without a cache every call reads the stream.
    const uncached = loadUserFromLog(store, { cacheMs: 0 });
    await uncached('u1');
    await uncached('u1');
    expect(reads).toHaveBeenCalledTimes(6);
  });
});
