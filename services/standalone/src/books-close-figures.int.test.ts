import { createHash } from 'node:crypto';
import { canonicalJson, closedFiguresOf } from '@bahi/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Body, openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

const tick = () => new Promise((r) => setTimeout(r, 15));
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Issue #30, reports as closed (PGlite and Postgres): closing October records the balances,
 * the stock and each party's balance as of 31 Oct with a digest; a week of November entries
 * later, the Balances and stock reports as of 31 Oct give the same canonical JSON byte for
 * byte and the same digest, and the answer names who closed and when. After a reopening and
 * an October restatement the close's stored figures stay, and the compare shows the change.
 */
describe.each(TEST_STORAGES)('reports as closed [%s]', (storage) => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await t.call(method, path, body);
    expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
    return r.body as Body;
  };
  const purchase = (date: string, quantity: number) => ({
    type: 'Godown',
    purchase_date: date,
    city_id: ids.city,
    funder_id: ids.funder,
    product_id: ids.product,
    godown_id: ids.godown,
    rate: 100,
    quantity,
  });
  const sale = (date: string, quantity: number) => ({
    sale_date: date,
    agent_id: ids.agent,
    product_id: ids.product,
    godown_id: ids.godown,
    rate: 150,
    quantity,
  });
  /** The Balances and stock reports as of a date, as the API answers them now, in the close's form. */
  const reproduce = async (asOf: string, knownAt?: string) => {
    const at = knownAt ? `asOf=${asOf}&knownAt=${encodeURIComponent(knownAt)}` : `asOf=${asOf}`;
    const balances = await ok('GET', `/reports/balances?limit=-1&${at}`);
    const stock = await ok('GET', `/reports/stock?${at}`);
    return canonicalJson(closedFiguresOf(asOf, balances, stock));
  };
  let close: Body;
  let closedJson: string;

  beforeAll(async () => {
    t = await openTestApp({ storage });
    const mk = async (kind: string, body: unknown) =>
      (await ok('POST', `/masters/${kind}`, body)).id as string;
    ids.city = await mk('cities', { name: 'Surat', currency_name: 'INR', rate: 1 });
    ids.funder = await mk('funders', { name: 'Bhavesh', city_id: ids.city, opening_balance: 1000 });
    ids.agent = await mk('agents', { name: 'Vikram', city_id: ids.city });
    ids.collector = await mk('collectors', { name: 'Kiran', city_id: ids.city });
    ids.godown = await mk('godowns', { name: 'Main' });
    ids.product = await mk('products', { name: 'Cumin' });
    ids.october = (await ok('POST', '/transactions/purchases', purchase('2026-10-10', 50))).id;
    await ok('POST', '/transactions/sales', sale('2026-10-20', 20));
    await ok('POST', '/transactions/payments', {
      related_entity_type: 'Funder',
      related_entity_id: ids.funder,
      payment_date: '2026-10-25',
      amount: 1200,
      payment_mode: 'Currency',
      collector_id: ids.collector,
    });
  }, 120_000);
  afterAll(() => t?.close());

  it('a report as of a date in an open period falls under no close', async () => {
    expect(await ok('GET', '/books/closed?asOf=2026-10-31')).toEqual({ close: null });
    expect(await ok('GET', '/books/closed')).toEqual({ close: null });
    const bad = await t.call('GET', '/books/closed?asOf=31-10-2026');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('asOf');
  });

  it('closing October records the figures as of 31 Oct with their digest, who closed and when', async () => {
    const before = await reproduce('2026-10-31');
    const closed = await ok('POST', '/books/close', { up_to: '2026-10-31' });
    const answer = await ok('GET', `/books/closes/${closed.position}/figures`);
    close = answer.close;
    closedJson = canonicalJson(answer.figures);
    expect(closedJson).toBe(before);
    expect(close).toMatchObject({
      position: closed.position,
      up_to: '2026-10-31',
      closed_by: { id: expect.any(String), name: expect.any(String) },
      digest: sha256(closedJson),
    });
    expect(close.chain_head).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(close.closed_at)).not.toBeNaN();
    expect(answer.now).toEqual({ digest: close.digest, same: true, reopened: false });
    // The figures themselves: the funder's 1000 opening, 5000 owed for the purchase, 1200 paid.
    const funder = answer.figures.balances.funders.find((p: Body) => p.id === ids.funder);
    expect(funder).toMatchObject({ opening_balance: '1000.00' });
    expect(answer.figures.stock).toEqual([
      { godown_id: ids.godown, product_id: ids.product, quantity: '30.0000' },
    ]);
    expect((await t.call('GET', '/books/closes/12345678/figures')).status).toBe(404);
    expect((await t.call('GET', '/books/closes/nope/figures')).status).toBe(404);
  });

  it('a week of November entries later, balances and stock as of 31 Oct are byte-identical to the closed figures', async () => {
    for (let d = 1; d <= 7; d += 1) {
      const date = `2026-11-0${d}`;
      await ok('POST', '/transactions/purchases', purchase(date, 10 + d));
      await ok('POST', '/transactions/sales', sale(date, d));
      await ok('POST', '/transactions/payments', {
        related_entity_type: 'Funder',
        related_entity_id: ids.funder,
        payment_date: date,
        amount: 100 * d,
        payment_mode: 'Currency',
        collector_id: ids.collector,
      });
    }
    // Today's books did move: the reproduction is of 31 Oct, not of now.
    expect(await reproduce('2026-11-07')).not.toBe(closedJson);
    const again = await reproduce('2026-10-31');
    expect(again).toBe(closedJson);
    expect(sha256(again)).toBe(close.digest);
    // Known at the close's own moment too (the time-travel reading the close stored).
    expect(await reproduce('2026-10-31', close.closed_at)).toBe(closedJson);

    const covering = await ok('GET', '/books/closed?asOf=2026-10-31');
    expect(covering.close).toEqual({ ...close, now: { digest: close.digest, same: true, reopened: false } });
    // A date inside the period falls under the same close; known before the close, under none.
    expect((await ok('GET', '/books/closed?asOf=2026-10-15')).close.position).toBe(close.position);
    expect((await ok('GET', '/books/closed?asOf=2026-11-01')).close).toBeNull();
    const before = new Date(Date.parse(close.closed_at) - 1).toISOString();
    expect(
      (await ok('GET', `/books/closed?asOf=2026-10-31&knownAt=${encodeURIComponent(before)}`)).close,
    ).toBeNull();
  });

  it('figures computed again from the log (a lost row, a rebuild) are the same bytes', async () => {
    await t.bahi.readDb.deleteFrom('book_close_figures').execute();
    const answer = await ok('GET', `/books/closes/${close.position}/figures`);
    expect(canonicalJson(answer.figures)).toBe(closedJson);
    expect(answer.close).toEqual(close);
  });

  it('after a reopening and an October restatement the close stands as closed and the compare shows the change', async () => {
    await ok('POST', '/books/reopen', { reason: 'Late invoice from Bhavesh' });
    await tick();
    await ok('PUT', `/transactions/purchases/${ids.october}`, purchase('2026-10-10', 60));
    const answer = await ok('GET', `/books/closes/${close.position}/figures`);
    expect(canonicalJson(answer.figures)).toBe(closedJson); // what was closed is kept
    expect(answer.now.same).toBe(false);
    expect(answer.now.reopened).toBe(true);
    expect(answer.now.digest).toBe(sha256(await reproduce('2026-10-31')));
    const covering = await ok('GET', '/books/closed?asOf=2026-10-31');
    expect(covering.close).toMatchObject({ position: close.position, now: { same: false, reopened: true } });
    // The time-travel compare: as closed (known at the close) against now.
    const asClosed = await reproduce('2026-10-31', close.closed_at);
    expect(asClosed).toBe(closedJson);
    const stockThen = await ok(
      'GET',
      `/reports/stock?asOf=2026-10-31&knownAt=${encodeURIComponent(close.closed_at)}`,
    );
    const stockNow = await ok('GET', '/reports/stock?asOf=2026-10-31');
    expect(stockThen.Main[0].quantity).toBe('30.0000');
    expect(stockNow.Main[0].quantity).toBe('40.0000');
    // Known at a moment before the restatement, the figures still stood.
    const known = await ok(
      'GET',
      `/books/closed?asOf=2026-10-31&knownAt=${encodeURIComponent(close.closed_at)}`,
    );
    expect(known.close.now).toEqual({ digest: close.digest, same: true, reopened: false });
  });
});
