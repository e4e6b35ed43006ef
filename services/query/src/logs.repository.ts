import type { ActivityRow, LogsQuery, RecordChange } from '@bahi/contracts';
import { sql } from 'kysely';
import type { QueryDeps } from './deps.ts';
import { hiddenModels } from './visibility.ts';

/** The activity log's reads (issue #19: SQL in repository functions, not in route handlers). */

/** Shown data leaves out timestamps and anything password-like (spec section 2, Activity Log). */
const HIDDEN = new Set(['created_at', 'updated_at', 'createdAt', 'updatedAt', 'password', 'password_hash']);
export const shown = (data: Record<string, unknown> | null): Record<string, unknown> | null =>
  data ? Object.fromEntries(Object.entries(data).filter(([key]) => !HIDDEN.has(key))) : null;

/** Entries of models this role may not read elsewhere (users, for all but Admins) are left out. */
export const visibleTo = (role: string) => {
  const hidden = hiddenModels(role);
  return hidden.length ? sql<boolean>`l.model_name not in (${sql.join(hidden)})` : sql<boolean>`true`;
};

const entries = (deps: QueryDeps, filters: LogsQuery, role: string) => {
  let q = deps.readDb.selectFrom('activity_log as l').where(visibleTo(role));
  if (filters.userId) q = q.where('l.user_id', '=', filters.userId);
  if (filters.modelName) q = q.where('l.model_name', '=', filters.modelName);
  if (filters.actionType) q = q.where('l.action_type', '=', filters.actionType);
  if (filters.startDate) q = q.where(sql`l.created_at::date`, '>=', filters.startDate);
  if (filters.endDate) q = q.where(sql`l.created_at::date`, '<=', filters.endDate);
  return q;
};

/** The entries that match the filters and this role may see, newest first, each with its user's name. */
export async function readActivity(deps: QueryDeps, filters: LogsQuery, role: string) {
  let q = entries(deps, filters, role)
    .leftJoin('users as u', 'u.id', 'l.user_id')
    .select([
      'l.id',
      'l.action_type',
      'l.model_name',
      'l.record_id',
      'l.user_id',
      'l.old_data',
      'l.new_data',
      'l.created_at',
      'u.name as user_name',
    ])
    .orderBy('l.created_at', 'desc')
    .orderBy('l.position', 'desc');
  if (filters.limit !== -1) q = q.limit(filters.limit).offset((filters.page - 1) * filters.limit);
  return (await q.execute()).map((r): ActivityRow => ({ ...activityEntry(r), record_id: r.record_id }));
}

/** An activity log row as the API shows it: its user by name, its data without hidden fields. */
export const activityEntry = (r: {
  id: string;
  action_type: ActivityRow['action_type'];
  model_name: string;
  user_id: string | null;
  user_name: string | null;
  old_data: Record<string, unknown> | null;
  new_data: Record<string, unknown> | null;
  created_at: Date | string;
}): RecordChange => ({
  id: r.id,
  action_type: r.action_type,
  model_name: r.model_name,
  user: r.user_id && r.user_name ? { id: r.user_id, name: r.user_name } : null,
  old_data: shown(r.old_data),
  new_data: shown(r.new_data),
  created_at: new Date(r.created_at).toISOString(),
});

/** A page of the activity log and how many entries match in all. */
export async function readActivityPage(deps: QueryDeps, filters: LogsQuery, role: string) {
  const total = Number(
    (
      await entries(deps, filters, role)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  return { data: await readActivity(deps, filters, role), totalItems: total };
}
