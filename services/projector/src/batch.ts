import type { Database } from '@bahi/read-db';
import type { Insertable, Transaction } from 'kysely';

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
