import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dryRun } from './testing/books.ts';
import { type Body, openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

const CLOSED = 'The books are closed up to 31 Oct 2026.';

/**
 * Issue #30, the period close (PGlite and Postgres): October closed, every write dated in it
 * is refused with 409 on its date field (create, dry run, edit, delete of an older record,
 * bulk sale, expense), by every role; November is open; a reopening with a reason shows in
 * the activity log and lets the October write through.
 */
describe.each(TEST_STORAGES)('closing the books [%s]', (storage) => {
  let t: TestApp;
  let manager: string;
  const ids: Record<string, string> = {};
  const call = (method: string, path: string, body?: unknown, token?: string) =>
    t.call(method, path, body, token);
  const purchaseBody = (date: string, quantity = 5) => ({
    type: 'Godown',
    purchase_date: date,
    city_id: ids.city,
    funder_id: ids.funder,
    product_id: ids.product,
    godown_id: ids.godown,
    rate: 100,
    quantity,
  });
  /** A dry run as the forms' preview sends it. */
  const preview = (path: string, body: unknown) => dryRun(t, 'POST', path, body);
  const expectClosed = (r: { status: number; body: Body }, path: string) => {
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(r.body.message).toBe(CLOSED);
    expect(r.body.errors).toEqual([{ msg: CLOSED, path }]);
  };
  const head = async () =>
    ((await (await fetch(`${t.bahi.url}/api/ready`)).json()) as Body).eventStore.headPosition;

  beforeAll(async () => {
    t = await openTestApp({ storage });
    const mk = async (kind: string, body: unknown) => {
      const r = await call('POST', `/masters/${kind}`, body);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.id as string;
    };
    ids.city = await mk('cities', { name: 'Surat', currency_name: 'INR', rate: 1 });
    ids.funder = await mk('funders', { name: 'Bhavesh', city_id: ids.city });
    ids.agent = await mk('agents', { name: 'Vikram', city_id: ids.city });
    ids.godown = await mk('godowns', { name: 'Main' });
    ids.product = await mk('products', { name: 'Cumin' });
    await mk('users', { name: 'Mona', email: 'mona@test.local', password: 'secret-pw', role: 'Manager' });
    manager = await t.login('mona@test.local', 'secret-pw');
    const older = await call('POST', '/transactions/purchases', purchaseBody('2026-10-10'));
    expect(older.status, JSON.stringify(older.body)).toBe(201);
    ids.older = older.body.id;
  }, 120_000);
  afterAll(() => t?.close());

  it('is open at first; only an Admin closes', async () => {
    expect((await call('GET', '/books/close')).body).toEqual({
      closed_up_to: null,
      by: null,
      at: null,
      reason: null,
    });
    const refused = await call('POST', '/books/close', { up_to: '2026-10-31' }, manager);
    expect(refused.status).toBe(403);
    const bad = await call('POST', '/books/close', { up_to: '31/13/2026' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('up_to');
  });

  it('closes October: every write dated in it is refused, November is not', async () => {
    const closed = await call('POST', '/books/close', { up_to: '2026-10-31' });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.closed_up_to).toBe('2026-10-31');
    const now = (await call('GET', '/books/close')).body;
    expect(now.closed_up_to).toBe('2026-10-31');
    expect(now.by.name).toBeTruthy();
    expect(Date.parse(now.at)).not.toBeNaN();

    const before = await head();
    expectClosed(await call('POST', '/transactions/purchases', purchaseBody('2026-10-15')), 'purchase_date');
    expectClosed(
      await call('POST', '/transactions/purchases', purchaseBody('2026-10-31'), manager),
      'purchase_date',
    );
    expectClosed(await preview('/transactions/purchases', purchaseBody('2026-10-15')), 'purchase_date');
    // The older purchase (10 Oct): neither edited (even out of the period) nor deleted.
    expectClosed(
      await call('PUT', `/transactions/purchases/${ids.older}`, purchaseBody('2026-11-03')),
      'purchase_date',
    );
    expectClosed(await call('DELETE', `/transactions/purchases/${ids.older}`), 'purchase_date');
    expectClosed(
      await call('POST', '/transactions/purchase-returns', {
        purchase_id: ids.older,
        quantity: 1,
        return_date: '2026-10-20',
      }),
      'return_date',
    );
    expectClosed(
      await call('POST', '/transactions/sales/bulk', {
        common: { sale_date: '2026-10-20', godown_id: ids.godown, product_id: ids.product },
        sales: [
          { agent_id: ids.agent, rate: 120, quantity: 1 },
          { agent_id: ids.agent, rate: 121, quantity: 1 },
        ],
      }),
      'common.sale_date',
    );
    expectClosed(
      await call('POST', '/transactions/expenses', {
        city_id: ids.city,
        category: 'Rent',
        amount: 10,
        expense_date: '2026-10-05',
        paid_from_entity_type: 'Godown',
        paid_from_entity_id: ids.godown,
      }),
      'expense_date',
    );
    expect(await head()).toBe(before); // nothing written

    const november = await call('POST', '/transactions/purchases', purchaseBody('2026-11-01'));
    expect(november.status, JSON.stringify(november.body)).toBe(201);
    // An edit moving a November record into October is refused too.
    expectClosed(
      await call('PUT', `/transactions/purchases/${november.body.id}`, purchaseBody('2026-10-30')),
      'purchase_date',
    );
    // A return of an October purchase, dated in November, is an open-period write.
    const ret = await call('POST', '/transactions/purchase-returns', {
      purchase_id: ids.older,
      quantity: 1,
      return_date: '2026-11-02',
    });
    expect(ret.status, JSON.stringify(ret.body)).toBe(201);
  });

  it('refuses a close earlier than the current one; a reopening needs a reason', async () => {
    const earlier = await call('POST', '/books/close', { up_to: '2026-09-30' });
    expect(earlier.status).toBe(409);
    expect(earlier.body.message).toMatch(/already closed up to 31 Oct 2026.*reopen them first/);
    expect(earlier.body.errors[0].path).toBe('up_to');
    const noReason = await call('POST', '/books/reopen', { reason: '' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors[0].path).toBe('reason');
    expect((await call('POST', '/books/reopen', { reason: 'Late invoice' }, manager)).status).toBe(403);
  });

  it('reopens with a reason: the activity log shows it, and the October write goes through', async () => {
    const reopened = await call('POST', '/books/reopen', { reason: 'Late invoice from Bhavesh' });
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    expect(reopened.body.closed_up_to).toBeNull();
    const now = (await call('GET', '/books/close')).body;
    expect(now).toMatchObject({ closed_up_to: null, reason: 'Late invoice from Bhavesh' });

    const log = await call('GET', '/logs?modelName=Books&limit=10');
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    const entries = log.body.data.map((e: Body) => e.new_data);
    expect(entries).toEqual([
      { reopened: { up_to: null, previous: '2026-10-31', reason: 'Late invoice from Bhavesh' } },
      { closed: { up_to: '2026-10-31', previous: null } },
    ]);

    const october = await call('POST', '/transactions/purchases', purchaseBody('2026-10-15'));
    expect(october.status, JSON.stringify(october.body)).toBe(201);
    const edited = await call('PUT', `/transactions/purchases/${ids.older}`, purchaseBody('2026-10-11', 6));
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
  });
});
