import { createPostgresEventStore } from '@bahi/event-store';
import { openReadDb } from '@bahi/read-db';
import { createPgliteSqlClient } from '@bahi/sql-client';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { createCommandDeps } from '../deps.ts';
import { testLicense } from '../testing/command-app.ts';
import { bootstrapFirstAdmin } from './bootstrap.ts';
import { userHoldingEmail } from './users.ts';

describe('the first Admin', () => {
  it('is created once when several command copies start together on an empty store, and none fails', async () => {
    const sql = createPgliteSqlClient(new PGlite());
    const eventStore = await createPostgresEventStore(sql, { pollIntervalMs: 50 });
    const readDb = await openReadDb(sql);
    const license = (await testLicense()).service;
    const copies = await Promise.all(
      [1, 2, 3].map(() =>
        createCommandDeps({ eventStore, readDb, sql }, { jwtSecret: 'x'.repeat(40), license }),
      ),
    );
    const admin = { email: 'First@Test.local', password: 'first-admin-pw' };
    const results = await Promise.all(copies.map((deps) => bootstrapFirstAdmin(deps, admin)));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const holder = await userHoldingEmail(eventStore, 'first@test.local');
    expect(holder?.role).toBe('Admin');
    expect(await eventStore.readStream('system-bootstrap')).toHaveLength(1);
    await eventStore.close();
    await readDb.destroy();
    await sql.close();
  });
});
