import { createPgliteSqlClient, createPgSqlClient, type SqlClient } from '@bahi/sql-client';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTestDatabase } from '../../../../test/postgres.ts';
import { createLoginLimiter, type LoginLimits } from './login-limiter.ts';

const databaseUrl = process.env.DATABASE_URL;

describe('the login limiter (on PGlite)', () => {
  let sql: SqlClient;
  let now = 0;
  const make = (limits: LoginLimits) =>
    createLoginLimiter(sql, { windowMs: 60_000, now: () => now, ...limits });
  beforeAll(() => {
    sql = createPgliteSqlClient(new PGlite());
  });
  afterAll(() => sql.close());

  it('stops an account at one address after its failures, for the rest of the window, and forgets them on success', async () => {
    now = 0;
    const limiter = await make({ perAccountAddress: 3, perAddress: 100, perAccount: 100 });
    for (let i = 0; i < 3; i++) expect(await limiter.attempt('a@x', '1.1.1.1')).toBe(0);
    expect(await limiter.attempt('a@x', '1.1.1.1')).toBe(60_000);
    // Someone else's failures on this account, from another address, do not lock the owner out.
    expect(await limiter.retryAfterMs('a@x', '9.9.9.9')).toBe(0);
    now = 30_000;
    expect(await limiter.retryAfterMs('a@x', '1.1.1.1')).toBe(30_000);
    now = 60_001;
    expect(await limiter.retryAfterMs('a@x', '1.1.1.1')).toBe(0); // the window slid past them
    await limiter.attempt('a@x', '1.1.1.1');
    await limiter.attempt('a@x', '1.1.1.1');
    await limiter.succeeded('a@x', '1.1.1.1');
    expect(await limiter.retryAfterMs('a@x', '1.1.1.1')).toBe(0);
    for (let i = 0; i < 3; i++) expect(await limiter.attempt('a@x', '1.1.1.1')).toBe(0);
  });

  it('stops an address that tries many accounts, and no other address', async () => {
    now = 1_000_000;
    const limiter = await make({ perAccountAddress: 3, perAddress: 5, perAccount: 100 });
    for (let i = 0; i < 5; i++) expect(await limiter.attempt(`user${i}@x`, '6.6.6.6')).toBe(0);
    expect(await limiter.attempt('fresh@x', '6.6.6.6')).toBe(60_000);
    expect(await limiter.attempt('fresh@x', '7.7.7.7')).toBe(0);
  });

  it('stops guessing at one account spread over many addresses, at a far higher count', async () => {
    now = 2_000_000;
    const limiter = await make({ perAccountAddress: 3, perAddress: 30, perAccount: 10 });
    for (let i = 0; i < 10; i++) expect(await limiter.attempt('boss@x', `10.0.0.${i}`)).toBe(0);
    expect(await limiter.attempt('boss@x', '10.0.1.1')).toBe(60_000);
  });

  it('lets only the limit of a burst through, and a success takes its attempt back', async () => {
    now = 3_000_000;
    const limiter = await make({ perAccountAddress: 5, perAddress: 30, perAccount: 100 });
    // 100 attempts arrive before any password check has finished.
    const waits = await Promise.all(Array.from({ length: 100 }, () => limiter.attempt('b@x', '1.1.1.1')));
    expect(waits.filter((w) => w === 0)).toHaveLength(5);
    const other = await make({ perAccountAddress: 5, perAddress: 3, perAccount: 100 });
    for (let i = 0; i < 10; i++) {
      expect(await other.attempt(`u${i}@x`, '2.2.2.2')).toBe(0);
      await other.succeeded(`u${i}@x`, '2.2.2.2'); // successes do not use up the address
    }
  });
});

describe.skipIf(!databaseUrl)('the login limiter shared by two command processes (on Postgres)', () => {
  let db: Awaited<ReturnType<typeof withTestDatabase>>;
  const clients: SqlClient[] = [];
  beforeAll(async () => {
    db = await withTestDatabase('limiter');
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await db?.drop();
  });

  it('counts a burst split between two processes once: the limit is the limit, not the limit per process', async () => {
    const open = () => {
      const c = createPgSqlClient({ connectionString: db.url, max: 5 });
      clients.push(c);
      return c;
    };
    // Both start together, as two copies do (the migration runs once).
    const [one, two] = await Promise.all([
      createLoginLimiter(open(), { perAccountAddress: 5 }),
      createLoginLimiter(open(), { perAccountAddress: 5 }),
    ]);
    const waits = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).attempt('c@x', '3.3.3.3')),
    );
    expect(waits.filter((w) => w === 0)).toHaveLength(5);
    expect(await one.retryAfterMs('c@x', '3.3.3.3')).toBeGreaterThan(0);
    expect(await two.retryAfterMs('c@x', '4.4.4.4')).toBe(0);
  });
});
