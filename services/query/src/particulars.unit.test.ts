import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import type { QueryDeps } from './deps.ts';
import { describeLines, quantityText } from './particulars.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const FUNDER = id(1);
const AGENT = id(2);
const KIRAN = id(3);
const IMRAN = id(4);
const CUMIN = id(5);

/** A read database that answers from fixed rows by table, and counts the statements it ran. */
function fakeDb(activity: Array<Record<string, unknown>>) {
  const statements: string[] = [];
  const answer = (q: CompiledQuery): Record<string, unknown>[] => {
    if (q.sql.includes('"activity_log"')) return activity;
    if (q.sql.includes('"parties"'))
      return [
        { id: FUNDER, name: 'Asha Traders', currency_name: 'AED' },
        { id: AGENT, name: 'Usha', currency_name: 'INR' },
        { id: KIRAN, name: 'Kiran', currency_name: 'AED' },
        { id: IMRAN, name: 'Imran', currency_name: 'PKR' },
      ];
    if (q.sql.includes('"products"')) return [{ id: CUMIN, name: 'Cumin' }];
    return [];
  };
  const connection: DatabaseConnection = {
    async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
      statements.push(q.sql);
      return { rows: answer(q) as R[] };
    },
    // biome-ignore lint/correctness/useYield: never streamed
    async *streamQuery() {
      throw new Error('not streamed');
    },
  };
  const driver: Driver = {
    async init() {},
    async acquireConnection() {
      return connection;
    },
    async beginTransaction() {},
    async commitTransaction() {},
    async rollbackTransaction() {},
    async releaseConnection() {},
    async destroy() {},
  };
  const db = new Kysely<never>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  return { deps: { readDb: db } as unknown as QueryDeps, statements };
}

describe('Particulars in words', () => {
  it('says to or from whom, the product and quantity and the category, in one query per kind for any number of lines', async () => {
    const activity: Array<Record<string, unknown>> = [];
    const lines: Array<{ key: string; event_type: string; record_id: string }> = [];
    // 300 purchases, each with a payment, a transfer and an expense: the queries stay three.
    for (let i = 0; i < 300; i++) {
      const p = 1000 + i * 10;
      const purchase = id(10_000 + i);
      activity.push({
        position: String(p),
        record_id: purchase,
        parent: null,
        data: { funder_id: FUNDER, product_id: CUMIN, quantity: '120' },
      });
      lines.push({ key: `${p}.0`, event_type: 'PurchaseRecorded', record_id: purchase });
      const payment = id(20_000 + i);
      activity.push({
        position: String(p + 1),
        record_id: payment,
        parent: null,
        data: {
          related_entity_type: 'Agent',
          related_entity_id: AGENT,
          payment_mode: 'INR',
          godown_id: null,
          collector_id: KIRAN,
        },
      });
      lines.push({ key: `${p + 1}.1`, event_type: 'PaymentRecorded', record_id: payment });
      const transfer = id(30_000 + i);
      activity.push({
        position: String(p + 2),
        record_id: transfer,
        parent: null,
        data: { from_collector_id: KIRAN, to_collector_id: IMRAN },
      });
      lines.push({ key: `${p + 2}.0`, event_type: 'TransferRecorded', record_id: transfer });
      const expense = id(40_000 + i);
      activity.push({
        position: String(p + 3),
        record_id: expense,
        parent: null,
        data: { category: 'Rent' },
      });
      lines.push({ key: `${p + 3}.0`, event_type: 'ExpenseDeleted', record_id: expense });
    }
    // A return of the first purchase, and a salary.
    activity.push({
      position: '9000',
      record_id: id(50_000),
      parent: id(10_000),
      data: { purchase_id: id(10_000), quantity: '5' },
    });
    lines.push({ key: '9000.0', event_type: 'PurchaseReturned', record_id: id(10_000) });
    activity.push({
      position: '9001',
      record_id: id(60_000),
      parent: null,
      data: { collector_id: KIRAN, month: 11, year: 2026 },
    });
    lines.push({ key: '9001.0', event_type: 'SalaryPaid', record_id: id(60_000) });

    const { deps, statements } = fakeDb(activity);
    const words = await describeLines(deps, lines, { id: KIRAN });
    expect(statements).toHaveLength(3);
    expect(words.get('1000.0')).toBe('Purchase: 120.0000 Cumin from Asha Traders');
    expect(words.get('1001.1')).toBe('Payment from Usha (INR)');
    expect(words.get('1002.0')).toBe('Transfer to Imran');
    expect(words.get('1003.0')).toBe('Expense: Rent (deleted)');
    expect(words.get('9000.0')).toBe('Purchase return: 5.0000 Cumin');
    expect(words.get('9001.0')).toBe('Salary: Kiran, November 2026');
    // In the party's own ledger, the payment names who took it; Imran's side of the transfer.
    const usha = await describeLines(deps, lines.slice(0, 3), { id: AGENT });
    expect(usha.get('1001.1')).toBe('Payment from Usha via Kiran (INR)');
    expect((await describeLines(deps, lines.slice(0, 3), { id: IMRAN })).get('1002.0')).toBe(
      'Transfer from Kiran',
    );
  });

  it('says what an adjustment corrects, from the words its event carries, and not on its returns', async () => {
    const { deps } = fakeDb([]);
    const adjusts = { id: id(70_000), kind: 'Purchase', date: '2026-10-15' };
    const detail = { funder_id: FUNDER, product_id: CUMIN, quantity: '5', adjusts };
    const words = await describeLines(
      deps,
      [
        { key: '10.0', event_type: 'PurchaseRecorded', record_id: id(70_001), detail },
        { key: '11.0', event_type: 'PurchaseUpdated', record_id: id(70_001), detail },
        {
          key: '12.0',
          event_type: 'PurchaseReturned',
          record_id: id(70_001),
          detail: { ...detail, quantity: '1' },
        },
        {
          key: '13.0',
          event_type: 'ExpenseRecorded',
          record_id: id(70_002),
          detail: {
            category: 'Rent',
            adjusts: { id: id(70_003), kind: 'SalaryPayment', date: '2026-09-30' },
          },
        },
        // Words written before adjustments existed, or a reference that is not one: no words of it.
        {
          key: '14.0',
          event_type: 'SaleRecorded',
          record_id: id(70_004),
          detail: { agent_id: AGENT, adjusts: 'x' },
        },
      ],
      { id: FUNDER },
    );
    expect(words.get('10.0')).toBe(
      'Purchase: 5.0000 Cumin from Asha Traders. Adjusts Purchase of 15 Oct 2026',
    );
    expect(words.get('11.0')).toBe(
      'Purchase: 5.0000 Cumin from Asha Traders. Adjusts Purchase of 15 Oct 2026 (edited)',
    );
    expect(words.get('12.0')).toBe('Purchase return: 1.0000 Cumin');
    expect(words.get('13.0')).toBe('Expense: Rent. Adjusts Salary of 30 Sept 2026');
    expect(words.get('14.0')).toBe('Sale: 0.0000 unknown product to Usha');
  });

  it('prints a quantity at 4 places, exactly', () => {
    expect(quantityText('120')).toBe('120.0000');
    expect(quantityText('0.5')).toBe('0.5000');
    expect(quantityText('1.23456')).toBe('1.2346');
    expect(quantityText('-3.1')).toBe('-3.1000');
  });
});
