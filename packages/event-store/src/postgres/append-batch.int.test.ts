import { afterEach, describe, expect, it } from 'vitest';
import { WrongExpectedVersionError } from '../types.ts';
import { type TestStore, testStores } from './test-stores.ts';

type Setup = TestStore;
const adapters = testStores('es_batch', { seal: false });

const event = (n: number) => ({ type: 'Noted', data: { n } });

/** appendBatch (the fast seed's bulk load): several streams' appends in order, all or none. */
describe.each(adapters)('appendBatch on %s', (_name, setup) => {
  let current: Setup | undefined;
  afterEach(async () => {
    await current?.dispose();
    current = undefined;
  });

  it('appends each stream at its version, the events taking positions in the order given', async () => {
    current = await setup();
    const { store } = current;
    await store.append('b', [event(0)], 'no_stream');
    const results = await store.appendBatch([
      { streamId: 'a', events: [event(1), event(2)], expected: 'no_stream' },
      { streamId: 'b', events: [event(3)], expected: 0n },
      { streamId: 'a', events: [event(4)], expected: 1n },
      { streamId: 'c', events: [event(5)], expected: 'any' },
    ]);
    expect(results.map((r) => [r.nextExpectedVersion, r.position])).toEqual([
      [1n, 3n],
      [1n, 4n],
      [2n, 5n],
      [0n, 6n],
    ]);
    const all = await store.readAll(0n, 100);
    expect(all.map((e) => [e.streamId, e.streamVersion, (e.data as { n: number }).n])).toEqual([
      ['b', 0n, 0],
      ['a', 0n, 1],
      ['a', 1n, 2],
      ['b', 1n, 3],
      ['a', 2n, 4],
      ['c', 0n, 5],
    ]);
  });

  it('appends nothing when one of its appends finds its stream moved on', async () => {
    current = await setup();
    const { store } = current;
    await store.append('b', [event(0)], 'no_stream');
    await expect(
      store.appendBatch([
        { streamId: 'a', events: [event(1)], expected: 'no_stream' },
        { streamId: 'b', events: [event(2)], expected: 'no_stream' },
      ]),
    ).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(await store.headPosition()).toBe(1n);
    expect(await store.readStream('a')).toEqual([]);
  });
});
