import {
  CITY_CURRENCY_ACCOUNTS,
  DomainError,
  type MasterData,
  type MasterKind,
  masterDecider,
  masterStreamId,
  type Reference,
} from '@bahi/domain';
import { waitForProjections } from '@bahi/read-db';
import type { CommandDeps } from '../deps.ts';
import { execute, loadStream } from '../execute.ts';
import { holdExclusive, masterLock, newRecordId } from '../write-scope.ts';
import type { HandlerContext } from './context.ts';
import { requireActive } from './look-ups.ts';

/**
 * The masters (spec section 7): cities, products, funders, agents, godowns, collectors and
 * custom-field definitions share one decider; users have their own handlers (users.ts).
 */
export type MasterListKind = Exclude<MasterKind, 'User'>;

/** What refers to a master, from the master_references read model once it has caught up. */
export async function referencesTo(deps: CommandDeps, id: string): Promise<Reference[]> {
  await waitForProjections(deps.readDb, ['master_references'], await deps.eventStore.headPosition());
  const rows = await deps.readDb
    .selectFrom('master_references')
    .select(['source_kind'])
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('target_id', '=', id)
    .groupBy('source_kind')
    .execute();
  return rows.map((r) => ({ kind: r.source_kind, count: Number(r.count) }));
}

/**
 * A funder's, agent's or collector's account is kept in its city's currency (ACCOUNTING.md
 * section 2): once it has postings, moving it to another city would mix two currencies in one
 * ledger. Refused with a 409. Decided under the party's exclusive lock: every request that read
 * the party (requireActive) has appended by then, so the journal, once it has caught up with the
 * head of the log, holds its postings; and none can read the party again until the change is in.
 */
async function refuseCityChangeWithPostings(
  deps: CommandDeps,
  kind: MasterKind,
  id: string,
  fields: Record<string, unknown>,
): Promise<void> {
  const ledger = (CITY_CURRENCY_ACCOUNTS as Partial<Record<MasterKind, (id: string) => string>>)[kind];
  if (!ledger || typeof fields.city_id !== 'string') return;
  await holdExclusive(masterLock(id));
  const { state } = await loadStream(deps.eventStore, masterStreamId(kind, id), masterDecider(kind));
  if (state.status !== 'active') return; // the decider answers 404
  const current = state.data as { city_id?: string; name: string };
  if (current.city_id === fields.city_id) return;
  await waitForProjections(deps.readDb, ['journal'], await deps.eventStore.headPosition());
  const posted = await deps.readDb
    .selectFrom('account_totals')
    .select('account')
    .where('account', '=', ledger(id))
    .limit(1)
    .executeTakeFirst();
  if (posted)
    throw new DomainError(
      'conflict',
      `The city of ${current.name} cannot be changed: ${current.name} already has entries in its ledger, kept in that city's currency. Create a new ${kind.toLowerCase()} in the other city instead.`,
      [{ msg: `The city of ${current.name} cannot be changed once it has ledger entries`, path: 'city_id' }],
    );
}

async function checkReferencedMasters(deps: CommandDeps, data: Record<string, unknown>): Promise<void> {
  if (typeof data.city_id === 'string') await requireActive(deps, 'City', data.city_id, 'city_id');
}

export async function createMaster(
  ctx: HandlerContext,
  kind: MasterListKind,
  fields: Record<string, unknown>,
) {
  const id = newRecordId();
  await checkReferencedMasters(ctx.deps, fields);
  const data = { id, ...fields } as MasterData<typeof kind>;
  const { position } = await execute(
    ctx.deps.eventStore,
    ctx.meta,
    masterStreamId(kind, id),
    masterDecider(kind),
    {
      type: 'Create',
      data,
    },
  );
  return { id, position };
}

export async function updateMaster(
  ctx: HandlerContext,
  kind: MasterListKind,
  id: string,
  fields: Record<string, unknown>,
) {
  await checkReferencedMasters(ctx.deps, fields);
  await refuseCityChangeWithPostings(ctx.deps, kind, id, fields);
  const data = { id, ...fields } as MasterData<typeof kind>;
  const { position } = await execute(
    ctx.deps.eventStore,
    ctx.meta,
    masterStreamId(kind, id),
    masterDecider(kind),
    {
      type: 'Update',
      data,
    },
  );
  return { id, position };
}

export async function deleteMaster(ctx: HandlerContext, kind: MasterListKind, id: string) {
  // Exclusive: no request that read this master is between its read and its append, so
  // the references (read once they have caught up with the log) include every one of them.
  await holdExclusive(masterLock(id));
  const references = await referencesTo(ctx.deps, id);
  const { position } = await execute(
    ctx.deps.eventStore,
    ctx.meta,
    masterStreamId(kind, id),
    masterDecider(kind),
    {
      type: 'Delete',
      id,
      references,
    },
  );
  return { id, position };
}
