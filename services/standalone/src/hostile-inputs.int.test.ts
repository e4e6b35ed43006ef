import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headPosition } from './testing/books.ts';
import { type Body, openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

/**
 * Issue #16, inputs that answered 500 (or 502 with the database's words): a NUL in a search,
 * a prototype key as a master kind, a godown named like one, a WhatsApp filter that jsonb cannot
 * store. Each is now a 4xx with a message, or an ordinary answer.
 */
describe.each(TEST_STORAGES)('hostile inputs answer 4xx, never 500 [%s]', (storage) => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  const raw = (path: string) =>
    fetch(`${t.bahi.url}/api${path}`, { headers: { authorization: `Bearer ${t.token}` } });
  const created = async (path: string, body: unknown) => {
    const r = await t.call('POST', path, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as string;
  };

  beforeAll(async () => {
    t = await openTestApp({ storage });
    ids.city = await created('/masters/cities', { name: 'Surat', currency_name: 'INR', rate: 1 });
    ids.funder = await created('/masters/funders', { name: 'Asha', city_id: ids.city });
    ids.product = await created('/masters/products', { name: 'Cumin' });
    for (const name of ['constructor', '__proto__', 'Twin', 'Twin', 'hasOwnProperty']) {
      const godown = await created('/masters/godowns', { name });
      // constructor#0, Twin#0, Twin#1, ...
      ids[`${name}#${Object.keys(ids).filter((k) => k.startsWith(`${name}#`)).length}`] = godown;
      await created('/transactions/purchases', {
        type: 'Godown',
        purchase_date: '2026-11-02',
        city_id: ids.city,
        funder_id: ids.funder,
        product_id: ids.product,
        godown_id: godown,
        rate: 10,
        quantity: 7,
      });
    }
    await t.syncToHead();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a NUL in a text query parameter is a 400 on it', async () => {
    for (const [path, field] of [
      ['/masters/cities?search=%00', 'search'],
      ['/masters/funders?search=a%00b', 'search'],
      ['/transactions/expenses?category=%00', 'category'],
      ['/reports/daywise-report?category=%00', 'category'],
      ['/logs?modelName=%00', 'modelName'],
      [
        '/reports/cashbook-report?entity_type=Godown&entity_id=00000000-0000-4000-8000-000000000000&city_id=%00',
        'city_id',
      ],
    ] as const) {
      const r = await t.call('GET', path);
      expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(400);
      expect(r.body.errors).toContainEqual({ msg: expect.any(String), path: field });
    }
    // What a person types still searches.
    expect((await t.call('GET', '/masters/cities?search=Sur')).body.totalItems).toBe(1);
  });

  it('a prototype key as a master kind or ledger type is a 404, and appends nothing', async () => {
    const before = await headPosition(t);
    for (const kind of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const post = await t.call('POST', `/masters/${kind}`, { name: 'x' });
      expect(post.status, `${kind} ${JSON.stringify(post.body)}`).toBe(404);
      expect(post.body.message).toBe(`There is no master list called "${kind}".`);
      expect((await t.call('PUT', `/masters/${kind}/${ids.city}`, { name: 'x' })).status).toBe(404);
      expect((await t.call('DELETE', `/masters/${kind}/${ids.city}`)).status).toBe(404);
      expect((await t.call('GET', `/masters/${kind}`)).status).toBe(404);
      expect((await t.call('GET', `/reports/ledger/${kind}/${ids.funder}`)).status).toBe(404);
    }
    expect(await headPosition(t)).toBe(before);
  });

  it('lists stock of godowns named constructor, __proto__ and two named Twin, each row with its godown id', async () => {
    const r = await t.call('GET', '/reports/stock');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const row = (godown: string) => ({
      godown_id: godown,
      product_id: ids.product,
      product_name: 'Cumin',
      quantity: '7.0000',
    });
    // JSON.parse makes "__proto__" an own key, as any client reading the answer sees it.
    expect(Object.keys(r.body).sort()).toEqual(['Twin', '__proto__', 'constructor', 'hasOwnProperty']);
    expect(r.body.constructor).toEqual([row(ids['constructor#0']!)]);
    expect(Object.getOwnPropertyDescriptor(r.body, '__proto__')?.value).toEqual([row(ids['__proto__#0']!)]);
    expect(r.body.hasOwnProperty).toEqual([row(ids['hasOwnProperty#0']!)]);
    // Two godowns of one name are listed under it together, told apart by their ids.
    expect(new Set(r.body.Twin.map((x: Body) => x.godown_id))).toEqual(
      new Set([ids['Twin#0'], ids['Twin#1']]),
    );
    expect(r.body.Twin).toHaveLength(2);

    for (const format of ['xlsx', 'pdf']) {
      const file = await raw(`/reports/stock/download/${format}`);
      expect(file.status, await file.clone().text()).toBe(200);
      expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
  });

  it('a WhatsApp send whose filters jsonb cannot store is a 400 on the field, not a 502 with the database error', async () => {
    for (const value of ['\u0000', 'a\ud800b', '\udc00']) {
      const r = await t.call('POST', '/reports/whatsapp', {
        recipientNumber: '+919876543210',
        reportName: 'stock',
        data: { asOf: '2026-11-30', note: value },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.errors).toContainEqual({ msg: expect.any(String), path: 'data.note' });
      expect(JSON.stringify(r.body)).not.toMatch(/jsonb|unsupported Unicode|invalid input syntax|\\\\u0000/i);
    }
    const key = await t.call('POST', '/reports/whatsapp', {
      recipientNumber: '+919876543210',
      reportName: 'stock',
      data: { 'bad\u0000key': 'x' },
    });
    expect(key.status, JSON.stringify(key.body)).toBe(400);
  });
});
