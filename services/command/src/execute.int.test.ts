import type { DomainEvent } from '@bahi/contracts';
import { createPostgresEventStore, type EventStore } from '@bahi/event-store';
import { createPgliteSqlClient } from '@bahi/sql-client';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { execute, type StreamDecider } from './execute.ts';

const meta = { userId: null, correlationId: 'test', causationId: null };
const counter: StreamDecider<number> = { initialState: () => 0, evolve: (n) => n + 1 };
const one = (): DomainEvent[] => [{ type: 'DemoLoaded', data: { writes: 1 } } as DomainEvent];

describe('the command side keeps long streams folded', () => {
  const sql = createPgliteSqlClient(new PGlite());
  afterAll(() => sql.close());

  it('a long stream stays cached while hundreds of one-event streams come and go', async () => {
    const store = await createPostgresEventStore(sql);
    const reads: Array<{ stream: string; fromVersion: bigint | undefined }> = [];
    const counting = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'readStream')
          return (stream: string, options?: { fromVersion?: bigint }) => {
            reads.push({ stream, fromVersion: options?.fromVersion });
            return target.readStream(stream, options);
          };
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as EventStore;

    for (let i = 0; i < 20; i++) await execute(counting, meta, 'godown-long', counter, one);
    // Hundreds of short streams in use (masters: each agent, funder, collector is one), more
    // than the cache holds; each is written, then read again.
    for (let i = 0; i < 600; i++) await execute(counting, meta, `agent-${i}`, counter, one);
    for (let i = 0; i < 600; i++) await execute(counting, meta, `agent-${i}`, counter, () => []);
    reads.length = 0;
    let seen = -1;
    await execute(counting, meta, 'godown-long', counter, (n) => {
      seen = n;
      return one();
    });
    expect(seen).toBe(20);
    // Only what came after the folded state is read (the last write, which the cache had not
    // folded yet), not the whole history again.
    expect(reads).toEqual([{ stream: 'godown-long', fromVersion: 19n }]);
  }, 60_000);
});
