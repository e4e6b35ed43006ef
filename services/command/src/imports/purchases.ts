import { randomUUID } from 'node:crypto';
import { type DomainEvent, type PurchaseInput, parseEvent } from '@bahi/contracts';
import {
  AMOUNT_SCALE,
  add,
  type Dec,
  directPurchaseDecider,
  directPurchaseStreamId,
  type InventoryState,
  inventoryDecider,
  inventoryStreamId,
  lineTotal,
  type MasterKind,
  parseDecimal,
  refuseClosedPeriod,
  requireOfCity,
  requireStorable,
  zero,
} from '@bahi/domain';
import type { RefType } from './columns.ts';

/**
 * The purchases kind of an import (issue #31): names looked up where the purchase API takes ids
 * (a funder, agent or collector within the row's city), and each valid row decided as
 * POST /api/transactions/purchases decides it - the same deciders, on the godown's inventory
 * stream as it stands plus the file's earlier rows (so stock rules see them), or on a new
 * direct-purchase stream - with the period close applied. Nothing here writes.
 */

/** A master a row may name, as the read side has it. */
export interface RefLookup {
  id: string;
  name: string;
  city_id: string | null;
}

export interface RefIndex {
  byId: Map<string, RefLookup>;
  byName: Map<string, RefLookup[]>;
}

export const nameKey = (name: string) => name.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();

export function refIndex(rows: readonly RefLookup[]): RefIndex {
  const byName = new Map<string, RefLookup[]>();
  for (const row of rows) {
    const key = nameKey(row.name);
    byName.set(key, [...(byName.get(key) ?? []), row]);
  }
  return { byId: new Map(rows.map((r) => [r.id, r])), byName };
}

export const REF_KIND: Record<RefType, Exclude<MasterKind, 'User' | 'CustomFieldDefinition' | 'City'>> = {
  funder: 'Funder',
  agent: 'Agent',
  collector: 'Collector',
  product: 'Product',
  godown: 'Godown',
};
const OF_CITY: ReadonlySet<RefType> = new Set(['funder', 'agent', 'collector']);

/**
 * A master by its id or its name; for a party, among those of the row's city (when the city was
 * read). A message naming the candidates when none or several match.
 */
export function lookUpRef(
  type: RefType,
  text: string,
  city: { id: string; name: string } | undefined,
  index: RefIndex,
  cityNames: ReadonlyMap<string, string>,
): RefLookup | string {
  const byIdHit = index.byId.get(text.toLowerCase());
  if (byIdHit) return byIdHit;
  const all = index.byName.get(nameKey(text)) ?? [];
  const inCity = OF_CITY.has(type) && city ? all.filter((r) => r.city_id === city.id) : all;
  const where = OF_CITY.has(type) && city ? ` of ${city.name}` : '';
  const label = (r: RefLookup) =>
    `${r.name}${OF_CITY.has(type) && r.city_id ? ` (${cityNames.get(r.city_id) ?? r.city_id}, id ${r.id})` : ` (id ${r.id})`}`;
  if (inCity.length === 1) return inCity[0]!;
  if (inCity.length > 1)
    return `${inCity.length} ${type}s${where} are named "${text}": ${inCity.map(label).join('; ')}. Write the id of the one you mean instead of the name.`;
  const shown = text.slice(0, 60);
  if (all.length > 0)
    return `No ${type}${where} is named "${shown}" (${all.length === 1 ? 'there is one' : `there are ${all.length}`} in another city: ${all.slice(0, 5).map(label).join('; ')}).`;
  const known = [...index.byName.values()]
    .flat()
    .filter((r) => !(OF_CITY.has(type) && city) || r.city_id === city?.id)
    .map((r) => r.name);
  return `No ${type}${where} is named "${shown}" in Bahi${known.length ? ` (${type}s${where}: ${known.slice(0, 10).join(', ')}${known.length > 10 ? ', …' : ''})` : ''}.`;
}

/** What deciding purchases needs beyond the row: the books' close, custom fields, the godowns' stock. */
export interface PurchaseFacts {
  closedUpTo: string | null;
  /** The custom field values every imported purchase carries (none given: the definitions' answer). */
  customFields: Record<string, string | boolean>;
  /** A godown's inventory stream folded as it stands (the same object on every call: rows evolve it). */
  inventory(streamId: string): Promise<{ state: InventoryState; version: bigint | 'no_stream' }>;
}

export interface DecidedPurchase {
  id: string;
  streamId: string;
  /** The version the stream's append expects (the stream as loaded, before the file's rows). */
  expected: bigint | 'no_stream';
  events: DomainEvent[];
  data: Record<string, unknown>;
  amount: Dec;
}

/**
 * One row's purchase decided as the API decides it (throws the decider's or the close's refusal).
 * On success a godown's folded state has the row's events applied, so the next row sees its stock.
 */
export async function decidePurchase(
  input: PurchaseInput,
  city: { rate: string; currency_name: string },
  parties: (field: string) => RefLookup | undefined,
  facts: PurchaseFacts,
): Promise<DecidedPurchase> {
  // The handler's look-ups (purchaseFacts): a party named by id must be of the row's city.
  requireOfCity(parties('funder_id'), input.city_id, 'Funder', 'funder_id');
  if (input.collector_id) requireOfCity(parties('collector_id'), input.city_id, 'Collector', 'collector_id');
  if (input.agent_id) requireOfCity(parties('agent_id'), input.city_id, 'Agent', 'agent_id');
  const id = randomUUID();
  // As the handler builds it: not an adjustment (adjustmentOf answers undefined, left out of the event).
  const purchase = { id, ...input, custom_fields: facts.customFields, adjusts: undefined };
  const cityFacts = { rate: city.rate, currency: city.currency_name };
  const command = { type: 'RecordPurchase' as const, purchase, city: cityFacts };
  let events: DomainEvent[];
  let streamId: string;
  let expected: bigint | 'no_stream' = 'no_stream';
  let state: InventoryState | undefined;
  if (input.type === 'Godown') {
    streamId = inventoryStreamId(input.godown_id!);
    const loaded = await facts.inventory(streamId);
    state = loaded.state;
    expected = loaded.version;
    events = inventoryDecider.decide(command, state);
  } else {
    streamId = directPurchaseStreamId(id);
    events = directPurchaseDecider.decide(command, directPurchaseDecider.initialState());
  }
  refuseClosedPeriod(events, new Map(), facts.closedUpTo);
  for (const event of events) {
    parseEvent(event.type, event.data);
    requireStorable(event);
  }
  if (state) for (const event of events) inventoryDecider.evolve(state, event);
  const amount = lineTotal(parseDecimal(input.quantity), parseDecimal(input.rate));
  return { id, streamId, expected, events, data: purchase, amount };
}

/** Rate x quantity per currency, as the preview's totals show them. */
export function addAmount(totals: Map<string, { records: number; sum: Dec }>, currency: string, amount: Dec) {
  const total = totals.get(currency) ?? { records: 0, sum: zero(AMOUNT_SCALE) };
  total.records++;
  total.sum = add(total.sum, amount);
  totals.set(currency, total);
}
