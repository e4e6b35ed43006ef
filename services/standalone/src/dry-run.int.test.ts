import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headPosition } from './testing/books.ts';
import { type Body, openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

/**
 * Preview before save (issue #14): `X-Bahi-Dry-Run: true` on a transaction write runs the same
 * route and decider, appends nothing, and answers the postings and stock it would make.
 *
 * Worked example. Dubai: AED at 22.5 INR. Dev (funder of Dubai, opening 1,000 AED) already sold
 * the business 10 Cumin @ 100 AED into Bhiwandi: Dev's balance is 1,000 + 1,000 = 2,000 AED
 * owed, Bhiwandi holds 10 units. Kabir (collector of Dubai) holds his opening 2,000 AED.
 * A purchase of 50 Cumin @ 100 AED into Bhiwandi, 500 AED of it paid by Kabir, would:
 *  - credit Dev 5,000 and debit him the 500 paid: net credit 4,500, 2,000 -> 6,500 AED;
 *  - credit Kabir 500: cash 2,000 -> 1,500 AED;
 *  - put 50 units into Bhiwandi's Cumin: 10 -> 60.
 */
describe.each(TEST_STORAGES)('dry runs [%s]', (storage) => {
  let t: TestApp;
  let viewer: string;
  const ids: Record<string, string> = {};

  const send = async (method: string, path: string, body: unknown, dryRun: boolean, token = t.token) => {
    const res = await fetch(`${t.bahi.url}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(dryRun ? { 'x-bahi-dry-run': 'true' } : {}),
      },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Body };
  };
  const write = async (path: string, body: unknown) => {
    const r = await t.call('POST', path, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as string;
  };
  const purchase = () => ({
    type: 'Godown',
    purchase_date: '2026-11-20',
    city_id: ids.dubai,
    funder_id: ids.dev,
    product_id: ids.cumin,
    godown_id: ids.bhiwandi,
    rate: '100',
    quantity: '50',
    paid_amount: '500',
    collector_id: ids.kabir,
  });
  const funderBalance = async (id: string) => {
    await t.syncToHead();
    const funders = (await t.call('GET', '/masters/funders?limit=-1')).body.data as Body[];
    const dev = funders.find((f) => f.id === id);
    // opening + movements on the normal side, as the funders list shows them
    const cents = (s: string) => BigInt(s.replace('.', ''));
    const total = cents(dev.opening_balance) + cents(dev.balance.amount);
    return `${total / 100n}.${(total % 100n).toString().padStart(2, '0')}`;
  };

  beforeAll(async () => {
    t = await openTestApp({ storage });
    ids.dubai = await write('/masters/cities', { name: 'Dubai', currency_name: 'AED', rate: '22.5' });
    ids.dev = await write('/masters/funders', { name: 'Dev', city_id: ids.dubai, opening_balance: 1000 });
    ids.kabir = await write('/masters/collectors', {
      name: 'Kabir',
      city_id: ids.dubai,
      opening_balance: 2000,
    });
    ids.arif = await write('/masters/agents', { name: 'Arif', city_id: ids.dubai });
    ids.bhiwandi = await write('/masters/godowns', { name: 'Bhiwandi' });
    ids.cumin = await write('/masters/products', { name: 'Cumin' });
    const { collector_id: _none, ...unpaid } = purchase();
    ids.first = await write('/transactions/purchases', { ...unpaid, quantity: '10', paid_amount: '0' });
    expect(
      (
        await t.call('POST', '/masters/users', {
          name: 'Vik',
          email: 'vik@test.local',
          role: 'Viewer',
          is_active: true,
          password: 'viewer-password-1',
        })
      ).status,
    ).toBe(201);
    viewer = await t.login('vik@test.local', 'viewer-password-1');
    await t.syncToHead();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a purchase answers its postings and stock change against the balances now, and appends nothing', async () => {
    const head = await headPosition(t);
    const r = await send('POST', '/transactions/purchases', purchase(), true);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({
      dryRun: true,
      lines: [
        {
          account: `funder:${ids.dev}`,
          kind: 'Funder',
          name: 'Dev',
          currency: 'AED',
          debit: '0.00',
          credit: '4500.00',
          before: '2000.00',
          after: '6500.00',
        },
        {
          account: `collector:${ids.kabir}`,
          kind: 'Collector',
          name: 'Kabir',
          currency: 'AED',
          debit: '0.00',
          credit: '500.00',
          before: '2000.00',
          after: '1500.00',
        },
      ],
      stock: [
        {
          godown_id: ids.bhiwandi,
          godown: 'Bhiwandi',
          product_id: ids.cumin,
          product: 'Cumin',
          before: '10.0000',
          change: '50.0000',
          after: '60.0000',
        },
      ],
    });
    expect(await headPosition(t)).toBe(head);
  });

  it('a sale above stock is refused as the write is, and appends nothing', async () => {
    const head = await headPosition(t);
    const sale = {
      sale_date: '2026-11-21',
      agent_id: ids.arif,
      product_id: ids.cumin,
      godown_id: ids.bhiwandi,
      rate: '300',
      quantity: '11',
    };
    const dry = await send('POST', '/transactions/sales', sale, true);
    const real = await send('POST', '/transactions/sales', sale, false);
    expect(real.status).toBe(409);
    expect(dry).toEqual(real);
    expect(await headPosition(t)).toBe(head);
    // Within stock, a sale's preview names the agent, the nominal accounts and the stock out.
    const ok = await send('POST', '/transactions/sales', { ...sale, quantity: '4' }, true);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.lines.map((l: Body) => [l.kind, l.name])).toEqual(
      expect.arrayContaining([
        ['Agent', 'Arif'],
        ['Nominal', 'Sales'],
        ['Nominal', 'Cost of sales'],
      ]),
    );
    expect(ok.body.stock).toEqual([
      expect.objectContaining({ before: '10.0000', change: '-4.0000', after: '6.0000' }),
    ]);
    expect(await headPosition(t)).toBe(head);
  });

  it('a bad body answers the same 400 errors as the write', async () => {
    const bad = { ...purchase(), quantity: '-1', funder_id: 'nope' };
    const dry = await send('POST', '/transactions/purchases', bad, true);
    const real = await send('POST', '/transactions/purchases', bad, false);
    expect(real.status).toBe(400);
    expect(real.body.errors.length).toBeGreaterThan(0);
    expect(dry).toEqual(real);
  });

  it("a Viewer's dry run is refused 403 as the write is", async () => {
    const head = await headPosition(t);
    const dry = await send('POST', '/transactions/purchases', purchase(), true, viewer);
    const real = await send('POST', '/transactions/purchases', purchase(), false, viewer);
    expect(real.status).toBe(403);
    expect(dry).toEqual(real);
    expect(await headPosition(t)).toBe(head);
  });

  it('an Idempotency-Key on a dry run is not kept; the real write after it has the previewed effect', async () => {
    const head = await headPosition(t);
    const keyed = async (dryRun: boolean) => {
      const res = await fetch(`${t.bahi.url}/api/transactions/purchases`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${t.token}`,
          'content-type': 'application/json',
          'idempotency-key': 'dry-then-real',
          ...(dryRun ? { 'x-bahi-dry-run': 'true' } : {}),
        },
        body: JSON.stringify(purchase()),
      });
      return {
        status: res.status,
        body: (await res.json()) as Body,
        replayed: res.headers.get('idempotent-replayed'),
      };
    };
    const preview = await keyed(true);
    expect(preview.status).toBe(200);
    expect(await headPosition(t)).toBe(head);
    const real = await keyed(false);
    expect(real.status, JSON.stringify(real.body)).toBe(201);
    expect(real.replayed).toBeNull();
    const dev = preview.body.lines.find((l: Body) => l.kind === 'Funder');
    expect(dev.after).toBe('6500.00');
    expect(await funderBalance(ids.dev!)).toBe(dev.after);
    // Now the same preview starts from the new balance.
    const again = await send('POST', '/transactions/purchases', purchase(), true);
    expect(again.body.lines[0]).toMatchObject({ before: '6500.00', after: '11000.00' });
    expect(again.body.stock[0]).toMatchObject({ before: '60.0000', after: '110.0000' });
  });

  it('an edit previews its net change; an expense names its nominal account', async () => {
    // After the write above: Dev 6,500 owed, Kabir 1,500 held, Bhiwandi 60 Cumin.
    const head = await headPosition(t);
    const { collector_id: _none, ...unpaid } = purchase();
    const edit = await send(
      'PUT',
      `/transactions/purchases/${ids.first}`,
      { ...unpaid, quantity: '12', paid_amount: '0' },
      true,
    );
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    // 10 @ 100 reversed, 12 @ 100 posted: Dev credited 200 more, 2 more units in.
    expect(edit.body.lines).toEqual([
      expect.objectContaining({
        kind: 'Funder',
        debit: '0.00',
        credit: '200.00',
        before: '6500.00',
        after: '6700.00',
      }),
    ]);
    expect(edit.body.stock).toEqual([
      expect.objectContaining({ before: '60.0000', change: '2.0000', after: '62.0000' }),
    ]);
    // 300 AED of rent paid by Kabir: his cash 1,500 -> 1,200 AED; Rent 300 x 22.5 = 6,750 INR.
    const rent = await send(
      'POST',
      '/transactions/expenses',
      {
        city_id: ids.dubai,
        category: 'Rent',
        amount: '300',
        expense_date: '2026-11-22',
        paid_from_entity_type: 'Collector',
        paid_from_entity_id: ids.kabir,
      },
      true,
    );
    expect(rent.status, JSON.stringify(rent.body)).toBe(200);
    expect(rent.body).toEqual({
      dryRun: true,
      lines: [
        {
          account: `collector:${ids.kabir}`,
          kind: 'Collector',
          name: 'Kabir',
          currency: 'AED',
          debit: '0.00',
          credit: '300.00',
          before: '1500.00',
          after: '1200.00',
        },
        {
          account: 'nominal:Expense:Rent',
          kind: 'Nominal',
          name: 'Expense: Rent',
          currency: 'INR',
          debit: '6750.00',
          credit: '0.00',
          before: '0.00',
          after: '6750.00',
        },
      ],
      stock: [],
    });
    expect(await headPosition(t)).toBe(head);
  });

  it('the header on a write that has no dry run is refused, not written', async () => {
    const head = await headPosition(t);
    const r = await send('POST', '/masters/products', { name: 'Saffron' }, true);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ msg: expect.any(String), path: 'X-Bahi-Dry-Run' }]);
    expect(await headPosition(t)).toBe(head);
  });
});
