import { createPgSqlClient, type SqlClient } from '@bahi/sql-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTestDatabase } from '../../../test/postgres.ts';
import { type CommandTestApp, commandTestApp } from './testing/command-app.ts';

const url = process.env.DATABASE_URL;

/**
 * Two command apps on one Postgres database, with separate pools and nothing shared in
 * memory: as two command processes would be. Requests alternate between them, so the
 * stock and the returns are guarded by the stream's expected version, not by a lock in
 * one process.
 */
describe.skipIf(!url)('transactions under concurrency on Postgres', () => {
  let db: Awaited<ReturnType<typeof withTestDatabase>>;
  let sqlA: SqlClient;
  let sqlB: SqlClient;
  let a: CommandTestApp;
  let b: CommandTestApp;
  const m: Record<string, string> = {};

  beforeAll(async () => {
    db = await withTestDatabase('cmd_concurrency');
    sqlA = createPgSqlClient({ connectionString: db.url, max: 8 });
    sqlB = createPgSqlClient({ connectionString: db.url, max: 8 });
    a = await commandTestApp({ sql: sqlA });
    b = await commandTestApp({ sql: sqlB, projector: false });
    const mk = async (kind: string, body: unknown) => {
      const res = await a.call('POST', `/api/masters/${kind}`, a.adminToken, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    m.city = await mk('cities', { name: 'Pune', currency_name: 'INR', rate: 1 });
    m.funder = await mk('funders', { name: 'F', city_id: m.city });
    m.agent = await mk('agents', { name: 'A', city_id: m.city });
    m.godown = await mk('godowns', { name: 'G' });
    m.product = await mk('products', { name: 'P' });
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  const purchase = (quantity: number) =>
    a.call('POST', '/api/transactions/purchases', a.adminToken, {
      type: 'Godown',
      purchase_date: '2026-11-01',
      city_id: m.city,
      funder_id: m.funder,
      product_id: m.product,
      godown_id: m.godown,
      rate: 10,
      quantity,
    });

  /** Units in the godown after each event of its stream, in order. */
  const stockHistory = async () => {
    let units = 0;
    return (await a.eventStore.readStream(`inventory-${m.godown}`)).map((e) => {
      units += Number((e.data as { stock: { quantity: string } }).stock.quantity);
      return units;
    });
  };

  it('50 parallel sales of 10 against 200 in stock: exactly 20 succeed, stock ends at 0 and is never below', async () => {
    expect((await purchase(200)).statusCode).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 ? b : a).call('POST', '/api/transactions/sales', (i % 2 ? b : a).adminToken, {
          sale_date: '2026-11-02',
          agent_id: m.agent,
          product_id: m.product,
          godown_id: m.godown,
          rate: 12,
          quantity: 10,
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(20);
    expect(codes.filter((c) => c === 409)).toHaveLength(30);
    for (const r of results.filter((x) => x.statusCode === 409)) {
      expect(r.json().message).toMatch(/^Not enough stock: G holds 0.0000 of P/);
    }
    const history = await stockHistory();
    expect(history.at(-1)).toBe(0);
    expect(Math.min(...history)).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('20 parallel returns of 10 against a purchase of 100: exactly 10 succeed', async () => {
    const p = await purchase(100);
    expect(p.statusCode).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? b : a).call('POST', '/api/transactions/purchase-returns', (i % 2 ? b : a).adminToken, {
          purchase_id: p.json().id,
          quantity: 10,
          return_date: '2026-11-03',
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(
      codes.filter((c) => c === 201),
      results.map((r) => r.body).join('\n'),
    ).toHaveLength(10);
    expect(codes.filter((c) => c === 409)).toHaveLength(10);
    for (const r of results.filter((x) => x.statusCode === 409)) {
      expect(r.json().message).toBe('Only 0.0000 of this purchase remain to be returned.');
    }
    expect((await stockHistory()).at(-1)).toBe(0);
  }, 60_000);
});

if (!url) console.log('command concurrency tests skipped: DATABASE_URL is not set');
