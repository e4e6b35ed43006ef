import { randomUUID } from 'node:crypto';
import { createPgSqlClient, type SqlClient } from '@bahi/sql-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTestDatabase } from '../../../../test/postgres.ts';
import { type RecordedEvent, WrongExpectedVersionError } from '../types.ts';
import { appendWith, createPostgresEventStore, type PostgresEventStore } from './postgres-event-store.ts';

const url = process.env.DATABASE_URL;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!url)('postgres event store under concurrency', () => {
  let db: Awaited<ReturnType<typeof withTestDatabase>>;
  let writers: SqlClient;
  let readers: SqlClient;
  let store: PostgresEventStore;
  let readerStore: PostgresEventStore;

  beforeAll(async () => {
    db = await withTestDatabase('es_concurrency');
    writers = createPgSqlClient({ connectionString: db.url, max: 34 });
    readers = createPgSqlClient({ connectionString: db.url, max: 3 });
    store = await createPostgresEventStore(writers);
    // A second store on its own pool, as another process would have: it only learns of
    // appends through NOTIFY or polling.
    readerStore = await createPostgresEventStore(readers, { pollIntervalMs: 50 });
  });
  afterAll(async () => {
    await readerStore?.close();
    await store?.close();
    await readers?.close();
    await writers?.close();
    await db?.drop();
  });

  it('32 writers racing on one stream with expected versions: exactly one winner per version', async () => {
    const stream = `race-${randomUUID()}`;
    const rounds = 25;
    let wrongVersion = 0;
    let other = 0;
    for (let round = 0; round < rounds; round++) {
      const expected = round === 0 ? ('no_stream' as const) : BigInt(round - 1);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 32 }, (_, writer) =>
          store.append(stream, [{ type: 'Raced', data: { round, writer } }], expected),
        ),
      );
      const winners = outcomes.filter((o) => o.status === 'fulfilled');
      expect(winners, `round ${round}`).toHaveLength(1);
      expect(
        (winners[0] as PromiseFulfilledResult<{ nextExpectedVersion: bigint }>).value.nextExpectedVersion,
      ).toBe(BigInt(round));
      for (const o of outcomes) {
        if (o.status === 'rejected') {
          if (o.reason instanceof WrongExpectedVersionError && o.reason.actual === BigInt(round))
            wrongVersion++;
          else other++;
        }
      }
    }
    expect(other).toBe(0);
    expect(wrongVersion).toBe(rounds * 31);
    const events = await store.readStream(stream);
    expect(events.map((e) => e.streamVersion)).toEqual(Array.from({ length: rounds }, (_, i) => BigInt(i)));
    expect(events.map((e) => (e.data as { round: number }).round)).toEqual(
      Array.from({ length: rounds }, (_, i) => i),
    );
  });

  it('32 free-running writers on one stream never lose or double an append', async () => {
    const stream = `free-${randomUUID()}`;
    let successes = 0;
    await Promise.all(
      Array.from({ length: 32 }, async (_, writer) => {
        for (let i = 0; i < 8; i++) {
          for (;;) {
            const current = await store.readStream(stream);
            const expected = current.length === 0 ? ('no_stream' as const) : current.at(-1)!.streamVersion;
            try {
              await store.append(stream, [{ type: 'Free', data: { writer, i } }], expected);
              successes++;
              break;
            } catch (error) {
              if (!(error instanceof WrongExpectedVersionError)) throw error;
            }
          }
        }
      }),
    );
    const events = await store.readStream(stream);
    expect(successes).toBe(32 * 8);
    expect(events).toHaveLength(32 * 8);
    expect(events.map((e) => e.streamVersion)).toEqual(events.map((_, i) => BigInt(i)));
  });

  it('32 writers holding transactions open 0-500 ms: a live $all subscriber gets every event once, in position order', async () => {
    const from = await readerStore.headPosition();
    const committed = new Set<string>();
    const received: RecordedEvent[] = [];
    const runId = randomUUID();
    const subscription = readerStore.subscribe(from, { batchSize: 16 });
    const consuming = (async () => {
      for await (const event of subscription) {
        if ((event.data as { runId?: string }).runId === runId) received.push(event);
      }
    })();

    await Promise.all(
      Array.from({ length: 32 }, async (_, writer) => {
        const stream = `held-${writer}-${randomUUID()}`;
        let version: bigint | 'no_stream' = 'no_stream';
        for (let i = 0; i < 8; i++) {
          const ids = [randomUUID(), randomUUID()];
          const rollback = Math.random() < 0.1; // rolled-back appends leave permanent gaps
          try {
            await writers.transaction(async (tx) => {
              const { result } = await appendWith(
                tx,
                stream,
                ids.map((id, n) => ({ id, type: 'Held', data: { runId, writer, i, n } })),
                version,
              );
              await sleep(Math.random() * 500);
              if (rollback) throw new Error('rollback');
              version = result.nextExpectedVersion;
            });
            for (const id of ids) committed.add(id);
            await readers.query("SELECT pg_notify('bahi_es_appended', '')");
          } catch (error) {
            if ((error as Error).message !== 'rollback') throw error;
          }
        }
      }),
    );

    const deadline = Date.now() + 15_000;
    while (received.length < committed.size && Date.now() < deadline) await sleep(50);
    await sleep(300); // anything delivered twice would arrive by now
    await subscription.close();
    await consuming;

    const ids = received.map((e) => e.id);
    expect(new Set(ids).size, 'duplicates').toBe(ids.length);
    expect(
      ids.filter((id) => !committed.has(id)),
      'events never committed',
    ).toEqual([]);
    expect(
      [...committed].filter((id) => !ids.includes(id)),
      'skipped events',
    ).toEqual([]);
    const positions = received.map((e) => e.position);
    expect(
      positions.every((p, i) => i === 0 || p > positions[i - 1]!),
      'position order',
    ).toBe(true);
    expect(received.length).toBeGreaterThan(32 * 8 * 2 * 0.7);
  }, 60_000);
});

if (!url) console.log('postgres event store concurrency tests skipped: DATABASE_URL is not set');
