import {
  checkCustomFields,
  conflict,
  type InventoryState,
  inventoryDecider,
  masterDecider,
  masterStreamId,
  requireOfCity,
} from '@bahi/domain';
import { waitForProjections } from '@bahi/read-db';
import { closedUpTo } from '../books-close.ts';
import type { CommandDeps } from '../deps.ts';
import { buildPreview } from '../dry-run.ts';
import { loadStream } from '../execute.ts';
import { customFieldDefinitions, requireActive } from '../handlers/look-ups.ts';
import type { CheckResult, MasterLookups } from './check.ts';
import type { ImportKindSpec, RefType } from './columns.ts';
import { refIndex } from './refs.ts';
import type { BookFacts } from './transaction-row.ts';

/**
 * What checking and committing a transactions file (purchases, sales, payments, expenses,
 * incomes) reads of the books (issue #31): the masters rows may name, the close, the custom
 * fields, the godowns' inventory; the preview's effect on the accounts and stock; and, at the
 * commit, every master named read again under its lock.
 */

/** The masters a transactions file may name, once the read side has caught up with the log; each city's rate from its stream. */
export async function transactionMasters(deps: CommandDeps): Promise<MasterLookups> {
  await waitForProjections(
    deps.readDb,
    ['masters', 'custom_field_definitions'],
    await deps.eventStore.headPosition(),
  );
  const [cityRows, parties, products, fieldDefinitions] = await Promise.all([
    deps.readDb.selectFrom('cities').select(['id', 'name']).where('deleted', '=', false).execute(),
    deps.readDb
      .selectFrom('parties')
      .select(['id', 'name', 'city_id', 'kind'])
      .where('deleted', '=', false)
      .execute(),
    deps.readDb.selectFrom('products').select(['id', 'name']).where('deleted', '=', false).execute(),
    customFieldDefinitions(deps),
  ]);
  // The rate exactly as the handlers read it (the city's stream), not as a numeric column spells it.
  const cities = [];
  for (const row of cityRows) {
    const { state } = await loadStream(
      deps.eventStore,
      masterStreamId('City', row.id),
      masterDecider('City'),
    );
    if (state.status === 'active')
      cities.push({
        id: row.id,
        name: row.name,
        currency_name: state.data.currency_name,
        rate: state.data.rate,
      });
  }
  const ofKind = (kind: string) =>
    refIndex(
      parties.filter((p) => p.kind === kind).map((p) => ({ id: p.id, name: p.name, city_id: p.city_id })),
    );
  const refs: Record<RefType, ReturnType<typeof refIndex>> = {
    funder: ofKind('Funder'),
    agent: ofKind('Agent'),
    collector: ofKind('Collector'),
    godown: ofKind('Godown'),
    product: refIndex(products.map((p) => ({ id: p.id, name: p.name, city_id: null }))),
  };
  return { cities, refs, fieldDefinitions };
}

/**
 * The facts every row's decision shares: the close, the godowns' inventory as each is first
 * needed and, for purchases and sales, the check of a row's custom field values, the API's own
 * (checkCustomFields, which `customFields` of the handlers runs) against the definitions the
 * masters were read with.
 */
export async function bookFacts(
  deps: CommandDeps,
  spec: ImportKindSpec,
  masters: MasterLookups,
  closed: string | null | undefined,
): Promise<BookFacts> {
  const entity = spec.customFields;
  const definitions = masters.fieldDefinitions ?? [];
  const streams = new Map<string, Promise<{ state: InventoryState; version: bigint | 'no_stream' }>>();
  return {
    closedUpTo: closed === undefined ? await closedUpTo(deps.eventStore, undefined) : closed,
    customFields: (values) => (entity ? checkCustomFields(entity, values, definitions) : {}),
    inventory(streamId) {
      let loaded = streams.get(streamId);
      if (!loaded) {
        loaded = loadStream(deps.eventStore, streamId, inventoryDecider).then(({ state, version }) => ({
          state,
          version,
        }));
        streams.set(streamId, loaded);
      }
      return loaded;
    },
  };
}

/** A valid transactions file's effect: the accounts and stock its rows move, as the dry run of one entry shows them. */
export async function booksEffect(deps: CommandDeps, checked: CheckResult): Promise<void> {
  if (!checked.effect) return;
  const preview = await buildPreview(
    deps,
    checked.records.flatMap((r) => r.events),
  );
  checked.effect.accounts = preview.lines;
  checked.effect.stock = preview.stock;
}

const LABELS = {
  City: 'City',
  Funder: 'Funder',
  Agent: 'Agent',
  Collector: 'Collector',
  Product: 'Product',
  Godown: 'Godown',
};

/**
 * Every master the rows name read again from its stream under a shared lock held until the
 * request ends (requireActive): still there, a party still of the row's city, a city still at
 * the rate the rows were decided at. A delete or a move waits for the commit, or went first and
 * refuses it.
 */
export async function requireRefs(deps: CommandDeps, checked: CheckResult): Promise<void> {
  for (const [id, ref] of checked.refs) {
    const data = (await requireActive(deps, ref.kind, id, ref.field)) as {
      city_id?: string | null;
      name?: string;
      rate?: string;
      currency_name?: string;
    };
    if (ref.cityId) requireOfCity(data, ref.cityId, LABELS[ref.kind], ref.field);
    if (ref.rate !== undefined && (data.rate !== ref.rate || data.currency_name !== ref.currency))
      throw conflict(
        `The rate or currency of ${data.name ?? 'a city'} changed while the file was being committed. Nothing was imported: commit it again.`,
      );
  }
}
