import type { Database } from '@bahi/read-db';
import { CompiledQuery, type Insertable, sql, type Transaction } from 'kysely';

/** Postgres takes at most 65,535 parameters a statement; stay well under it. */
const MAX_PARAMETERS = 30_000;
/** Rows per INSERT: one JSON parameter each, a few megabytes at most. */
const ROWS_PER_STATEMENT = 5_000;
/** Rows per COPY: a few megabytes of text at most. */
const ROWS_PER_COPY = 20_000;

/** A row whose key is already there: these columns take the new row's values. */
export type Conflict = { target: readonly string[]; update: readonly string[] };

const SAFE = /^[a-z_][a-z0-9_]*$/;
const columnTypes = new Map<string, Map<string, string>>();

/**
 * A table's column types (the same in the live schema and a rebuild's shadow one, which are
 * made by the same migrations), read once per process.
 */
async function typesOf(tx: Transaction<Database>, table: string): Promise<Map<string, string>> {
  let types = columnTypes.get(table);
  if (!types) {
    const { rows } = await sql<{ name: string; type: string }>`
      SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
        FROM pg_attribute a
       WHERE a.attrelid = to_regclass(${table}) AND a.attnum > 0 AND NOT a.attisdropped`.execute(tx);
    if (rows.length === 0) throw new Error(`insertRows: no table ${table}`);
    types = new Map(rows.map((r) => [r.name, r.type]));
    columnTypes.set(table, types);
  }
  return types;
}

const toJson = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const COPY_SPECIAL = /[\\\t\n\r]/;

/** A value in COPY's text format: \N for null, the separators and backslash escaped. */
export function copyValue(value: unknown): string {
  if (value === null) return '\\N';
  const text =
    typeof value === 'string'
      ? value
      : value instanceof Date
        ? value.toISOString()
        : typeof value === 'object'
          ? JSON.stringify(value, toJson)
          : String(value);
  return COPY_SPECIAL.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]!) : text;
}

/**
 * Inserts rows in a few statements, typed by the table's own columns: new rows by COPY
 * (Postgres parses each value once, ~3x less work than JSON; a row already there fails the
 * statement), rows that may be there (`conflict`) as an upsert from one JSON parameter per
 * statement (`json_to_recordset`, ON CONFLICT ... DO UPDATE). Neither kysely nor
 * Postgres handles thousands of parameters well (a multi-row VALUES with 30,000 parameters
 * cost more to build and plan than to insert). The first row's keys are the columns; every row
 * needs a value for each (a missing one would be NULL, not the column's default). JSON
 * columns take their rows' JSON text as it is.
 */
export async function insertRows<T extends keyof Database & string>(
  tx: Transaction<Database>,
  table: T,
  rows: readonly Insertable<Database[T]>[],
  conflict?: Conflict,
): Promise<void> {
  if (rows.length === 0) return;
  const types = await typesOf(tx, table);
  const columns = Object.keys(rows[0] as object);
  for (const row of rows)
    for (const c of columns)
      if ((row as Record<string, unknown>)[c] === undefined)
        throw new Error(`insertRows(${table}): every row needs a value for ${c} (null, not undefined)`);
  for (const c of columns)
    if (!types.has(c) || !SAFE.test(c)) throw new Error(`insertRows(${table}): no column ${c}`);
  if (!conflict) {
    const copy = `COPY ${table} (${columns.join(', ')}) FROM STDIN`;
    for (let i = 0; i < rows.length; i += ROWS_PER_COPY) {
      let data = '';
      for (const row of rows.slice(i, i + ROWS_PER_COPY)) {
        const values = row as Record<string, unknown>;
        data += `${columns.map((c) => copyValue(values[c])).join('\t')}\n`;
      }
      // The read database's driver sends a COPY ... FROM STDIN's one parameter as its data.
      await tx.executeQuery(CompiledQuery.raw(copy, [data]));
    }
    return;
  }
  const json = (type: string) => type === 'json' || type === 'jsonb';
  const shape = columns.map((c) => {
    const type = types.get(c)!;
    return { name: c, type, recordType: json(type) ? 'text' : type };
  });
  const list = sql.raw(shape.map((c) => c.name).join(', '));
  const select = sql.raw(
    shape.map((c) => (json(c.type) ? `x.${c.name}::${c.type}` : `x.${c.name}`)).join(', '),
  );
  const recordDef = sql.raw(shape.map((c) => `${c.name} ${c.recordType}`).join(', '));
  if (![...conflict.target, ...conflict.update].every((c) => SAFE.test(c)))
    throw new Error(`insertRows(${table}): unsafe conflict column`);
  const onConflict = sql` ON CONFLICT (${sql.raw(conflict.target.join(', '))}) DO UPDATE SET ${sql.raw(
    conflict.update.map((c) => `${c} = excluded.${c}`).join(', '),
  )}`;
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const part = JSON.stringify(rows.slice(i, i + ROWS_PER_STATEMENT), toJson);
    await sql`INSERT INTO ${sql.table(table)} (${list})
      SELECT ${select} FROM json_to_recordset(${part}::json) AS x(${recordDef})${onConflict}`.execute(tx);
  }
}

/** Splits a list for `IN (...)` lists under the parameter limit. */
export function chunks<T>(items: readonly T[], size = MAX_PARAMETERS): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Events that bring a record into being: before them it has no rows anywhere. */
const CREATIONS =
  /^((Funder|Agent|Collector)Created|(Purchase|Sale|Payment|Transfer|Expense|Income)Recorded|SalaryPaid|ClearingPaidOut)$/;

/** Whether an event of this type creates its record (so nothing of it is in a table yet). */
export const createsRecord = (eventType: string): boolean => CREATIONS.test(eventType);

/**
 * What a batch does to one table of records: rows written (recorded or edited; the last edit
 * wins, the first write's time stays) and, apart from them, quantities returned and deletes.
 * Edits never touch returned quantities nor the deleted flag, so applying the rows first and
 * the returns and deletes after gives what applying the events one by one gives.
 */
export class RecordChanges<T extends 'purchases' | 'sales' | 'cash_records'> {
  readonly #rows = new Map<string, Insertable<Database[T]>>();
  /** Records whose first write in this batch created them: not in the table yet. */
  readonly #created = new Set<string>();
  readonly #returned: Array<{ id: string; quantity: string }> = [];
  readonly #deleted = new Set<string>();

  constructor(readonly table: T) {}

  /** A record's row as an event leaves it; `created` when the event is the record's creation. */
  write(id: string, row: Insertable<Database[T]>, created: boolean): void {
    const earlier = this.#rows.get(id) as { created_at?: unknown } | undefined;
    if (!earlier && created) this.#created.add(id);
    this.#rows.set(id, earlier ? { ...row, created_at: earlier.created_at } : row);
  }

  returned(id: string, quantity: string): void {
    this.#returned.push({ id, quantity });
  }

  deleted(id: string): void {
    this.#deleted.add(id);
  }

  async apply(tx: Transaction<Database>): Promise<void> {
    // New records are plain inserts (COPY); edits of earlier ones replace their rows.
    const fresh: Insertable<Database[T]>[] = [];
    const edited: Insertable<Database[T]>[] = [];
    for (const [id, row] of this.#rows) (this.#created.has(id) ? fresh : edited).push(row);
    await insertRows(tx, this.table, fresh);
    if (edited.length > 0) {
      const columns = Object.keys(edited[0] as object).filter((c) => c !== 'id' && c !== 'created_at');
      await insertRows(tx, this.table, edited, { target: ['id'], update: columns });
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
