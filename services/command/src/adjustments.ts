import { ADJUSTABLE_KINDS, type AdjustableKind, type AdjustmentRef } from '@bahi/contracts';
import { invalid } from '@bahi/domain';
import { waitForProjections } from '@bahi/read-db';
import { sql } from 'kysely';
import type { CommandDeps } from './deps.ts';

/** The read models an adjustment's reference is looked up in. */
const RECORD_MODELS = ['purchases_and_sales', 'cash_records', 'activity_log'] as const;

const refuse = (message: string) => invalid(message, [{ msg: message, path: 'adjusts' }]);

/**
 * The record a new entry adjusts (issue #30), as the event will carry it: its id, kind and
 * business date now, so that the ledger's words ("Adjusts Purchase of 15 Oct 2026") come from
 * the event alone and a rebuild says the same. `adjusts` absent or null: not an adjustment, and
 * undefined (the event carries no field, as before adjustments existed).
 *
 * The reference must name a purchase, sale, payment, transfer, salary payment, clearing payout,
 * expense or income that stands (not deleted), and not the entry itself; anything else is a 400
 * on `adjusts` and nothing is written. The referenced record may well be in the closed period:
 * that is what an adjustment is for (the close guard in execute.ts still refuses the adjustment
 * itself if it is dated there). The read models are brought to the head of the log first: an
 * adjustment is rare, and its reference must be judged as the log stands, not as a lagging
 * model does (a record deleted a moment ago is deleted).
 */
export async function adjustmentOf(
  deps: CommandDeps,
  adjusts: string | null | undefined,
  self?: string,
): Promise<AdjustmentRef | undefined> {
  if (!adjusts) return undefined;
  if (adjusts === self) throw refuse('An entry cannot adjust itself.');
  await waitForProjections(deps.readDb, RECORD_MODELS, await deps.eventStore.headPosition());
  const db = deps.readDb;
  const found = await db
    .selectFrom('purchases')
    .select([sql<string>`'Purchase'`.as('kind'), sql<string>`purchase_date::text`.as('date'), 'deleted'])
    .where('id', '=', adjusts)
    .unionAll(
      db
        .selectFrom('sales')
        .select([sql<string>`'Sale'`.as('kind'), sql<string>`sale_date::text`.as('date'), 'deleted'])
        .where('id', '=', adjusts),
    )
    .unionAll(
      db
        .selectFrom('cash_records')
        .select([sql<string>`kind`.as('kind'), sql<string>`business_date::text`.as('date'), 'deleted'])
        .where('id', '=', adjusts),
    )
    .executeTakeFirst();
  if (!found) {
    // Something the log knows (a master, a user, a return) that is no record one adjusts.
    const known = await db
      .selectFrom('activity_log')
      .select('id')
      .where('record_id', '=', adjusts)
      .executeTakeFirst();
    throw refuse(
      known ? `Only a ${kindList()} can be adjusted.` : 'Choose the record this entry adjusts that exists.',
    );
  }
  const kind = found.kind as AdjustableKind;
  const word = ADJUSTABLE_KINDS[kind] ?? found.kind;
  if (found.deleted) throw refuse(`That ${word.toLowerCase()} was deleted: there is nothing to adjust.`);
  return { id: adjusts, kind, date: found.date.slice(0, 10) };
}

const kindList = () => {
  const words = Object.values(ADJUSTABLE_KINDS).map((w) => w.toLowerCase());
  return `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
};
