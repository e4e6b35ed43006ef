import { createPostgresEventStore, type EventStore } from '@bahi/event-store';
import { openReadDb, type ReadDb, readCheckpoints } from '@bahi/read-db';
import { createPgliteSqlClient, createPgSqlClient, type SqlClient } from '@bahi/sql-client';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { withTestDatabase } from '../../../test/postgres.ts';
import { eventTypeCounts } from './event-type-counts.projection.ts';
import type { Projection } from './projection.ts';
import { ProjectionRunner } from './projection-runner.ts';
import { resumeProjection } from './resume.ts';

interface Env {
  sql: SqlClient;
  store: EventStore;
  readDb: ReadDb;
  dispose(): Promise<void>;
}

const targets: Array<[string, () => Promise<Env>]> = [
  [
    'pglite',
    async () => {
      const sql = createPgliteSqlClient(new PGlite());
      const store = await createPostgresEventStore(sql, { pollIntervalMs: 50 });
      const readDb = await openReadDb(sql);
      return { sql, store, readDb, dispose: () => sql.close() };
    },
  ],
];
if (process.env.DATABASE_URL) {
  targets.push([
    'postgres',
    async () => {
      const db = await withTestDatabase('projector');
      const sql = createPgSqlClient({ connectionString: db.url });
      const store = await createPostgresEventStore(sql, { pollIntervalMs: 50 });
      const readDb = await openReadDb(sql);
      return {
        sql,
        store,
        readDb,
        async dispose() {
          await store.close();
          await readDb.destroy();
          await sql.close();
          await db.drop();
        },
      };
    },
  ]);
}

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

const counts = async (readDb: ReadDb) =>
  Object.fromEntries(
    (await readDb.selectFrom('event_type_counts').select(['type', 'count']).execute()).map((r) => [
      r.type,
      Number(r.count),
    ]),
  );

describe.each(targets)('projection runner [%s]', (_name, setup) => {
  let env: Env | undefined;
  afterEach(async () => {
    await env?.dispose();
    env = undefined;
  });

  it('projects past and live events, commits its checkpoint with the rows, and resumes without counting twice', async () => {
    env = await setup();
    const { store, readDb } = env;
    for (let i = 0; i < 30; i++)
      await store.append(`s-${i % 3}`, [{ type: i % 2 ? 'Odd' : 'Even', data: { i } }], 'any');
    const runner = new ProjectionRunner({
      eventStore: store,
      readDb,
      projection: eventTypeCounts,
      batchSize: 7,
    });
    runner.start();
    await until(
      'catch-up',
      async () => (await readCheckpoints(readDb))[0]?.position === (await store.headPosition()),
    );
    expect(await counts(readDb)).toEqual({ Even: 15, Odd: 15 });

    await store.append('s-live', [{ type: 'Live', data: {} }], 'no_stream');
    await until('live event', async () => (await counts(readDb)).Live === 1);
    await runner.stop();

    // Events appended while stopped are picked up from the checkpoint, nothing twice.
    await store.append(
      's-live',
      [
        { type: 'Live', data: {} },
        { type: 'Even', data: {} },
      ],
      0n,
    );
    const again = new ProjectionRunner({ eventStore: store, readDb, projection: eventTypeCounts });
    again.start();
    await until(
      'resume',
      async () => (await readCheckpoints(readDb))[0]?.position === (await store.headPosition()),
    );
    await again.stop();
    expect(await counts(readDb)).toEqual({ Even: 16, Odd: 15, Live: 2 });
  });

  it('retries after a lost connection instead of stopping, and applies every event once', async () => {
    env = await setup();
    const { store, readDb } = env;
    let calls = 0;
    const flaky: Projection = {
      name: 'flaky',
      tables: ['event_type_counts'],
      async apply(tx, events) {
        calls++;
        if (calls <= 2)
          throw Object.assign(new Error('terminating connection due to administrator command'), {
            code: '57P01',
          });
        await eventTypeCounts.apply(tx, events);
      },
    };
    for (let i = 0; i < 5; i++) await store.append('flaky', [{ type: 'Tick', data: { i } }], 'any');
    const runner = new ProjectionRunner({ eventStore: store, readDb, projection: flaky });
    runner.start();
    await until('recovered', async () => (await counts(readDb)).Tick === 5);
    await runner.stop();
    expect(calls).toBeGreaterThanOrEqual(3);
    const checkpoint = (await readCheckpoints(readDb)).find((c) => c.name === 'flaky')!;
    expect(checkpoint).toMatchObject({
      status: 'running',
      error: null,
      position: await store.headPosition(),
    });
  });

  it('stops a projection that cannot apply an event, records the error, and leaves other projections running', async () => {
    env = await setup();
    const { store, readDb } = env;
    const failing: Projection = {
      name: 'fails_on_poison',
      tables: ['event_type_counts'],
      async apply(tx, events) {
        for (const e of events) {
          if (e.type === 'Poison') throw new Error('cannot apply Poison');
          await tx
            .insertInto('event_type_counts')
            .values({ type: `fails:${e.type}`, count: 1n, last_position: e.position })
            .onConflict((oc) => oc.column('type').doUpdateSet({ count: 99n }))
            .execute();
        }
      },
    };
    await store.append('p', [{ type: 'Fine', data: {} }], 'no_stream');
    const fine = (await store.readStream('p'))[0]!.position;
    const runnerA = new ProjectionRunner({ eventStore: store, readDb, projection: failing, flushAfterMs: 1 });
    const runnerB = new ProjectionRunner({ eventStore: store, readDb, projection: eventTypeCounts });
    runnerA.start();
    runnerB.start();
    await until('first batch', async () =>
      (await readCheckpoints(readDb)).some((c) => c.name === 'fails_on_poison' && c.position === fine),
    );
    await store.append('p', [{ type: 'Poison', data: {} }], 0n);
    await store.append('p', [{ type: 'After', data: {} }], 1n);
    await until('failure recorded', async () =>
      (await readCheckpoints(readDb)).some((c) => c.name === 'fails_on_poison' && c.status === 'failed'),
    );
    await until('other projection continues', async () => (await counts(readDb)).After === 1);
    const failed = (await readCheckpoints(readDb)).find((c) => c.name === 'fails_on_poison')!;
    expect(failed.position).toBe(fine);
    expect(failed.error).toMatch(/cannot apply Poison/);
    await runnerA.stop();
    await runnerB.stop();
    // A failed projection does not silently restart: a new runner applies nothing at all
    // (re-applying would fail on the same event and leave the same position, so count calls).
    let applied = 0;
    let fixed = false;
    const counting: Projection = {
      name: failing.name,
      tables: failing.tables,
      apply: async (tx, events) => {
        applied++;
        await failing.apply(tx, fixed ? events.filter((e) => e.type !== 'Poison') : events);
      },
    };
    const said: string[] = [];
    const restarted = new ProjectionRunner({
      eventStore: store,
      readDb,
      projection: counting,
      flushAfterMs: 1,
      resumePollMs: 50,
      log: {
        info: (_, message) => said.push(message),
        warn: (_, message) => said.push(message),
        error: (_, message) => said.push(message),
      },
    });
    restarted.start();
    await new Promise((r) => setTimeout(r, 300));
    expect(applied).toBe(0);
    expect(said).toEqual(['projection stopped']); // stopped until resumed, not retrying every few seconds
    expect((await readCheckpoints(readDb)).find((c) => c.name === 'fails_on_poison')).toMatchObject({
      position: fine,
      status: 'failed',
    });

    // Fixed and resumed by the operator: it goes on from its checkpoint, through the events it
    // had stopped on, while it keeps running in the same process.
    fixed = true;
    expect(await resumeProjection(readDb, 'fails_on_poison')).toBe('resumed');
    expect(await resumeProjection(readDb, 'fails_on_poison')).toBe('not-failed');
    expect(await resumeProjection(readDb, 'no_such_projection')).toBe('unknown');
    const head = await store.headPosition();
    await until('resumed to the head', async () =>
      (await readCheckpoints(readDb)).some((c) => c.name === 'fails_on_poison' && c.position === head),
    );
    await restarted.stop();
    expect(said).toEqual(['projection stopped', 'projection resumed']);
    expect((await counts(readDb))['fails:After']).toBe(1);
    expect((await readCheckpoints(readDb)).find((c) => c.name === 'fails_on_poison')).toMatchObject({
      status: 'running',
      error: null,
    });
  });
});
