import type { EventData } from '@bahi/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandTestApp, commandTestApp } from './testing/command-app.ts';
import { expectOnlyRegisteredEvents } from './testing/registered-events.ts';

describe('purchases, sales and returns through the command API', () => {
  let t: CommandTestApp;
  const m: Record<string, string> = {};

  beforeAll(async () => {
    t = await commandTestApp();
    const mk = async (kind: string, body: unknown) => {
      const res = await t.call('POST', `/api/masters/${kind}`, t.adminToken, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    m.karachi = await mk('cities', { name: 'Karachi', currency_name: 'PKR', rate: '0.3' });
    m.mumbai = await mk('cities', { name: 'Mumbai', currency_name: 'INR', rate: 1 });
    m.funder = await mk('funders', { name: 'Asha', city_id: m.karachi });
    m.mumbaiFunder = await mk('funders', { name: 'Bala', city_id: m.mumbai });
    m.agent = await mk('agents', { name: 'Vikram', city_id: m.karachi });
    m.collector = await mk('collectors', { name: 'Imran', city_id: m.karachi });
    m.godown = await mk('godowns', { name: 'Bhiwandi' });
    m.product = await mk('products', { name: 'Cumin' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const post = (path: string, body: unknown, token = t.adminToken) =>
    t.call('POST', `/api/transactions/${path}`, token, body);
  const purchase = (extra: Record<string, unknown> = {}) => ({
    type: 'Godown',
    purchase_date: '2026-11-01T00:00:00.000Z',
    city_id: m.karachi,
    funder_id: m.funder,
    product_id: m.product,
    godown_id: m.godown,
    rate: 250,
    quantity: 100,
    ...extra,
  });
  const sale = (extra: Record<string, unknown> = {}) => ({
    sale_date: '2026-11-02T00:00:00.000Z',
    agent_id: m.agent,
    product_id: m.product,
    godown_id: m.godown,
    rate: 300,
    quantity: 40,
    clearing_charge: 50,
    ...extra,
  });
  const inventory = async () => (await t.eventStore.readStream(`inventory-${m.godown}`)).map((e) => e);

  it('records a purchase, a sale, and returns of both, each event with balanced postings', async () => {
    const p = await post('purchases', purchase({ paid_amount: 1000, collector_id: m.collector }));
    expect(p.statusCode, p.body).toBe(201);
    const s = await post('sales', sale());
    expect(s.statusCode, s.body).toBe(201);
    const sr = await post('sale-returns', {
      sale_id: s.json().id,
      quantity: '10',
      return_date: '2026-11-03',
    });
    expect(sr.statusCode, sr.body).toBe(201);
    const pr = await post('purchase-returns', {
      purchase_id: p.json().id,
      quantity: 20,
      return_date: '2026-11-04',
    });
    expect(pr.statusCode, pr.body).toBe(201);
    const events = await inventory();
    expect(events.map((e) => e.type)).toEqual([
      'PurchaseRecorded',
      'SaleRecorded',
      'SaleReturned',
      'PurchaseReturned',
    ]);
    const saleEvent = events[1]!.data as EventData<'SaleRecorded'>;
    expect(saleEvent.cost).toBe('3000.00'); // 40 of 100 units worth 7,500 INR
    expect(saleEvent.currency).toBe('PKR');
    expect(saleEvent.sale.clearing_charge).toBe('50.00');
    // 100 in, 40 out, 10 back, 20 returned to the funder: 50 units.
    const units = events.reduce(
      (sum, e) => sum + Number((e.data as { stock: { quantity: string } }).stock.quantity),
      0,
    );
    expect(units).toBe(50);
    // Who did it travels with the event.
    expect(events[0]!.metadata.userId).toEqual((await t.deps.tokens.verify(t.adminToken)).userId);
  });

  it('refuses a sale above the stock with the figures, storing nothing', async () => {
    const before = await t.eventStore.headPosition();
    const res = await post('sales', sale({ quantity: '50.0001' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'Not enough stock: Bhiwandi holds 50.0000 of Cumin; the sale needs 50.0001.',
    });
    expect(await t.eventStore.headPosition()).toBe(before);
  });

  it('records a bulk sale all or nothing, checked against the total', async () => {
    const rows = [
      { agent_id: m.agent, quantity: 30, rate: 300 },
      { agent_id: m.agent, quantity: 30, rate: 310, clearing_charge: 5 },
    ];
    const common = { sale_date: '2026-11-05', godown_id: m.godown, product_id: m.product };
    const refused = await post('sales/bulk', { common, sales: rows });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/holds 50.0000 of Cumin; the sale needs 60.0000/);
    const ok = await post('sales/bulk', { common, sales: [rows[0], { ...rows[1], quantity: 20 }] });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().count).toBe(2);
    const empty = await post('sales/bulk', { common, sales: [] });
    expect(empty.json().errors).toEqual([{ msg: 'Please add at least one valid sale row.', path: 'sales' }]);
    const noGodown = await post('sales/bulk', { sales: rows });
    expect(noGodown.json().errors).toEqual([
      { msg: 'Please select a Godown and a Product.', path: 'common' },
    ]);
  });

  it('checks that the funder, collector and agent belong to the purchase city', async () => {
    const wrongFunder = await post('purchases', purchase({ funder_id: m.mumbaiFunder }));
    expect(wrongFunder.statusCode).toBe(400);
    expect(wrongFunder.json().errors).toEqual([
      { msg: 'Funder is not of the chosen city', path: 'funder_id' },
    ]);
    const paidWithoutCollector = await post('purchases', purchase({ paid_amount: 10 }));
    expect(paidWithoutCollector.json().errors).toEqual([
      { msg: 'Choose the collector who paid', path: 'collector_id' },
    ]);
    const directWithoutAgent = await post('purchases', purchase({ type: 'Direct' }));
    expect(directWithoutAgent.json().errors).toEqual([
      { msg: 'Agent is required for a direct purchase', path: 'agent_id' },
    ]);
    // A rate left out reads as an empty Rate field does (issue #25), never 'must be a number'.
    for (const rate of [undefined, null, '']) {
      const noRate = await post('purchases', purchase({ rate }));
      expect(noRate.statusCode).toBe(400);
      expect(noRate.json().errors).toEqual([{ msg: 'Rate is required', path: 'rate' }]);
    }
  });

  it('records a direct purchase in its own stream and returns it there', async () => {
    const p = await post(
      'purchases',
      purchase({ type: 'Direct', agent_id: m.agent, godown_id: null, commission: 10, quantity: 3 }),
    );
    expect(p.statusCode, p.body).toBe(201);
    const events = await t.eventStore.readStream(`purchase-${p.json().id}`);
    expect((events[0]!.data as EventData<'PurchaseRecorded'>).stock).toBeNull();
    const r = await post('purchase-returns', {
      purchase_id: p.json().id,
      quantity: 3,
      return_date: '2026-11-06',
    });
    expect(r.statusCode, r.body).toBe(201);
    const again = await post('purchase-returns', {
      purchase_id: p.json().id,
      quantity: 1,
      return_date: '2026-11-06',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Only 0.0000 of this purchase remain to be returned.');
  });

  it('answers 404 for returns of unknown records and 403 for roles that may not record transactions', async () => {
    const unknown = await post('sale-returns', {
      sale_id: '00000000-0000-4000-8000-000000000000',
      quantity: 1,
      return_date: '2026-11-06',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Sale not found.' });
    await t.call('POST', '/api/masters/users', t.adminToken, {
      name: 'C',
      email: 'col@test.local',
      password: 'secret-pw',
      role: 'Collector',
    });
    const token = await t.login('col@test.local', 'secret-pw');
    const res = await post('sales', sale({ quantity: 1 }), token);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Your role (Collector) cannot change transactions.');
  });

  it('edits a purchase and a sale, and deletes them, releasing the masters they referred to', async () => {
    const { id: product } = (
      await t.call('POST', '/api/masters/products', t.adminToken, { name: 'Saffron' })
    ).json();
    const p = await post('purchases', purchase({ product_id: product, quantity: 10, rate: 100 }));
    expect(p.statusCode, p.body).toBe(201);
    const edited = await t.call(
      'PUT',
      `/api/transactions/purchases/${p.json().id}`,
      t.adminToken,
      purchase({ product_id: product, quantity: 12, rate: 100 }),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    const s = await post('sales', sale({ product_id: product, quantity: 5, clearing_charge: 0 }));
    expect(s.statusCode, s.body).toBe(201);
    const editedSale = await t.call(
      'PUT',
      `/api/transactions/sales/${s.json().id}`,
      t.adminToken,
      sale({ product_id: product, quantity: 6, clearing_charge: 0 }),
    );
    expect(editedSale.statusCode, editedSale.body).toBe(200);
    const tooMuch = await t.call(
      'PUT',
      `/api/transactions/sales/${s.json().id}`,
      t.adminToken,
      sale({ product_id: product, quantity: 13, clearing_charge: 0 }),
    );
    expect(tooMuch.statusCode).toBe(409);
    // The purchase cannot go while its units are sold; after the sale goes, it can.
    expect(
      (await t.call('DELETE', `/api/transactions/purchases/${p.json().id}`, t.adminToken)).statusCode,
    ).toBe(409);
    expect((await t.call('DELETE', `/api/transactions/sales/${s.json().id}`, t.adminToken)).statusCode).toBe(
      200,
    );
    expect(
      (await t.call('DELETE', `/api/transactions/purchases/${p.json().id}`, t.adminToken)).statusCode,
    ).toBe(200);
    expect(
      (await t.call('DELETE', `/api/transactions/purchases/${p.json().id}`, t.adminToken)).json(),
    ).toEqual({ message: 'Purchase not found.' });
    const types = (await inventory()).map((e) => e.type).filter((x) => /Updated|Deleted/.test(x));
    expect(types).toEqual(['PurchaseUpdated', 'SaleUpdated', 'SaleDeleted', 'PurchaseDeleted']);
    // Nothing refers to the product any more.
    expect((await t.call('DELETE', `/api/masters/products/${product}`, t.adminToken)).statusCode).toBe(200);
  });

  it('refuses to delete masters that purchases and sales refer to', async () => {
    const res = await t.call('DELETE', `/api/masters/products/${m.product}`, t.adminToken);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(
      /^Product "Cumin" cannot be deleted: \d+ purchases, \d+ sales still refer to it\.$/,
    );
    const godown = await t.call('DELETE', `/api/masters/godowns/${m.godown}`, t.adminToken);
    expect(godown.statusCode).toBe(409);
  });

  it('checks custom field values against their definitions, and stops asking once a definition is deleted', async () => {
    expect((await post('purchases', purchase({ quantity: 10 }))).statusCode).toBe(201);
    const grade = await t.call('POST', '/api/masters/custom-fields', t.adminToken, {
      name: 'Grade',
      type: 'SELECT',
      options: ['A', 'B'],
      is_required: true,
      entity_types: ['Sale'],
    });
    const lot = await t.call('POST', '/api/masters/custom-fields', t.adminToken, {
      name: 'Lot date',
      type: 'DATE',
      entity_types: ['Sale', 'Purchase'],
    });
    const [gradeId, lotId] = [grade.json().id, lot.json().id];
    // The client sends the last position it wrote, as the UI's API client does.
    const seen = { 'x-bahi-position': lot.json().position };
    const postSeen = (path: string, body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: `/api/transactions/${path}`,
        headers: { authorization: `Bearer ${t.adminToken}`, ...seen },
        payload: body as object,
      });
    const missing = await postSeen('sales', sale({ quantity: 1, clearing_charge: 0 }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      message: 'Some custom fields are not valid.',
      errors: [{ msg: 'Grade is required', path: `custom_fields.${gradeId}` }],
    });
    const wrong = await post(
      'sales',
      sale({ quantity: 1, clearing_charge: 0, custom_fields: { [gradeId]: 'C' } }),
    );
    expect(wrong.json().errors).toEqual([
      { msg: 'Grade must be one of: A, B', path: `custom_fields.${gradeId}` },
    ]);
    const ok = await post(
      'sales',
      sale({
        quantity: 1,
        clearing_charge: 0,
        custom_fields: { [gradeId]: 'A', [lotId]: '2026-11-01T00:00:00.000Z' },
      }),
    );
    expect(ok.statusCode, ok.body).toBe(201);
    const recorded = (await inventory()).find(
      (e) => e.type === 'SaleRecorded' && (e.data as EventData<'SaleRecorded'>).sale.id === ok.json().id,
    )!;
    expect((recorded.data as EventData<'SaleRecorded'>).sale.custom_fields).toEqual({
      [gradeId]: 'A',
      [lotId]: '2026-11-01',
    });
    const removed = await t.call('DELETE', `/api/masters/custom-fields/${gradeId}`, t.adminToken);
    expect(removed.statusCode).toBe(200);
    seen['x-bahi-position'] = removed.json().position; // the client's last write is now the delete
    expect((await postSeen('sales', sale({ quantity: 1, clearing_charge: 0 }))).statusCode).toBe(201);
  });

  it('wrote only registered event types, each passing its schema', async () => {
    expect(await expectOnlyRegisteredEvents(t.eventStore)).toBeGreaterThan(5);
  });
});
