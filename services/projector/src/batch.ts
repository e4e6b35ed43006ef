import type { Database } from '@bahi/read-db';
import { type Insertable, sql, type Transaction } from 'kysely';

/** Postgres takes at most 65,535 parameters a statement; stay well under it. */
const MAX_PARAMETERS = 30_000;

/**
 * Inserts rows in as few statements as the parameter limit allows: a batch of events becomes
 * a handful of statements instead of one (or more) per event.
 */
export async function insertRows<T extends keyof Database & string>(
  tx: Transaction<Database>,
  table: T,
  rows: readonly Insertable<Database[T]>[],
  // biome-ignore lint/suspicious/noExplicitAny: kysely's insert builder type per table
  finish: (query: any) => any = (query) => query,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] as object).length || 1;
  const size = Math.max(1, Math.floor(MAX_PARAMETERS / columns));
  for (let i = 0; i < rows.length; i += size) {
    // biome-ignore lint/suspicious/noExplicitAny: the rows are the table's insertable rows
    await finish(tx.insertInto(table).values(rows.slice(i, i + size) as any)).execute();
  }
}

/** Splits a list for `IN (...)` lists under the parameter limit. */
export function chunks<T>(items: readonly T[], size = MAX_PARAMETERS): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * What a batch does to one table of records: rows written (recorded or edited; the last edit
 * wins, the first write's time stays) and, apart from them, quantities returned and deletes.
 * Edits never touch returned quantities nor the deleted flag, so applying the rows first and
 * the returns and deletes after gives what applying the events one by one gives.
 */
export class RecordChanges<T extends 'purchases' | 'sales' | 'cash_records'> {
  readonly #rows = new Map<string, Insertable<Database[T]>>();
  readonly #returned: Array<{ id: string; quantity: string }> = [];
  readonly #deleted = new Set<string>();

  constructor(readonly table: T) {}

  write(id: string, row: Insertable<Database[T]>): void {
    const earlier = this.#rows.get(id) as { created_at?: unknown } | undefined;
    this.#rows.set(id, earlier ? { ...row, created_at: earlier.created_at } : row);
  }

  returned(id: string, quantity: string): void {
    this.#returned.push({ id, quantity });
  }

  deleted(id: string): void {
    this.#deleted.add(id);
  }

  async apply(tx: Transaction<Database>): Promise<void> {
    const rows = [...this.#rows.values()];
    if (rows.length > 0) {
      const columns = Object.keys(rows[0] as object).filter((c) => c !== 'id' && c !== 'created_at');
      await insertRows(tx, this.table, rows, (q) =>
        q.onConflict((oc: { column(c: string): { doUpdateSet(u: unknown): unknown } }) =>
          oc.column('id').doUpdateSet(Object.fromEntries(columns.map((c) => [c, sql.ref(`excluded.${c}`)]))),
        ),
      );
    }
    if (this.#returned.length > 0) {
      for (const part of chunks(this.#returned, 10_000)) {
        const values = sql.join(part.map((r) => sql`(${r.id}::uuid, ${r.quantity}::numeric)`));
        await sql`UPDATE ${sql.table(this.table)} t SET returned_quantity = t.returned_quantity + v.quantity
          FROM (SELECT id, sum(quantity) AS quantity FROM (VALUES ${values}) AS r(id, quantity) GROUP BY id) v
          WHERE t.id = v.id`.execute(tx);
      }
    }
    for (const ids of chunks([...this.#deleted])) {
      await sql`UPDATE ${sql.table(this.table)} SET deleted = true WHERE id IN (${sql.join(ids)})`.execute(
        tx,
      );
    }
  }
}
