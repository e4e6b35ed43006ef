import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from './standalone.ts';
import { headPosition } from './testing/books.ts';
import { type Body, openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

/**
 * Idempotency-Key on writes (issue #16): a retry with the same key and body answers the first
 * answer and appends nothing, also after a restart; the same key for another request is a 422.
 */
describe.each(TEST_STORAGES)('Idempotency-Key [%s]', (storage) => {
  let t: TestApp;
  let url: string;
  let restarted: Standalone | undefined;

  const send = async (method: string, path: string, body: unknown, key?: string, token = t.token) => {
    const res = await fetch(`${url}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      body: JSON.stringify(body),
    });
    return {
      status: res.status,
      body: (await res.json()) as Body,
      replayed: res.headers.get('idempotent-replayed'),
    };
  };
  const cities = async () =>
    (await t.call('GET', '/masters/cities?limit=-1')).body.data.map((c: Body) => c.name);

  beforeAll(async () => {
    t = await openTestApp({ storage });
    url = t.bahi.url;
  }, 60_000);
  afterAll(async () => {
    await restarted?.stop();
    await t?.close();
  });

  it('a retry with the same key and body answers the first answer and appends nothing', async () => {
    const city = { name: 'Pune', currency_name: 'INR', rate: 1 };
    const first = await send('POST', '/masters/cities', city, 'key-pune-1');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.replayed).toBeNull();
    const head = await headPosition(t);
    for (let i = 0; i < 3; i++) {
      const again = await send('POST', '/masters/cities', city, 'key-pune-1');
      expect(again).toEqual({ status: 201, body: first.body, replayed: 'true' });
    }
    expect(await headPosition(t)).toBe(head);
    await t.syncToHead();
    expect(await cities()).toEqual(['Pune']);
    // Without a key, the same body is a new write, as before.
    expect((await send('POST', '/masters/cities', { ...city, name: 'Nashik' })).status).toBe(201);
  });

  it('the same key for another request is a 422 on the header; a refusal is not kept', async () => {
    const head = await headPosition(t);
    const other = await send(
      'POST',
      '/masters/cities',
      { name: 'Goa', currency_name: 'INR', rate: 1 },
      'key-pune-1',
    );
    expect(other.status).toBe(422);
    expect(other.body.errors).toEqual([{ msg: expect.any(String), path: 'Idempotency-Key' }]);
    const elsewhere = await send('POST', '/masters/products', { name: 'Pune' }, 'key-pune-1');
    expect(elsewhere.status).toBe(422);
    expect(await headPosition(t)).toBe(head);

    // A 400 appended nothing and is not kept: the corrected request with that key runs.
    const bad = await send('POST', '/masters/products', { name: '' }, 'key-product-1');
    expect(bad.status).toBe(400);
    const fixed = await send('POST', '/masters/products', { name: 'Cumin' }, 'key-product-1');
    expect(fixed.status).toBe(201);
    expect((await send('POST', '/masters/products', { name: 'Cumin' }, 'key-product-1')).body).toEqual(
      fixed.body,
    );

    const tooLong = await send('POST', '/masters/products', { name: 'X' }, 'k'.repeat(256));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([{ msg: expect.any(String), path: 'Idempotency-Key' }]);
  });

  it('parallel requests with one key append once', async () => {
    const head = BigInt(await headPosition(t));
    const body = { name: 'Surat', currency_name: 'INR', rate: 1 };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => send('POST', '/masters/cities', body, 'key-surat')),
    );
    const ok = answers.filter((a) => a.status === 201);
    expect(
      answers.every((a) => a.status === 201 || a.status === 409),
      JSON.stringify(answers),
    ).toBe(true);
    expect(new Set(ok.map((a) => a.body.id)).size).toBe(1);
    expect(BigInt(await headPosition(t)) - head).toBe(1n); // one CityCreated
    // Keys are per user: another user's same key is their own write.
    const created = await t.call('POST', '/masters/users', {
      name: 'Mina',
      email: 'mina@test.local',
      password: 'mina-password',
      role: 'Manager',
    });
    expect(created.status).toBe(201);
    const mina = await t.login('mina@test.local', 'mina-password');
    const hers = await send('POST', '/masters/cities', { ...body, name: 'Vapi' }, 'key-surat', mina);
    expect(hers.status).toBe(201);
    expect(hers.body.id).not.toBe(ok[0]!.body.id);
  });

  // A restart of the standalone on its data directory (on Postgres the kept answer is a table
  // of the same database, which a restart does not touch either).
  const onPglite = storage === 'pglite' ? it : () => undefined;
  onPglite('keeps the first answer across a restart', async () => {
    const product = { name: 'Saffron' };
    const first = await send('POST', '/masters/products', product, 'key-saffron');
    expect(first.status).toBe(201);
    await t.bahi.stop();
    restarted = await startStandalone(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        BAHI_DATA_DIR: join(t.dir, 'data'),
        BAHI_FRONTENDS_DIR: join(t.dir, 'none'),
      },
      { logger: false },
    );
    url = restarted.url;
    const ready = (await (await fetch(`${url}/api/ready`)).json()) as Body;
    const again = await send('POST', '/masters/products', product, 'key-saffron');
    expect(again).toEqual({ status: 201, body: first.body, replayed: 'true' });
    const after = (await (await fetch(`${url}/api/ready`)).json()) as Body;
    expect(after.eventStore.headPosition).toBe(ready.eventStore.headPosition);
    // t.close() stops t.bahi again (a no-op) and removes the directory after `restarted` stops.
    await restarted.stop();
    restarted = undefined;
  });
});
