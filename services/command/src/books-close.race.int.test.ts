import { createPgSqlClient } from '@bahi/sql-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTestDatabase } from '../../../test/postgres.ts';
import { type CommandTestApp, commandTestApp } from './testing/command-app.ts';

const url = process.env.DATABASE_URL;
const CLOSED = 'The books are closed up to 31 Oct 2026.';

/**
 * Issue #30: a close racing writes into the period it closes. One app on PGlite (one process),
 * and two command processes on one Postgres: whatever the interleaving, no purchase dated in
 * October lands in the log after the close, and each refused one got the close's message.
 */
describe.each([
  ['pglite', false],
  ['postgres, two processes', true],
] as const)('a close racing writes [%s]', (_name, twoProcesses) => {
  if (twoProcesses && !url) return;
  let a: CommandTestApp;
  let b: CommandTestApp;
  let drop: (() => Promise<void>) | undefined;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    if (twoProcesses) {
      const db = await withTestDatabase('books_race');
      drop = db.drop;
      a = await commandTestApp({ sql: createPgSqlClient({ connectionString: db.url, max: 8 }) });
      b = await commandTestApp({
        sql: createPgSqlClient({ connectionString: db.url, max: 8 }),
        projector: false,
      });
    } else {
      a = await commandTestApp();
      b = a;
    }
    const mk = async (kind: string, body: unknown) => {
      const r = await a.call('POST', `/api/masters/${kind}`, a.adminToken, body);
      expect(r.statusCode, r.body).toBe(201);
      return r.json().id as string;
    };
    ids.city = await mk('cities', { name: 'Surat', currency_name: 'INR', rate: 1 });
    ids.funder = await mk('funders', { name: 'Bhavesh', city_id: ids.city });
    ids.product = await mk('products', { name: 'Cumin' });
    for (const n of [1, 2, 3]) ids[`godown${n}`] = await mk('godowns', { name: `G${n}` });
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    if (b !== a) await b?.close();
    await drop?.();
  });

  it('lets no October write in after the close, on either copy', async () => {
    const purchase = (i: number) =>
      (i % 2 ? b : a).call('POST', '/api/transactions/purchases', a.adminToken, {
        type: 'Godown',
        purchase_date: '2026-10-15',
        city_id: ids.city,
        funder_id: ids.funder,
        product_id: ids.product,
        godown_id: ids[`godown${(i % 3) + 1}`],
        rate: 10,
        quantity: 1,
      });
    const writes = Array.from({ length: 24 }, (_, i) => purchase(i));
    const close = a.call('POST', '/api/books/close', a.adminToken, { up_to: '2026-10-31' });
    const later = Array.from({ length: 6 }, (_, i) => purchase(100 + i));
    const answers = await Promise.all([...writes, ...later]);
    expect((await close).statusCode, (await close).body).toBe(200);
    for (const r of answers) {
      expect([201, 409], r.body).toContain(r.statusCode);
      if (r.statusCode === 409) expect(r.json().message).toBe(CLOSED);
    }
    const log = await a.eventStore.readAll(0n, 100_000);
    const closedAt = log.find((e) => e.type === 'BooksClosed')!.position;
    const october = log.filter(
      (e) =>
        e.type === 'PurchaseRecorded' &&
        (e.data as { purchase: { purchase_date: string } }).purchase.purchase_date <= '2026-10-31',
    );
    expect(october.every((e) => e.position < closedAt)).toBe(true);
    expect(october.length).toBe(answers.filter((r) => r.statusCode === 201).length);
    // After the close, on either copy: refused.
    for (const r of [await purchase(200), await purchase(201)]) expect(r.statusCode).toBe(409);
  });
});
