import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { seedBusiness } from '@bahi/command';
import { commandTestApp } from '@bahi/command/testing';
import { createPostgresEventStore } from '@bahi/event-store';
import { allProjections, rebuildProjections } from '@bahi/projections';
import { openReadDb, readCheckpoints } from '@bahi/read-db';
import { createPgSqlClient } from '@bahi/sql-client';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { withTestDatabase } from '../../../test/postgres.ts';

const describeOnPostgres = process.env.DATABASE_URL ? describe : describe.skip;
if (!process.env.DATABASE_URL) console.warn('projector-crash.int.test: DATABASE_URL is not set; skipped');

const ROOT = resolve(import.meta.dirname, '../../..');
const KILLS = 20;

const freePort = async () => {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
};

/** A seeded PRNG, so a failing run can be repeated with the seed it prints. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describeOnPostgres('the projector process killed with SIGKILL during catch-up [postgres]', () => {
  let db: Awaited<ReturnType<typeof withTestDatabase>> | undefined;
  let child: ChildProcess | undefined;
  afterAll(async () => {
    child?.kill('SIGKILL');
    await db?.drop();
  });

  it(`killed at ${KILLS} random points and restarted each time, it ends identical to a clean rebuild`, async () => {
    db = await withTestDatabase('crash');
    // A business recorded through the command API, then its read models thrown away.
    const writer = await commandTestApp({ sql: createPgSqlClient({ connectionString: db.url }) });
    await seedBusiness(
      async (method, path, body) => {
        const res = await writer.call(method, path, writer.adminToken, body);
        return { status: res.statusCode, body: res.json() };
      },
      { days: 30, until: '2026-11-20' },
    );
    await writer.close();

    const sqlClient = createPgSqlClient({ connectionString: db.url });
    const eventStore = await createPostgresEventStore(sqlClient);
    const readDb = await openReadDb(sqlClient);
    try {
      const tables = allProjections.flatMap((p) => p.tables);
      await sql`TRUNCATE ${sql.join(tables.map((t) => sql.id(t)))}`.execute(readDb);
      await readDb.deleteFrom('projection_checkpoints').execute();
      const head = await eventStore.headPosition();
      const total = head * BigInt(allProjections.length);
      const progress = async () => (await readCheckpoints(readDb)).reduce((sum, c) => sum + c.position, 0n);

      const seed = Number(process.env.BAHI_CRASH_SEED ?? Date.now() % 1_000_000);
      console.log(`projector-crash: seed ${seed}, ${head} events`);
      const random = prng(seed);
      // Kill points: fractions of the whole catch-up, in increasing order.
      const points = Array.from({ length: KILLS }, () => 0.02 + random() * 0.9).sort((a, b) => a - b);
      const port = await freePort();
      const start = () =>
        spawn(process.execPath, ['--import', 'tsx', 'services/projector/src/main.ts'], {
          cwd: ROOT,
          env: {
            ...process.env,
            DATABASE_URL: db!.url,
            PORT: String(port),
            HOST: '127.0.0.1',
            LOG_LEVEL: 'silent',
            BAHI_PROJECTION_BATCH_SIZE: '7',
            BAHI_SUBSCRIPTION_POLL_MS: '20',
          },
          stdio: 'ignore',
        });

      let killedDuringCatchUp = 0;
      for (const point of points) {
        const target = (total * BigInt(Math.round(point * 1_000_000))) / 1_000_000n;
        child = start();
        const exited = once(child, 'exit');
        for (;;) {
          const done = await progress();
          if (done >= target) break;
          await new Promise((r) => setTimeout(r, 5 + random() * 20));
        }
        child.kill('SIGKILL');
        await exited;
        if ((await progress()) < total) killedDuringCatchUp++;
      }
      expect(killedDuringCatchUp).toBe(KILLS);

      // The last restart runs to the end.
      child = start();
      const deadline = Date.now() + 120_000;
      while ((await progress()) < total) {
        if (Date.now() > deadline) throw new Error('the projector did not finish catching up');
        await new Promise((r) => setTimeout(r, 50));
      }
      const checkpoints = await readCheckpoints(readDb);
      expect(checkpoints.filter((c) => c.status !== 'running')).toEqual([]);
      child.kill('SIGTERM');
      await once(child, 'exit');
      child = undefined;

      // Nothing applied twice or missed: the crashed-and-restarted read models equal a clean
      // rebuild from the log, table by table.
      const report = await rebuildProjections({ eventStore, readDb, swap: false });
      const different = report.comparisons.flatMap((c) => c.tables).filter((t) => !t.identical);
      expect(different).toEqual([]);
      expect(report.identical).toBe(true);
    } finally {
      await eventStore.close();
      await readDb.destroy();
      await sqlClient.close();
    }
  }, 300_000);
});
