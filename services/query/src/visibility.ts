/**
 * What only an Admin may hear about, one rule for every read that shows the log's contents:
 * the live stream (GET /api/events) and the activity log's entries (the dashboard's Recent
 * Activity, a record's history). A role hears here only what it may read elsewhere:
 *
 * - users: only an Admin reads users (GET /api/masters/users is theirs), so their events and
 *   the activity log's User entries (email, phone, role, active flag, before and after);
 * - the first Admin, quarantined events and the WhatsApp outbox (Admin-only pages), and the
 *   process starting: events the activity log does not keep.
 */

/** Records only an Admin reads: their events (`<Model>...` on `<model>-<id>`) and activity-log entries. */
export const ADMIN_ONLY_MODELS: readonly string[] = ['User'];

/** Events of no record that only an Admin hears about. */
const ADMIN_ONLY_TYPES: ReadonlySet<string> = new Set([
  'AdminBootstrapped',
  'EventQuarantined',
  'ReportSendRecorded',
  'StandaloneStarted',
]);

/** Whether this role hears about everything (the rule's one exception). */
export const seesEverything = (role: string): boolean => role === 'Admin';

/** Whether an event is for Admins only. */
export function adminOnlyEvent(event: { type: string; streamId: string }): boolean {
  return (
    ADMIN_ONLY_TYPES.has(event.type) ||
    ADMIN_ONLY_MODELS.some(
      (model) => event.type.startsWith(model) || event.streamId.startsWith(`${model.toLowerCase()}-`),
    )
  );
}

/** The activity log's models this role may not see (none for an Admin). */
export const hiddenModels = (role: string): readonly string[] =>
  seesEverything(role) ? [] : ADMIN_ONLY_MODELS;
