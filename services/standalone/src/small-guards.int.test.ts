import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
