import { createPgliteSqlClient, type SqlClient } from '@bahi/sql-client';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore, type PostgresEventStore } from './postgres-event-store.ts';

/** Concurrent reads of the same page share one query, unless a commit came in between. */
describe('readAll shared between concurrent readers', () => {
  let sql: SqlClient;
  let store: PostgresEventStore;
  let reads = 0;

  beforeAll(async () => {
    const inner = createPgliteSqlClient(new PGlite());
    sql = {
      ...inner,
      query: (text, params) => {
        if (/global_position > \$1/.test(text)) reads++;
        return inner.query(text, params);
      },
    };
    store = await createPostgresEventStore(sql);
    await store.append('s-1', [{ type: 'A', data: { list: [1] } }], 'no_stream');
  });
  afterAll(async () => {
    await store.close();
    await sql.close();
  });

  it('ten readers of one page cost one query, and each gets data of its own', async () => {
    reads = 0;
    const pages = await Promise.all(Array.from({ length: 10 }, () => store.readAll(0n, 100)));
    expect(reads).toBe(1);
    for (const page of pages) expect(page.map((e) => e.data)).toEqual([{ list: [1] }]);
    (pages[0]![0]!.data as { list: number[] }).list.push(2);
    expect(pages[1]![0]!.data).toEqual({ list: [1] });
  });

  it('a reader after a commit does not share a read that started before it', async () => {
    reads = 0;
    const before = store.readAll(0n, 100);
    await store.append('s-2', [{ type: 'B', data: {} }], 'no_stream'); // wakes the subscribers
    const after = store.readAll(0n, 100);
    const [a, b] = await Promise.all([before, after]);
    expect(reads).toBe(2);
    expect(b.map((e) => e.type)).toEqual(['A', 'B']);
    expect(a.length).toBeLessThanOrEqual(2);
  });
});

describe('eventTypesBetween', () => {
  it('answers the distinct types of a stretch of the log, once the stretch is final', async () => {
    const sql = createPgliteSqlClient(new PGlite());
    const store = await createPostgresEventStore(sql);
    try {
      const a = await store.append(
        't-1',
        [
          { type: 'A', data: {} },
          { type: 'B', data: {} },
        ],
        'no_stream',
      );
      const b = await store.append(
        't-2',
        [
          { type: 'A', data: {} },
          { type: 'C', data: {} },
        ],
        'no_stream',
      );
      expect((await store.eventTypesBetween(0n, a.position))?.sort()).toEqual(['A', 'B']);
      expect((await store.eventTypesBetween(a.position, b.position))?.sort()).toEqual(['A', 'C']);
      expect(await store.eventTypesBetween(b.position, b.position)).toEqual([]);
      // No event at that position: nothing shows the stretch is final.
      expect(await store.eventTypesBetween(0n, b.position + 100n)).toBeUndefined();
    } finally {
      await store.close();
      await sql.close();
    }
  });
});
