import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headPosition } from './testing/books.ts';
import { openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

/**
 * Issue #27, item 8: the smaller guards, through the whole app (command and query side).
 * Every refusal is a 4xx naming the field it concerns, and appends nothing.
 */
describe.each(TEST_STORAGES)('smaller guards [%s]', (storage) => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  const created = async (path: string, body: unknown) => {
    const r = await t.call('POST', path, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as string;
  };
  const up = (id: string | undefined) => id!.toUpperCase();

  beforeAll(async () => {
    t = await openTestApp({ storage });
    ids.karachi = await created('/masters/cities', { name: 'Karachi', currency_name: 'PKR', rate: 0.3 });
    ids.dubai = await created('/masters/cities', { name: 'Dubai', currency_name: 'AED', rate: 22.5 });
    ids.product = await created('/masters/products', { name: 'Cumin' });
    ids.godown = await created('/masters/godowns', { name: 'Bhiwandi' });
    ids.dubaiFunder = await created('/masters/funders', { name: 'Dubai Traders', city_id: ids.dubai });
    await t.syncToHead();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  describe('an id in upper case is the same id in a body, a path and a query string', () => {
    it('a body takes it (it was "City not found"), and what is kept is the lower-case id', async () => {
      ids.funder = await created('/masters/funders', { name: 'Asha', city_id: up(ids.karachi) });
      ids.purchase = await created('/transactions/purchases', {
        type: 'Godown',
        purchase_date: '2026-11-02',
        city_id: up(ids.karachi),
        funder_id: up(ids.funder),
        product_id: up(ids.product),
        godown_id: up(ids.godown),
        rate: 10,
        quantity: 7,
      });
      const funders = await t.call('GET', `/masters/funders?search=Asha`);
      expect(funders.body.data).toEqual([expect.objectContaining({ id: ids.funder, city_id: ids.karachi })]);
      const purchases = await t.call('GET', `/transactions/purchases?city_id=${ids.karachi}`);
      expect(purchases.body.data).toEqual([
        expect.objectContaining({
          id: ids.purchase,
          city_id: ids.karachi,
          funder_id: ids.funder,
          product_id: ids.product,
          godown_id: ids.godown,
        }),
      ]);
    });

    it('a path takes it, with a lower-case id in the body beside it', async () => {
      const put = await t.call('PUT', `/masters/funders/${up(ids.funder)}`, {
        name: 'Asha & Sons',
        city_id: ids.karachi,
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body.id).toBe(ids.funder);
      // The ledger compares its account as text (funder:<id>): upper case found no lines before.
      const lower = await t.call('GET', `/reports/ledger/Funder/${ids.funder}`);
      const upper = await t.call('GET', `/reports/ledger/Funder/${up(ids.funder)}`);
      expect(upper.status).toBe(200);
      expect(lower.body.transactions).toHaveLength(1);
      expect(upper.body).toEqual(lower.body);
    });

    it('a query string filter takes it, and answers what the lower-case id answers', async () => {
      for (const path of [
        `/transactions/purchases?city_id=${up(ids.karachi)}`,
        `/masters/funders?city_id=${up(ids.karachi)}`,
        `/reports/stock/average-purchase-rate?product_id=${up(ids.product)}&godown_id=${up(ids.godown)}`,
      ]) {
        const upper = await t.call('GET', path);
        const lower = await t.call(
          'GET',
          path.replace(/[0-9A-F-]{36}/g, (id) => id.toLowerCase()),
        );
        expect(upper.status, path).toBe(200);
        expect(upper.body, path).toEqual(lower.body);
      }
      const purchases = await t.call('GET', `/transactions/purchases?city_id=${up(ids.karachi)}`);
      expect(purchases.body.totalItems).toBe(1);
      const rate = `/reports/stock/average-purchase-rate?product_id=${up(ids.product)}&godown_id=${up(ids.godown)}`;
      expect((await t.call('GET', rate)).body).toMatchObject({ product_id: ids.product, quantity: '7.0000' });
    });
  });

  describe('a filter the server does not understand is a 400 on it, never an unfiltered answer', () => {
    it("city_id[] on the list reads: a 400 naming city_id[] (it answered every city's rows)", async () => {
      for (const list of [
        '/masters/funders',
        '/transactions/purchases',
        '/transactions/expenses',
        '/reports/balances',
      ]) {
        const filtered = await t.call('GET', `${list}?city_id=${ids.dubai}`);
        expect(filtered.status, list).toBe(200);
        const res = await t.call('GET', `${list}?city_id%5B%5D=${ids.dubai}`);
        expect(res.status, `${list} ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body).toEqual({
          message: 'The request is not valid.',
          errors: [
            { msg: 'city_id[] is not understood: give city_id once, as city_id=value', path: 'city_id[]' },
          ],
        });
      }
      // The same filter written once filters: only Dubai's funder.
      const dubai = await t.call('GET', `/masters/funders?city_id=${ids.dubai}`);
      expect(dubai.body.data.map((f: { id: string }) => f.id)).toEqual([ids.dubaiFunder]);
    });

    it('a name a read does not take, or one given twice, is a 400 on it; so is any on a read that takes none', async () => {
      const cases = [
        [
          '/masters/funders?cityId=x',
          'cityId',
          /is not a parameter here \(it takes page, limit, search, city_id, asOf\)/,
        ],
        [`/transactions/purchases?city_id=${ids.karachi}&city_id=${ids.dubai}`, 'city_id', /given 2 times/],
        ['/reports/dashboard-summary?city_id=x', 'city_id', /it takes none/],
        ['/reports/stock?godown_id=x', 'godown_id', /it takes asOf, knownAt/],
      ] as const;
      for (const [path, field, msg] of cases) {
        const res = await t.call('GET', path);
        expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.errors).toEqual([{ msg: expect.stringMatching(msg), path: field }]);
      }
    });

    it('a write with a query parameter is refused before anything is appended', async () => {
      const before = await headPosition(t);
      const res = await t.call('POST', '/masters/products?dryRun=true', { name: 'Saffron' });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ msg: expect.stringMatching(/it takes none/), path: 'dryRun' }]);
      expect(await headPosition(t)).toBe(before);
    });
  });

  describe('a JSON body with a __proto__ key', () => {
    const send = async (path: string, text: string) => {
      const res = await fetch(`${t.bahi.url}/api${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
        body: text,
      });
      return { status: res.status, body: await res.json() };
    };

    it('is a 400 naming the key (it said "not valid JSON"), and appends nothing', async () => {
      const before = await headPosition(t);
      const purchase = {
        type: 'Godown',
        purchase_date: '2026-11-03',
        city_id: ids.karachi,
        funder_id: ids.funder,
        product_id: ids.product,
        godown_id: ids.godown,
        rate: 10,
        quantity: 1,
      };
      for (const [path, text, field] of [
        ['/masters/products', '{"name": "Saffron", "__proto__": {"isAdmin": true}}', '__proto__'],
        [
          '/transactions/purchases',
          JSON.stringify(purchase).replace(/}$/, ', "custom_fields": {"__proto__": {"x": "1"}}}'),
          'custom_fields.__proto__',
        ],
      ] as const) {
        const res = await send(path, text);
        expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body).toEqual({
          message: 'The request is not valid.',
          errors: [{ msg: '"__proto__" is not allowed as a key', path: field }],
        });
      }
      expect(await headPosition(t)).toBe(before);
      // The same purchase without it is recorded.
      expect((await send('/transactions/purchases', JSON.stringify(purchase))).status).toBe(201);
    });
  });

  describe('thousands of unknown custom fields', () => {
    const purchase = (custom_fields: Record<string, string>) => ({
      type: 'Godown',
      purchase_date: '2026-11-04',
      city_id: ids.karachi,
      funder_id: ids.funder,
      product_id: ids.product,
      godown_id: ids.godown,
      rate: 10,
      quantity: 1,
      custom_fields,
    });
    const sized = async (body: unknown) => {
      const res = await fetch(`${t.bahi.url}/api/transactions/purchases`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, size: text.length, body: JSON.parse(text) };
    };

    it('1 MB of names is one small refusal on custom_fields (it was a 6.9 MB answer)', async () => {
      const before = await headPosition(t);
      const names = Object.fromEntries(Array.from({ length: 75_000 }, (_, i) => [`f${i}`, 'x']));
      expect(JSON.stringify(names).length).toBeGreaterThan(900_000);
      const res = await sized(purchase(names));
      expect(res.status).toBe(400);
      expect(res.size).toBeLessThan(2_000);
      expect(res.body.errors).toEqual([
        { msg: 'At most 500 custom fields can be given', path: 'custom_fields' },
      ]);
      expect(await headPosition(t)).toBe(before);
    });

    it('as many unknown names as are allowed: the first 20, each on its field, in a few kB', async () => {
      const before = await headPosition(t);
      const names = Object.fromEntries(
        Array.from({ length: 500 }, (_, i) => [`${String(i).padStart(3, '0')}${'n'.repeat(97)}`, 'x']),
      );
      const res = await sized(purchase(names));
      expect(res.status).toBe(400);
      expect(res.size).toBeLessThan(5_000);
      expect(res.body.message).toBe(
        'Some custom fields are not valid. There are 500 problems; the first 20 are listed.',
      );
      expect(res.body.errors).toHaveLength(20);
      expect(res.body.errors[0]).toEqual({
        msg: 'This custom field does not apply to purchases',
        path: `custom_fields.000${'n'.repeat(97)}`,
      });
      expect(await headPosition(t)).toBe(before);
    });

    it('an over-long name is refused on itself, before the rest are looked at', async () => {
      const long = 'L'.repeat(101);
      const res = await sized(purchase({ a: 'x', [long]: 'x', b: 'x' }));
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { msg: 'A custom field id can be at most 100 characters', path: `custom_fields.${long}` },
      ]);
    });
  });
});
