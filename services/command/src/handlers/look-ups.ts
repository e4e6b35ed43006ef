import { parseEvent } from '@bahi/contracts';
import {
  type CustomFieldEntity,
  checkCustomFields,
  invalid,
  type MasterData,
  type MasterKind,
  masterDecider,
  masterStreamId,
  notFound,
} from '@bahi/domain';
import { waitForProjections } from '@bahi/read-db';
import { definitionsCurrentAt } from '../definitions-current.ts';
import type { CommandDeps } from '../deps.ts';
import { masterLock, readHoldingShared } from '../write-scope.ts';

/**
 * The facts the command handlers gather before they decide (Emmett's command handler: typed
 * look-ups, never in a route): the masters a record names, where a record's stream is, the
 * custom field definitions that apply.
 */

/**
 * A master a record points to must exist and not be deleted. Read under a shared lock the request
 * holds until it has appended: a delete or a city change of this master waits for it (and then
 * sees its record), or went first (and then this read sees the change).
 */
export async function requireActive<K extends MasterKind>(
  deps: CommandDeps,
  kind: K,
  id: string,
  path: string,
): Promise<MasterData<K>> {
  const decider = masterDecider(kind);
  let state = decider.initialState();
  for (const e of await readHoldingShared(deps.eventStore, masterLock(id), masterStreamId(kind, id)))
    state = decider.evolve(state, parseEvent(e.type, e.data));
  if (state.status !== 'active') {
    const label = {
      City: 'City',
      Product: 'Product',
      Funder: 'Funder',
      Agent: 'Agent',
      Godown: 'Godown',
      Collector: 'Collector',
      User: 'User',
      CustomFieldDefinition: 'Custom field',
    }[kind];
    throw invalid(`${label} not found.`, [{ msg: `${label} not found`, path }]);
  }
  return state.data;
}

/** A party of a city, with the city's rate and currency as facts for the decider. */
export async function partyWithCity<K extends 'Funder' | 'Agent' | 'Collector'>(
  deps: CommandDeps,
  kind: K,
  id: string,
  path: string,
): Promise<{ party: MasterData<K>; city: { rate: string; currency: string } }> {
  const party = await requireActive(deps, kind, id, path);
  // Widened to the three kinds (K is one of them): each has its city.
  const { city_id } = party as MasterData<'Funder' | 'Agent' | 'Collector'>;
  const city = await requireActive(deps, 'City', city_id, path);
  return { party, city: { rate: city.rate, currency: city.currency_name } };
}

/** An agent's city: its id, rate and currency, the facts a sale's decision needs. */
export async function agentCity(deps: CommandDeps, agentId: string, path: string) {
  const agent = await requireActive(deps, 'Agent', agentId, path);
  const city = await requireActive(deps, 'City', agent.city_id, path);
  return { id: agent.city_id, rate: city.rate, currency: city.currency_name };
}

/** The stream that holds a purchase or a sale, once the locator has seen the whole log. */
export async function locate(deps: CommandDeps, kind: 'Purchase' | 'Sale', id: string): Promise<string> {
  const find = () =>
    deps.readDb
      .selectFrom('record_streams')
      .select('stream_id')
      .where('record_id', '=', id)
      .where('kind', '=', kind)
      .executeTakeFirst();
  let row = await find();
  if (!row) {
    await waitForProjections(deps.readDb, ['record_streams'], await deps.eventStore.headPosition());
    row = await find();
  }
  if (!row) throw notFound(`${kind} not found.`);
  return row.stream_id;
}

/** The custom field definitions that stand, as the read model has them now (a file's import checks each row against them). */
export function customFieldDefinitions(deps: CommandDeps) {
  return deps.readDb
    .selectFrom('custom_field_definitions')
    .select(['id', 'name', 'type', 'is_required', 'options', 'entity_types'])
    .where('deleted', '=', false)
    .execute();
}

/**
 * Custom field values checked against the definitions that apply, as the read model has
 * them once it has reached the position the client last wrote (so a definition the user
 * just made is always known). A field the read model still does not know is worth waiting
 * for the head of the log; waiting for the head on every write would make busy writers chase
 * a head that keeps moving.
 */
export async function customFields(
  deps: CommandDeps,
  entity: CustomFieldEntity,
  values: Record<string, unknown>,
  seen?: bigint,
) {
  const definitions = () => customFieldDefinitions(deps);
  if (seen !== undefined) await definitionsCurrentAt(deps, seen);
  const known = await definitions();
  if (Object.keys(values).every((key) => known.some((d) => d.id === key))) {
    return checkCustomFields(entity, values, known);
  }
  await waitForProjections(deps.readDb, ['custom_field_definitions'], await deps.eventStore.headPosition());
  return checkCustomFields(entity, values, await definitions());
}
