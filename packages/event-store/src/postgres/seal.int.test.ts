import type { SqlClient } from '@bahi/sql-client';
import { afterEach, describe, expect, it } from 'vitest';
import { CHAIN_GENESIS, chainHash } from '../chain.ts';
import { type TestStore, testStores } from './test-stores.ts';

type Setup = TestStore;
const adapters = testStores('es_seal');

const purchase = (n: number) => ({
  type: 'PurchaseRecorded',
  data: { number: n, rate: '250.00', quantity: `${n}` },
});

/** Changes one byte of one event's data, as someone with database access could. */
const tamper = (sql: SqlClient, position: bigint) =>
  sql.query(
    `UPDATE es.events SET data = replace(data::text, '"250.00"', '"250.01"')::jsonb WHERE global_position = $1::bigint`,
    [position.toString()],
  );

describe.each(adapters)('the seal [%s]', (_name, open) => {
  let setup: Setup | undefined;
  afterEach(async () => {
    await setup?.dispose();
    setup = undefined;
  });

  async function tenEvents(s: Setup) {
    const positions: bigint[] = [];
    for (let i = 0; i < 10; i++) {
      const { position } = await s.store.append(`purchase-${i % 3}`, [purchase(i)], 'any');
      positions.push(position);
    }
    return positions;
  }

  it('seals every event in log order with the chain of chain.ts, and the log verifies intact', async () => {
    setup = await open();
    const positions = await tenEvents(setup);
    const head = positions.at(-1)!;
    const sealed = await setup.store.chainHeadAt(head);
    let hash = CHAIN_GENESIS;
    for (const event of await setup.store.readAll(0n, 100)) hash = chainHash(hash, event);
    expect(sealed).toEqual({ position: head, hash });
    // The head at an earlier position is the hash up to that event, not the head's.
    const third = await setup.store.chainHeadAt(positions[2]!);
    let upTo3 = CHAIN_GENESIS;
    for (const event of await setup.store.readAll(0n, 3)) upTo3 = chainHash(upTo3, event);
    expect(third).toEqual({ position: positions[2], hash: upTo3 });

    const result = await setup.store.verifyChain({ batchSize: 4 });
    expect(result).toMatchObject({
      status: 'intact',
      checked: 10,
      total: 10,
      intactUpTo: head.toString(),
      sealedUpTo: head.toString(),
      head: head.toString(),
      chainHead: hash,
      unsealed: 0,
    });
    expect(result.broken).toBeUndefined();
  });

  it('names the first event changed after it was sealed, and seals later events on from the stored hash', async () => {
    setup = await open();
    const positions = await tenEvents(setup);
    await setup.store.chainHeadAt(positions.at(-1)!);
    const victim = positions[6]!;
    const [before] = await setup.store.readAll(victim - 1n, 1);
    await tamper(setup.sql, victim);
    const [after] = await setup.store.readAll(victim - 1n, 1);
    expect((after!.data as { rate: string }).rate).toBe('250.01'); // one byte changed
    expect((before!.data as { rate: string }).rate).toBe('250.00');

    // Appends go on after the change; the seal does not take the changed event in.
    const { position: later } = await setup.store.append('purchase-9', [purchase(99)], 'any');
    await setup.store.chainHeadAt(later);

    const result = await setup.store.verifyChain({ batchSize: 3 });
    expect(result.status).toBe('broken');
    expect(result.intactUpTo).toBe(positions[5]!.toString());
    expect(result.checked).toBe(6);
    expect(result.broken).toMatchObject({
      position: victim.toString(),
      reason: 'altered',
      type: 'PurchaseRecorded',
      streamId: `purchase-${6 % 3}`,
    });
    expect(result.broken!.stored).not.toBe(result.broken!.recomputed);
    // The stored seal is the hash of the event as it was appended.
    let hash = CHAIN_GENESIS;
    const events = await setup.store.readAll(0n, 100);
    for (const event of events.slice(0, 6)) hash = chainHash(hash, event);
    expect(result.broken!.stored).toBe(chainHash(hash, before!));
    expect(result.broken!.recomputed).toBe(chainHash(hash, after!));
  });

  it('names a deleted event and an event inserted behind the seal', async () => {
    setup = await open();
    const positions = await tenEvents(setup);
    await setup.store.chainHeadAt(positions.at(-1)!);
    await setup.sql.query('DELETE FROM es.events WHERE global_position = $1::bigint', [
      positions[4]!.toString(),
    ]);
    const gone = await setup.store.verifyChain();
    expect(gone.broken).toMatchObject({
      position: positions[4]!.toString(),
      reason: 'missing',
      recomputed: null,
    });
    expect(gone.intactUpTo).toBe(positions[3]!.toString());

    // An event with no seal below the sealed head: put there behind the seal's back.
    await setup.sql.query('DELETE FROM es.chain WHERE global_position = $1::bigint', [
      positions[2]!.toString(),
    ]);
    const inserted = await setup.store.verifyChain({ seal: false });
    expect(inserted.broken).toMatchObject({
      position: positions[2]!.toString(),
      reason: 'inserted',
      stored: null,
    });
  });

  it('does not seal past a transaction still open below the head', async () => {
    setup = await open();
    const s = setup;
    if (s.sql.kind === 'pglite') return; // one connection: no transaction can stay open beside another
    await tenEvents(s);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let openPosition = 0n;
    const holder = s.sql.transaction(async (tx) => {
      ({ position: openPosition } = await s.store.append('open', [purchase(50)], 'any', { via: tx }));
      await held;
    });
    while (openPosition === 0n) await new Promise((resolve) => setTimeout(resolve, 5));
    const { position: after } = await s.store.append('after', [purchase(51)], 'any');
    expect(await s.store.chainHeadAt(after, 100)).toBeUndefined(); // not final yet
    const partial = await s.store.verifyChain();
    expect(BigInt(partial.sealedUpTo)).toBeLessThan(openPosition);
    expect(partial.unsealed).toBe(1); // the committed event above the open one
    release();
    await holder;
    const sealed = await s.store.chainHeadAt(after);
    expect(sealed?.position).toBe(after);
    expect((await s.store.verifyChain()).status).toBe('intact');
  });
});
