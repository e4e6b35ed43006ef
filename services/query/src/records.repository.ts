import { isUuid, type RecordHistory, type RecordType } from '@bahi/contracts';
import { HttpError } from '@bahi/server-kit';
import { sql } from 'kysely';
import type { QueryDeps } from './deps.ts';
import { activityEntry, shown, visibleTo } from './logs.repository.ts';

/**
 * A record's history for the drill-down of a report line (issue #19: SQL in repository
 * functions, not in route handlers).
 */

// The answer's types (RecordHistory, RecordChange) are its contract's, recordHistoryAnswer.
type Data = Record<string, unknown>;

/** The returns logged apart from their purchase or sale, found by the id they carry. */
const RETURNS: Partial<Record<RecordType, { model: string; key: 'purchase_id' | 'sale_id' }>> = {
  Purchase: { model: 'PurchaseReturn', key: 'purchase_id' },
  Sale: { model: 'SaleReturn', key: 'sale_id' },
};

/** Ids are looked up in batches well under Postgres's parameter limit. */
const BATCH = 1000;

interface LogRow {
  id: string;
  position: string;
  action_type: 'CREATE' | 'UPDATE' | 'DELETE';
  model_name: string;
  record_id: string;
  user_id: string | null;
  user_name: string | null;
  old_data: Data | null;
  new_data: Data | null;
  created_at: Date | string;
}

/** The record's own entries and, for a purchase or sale, its returns', oldest first: those this role may see. */
async function entriesOf(deps: QueryDeps, type: RecordType, id: string, role: string): Promise<LogRow[]> {
  const base = () =>
    deps.readDb
      .selectFrom('activity_log as l')
      .where(visibleTo(role))
      .leftJoin('users as u', 'u.id', 'l.user_id')
      .select([
        'l.id',
        'l.position',
        'l.action_type',
        'l.model_name',
        'l.record_id',
        'l.user_id',
        'u.name as user_name',
        'l.old_data',
        'l.new_data',
        'l.created_at',
      ]);
  const own = base().where('l.record_id', '=', id).where('l.model_name', '=', type).execute();
  const returns = RETURNS[type];
  // The key is a literal, so the statement matches its index's expression (migration 2026-11-25).
  const returned = returns
    ? base()
        .where('l.model_name', '=', returns.model)
        .where(sql`l.new_data->>${sql.lit(returns.key)}`, '=', id)
        .execute()
    : Promise.resolve([]);
  const rows = [...(await own), ...(await returned)];
  return rows.sort((a, b) => (BigInt(a.position) < BigInt(b.position) ? -1 : 1));
}

/** Every id-like text anywhere in these values (nested objects and lists too). */
function idsIn(values: unknown[], found = new Set<string>()): Set<string> {
  for (const value of values) {
    if (typeof value === 'string') {
      if (isUuid(value)) found.add(value.toLowerCase());
    } else if (value && typeof value === 'object') {
      idsIn(Array.isArray(value) ? value : Object.values(value), found);
    }
  }
  return found;
}

/** Names of the parties, products, cities and users among these ids: one query per kind and batch. */
async function namesOf(deps: QueryDeps, ids: Set<string>): Promise<Record<string, string>> {
  const names: Record<string, string> = {};
  const all = [...ids];
  for (let i = 0; i < all.length; i += BATCH) {
    const batch = all.slice(i, i + BATCH);
    const found = await Promise.all(
      (['parties', 'products', 'cities', 'users'] as const).map((table) =>
        deps.readDb.selectFrom(table).select(['id', 'name']).where('id', 'in', batch).execute(),
      ),
    );
    for (const row of found.flat()) names[row.id] = row.name;
  }
  return names;
}

/** Builds the answer from the record's entries (its own and its returns'), oldest first. */
async function recordHistory(deps: QueryDeps, type: RecordType, id: string, rows: LogRow[]) {
  const own = rows.filter((r) => r.model_name === type);
  const last = own.at(-1);
  if (!last) throw new HttpError(404, `${type} not found.`);
  const latest = [...own].reverse().find((r) => r.new_data !== null)?.new_data ?? last.old_data;
  const history = rows.map(activityEntry);
  const data = shown(latest);
  const ids = idsIn([data, ...history.flatMap((h) => [h.old_data, h.new_data, h.user?.id])]);
  ids.delete(id);
  const answer: RecordHistory = {
    type,
    id,
    data,
    deleted: last.action_type === 'DELETE',
    history,
    names: await namesOf(deps, ids),
  };
  return answer;
}

/** The record's latest data, whether it was deleted, its history and names for its ids; 404 if none. */
export async function readRecordHistory(deps: QueryDeps, type: RecordType, id: string, role: string) {
  const lower = id.toLowerCase();
  return recordHistory(deps, type, lower, await entriesOf(deps, type, lower, role));
}
