import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DuplicateEventIdError,
  type EventStore,
  type RecordedEvent,
  WrongExpectedVersionError,
} from './types.ts';

/** A store for one suite run; the suite uses fresh stream ids, so a shared store is fine. */
export interface ContractTarget {
  name: string;
  create(): Promise<{ store: EventStore; dispose(): Promise<void> }>;
}

const stream = (prefix = 'contract') => `${prefix}-${randomUUID()}`;
const ev = (type: string, data: unknown = {}, id?: string) => ({ type, data, ...(id ? { id } : {}) });

async function take(
  store: EventStore,
  after: bigint,
  count: number,
  timeoutMs = 10_000,
): Promise<RecordedEvent[]> {
  const sub = store.subscribe(after, { batchSize: 7 });
  const got: RecordedEvent[] = [];
  const timer = setTimeout(() => void sub.close(), timeoutMs);
  try {
    for await (const event of sub) {
      got.push(event);
      if (got.length >= count) break;
    }
  } finally {
    clearTimeout(timer);
    await sub.close();
  }
  return got;
}

/** The behaviour every adapter of the event store port must show. */
export function eventStoreContract(target: ContractTarget): void {
  describe(`event store contract [${target.name}]`, () => {
    let store: EventStore;
    let dispose: () => Promise<void>;

    beforeAll(async () => {
      ({ store, dispose } = await target.create());
    }, 60_000);
    afterAll(async () => {
      await dispose?.();
    });

    it('appends to a new stream and reads it back in version order with the envelope', async () => {
      const id = stream();
      const result = await store.append(id, [ev('Opened', { a: 1 }), ev('Changed', { b: 'x' })], 'no_stream');
      expect(result.nextExpectedVersion).toBe(1n);
      const events = await store.readStream(id);
      expect(events.map((e) => [e.type, e.streamVersion])).toEqual([
        ['Opened', 0n],
        ['Changed', 1n],
      ]);
      expect(events[0]!.data).toEqual({ a: 1 });
      expect(events[1]!.position).toBe(result.position);
      expect(events[0]!.position).toBeLessThan(events[1]!.position);
      expect(events[0]!.streamId).toBe(id);
      expect(events[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Date(events[0]!.metadata.recordedAt).getTime()).not.toBeNaN();
      expect(events[0]!.metadata.correlationId).toBeTruthy();
    });

    it('keeps the metadata it is given', async () => {
      const id = stream();
      const correlationId = randomUUID();
      const causationId = randomUUID();
      await store.append(
        id,
        [
          {
            type: 'T',
            data: {},
            metadata: { userId: 'u-1', correlationId, causationId, recordedAt: '2026-01-02T03:04:05.000Z' },
          },
        ],
        'any',
      );
      const [event] = await store.readStream(id);
      expect(event!.metadata).toMatchObject({
        userId: 'u-1',
        correlationId,
        causationId,
        recordedAt: '2026-01-02T03:04:05.000Z',
      });
    });

    it('appends with the expected version and refuses a stale one with a typed error', async () => {
      const id = stream();
      const first = await store.append(id, [ev('A')], 'no_stream');
      const second = await store.append(id, [ev('B')], first.nextExpectedVersion);
      expect(second.nextExpectedVersion).toBe(1n);
      const stale = store.append(id, [ev('C')], first.nextExpectedVersion);
      await expect(stale).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await expect(stale).rejects.toMatchObject({ streamId: id, expected: 0n, actual: 1n });
      await expect(store.append(id, [ev('D')], 'no_stream')).rejects.toBeInstanceOf(
        WrongExpectedVersionError,
      );
      await expect(store.append(stream(), [ev('E')], 3n)).rejects.toMatchObject({ actual: 'no_stream' });
      expect((await store.readStream(id)).map((e) => e.type)).toEqual(['A', 'B']);
    });

    it("appends with 'any' whatever the stream holds", async () => {
      const id = stream();
      await store.append(id, [ev('A')], 'any');
      const r = await store.append(id, [ev('B'), ev('C')], 'any');
      expect(r.nextExpectedVersion).toBe(2n);
    });

    it('stores an event id once when the same append is retried', async () => {
      const id = stream();
      const eventId = randomUUID();
      const first = await store.append(id, [ev('Paid', { n: 1 }, eventId)], 'no_stream');
      const retry = await store.append(id, [ev('Paid', { n: 1 }, eventId)], 'no_stream');
      expect(retry).toEqual(first);
      expect(await store.readStream(id)).toHaveLength(1);
      const all = await store.readAll(first.position - 1n, 10);
      expect(all.filter((e) => e.id === eventId)).toHaveLength(1);
    });

    it("stores once when a retry comes with 'any' or with the original expected version", async () => {
      const id = stream();
      await store.append(id, [ev('Opened')], 'no_stream');
      const ids = [randomUUID(), randomUUID()];
      const batch = ids.map((eventId, n) => ev(`E${n}`, { n }, eventId));
      const first = await store.append(id, batch, 0n);
      expect(await store.append(id, batch, 0n)).toEqual(first);
      expect(await store.append(id, batch, 'any')).toEqual(first);
      expect((await store.readStream(id)).map((e) => e.type)).toEqual(['Opened', 'E0', 'E1']);
      // A stale expected version whose events are new is still a conflict.
      await expect(store.append(id, [ev('Late')], 0n)).rejects.toBeInstanceOf(WrongExpectedVersionError);
    });

    it('refuses an event id already stored in another stream, storing nothing', async () => {
      const eventId = randomUUID();
      await store.append(stream(), [ev('X', {}, eventId)], 'any');
      const other = stream();
      await expect(store.append(other, [ev('Y'), ev('X', {}, eventId)], 'any')).rejects.toBeInstanceOf(
        DuplicateEventIdError,
      );
      expect(await store.readStream(other)).toEqual([]);
    });

    it('reads a stream from a version with a maximum count, and [] for an unknown stream', async () => {
      const id = stream();
      await store.append(id, [ev('0'), ev('1'), ev('2'), ev('3')], 'no_stream');
      const page = await store.readStream(id, { fromVersion: 1n, maxCount: 2 });
      expect(page.map((e) => e.type)).toEqual(['1', '2']);
      expect(await store.readStream(stream())).toEqual([]);
    });

    it('reads $all after a position, in position order, with a limit', async () => {
      const head = await store.headPosition();
      const a = stream();
      const b = stream();
      await store.append(a, [ev('a0'), ev('a1')], 'no_stream');
      await store.append(b, [ev('b0')], 'no_stream');
      await store.append(a, [ev('a2')], 1n);
      const all = (await store.readAll(head, 1000)).filter((e) => e.streamId === a || e.streamId === b);
      expect(all.map((e) => e.type)).toEqual(['a0', 'a1', 'b0', 'a2']);
      const positions = all.map((e) => e.position);
      expect([...positions].sort((x, y) => (x < y ? -1 : 1))).toEqual(positions);
      const limited = await store.readAll(head, 2);
      expect(limited).toHaveLength(2);
      const next = await store.readAll(limited[1]!.position, 1000);
      expect(next.every((e) => e.position > limited[1]!.position)).toBe(true);
      expect(await store.headPosition()).toBe(all.at(-1)!.position);
    });

    it('subscribes: catches up on past events, then follows new ones live', async () => {
      const head = await store.headPosition();
      const id = stream('sub');
      await store.append(id, [ev('past0'), ev('past1')], 'no_stream');
      const received = take(store, head, 5);
      await new Promise((r) => setTimeout(r, 50));
      await store.append(id, [ev('live0')], 1n);
      await store.append(id, [ev('live1'), ev('live2')], 2n);
      const got = await received;
      expect(got.map((e) => e.type)).toEqual(['past0', 'past1', 'live0', 'live1', 'live2']);
    });

    it('answers the head as the last committed position', async () => {
      const r = await store.append(stream('head'), [ev('x'), ev('y')], 'no_stream');
      expect(await store.headPosition()).toBe(r.position);
    });

    it('resumes a subscription strictly after the given position', async () => {
      const id = stream('resume');
      const r = await store.append(id, [ev('a'), ev('b'), ev('c')], 'no_stream');
      const events = await store.readStream(id);
      const got = await take(store, events[0]!.position, 2);
      expect(got.map((e) => e.type)).toEqual(['b', 'c']);
      expect(got[1]!.position).toBe(r.position);
    });
  });
}
