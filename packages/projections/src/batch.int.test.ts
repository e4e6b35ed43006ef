import { openReadDb, type ReadDb } from '@bahi/read-db';
import { createPgliteSqlClient, createPgSqlClient, type SqlClient } from '@bahi/sql-client';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { withTestDatabase } from '../../../test/postgres.ts';
import { copyValue, insertRows } from './batch.ts';

const targets: Array<[string, () => Promise<{ sql: SqlClient; readDb: ReadDb; dispose(): Promise<void> }>]> =
  [
    [
      'pglite',
      async () => {
        const client = createPgliteSqlClient(new PGlite());
        const readDb = await openReadDb(client);
        return { sql: client, readDb, dispose: () => client.close() };
      },
    ],
  ];
if (process.env.DATABASE_URL) {
  targets.push([
    'postgres',
    async () => {
      const db = await withTestDatabase('batch');
      const client = createPgSqlClient({ connectionString: db.url });
      const readDb = await openReadDb(client);
      return {
        sql: client,
        readDb,
        async dispose() {
          await readDb.destroy();
          await client.close();
          await db.drop();
        },
      };
    },
  ]);
}

/** Text that COPY's format and JSON both have to carry through unchanged. */
const AWKWARD = 'tab\there, line\nbreak, cr\r, back\\slash, \\N, quote " \', नमस्ते, مرحبا';

describe('copyValue', () => {
  it('writes COPY text: \\N for null, separators and backslashes escaped, JSON for objects', () => {
    expect(copyValue(null)).toBe('\\N');
    expect(copyValue('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(copyValue('\\N')).toBe('\\\\N'); // the text, not a null
    expect(copyValue(12n)).toBe('12');
    expect(copyValue(true)).toBe('true');
    expect(copyValue({ note: 'x\ty', n: 1n })).toBe('{"note":"x\\\\ty","n":"1"}');
  });
});

describe.each(targets)('insertRows on %s', (_name, open) => {
  it('loads plain rows by COPY and conflicting ones by JSON, with every value intact', async () => {
    const env = await open();
    try {
      await env.readDb.transaction().execute(async (tx) => {
        await insertRows(tx, 'journal', [
          {
            position: 7n,
            line: 0,
            event_type: AWKWARD,
            record_id: '5f0e2b9c-6a8e-4f0b-9a53-2f0c8d4b1a11',
            business_date: '2026-11-01',
            recorded_at: '2026-11-01T10:00:00.123Z',
            account: 'funder:1',
            currency: 'PKR',
            amount: '-1234567.89',
            inr: '-370370.37',
            quantity: null,
          },
          {
            position: 7n,
            line: 1,
            event_type: 'PurchaseRecorded',
            record_id: '5f0e2b9c-6a8e-4f0b-9a53-2f0c8d4b1a11',
            business_date: '2026-11-01',
            recorded_at: '2026-11-01T10:00:00.123Z',
            account: 'stock:1',
            currency: 'PKR',
            amount: '1234567.89',
            inr: '370370.37',
            quantity: '10.5000',
          },
        ]);
        const cash = (note: string) => ({
          id: '5f0e2b9c-6a8e-4f0b-9a53-2f0c8d4b1a11',
          kind: 'Expense' as const,
          business_date: '2026-11-01',
          city_id: null,
          amount: '10.00',
          nominal_inr: '10.00',
          record: JSON.stringify({ note }),
          created_at: '2026-11-01T10:00:00.123Z',
        });
        await insertRows(tx, 'cash_records', [cash('first')]);
        await insertRows(tx, 'cash_records', [cash(AWKWARD)], { target: ['id'], update: ['record'] });
      });
      const { rows } = await sql<{
        line: number;
        event_type: string;
        amount: string;
        quantity: string | null;
        recorded_at: string;
      }>`SELECT line, event_type, amount::text, quantity::text,
                to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') AS recorded_at
           FROM journal ORDER BY line`.execute(env.readDb);
      expect(rows).toEqual([
        {
          line: 0,
          event_type: AWKWARD,
          amount: '-1234567.89',
          quantity: null,
          recorded_at: '2026-11-01 10:00:00.123',
        },
        {
          line: 1,
          event_type: 'PurchaseRecorded',
          amount: '1234567.89',
          quantity: '10.5000',
          recorded_at: '2026-11-01 10:00:00.123',
        },
      ]);
      const cash = await env.readDb.selectFrom('cash_records').select('record').executeTakeFirstOrThrow();
      expect(cash.record).toEqual({ note: AWKWARD });
      // A COPY that breaks a constraint fails the statement (and its transaction), as an INSERT would.
      await expect(
        env.readDb.transaction().execute(async (tx) => {
          const [row] = await tx.selectFrom('journal').selectAll().where('line', '=', 0).execute();
          await insertRows(tx, 'journal', [{ ...row!, position: 7n, words: null }]);
        }),
      ).rejects.toThrow(/duplicate key/);
      expect(
        Number(
          (
            await env.readDb
              .selectFrom('journal')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      ).toBe(2);
    } finally {
      await env.dispose();
    }
  });
});
